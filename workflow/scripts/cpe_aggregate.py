"""Rule cpe_aggregate: per-seed summaries of one experiment -> stopping table and error-vs-budget table."""

import pyarrow as pa

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.cpe.aggregate import budget_table, read_summaries, stopping_table
from causal_bandits.papers.cpe.design import run_key

inp, p, exp = snakemake.input, snakemake.params, snakemake.wildcards.exp
with logged(snakemake.log[0]) as log:
    instances = {}
    for doc_path, q_path in zip(inp.instances, inp.quantities):
        config = doc_path.rsplit("/", 1)[1].removesuffix(".json")
        doc, q = store.read_json(doc_path), store.read_json(q_path)
        instances[run_key(exp, config)] = {
            "config": config,
            "mu": doc["mu"],
            "params": doc["params"],
            "epsilon": p.spec["configs"][config].get("epsilon", 0.0),
            "summary": q["summary"],
        }
    frame = read_summaries(inp.runs)
    stopping = stopping_table(frame, instances, p.delta)
    budget = budget_table(frame, instances, p.delta)
    store.write_table(
        snakemake.output.stopping, pa.Table.from_pandas(stopping, preserve_index=False), {"experiment": exp}
    )
    store.write_table(snakemake.output.budget, pa.Table.from_pandas(budget, preserve_index=False), {"experiment": exp})
    log.info("%s: %d settings, %d seeds, %d censored", exp, len(stopping), len(frame), int(frame["censored"].sum()))
