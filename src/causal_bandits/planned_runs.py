"""The planned seeds run, and each claim judged on them alone (the plan: :mod:`causal_bandits.seed_plans`).

A run whose config sets ``planned_runs: true`` (config/config.yaml) runs, after its own jobs, the planned seeds of
every claim the plan runs (``decide``: within the budgets) that the config covers (:func:`planned`). Its runs are the
paper's own run jobs (:func:`jobs`: its run module's ``describe`` under the config, the seeds replaced by the planned
ones, :data:`~causal_bandits.seed_plans.FIRST_PLANNED_SEED` onwards, in the paper's chunk size): in the workflow
(workflow/rules/planned.smk) one ``planned_run`` job per chunk (:func:`planned_jobs`) through the run script every
paper's run rule uses, into ``results/planned/<paper>/<claim>/``, never into a paper-scale run's file; then one
``planned_claim`` job per claim (:func:`write_claim`). The seeds are the only change, so the streams are fresh and
everything else is the paper's run.

Each claim is judged on its planned seeds alone (:func:`run_and_judge`):

* a ``band`` claim (a Table cell's mean regret at T) by the 95 % t-interval of its planned seeds' regrets against
  the band the plan records (:func:`judge`, :func:`causal_bandits.claims.in_band`);
* every other claim by its paper's own claim (:func:`judge_claim`) on results made of its planned runs alone: cpe's
  stopping tables (:func:`cpe_results`: the PAC rates, E3's order, E4, E5), unknown_graph's V4 clique table
  (:func:`clique_results`: Theorem 3's cliques) or its V6 discovery rows (:func:`discovery`: Lemma 1).

:func:`summary` gathers the judgements with the main run's verdict of every planned claim, and the cost or reason
of each claim the plan does not run, into ``results/planned/claims.json``; :func:`table` writes them as
``figures/planned/table.md``, and the report shows them (:mod:`causal_bandits.report.planned`).

``python -m causal_bandits.planned_runs RESULTS CONFIG [OVERLAY ...]`` does the same outside the workflow, from a
finished run's files under RESULTS.
"""

from __future__ import annotations

import dataclasses
import importlib
import logging
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from causal_bandits import papers, runs, seed_plans, store
from causal_bandits.claims import in_band, interval_text, mean_interval
from causal_bandits.errors import DataError
from causal_bandits.stages import Job

LOG = logging.getLogger(__name__)

#: The plan kinds whose seeds this module runs and judges.
RUNNABLE = ("band", "rate", "parts")
OUT = Path("results/planned")
FIGURES = Path("figures/planned")


def _runnable(key: str) -> Mapping[str, Any]:
    """The plan entry of a claim this module runs; else a one-line error naming why not."""
    entry = seed_plans.recorded()["claims"].get(key)
    if entry is None:
        raise ValueError(f"{key} has no seed plan; planned claims: {', '.join(seed_plans.TARGETS)}")
    if entry["kind"] not in RUNNABLE or not entry["decide"]:
        why = entry.get("why") or entry.get("cost") or f"planned runs of kind {entry['kind']} are not run here"
        raise ValueError(f"{key}: no planned seeds are run for it ({why})")
    return entry


def _matches(target: seed_plans.Target, wildcards: Mapping[str, str]) -> bool:
    return all(re.fullmatch(p, wildcards.get(k, "")) for k, p in target.wildcards.items())


def covered(config: Mapping[str, Any], key: str) -> bool:
    """Whether ``config`` runs what claim ``key``'s planned runs repeat (its paper's section, a matching run job or,
    for Lemma 1, a matching discovery setting)."""
    paper, target = key.split("/")[0], seed_plans.TARGETS[key]
    if paper not in config:
        return False
    if target.rule == "unknown_graph_discovery":
        from causal_bandits.papers.unknown_graph.cells import discovery_setting_name, discovery_settings

        names = [discovery_setting_name(*pair) for pair in discovery_settings(config[paper]["discovery"])]
        return any(re.fullmatch(target.wildcards["setting"], name) for name in names)
    module = importlib.import_module(papers.paper(paper).runs)
    return any(_matches(target, w) for w in module.run_jobs(config))


def planned(config: Mapping[str, Any]) -> list[str]:
    """The claims a run with ``config`` runs planned seeds for: none unless it sets ``planned_runs: true``; then every
    claim the plan runs that the config covers, by key."""
    if not config.get("planned_runs"):
        return []
    for line in seed_plans.problems():
        raise DataError(line)
    plan = seed_plans.recorded()["claims"]
    return [k for k, e in plan.items() if e["kind"] in RUNNABLE and e["decide"] and covered(config, k)]


def papers_of(keys: Sequence[str]) -> list[str]:
    """The papers of claim ``keys`` (``<paper>/<id>``), sorted, each once."""
    return sorted({key.split("/")[0] for key in keys})


def jobs(config: Mapping[str, Any], key: str) -> list[tuple[dict[str, str], runs.RunJob]]:
    """The planned run jobs of claim ``key`` (``<paper>/<id>``) under ``config``, with their wildcards (``chunk``:
    the planned chunk)."""
    entry, target = _runnable(key), seed_plans.TARGETS[key]
    paper = key.split("/")[0]
    module = importlib.import_module(papers.paper(paper).runs)
    own = [w for w in module.run_jobs(config) if w.get("chunk") == "0" and _matches(target, w)]
    if not own:
        raise ValueError(f"{key}: the config runs no job matching {dict(target.wildcards)}; add its section")
    first, last = entry["seeds"]
    out = []
    for wildcards in own:
        base = module.describe(config, wildcards)
        size = len(base.seeds)
        for k, start in enumerate(range(first, last + 1, size)):
            seeds = range(start, min(start + size, last + 1))
            out.append(({**wildcards, "chunk": str(k)}, dataclasses.replace(base, seeds=seeds)))
    return out


def _instance(key: str, wildcards: Mapping[str, str]) -> str | None:
    """The instance file (under a run's results folder) a planned job of ``key`` reads, or None (each seed its own)."""
    paper, target = key.split("/")[0], seed_plans.TARGETS[key]
    if not target.instance:
        return None
    experiment = wildcards["experiment"]
    exp, _, part = experiment.partition("-")
    return target.instance.format(paper=paper, experiment=experiment, exp=exp, config=part)


def inputs(config: Mapping[str, Any], key: str) -> list[str]:
    """The files of the run (relative to its working directory) that claim ``key``'s planned runs and judgement
    read: its instance files, and for cpe the quantities of each instance and the E4 theory document."""
    if seed_plans.TARGETS[key].rule == "unknown_graph_discovery":
        return []
    found = {_instance(key, w) for w, _ in jobs(config, key)} - {None}
    if key.startswith("cpe/"):
        found |= {str(p).replace("/instances/", "/quantities/") for p in found if p}
        found.add("cpe/theory_e4b.json")
    return sorted(f"results/{p}" for p in found if p)


def trace_path(key: str, wildcards: Mapping[str, str], out: Path = OUT) -> Path:
    """Where a planned chunk's trace goes: under ``out``, never beside the paper-scale runs."""
    paper, claim = key.split("/")
    parts = [wildcards[k] for k in ("experiment", "strategy", "algorithm")]
    return out.joinpath(paper, claim, *parts, f"chunk-{wildcards['chunk']}.parquet")


def planned_jobs(config: Mapping[str, Any], out: Path = OUT) -> dict[str, tuple[str, runs.RunJob, str | None]]:
    """Every planned run job of a run with ``config`` (:func:`planned`; Lemma 1's discovery has none), by its
    trace path under ``out`` without ``.parquet`` (the workflow's ``planned_run`` wildcard): its claim's key, the
    job, and the instance file it reads (under the run's results folder) or None."""
    found = {}
    for key in planned(config):
        if seed_plans.TARGETS[key].rule == "unknown_graph_discovery":
            continue
        for wildcards, job in jobs(config, key):
            found[str(trace_path(key, wildcards, out)).removesuffix(".parquet")] = (key, job, _instance(key, wildcards))
    return found


def run_inputs(planned_job: tuple[str, runs.RunJob, str | None]) -> dict[str, str]:
    """The named inputs of a planned run job (a :func:`planned_jobs` value): its instance file under the run's
    ``results/``, when it reads one."""
    instance = planned_job[2]
    return {"instance": f"results/{instance}"} if instance else {}


def code_modules(paper: str) -> list[str]:
    """The modules a planned run job of ``paper`` executes, for its code digest: the paper's run module and the
    module of every policy its registry names (a planned chunk reruns when any of them changes)."""
    from causal_bandits import algorithms

    policies = {entry.path.rpartition(".")[0] for entry in algorithms.registry(paper).values()}
    return [papers.paper(paper).runs, *sorted(policies)]


def summaries(config: Mapping[str, Any], key: str, out: Path = OUT) -> list[Path]:
    """The summary files of claim ``key``'s planned run jobs under ``out`` (none for Lemma 1's discovery)."""
    if seed_plans.TARGETS[key].rule == "unknown_graph_discovery":
        return []
    return [Path(store.summary_path(trace_path(key, w, out))) for w, _ in jobs(config, key)]


def execute(config: Mapping[str, Any], key: str, results: Path, out: Path = OUT) -> list[Path]:
    """Run the planned jobs of claim ``key`` (instances read from the finished run under ``results``); their
    summary paths."""
    paper = key.split("/")[0]
    done = []
    for wildcards, job in jobs(config, key):
        instance = _instance(key, wildcards)
        found = {} if instance is None else {"instance": str(results / instance)}
        if instance is not None and not (results / instance).is_file():
            raise DataError(f"{results / instance} is missing: run the paper first (snakemake --cores all {paper})")
        trace = trace_path(key, wildcards, out)
        runs.execute(job, found, str(trace), store.summary_path(trace))
        done.append(Path(store.summary_path(trace)))
    return done


def discovery(config: Mapping[str, Any], key: str) -> pd.DataFrame:
    """The planned V6 rows of unknown_graph's Lemma 1: every regime, height and (δ, c_B) setting of the config that
    the claim's target names, each on the planned runs
    (:func:`causal_bandits.papers.unknown_graph.discovery_checks.sampled_discovery` from the first planned seed)."""
    from causal_bandits.papers.unknown_graph.cells import discovery_setting_name, discovery_settings
    from causal_bandits.papers.unknown_graph.discovery_checks import sampled_discovery

    entry, target = _runnable(key), seed_plans.TARGETS[key]
    block = config["unknown_graph"]["discovery"]
    pattern = target.wildcards["setting"]
    settings = [pair for pair in discovery_settings(block) if re.fullmatch(pattern, discovery_setting_name(*pair))]
    first = entry["seeds"][0]
    rows = [
        sampled_discovery(regime, int(h), delta, c_B, entry["planned"], first=first)
        for regime in block["regimes"]
        for h in block["heights"]
        for delta, c_B in settings
    ]
    return pd.DataFrame(rows)


def cpe_results(config: Mapping[str, Any], summaries: list[Path], results: Path) -> dict[str, Any]:
    """cpe's claim inputs (:func:`causal_bandits.papers.cpe.results.load`) made of planned runs alone: the stopping
    table of each experiment the planned runs cover (:func:`~causal_bandits.papers.cpe.aggregate.stopping_table`),
    with the instances and complexity quantities of the finished run under ``results``."""
    from causal_bandits.papers.cpe.aggregate import read_summaries, stopping_table

    frame = read_summaries(summaries)
    section, stopping, quantities = config["cpe"], {}, {}
    for exp, rows in frame.groupby(frame["key"].str.partition("-")[0]):
        instances = {}
        for key in sorted(set(rows["key"])):
            part = key.partition("-")[2]
            doc = store.read_json(results / "cpe" / "instances" / str(exp) / f"{part}.json")
            q = store.read_json(results / "cpe" / "quantities" / str(exp) / f"{part}.json")
            epsilon = section["experiments"][exp]["configs"][part].get("epsilon", 0.0)
            instances[key] = {"config": part, "mu": doc["mu"], "params": doc["params"], "epsilon": epsilon}
            instances[key]["summary"] = q["summary"]
            quantities[(str(exp), part)] = q
        stopping[str(exp)] = stopping_table(rows, instances, section["delta"])
    theory = store.read_json(results / "cpe" / "theory_e4b.json")
    return {"stopping": stopping, "budgets": {}, "quantities": quantities, "theory": theory}


def clique_results(config: Mapping[str, Any], summaries: list[Path]) -> dict[str, Any]:
    """unknown_graph's claim inputs for Theorem 3's cliques made of planned runs alone: the V4 clique table
    (:func:`causal_bandits.papers.unknown_graph.tables.clique_success`) of their per-seed summaries."""
    from causal_bandits.papers.unknown_graph.tables import clique_success

    frames: dict[str, list[pd.DataFrame]] = {}
    for path in summaries:
        meta = store.read_metadata(path)
        frame = store.read_table(path).to_pandas()
        frame["algorithm"] = meta["algorithm"]
        frames.setdefault(str(meta["experiment"]), []).append(frame)
    cells = {cell: pd.concat(found, ignore_index=True) for cell, found in frames.items()}
    return {"V4": clique_success(pd.DataFrame(), cells), "config": config["unknown_graph"]}


def judge_claim(key: str, results: Mapping[str, Any], *args: Any) -> dict[str, Any]:
    """The claim's own rule (its paper's :class:`~causal_bandits.claims.Claim`; ``args``: what its ``claims()``
    takes) on results built from the planned runs alone, beside the archived (paper-scale) count."""
    entry = _runnable(key)
    paper, claim_id = key.split("/")
    listed = importlib.import_module(papers.paper(paper).claims).claims(*args)
    row = {c.id: c for c in listed}[claim_id].check(results)
    return {
        "paper_seeds": entry["archived"]["n"],
        "planned_seeds": entry["planned"],
        "seeds": entry["seeds"],
        "ours": row["ours"],
        "status": row["status"],
        "note": row["note"],
    }


def judge(key: str, final_regrets: np.ndarray) -> dict[str, Any]:
    """The claim's band rule on the planned seeds' regrets at T alone, beside the archived (paper-scale) seeds."""
    entry = _runnable(key)
    x = np.asarray(final_regrets, dtype=float)
    if x.size != entry["planned"]:
        raise ValueError(f"{key}: {x.size} planned seeds ran, the plan has {entry['planned']}; run them all")
    archived = entry["archived"]
    band = (float(archived["band"][0]), float(archived["band"][1]))
    interval = mean_interval(float(x.mean()), float(x.std(ddof=1)), int(x.size))
    status, note = in_band(float(x.mean()), interval, band, int(x.size))
    return {
        "paper_seeds": archived["n"],
        "paper_interval": archived["interval"],
        "planned_seeds": int(x.size),
        "seeds": entry["seeds"],
        "ours": interval_text(float(x.mean()), interval),
        "status": status,
        "note": note,
    }


def judge_runs(config: Mapping[str, Any], key: str, found: Sequence[Path], results: Path) -> dict[str, Any]:
    """Claim ``key`` judged on its planned runs alone (``found``: their summary files; none for Lemma 1, whose
    discovery rows are computed here): a band claim by its band rule (:func:`judge`), every other claim by its
    paper's own claim (:func:`judge_claim`) on the results its planned runs make."""
    entry, target = _runnable(key), seed_plans.TARGETS[key]
    if target.rule == "unknown_graph_discovery":
        return judge_claim(key, {"V6": discovery(config, key)})
    if entry["kind"] == "band":
        tables = [store.read_table(s, columns=["final_regret"]).to_pandas()["final_regret"] for s in found]
        return judge(key, np.concatenate(tables))
    if key.startswith("cpe/"):
        algorithms: dict[str, set[str]] = {}
        for wildcards, _ in jobs(config, key):
            algorithms.setdefault(wildcards["experiment"].partition("-")[0], set()).add(wildcards["algorithm"])
        stopping = cpe_results(config, list(found), results)
        return judge_claim(key, stopping, {e: sorted(a) for e, a in algorithms.items()})
    if target.rule == "unknown_graph_run":
        return judge_claim(key, clique_results(config, list(found)))
    raise ValueError(f"{key}: no judge of its planned runs is known; name one in causal_bandits.planned_runs")


def run_and_judge(config: Mapping[str, Any], key: str, results: Path, out: Path = OUT) -> dict[str, Any]:
    """Run claim ``key``'s planned seeds (:func:`execute`) and judge it on them alone (:func:`judge_runs`)."""
    found = [] if seed_plans.TARGETS[key].rule == "unknown_graph_discovery" else execute(config, key, results, out)
    return judge_runs(config, key, found, results)


def write_claim(
    config: Mapping[str, Any], key: str, results: Path, out: Path = OUT, found: Sequence[Path] | None = None
) -> Path:
    """Judge claim ``key`` on its planned runs (``found``: their summaries, as the workflow's ``planned_run`` jobs
    wrote them; None: run them here first, :func:`execute`); write the judgement to ``out/<paper>/<claim>.json``
    (atomically) and return that path."""
    paper, claim = key.split("/")
    judged = run_and_judge(config, key, results, out) if found is None else judge_runs(config, key, found, results)
    path = out / paper / f"{claim}.json"
    store.write_json(path, {"key": key, "plan": seed_plans.recorded()["fingerprint"], **judged})
    return path


def summary(judged: Mapping[str, Mapping[str, Any]], main_run: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """``results/planned/claims.json``: per claim of the plan, by key, the main run's seeds (``main_seeds``, from the
    plan's archived count) and verdict (``main``: its row in ``main_run``, by key, or absent), then either the
    judgement on its planned seeds (``planned``) or why none ran (``not_run``: the plan's reason or cost)."""
    out: dict[str, Any] = {}
    for key, entry in seed_plans.recorded()["claims"].items():
        row = main_run.get(key)
        item: dict[str, Any] = {
            "kind": entry["kind"],
            "unit": entry["unit"],
            "main_seeds": entry.get("archived", {}).get("n"),
            "main": {"status": row["status"], "ours": row["ours"]} if row else None,
        }
        if "cpu_s" in entry:
            item["plan"] = {"planned": entry["planned"], "cpu_s": entry["cpu_s"]}
        if key in judged:
            item["planned"] = dict(judged[key])
        elif entry["decide"]:
            item["not_run"] = "this run's config does not cover it"
        else:
            item["not_run"] = f"above {entry['above']}" if "above" in entry else entry["why"]
        out[key] = item
    return {"plan": seed_plans.recorded()["fingerprint"], "claims": out}


def table(found: Mapping[str, Any]) -> str:
    """:func:`summary`'s claims as a Markdown table (:func:`causal_bandits.report.planned.rows`)."""
    from causal_bandits.report import planned as section

    return "\n".join([*section.HEAD, *section.rows(found)]) + "\n"


def main_rows(claims_docs: Sequence[Mapping[str, Any]]) -> dict[str, Mapping[str, Any]]:
    """The main run's claim rows, by ``<paper>/<id>``, from its claims documents."""
    return {f"{doc['paper']}/{row['id']}": row for doc in claims_docs for row in doc["claims"]}


def write_summary(
    claims: Sequence[Path], claims_docs: Sequence[Path], out: Path = OUT, figures: Path = FIGURES
) -> None:
    """Gather the planned claims' judgements (``claims``: their :func:`write_claim` files) with the main run's
    claims documents into ``out``/claims.json and ``figures``/table.md (both atomically)."""
    docs = [store.read_json(p) for p in claims]
    judged = {doc["key"]: {k: v for k, v in doc.items() if k not in ("key", "plan")} for doc in docs}
    found = summary(judged, main_rows([store.read_json(p) for p in claims_docs]))
    store.write_json(out / "claims.json", found)
    text = table(found)
    store.write_atomic(figures / "table.md", lambda tmp: tmp.write_text(text, encoding="utf-8"))


def claim_step(job: Job) -> None:
    """Rule planned_claim: one claim judged on its planned runs alone (:func:`write_claim` of the run files the
    workflow's ``planned_run`` jobs wrote)."""
    key, found = job.params.key, [Path(p) for p in job.input.runs]
    write_claim(job.config, key, Path("results"), Path(job.output[0]).parents[1], found=found)
    LOG.info("%s judged on its planned seeds (%d run files)", key, len(found))


def summary_step(job: Job) -> None:
    """Rule planned_summary: the planned claims beside the main run's verdicts (:func:`write_summary`)."""
    output = job.output
    claims, main_docs = [Path(p) for p in job.input.claims], [Path(p) for p in job.input.main]
    write_summary(claims, main_docs, Path(output.summary).parent, Path(output.table).parent)


def main(results: Path, config_paths: Sequence[str], out: Path = OUT, figures: Path = FIGURES) -> None:
    """``python -m causal_bandits.planned_runs``: what the workflow's planned rules do, from a finished run's files
    under ``results`` (every claim the plan runs that the config covers, whatever its ``planned_runs``)."""
    from causal_bandits import config as cb_config

    config = cb_config.validate(cb_config.load(*config_paths))
    written = [write_claim(config, key, results, out) for key in planned({**config, "planned_runs": True})]
    papers_run = papers_of(list(seed_plans.recorded()["claims"]))
    docs = [results / "claims" / f"{paper}.json" for paper in papers_run]
    write_summary(written, [p for p in docs if p.is_file()], out, figures)


if __name__ == "__main__":  # python -m causal_bandits.planned_runs RESULTS CONFIG [OVERLAY ...]
    import sys

    if len(sys.argv) < 3:
        sys.exit(
            "usage: python -m causal_bandits.planned_runs RESULTS CONFIG [OVERLAY ...]; e.g. results config/config.yaml"
        )
    main(Path(sys.argv[1]), sys.argv[2:])
