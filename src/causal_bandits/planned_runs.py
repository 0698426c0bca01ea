"""The planned seeds run, and each claim judged on them alone (the plan: :mod:`causal_bandits.seed_plans`).

For a claim the plan runs (``decide``: within the budget) whose runs are its paper's run jobs on one instance file
(the ``band`` claims: a Table cell's mean regret at T), :func:`jobs` gives the planned run jobs: the paper's own
description of each of the claim's run jobs (its run module's ``describe`` under the config), with the seeds
replaced by the planned ones, :data:`~causal_bandits.seed_plans.FIRST_PLANNED_SEED` onwards, in the paper's chunk
size. The seeds are the only change, so the streams are fresh and everything else is the paper's run.
:func:`execute` runs them into ``results/planned/<paper>/...``, never a paper-scale run's file, and :func:`judge`
applies the claim's band rule (the 95 % t-interval of the mean regret at T against the band the archive records,
:func:`causal_bandits.claims.in_band`) to the planned seeds alone. A ``rate`` claim (unknown_graph's Lemma 1) runs
its V6 discovery rows from the first planned seed (:func:`discovery`) and is judged by its paper's own claim on
them (:func:`judge_claim`), as is a cpe ``parts`` claim (E3's order, E4's CCPE-BGLM against LUCB, E5's lower
bound), on stopping tables made of its planned runs (:func:`cpe_results`). :func:`table` sets the paper-scale
seeds and verdict beside ours, per claim, with the cost or reason of every claim the plan does not run.

``python -m causal_bandits.planned_runs RESULTS CONFIG [OVERLAY ...]`` runs every claim the plan runs that the
config covers, from a finished run's instance files under RESULTS, and writes ``results/planned/claims.json`` and
``figures/planned/table.md`` (atomically).
"""

from __future__ import annotations

import dataclasses
import importlib
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from causal_bandits import papers, runs, seed_plans, store
from causal_bandits.claims import in_band, interval_text, mean_interval

#: The plan kinds whose seeds this module runs and judges.
RUNNABLE = ("band", "rate", "parts")
OUT = Path("results/planned")


def _runnable(key: str) -> Mapping[str, Any]:
    """The plan entry of a claim this module runs; else a one-line error naming why not."""
    entry = seed_plans.recorded()["claims"].get(key)
    if entry is None:
        raise ValueError(f"{key} has no seed plan; planned claims: {', '.join(seed_plans.TARGETS)}")
    if entry["kind"] not in RUNNABLE or not entry["decide"]:
        why = entry.get("why") or entry.get("cost") or f"planned runs of kind {entry['kind']} are not run here"
        raise ValueError(f"{key}: no planned seeds are run for it ({why})")
    return entry


def covered(config: Mapping[str, Any], key: str) -> bool:
    """Whether ``config`` runs what claim ``key``'s planned runs repeat (its paper's section, a matching run job or,
    for Lemma 1, a matching discovery setting)."""
    paper, target = key.split("/")[0], seed_plans.TARGETS[key]
    if paper not in config:
        return False
    if target.kind == "rate":
        from causal_bandits.papers.unknown_graph.cells import discovery_setting_name, discovery_settings

        names = [discovery_setting_name(*pair) for pair in discovery_settings(config[paper]["discovery"])]
        return any(re.fullmatch(target.wildcards["setting"], name) for name in names)
    module = importlib.import_module(papers.paper(paper).runs)
    return any(all(re.fullmatch(p, w.get(k, "")) for k, p in target.wildcards.items()) for w in module.run_jobs(config))


def jobs(config: Mapping[str, Any], key: str) -> list[tuple[dict[str, str], runs.RunJob]]:
    """The planned run jobs of claim ``key`` (``<paper>/<id>``) under ``config``, with their wildcards (``chunk``:
    the planned chunk)."""
    entry, target = _runnable(key), seed_plans.TARGETS[key]
    paper = key.split("/")[0]
    module = importlib.import_module(papers.paper(paper).runs)
    own = [
        w
        for w in module.run_jobs(config)
        if w.get("chunk") == "0" and all(re.fullmatch(p, w.get(k, "")) for k, p in target.wildcards.items())
    ]
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


def trace_path(key: str, wildcards: Mapping[str, str], out: Path = OUT) -> Path:
    """Where a planned chunk's trace goes: under ``out``, never beside the paper-scale runs."""
    paper, claim = key.split("/")
    parts = [wildcards[k] for k in ("experiment", "strategy", "algorithm")]
    return out.joinpath(paper, claim, *parts, f"chunk-{wildcards['chunk']}.parquet")


def execute(config: Mapping[str, Any], key: str, results: Path, out: Path = OUT) -> list[Path]:
    """Run the planned jobs of claim ``key`` (instances read from the finished run under ``results``); their
    summary paths."""
    paper, target = key.split("/")[0], seed_plans.TARGETS[key]
    done = []
    for wildcards, job in jobs(config, key):
        experiment = wildcards["experiment"]
        exp, _, part = experiment.partition("-")
        instance = results / target.instance.format(paper=paper, experiment=experiment, exp=exp, config=part)
        if not instance.is_file():
            raise FileNotFoundError(f"{instance} is missing: run the paper first (snakemake --cores all {paper})")
        trace = trace_path(key, wildcards, out)
        runs.execute(job, {"instance": str(instance)}, str(trace), store.summary_path(trace))
        done.append(Path(store.summary_path(trace)))
    return done


def discovery(config: Mapping[str, Any], key: str) -> pd.DataFrame:
    """The planned V6 rows of a ``rate`` claim (unknown_graph's Lemma 1): every regime, height and (δ, c_B) setting
    of the config that the claim's target names, each on the planned runs
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


def table(judged: Mapping[str, Mapping[str, Any]], archived: Mapping[str, str]) -> str:
    """Per planned claim: the paper-scale seeds and verdict (``archived``, by key), the planned seeds and ours, or
    why no seeds were run (the plan's reason or cost)."""
    lines = [
        "| claim | paper-scale seeds | paper-scale verdict | planned seeds | ours on the planned seeds |",
        "|---|---|---|---|---|",
    ]
    for key, entry in seed_plans.recorded()["claims"].items():
        seen = entry.get("archived", {}).get("n", "–")
        if key in judged:
            j = judged[key]
            ours = f"{j['ours']}: *{j['status']}*"
            planned = f"{j['planned_seeds']:,} ({j['seeds'][0]:,}–{j['seeds'][1]:,})"
        elif entry["decide"]:
            planned, ours = "–", f"not run here ({entry['cost']})"
        else:
            planned, ours = "–", entry.get("why") or entry["cost"]
        lines.append(f"| `{key}` | {seen} | {archived.get(key, '–')} | {planned} | {ours} |")
    return "\n".join(lines) + "\n"


def run_and_judge(config: Mapping[str, Any], key: str, results: Path, out: Path = OUT) -> dict[str, Any]:
    """Run claim ``key``'s planned seeds and judge it on them: a band claim by its band rule (:func:`judge`), a rate
    claim (Lemma 1's V6 rows) and a cpe parts claim (its stopping tables) by their own claim (:func:`judge_claim`)."""
    kind = _runnable(key)["kind"]
    if kind == "rate":
        return judge_claim(key, {"V6": discovery(config, key)})
    summaries = execute(config, key, results, out)
    if kind == "parts":
        if not key.startswith("cpe/"):
            raise ValueError(f"{key}: planned runs of kind parts are judged for cpe's claims only")
        algorithms: dict[str, set[str]] = {}
        for wildcards, _ in jobs(config, key):
            algorithms.setdefault(wildcards["experiment"].partition("-")[0], set()).add(wildcards["algorithm"])
        found = cpe_results(config, summaries, results)
        return judge_claim(key, found, {e: sorted(a) for e, a in algorithms.items()})
    tables = [store.read_table(s, columns=["final_regret"]).to_pandas()["final_regret"] for s in summaries]
    return judge(key, np.concatenate(tables))


def main(
    results: Path, config_paths: Sequence[str], out: Path = OUT, figures: Path = Path("figures/planned")
) -> dict[str, Any]:
    """Run and judge every claim this module runs (``python -m causal_bandits.planned_runs``); write the judgements
    (``out``/claims.json) and the table (``figures``/table.md) atomically, and return the judgements."""
    import json

    from causal_bandits import config as cb_config

    config = cb_config.validate(cb_config.load(*config_paths))
    plan = seed_plans.recorded()["claims"]
    judged: dict[str, Any] = {}
    for key, entry in plan.items():
        if entry["kind"] not in RUNNABLE or not entry["decide"] or not covered(config, key):
            continue
        judged[key] = run_and_judge(config, key, results, out)
    archived: dict[str, str] = {}
    for paper in {key.split("/")[0] for key in plan}:
        path = results / "claims" / f"{paper}.json"
        if path.is_file():
            rows = json.loads(path.read_text())["claims"]
            archived |= {f"{paper}/{r['id']}": r["status"] for r in rows}
    store.write_json(out / "claims.json", {"plan": seed_plans.recorded()["fingerprint"], "claims": judged})
    text = table(judged, archived)
    store.write_atomic(figures / "table.md", lambda tmp: tmp.write_text(text, encoding="utf-8"))
    return judged


if __name__ == "__main__":  # python -m causal_bandits.planned_runs RESULTS CONFIG [OVERLAY ...]
    import sys

    if len(sys.argv) < 3:
        sys.exit(
            "usage: python -m causal_bandits.planned_runs RESULTS CONFIG [OVERLAY ...]; e.g. results config/config.yaml"
        )
    main(Path(sys.argv[1]), sys.argv[2:])
