"""Rule bounds_run: one seed chunk of one algorithm in one setting, to the run store."""

import numpy as np
import pyarrow.parquet as pq

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.bounds import runs as bounds_runs

p, inp, wc = snakemake.params, snakemake.input, snakemake.wildcards
with logged(snakemake.log[0]):
    exact = store.read_json(inp.exact)
    summary = store.read_json(inp.summary)
    contexts = None
    if "full" in inp.keys():  # context_source: offline_rows (docs/papers/bounds.md#bounds-a-context-source)
        full = pq.read_table(inp.full, columns=exact["context"])
        contexts = bounds_runs.context_index(
            np.column_stack([full[c].to_numpy() for c in exact["context"]])[: p.horizon]
        )
    science = {
        "horizon": p.horizon,
        "online": p.online,
        "appendix": p.appendix,
        "alpha": p.alpha,
        "record_points": p.record_points,
    }
    bounds_runs.run_chunk(
        wc.algorithm,
        experiment=wc.experiment,
        strategy=wc.strategy,
        trace_path=snakemake.output.trace,
        summary_path=snakemake.output.summary,
        metadata={**store.provenance(science), "alpha": str(p.alpha)},
        exact=exact,
        estimates=pq.read_table(inp.estimates),
        noncontextual={"means": exact["interventional_means"], **summary["noncontextual_bounds"]},
        online=p.online,
        appendix=p.appendix,
        alpha=p.alpha,
        seeds=range(*p.seeds),
        horizon=p.horizon,
        record_points=p.record_points,
        contexts=contexts,
    )
