"""Rule unknown_graph_figure1: Figure 1's panels and the run's trace table."""

from pathlib import Path

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.unknown_graph import figures, tables

out = snakemake.output
with logged(snakemake.log[0]):
    trace = store.read_json(snakemake.input.trace)
    figures.figure1(trace, out.figure1_pdf, out.figure1_png)
    frame = tables.figure1_trace(trace)
    store.write_atomic(out.figure1_trace_csv, lambda p: frame.to_csv(p, index=False))
    store.write_atomic(
        out.figure1_trace_md, lambda p: Path(p).write_text(tables.markdown(frame, tables.figure1_title(trace)))
    )
