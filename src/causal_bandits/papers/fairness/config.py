"""Huang, Zhang & Wu (AAAI-22): the config checks a schema cannot make."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from causal_bandits.errors import ConfigError
from causal_bandits.runs import RunJob

#: Config keys of the section that moved or were renamed, below the section, to their path now.
MOVED = {
    "radius_study": "studies.fucb_radius",
    "fairlinucb.lam": "fairness.fairlinucb.lambda",
    "adult_video.data_seed": "fairness.adult_video.seed",
}

#: The paper's W for the Adult-Video experiment: §4.2 and the bold nodes of Figure 3.
ADULT_W = {"age", "income", "ratings", "views"}


def check_config(section: Mapping[str, Any]) -> None:
    """Semantic checks the schema cannot make; raises a one-line ConfigError."""
    for tau in section["taus"]:
        if not 0.0 < tau <= 1.0:
            raise ConfigError(
                f"fairness.taus contains {tau}; every fairness threshold tau must lie in (0, 1] "
                f"(Definition 3), e.g. taus: [0.1, 0.2, 0.3, 0.4, 0.5]"
            )
    if section["figure2b_tau"] not in section["taus"]:
        raise ConfigError(
            f"fairness.figure2b_tau = {section['figure2b_tau']} is not one of fairness.taus "
            f"{section['taus']}; add it to taus or pick one of them"
        )
    email = section["email"]
    if email["s_plus"] == email["s_minus"]:
        raise ConfigError("fairness.email.s_plus equals s_minus; give the sensitive attribute two different values")
    av = section["adult_video"]
    if not av["n_graph"] < av["n_sample"]:
        raise ConfigError(
            f"fairness.adult_video.n_graph = {av['n_graph']} leaves no online users out of "
            f"n_sample = {av['n_sample']}; make n_graph smaller"
        )
    if section["horizon"] > av["n_sample"] - av["n_graph"]:
        raise ConfigError(
            f"fairness.horizon = {section['horizon']} exceeds the {av['n_sample'] - av['n_graph']} "
            f"online Adult users (each arrives once); lower horizon or raise n_sample - n_graph"
        )
    features = {"age", "sex", "race", "income", *av["arm_features"]}
    unknown = sorted(set(av["reward"]["coef"]) - features)
    if unknown:
        raise ConfigError(
            f"fairness.adult_video.reward.coef names {unknown}, which are neither user features "
            f"nor arm features {av['arm_features']}; fix the reward or arm_features"
        )
    missing = sorted(set(av["arm_features"]) - set(av["graph"]["video_order"]))
    if missing:
        raise ConfigError(
            f"fairness.adult_video.graph.video_order lacks the arm features {missing}; list every arm feature"
        )
    if av["graph"]["enforce_paper_W"] and not features >= ADULT_W:
        raise ConfigError(
            f"fairness.adult_video.graph.enforce_paper_W needs the paper's W {sorted(ADULT_W)} among "
            f"the features; add ratings and views to arm_features or set enforce_paper_W: false"
        )
    f = section["fucb"]
    if f["fallback"] == "safe_arm":
        for experiment in ("email", "adult_video"):
            if f["safe_arm"].get(experiment) is None:
                raise ConfigError(
                    f"fairness.fucb.fallback is safe_arm but fucb.safe_arm.{experiment} is not set; give an arm id"
                )
        if not 0 <= f["safe_arm"]["email"] < 36:
            raise ConfigError(f"fairness.fucb.safe_arm.email = {f['safe_arm']['email']} is not an Email arm id (0-35)")


#: The cost check's model of this paper's runs (causal_bandits.cost), the F-UCB radius study's too: CPU seconds per
#: seed-round, fitted to an archived paper-scale run (archive/paper-scale/manifest.json, each job's exact
#: CPU; the fit printed by benchmarks/cost_model.py): 15 jobs, 21 CPU-s, 3.8e5 seed-rounds.
PER_SEED_ROUND = 1.5e-5
#: The CPU of the paper's jobs other than its runs, as a share of its runs' (24 of 21 CPU-s in that run).
OTHER_SHARE = 1.2


def cpu_seconds(job: RunJob) -> float:
    """The cost model's CPU seconds of a run job on this paper's runner, beyond its start-up."""
    return PER_SEED_ROUND * len(job.seeds) * job.horizon


def raw_entries(section: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The config entries of the raw files the section pins (``raw``: the Adult file, then the YouTube crawl files),
    in config order; none where the section names none."""
    raw = section.get("raw") or {}
    return [entry for entry in [raw.get("adult"), *raw.get("youtube", [])] if entry]


def stands_in(section: Mapping[str, Any]) -> bool:
    """Whether the section replaces missing raw files by labelled stand-ins (``raw.on_missing: standin``) instead
    of downloading them."""
    return bool((section.get("raw") or {}).get("on_missing") == "standin")
