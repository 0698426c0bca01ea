"""Rule bounds_run: one seed chunk of one algorithm in one setting, to the run store."""

import numpy as np

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.bounds import runs as bounds_runs

p, inp, wc = snakemake.params, snakemake.input, snakemake.wildcards
run = p.run  # what the results depend on: the provenance hash's input
with logged(snakemake.log[0]):
    exact = store.read_json(inp.exact)
    summary = store.read_json(inp.summary)
    contexts = None
    if "full" in inp.keys():  # context_source: offline_rows (docs/papers/bounds.md#bounds-a-context-source)
        full = store.read_table(inp.full, columns=exact["context"])
        contexts = bounds_runs.context_index(
            np.column_stack([full[c].to_numpy() for c in exact["context"]])[: run["horizon"]]
        )
    bounds_runs.run_chunk(
        wc.algorithm,
        experiment=wc.experiment,
        strategy=wc.strategy,
        trace_path=snakemake.output.trace,
        summary_path=snakemake.output.summary,
        metadata={**store.provenance(run), "alpha": str(run["alpha"])},
        exact=exact,
        estimates=store.read_table(inp.estimates),
        noncontextual={"means": exact["interventional_means"], **summary["noncontextual_bounds"]},
        online=run["online"],
        appendix=run["appendix"],
        alpha=run["alpha"],
        seeds=range(*p.seeds),
        horizon=run["horizon"],
        record_points=run["record_points"],
        contexts=contexts,
    )
