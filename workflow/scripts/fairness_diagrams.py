"""Rule fairness_diagrams: Figure 1 (schematic) and Figure 2(a) (Email graph)."""

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.fairness import figures as ff

out = snakemake.output
with logged(snakemake.log[0]):
    ff.figure1(out.figure1_pdf, out.figure1_png)
    ff.figure2a(store.read_json(snakemake.input.instance), out.figure2a_pdf, out.figure2a_png)
