"""The aggregated cpe results: written by the aggregate rule (:func:`aggregate_step`), loaded from their files for
the tables, figures and claims rules (:func:`load`), and the tables rule (:func:`tables_step`). Apart from
``aggregate`` and ``tables``, which pure-exploration run jobs execute, so that these steps' code is not theirs."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyarrow as pa

from causal_bandits import store
from causal_bandits.papers.cpe.aggregate import budget_table, read_summaries, stopping_table
from causal_bandits.papers.cpe.design import run_key
from causal_bandits.papers.cpe.tables import (
    instances_table,
    lower_bound_table,
    markdown,
    pac_table,
    printed,
    slopes_table,
)

if TYPE_CHECKING:
    from causal_bandits.stages import Job

log = logging.getLogger(__name__)


def load(stopping: Iterable[str], budget: Iterable[str], quantities: Iterable[str], theory: str) -> dict[str, Any]:
    """``stopping``/``budget``: per-experiment aggregates (``<exp>.parquet``, ``<exp>.budget.parquet``);
    ``quantities``: per-instance complexity JSON (``<exp>/<config>.json``); ``theory``: the E4b curves."""
    return {
        "stopping": {Path(x).name.removesuffix(".parquet"): store.read_table(x).to_pandas() for x in stopping},
        "budgets": {Path(x).name.removesuffix(".budget.parquet"): store.read_table(x).to_pandas() for x in budget},
        "quantities": {
            (Path(x).parent.name, Path(x).name.removesuffix(".json")): store.read_json(x) for x in quantities
        },
        "theory": store.read_json(theory),
    }


def aggregate_step(job: Job) -> None:
    """Rule cpe_aggregate: the per-seed summaries of one experiment to its stopping table (:func:`stopping_table`)
    and error-against-budget table (:func:`budget_table`)."""
    inp, p, exp = job.input, job.params, job.wildcards.exp
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
    store.write_table(job.output.stopping, pa.Table.from_pandas(stopping, preserve_index=False), {"experiment": exp})
    store.write_table(job.output.budget, pa.Table.from_pandas(budget, preserve_index=False), {"experiment": exp})
    log.info("%s: %d settings, %d seeds, %d censored", exp, len(stopping), len(frame), int(frame["censored"].sum()))


def tables_step(job: Job) -> None:
    """Rule cpe_tables: Tables 1-4 [designed] as CSV (full precision) and Markdown."""
    inp, out = job.input, job.output
    found = load(inp.stopping, inp.budget, inp.quantities, inp.theory)
    stopping, quantities = found["stopping"], found["quantities"]
    made = {
        "instances": instances_table(quantities, found["theory"]),
        "pac": printed(pac_table(stopping)),
        "lower_bound": printed(lower_bound_table(stopping, quantities)),
        "slopes": printed(slopes_table(stopping)),
    }
    for i, (name, table) in enumerate(made.items(), start=1):
        csv, md = out[f"table{i}_{name}_csv"], out[f"table{i}_{name}_md"]
        store.write_atomic(csv, partial(table.to_csv, index=False))
        store.write_atomic(md, partial(Path.write_text, data=markdown(table, name)))
        log.info("table %d (%s): %d rows", i, name, len(table))
