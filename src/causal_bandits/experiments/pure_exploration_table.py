"""Rule pure_exploration_table: an own graph's Table 2 (:func:`causal_bandits.experiments.cpe.table`; CSV, Markdown)
from its runs' per-seed summaries, and its summary for the report (:mod:`.pure_exploration_summary`). Apart from
``cpe``, which the run jobs execute, so that this step's code is not theirs."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from causal_bandits import store
from causal_bandits.experiments import cpe, pure_exploration_summary
from causal_bandits.papers.cpe.aggregate import read_summaries
from causal_bandits.papers.cpe.instance import CPEInstance

if TYPE_CHECKING:
    from causal_bandits.stages import Job


def table_step(job: Job) -> None:
    """The table of the graph's runs (every input but ``instance``), with a line for each algorithm not run, and
    the summary the report reads."""
    p, out = job.params, job.output
    inst = CPEInstance.from_document(store.read_json(job.input.instance))
    runs = [store.summary_path(f) for k, files in job.input.items() if k != "instance" for f in files]
    frame = cpe.table(read_summaries(runs), inst, p.experiment["delta"], p.experiment["epsilon"])
    store.write_atomic(out.csv, partial(frame.to_csv, index=False))
    notes = "".join(f"\n{algorithm}: not run: {reason}\n" for algorithm, reason in p.skipped.items())
    body = frame.to_markdown(index=False, floatfmt=".4g")
    store.write_atomic(out.md, partial(Path.write_text, data=f"# {p.title}\n\n{body}\n{notes}"))
    name = job.wildcards.experiment
    best = cpe.best_arm(inst)
    summary = pure_exploration_summary.document(name, p.title, frame, best, p.skipped, p.experiment, out.md)
    store.write_json(out.summary, summary)
