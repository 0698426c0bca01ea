"""Rule report: figures/REPORT.md and REPORT.html from every paper's evaluated claims."""
from causal_bandits import report, store
from causal_bandits.logs import logged

with logged(snakemake.log[0]):
    papers = [store.read_json(p) for p in snakemake.input.claims]
    md, html = report.render(papers)
    store.write_atomic(snakemake.output.md, lambda tmp: tmp.write_text(md))
    store.write_atomic(snakemake.output.html, lambda tmp: tmp.write_text(html))
