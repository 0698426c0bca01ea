"""Lee & Bareinboim (AAAI-19): the config checks a schema cannot make (diagrams, SCM parameters, the
registered algorithms), run when the workflow parses the config and by ``causal-bandits check-config``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from causal_bandits import algorithms
from causal_bandits.bandits import z2_settings
from causal_bandits.causal.pomis import pomis
from causal_bandits.errors import CausalBanditsError, ConfigError
from causal_bandits.papers.nonmanip import PAPER, POMIS_PLUS
from causal_bandits.papers.nonmanip.graphs import panel_diagram
from causal_bandits.runs import RunJob
from causal_bandits.scm.xor_bernoulli import XorBernoulliSCM

#: Config keys of the section that moved, below the section, to their path now.
MOVED = {
    "pomis_plus.spot_check": "studies.refresh",
    "pomis_plus.knobs": "studies.knobs",
    "robustness": "studies.robustness",
    "sensitivity": "studies.same_means",
}


def extend_schema(node: dict[str, Any]) -> None:
    """The section schema completed by POMIS+'s settings, declared with their defaults in code
    (:mod:`causal_bandits.bandits.z2_settings`)."""
    node["properties"]["pomis_plus"]["properties"].update(z2_settings.schema())


def check_config(section: Mapping[str, Any]) -> None:
    """Semantic checks the schema cannot make; raises a one-line CausalBanditsError."""
    # POMIS+ is no arm set of its own: it runs the solvers that declare a z² version (the rest skip it).
    algorithms.check(
        "nonmanip",
        section.get("algorithms", ()),
        [s for s in section.get("strategies", ()) if s != POMIS_PLUS],
        where="nonmanip.algorithms",
    )
    sized = sorted(set(section.get("pomis_plus", {}).get("panel_seeds_per_job", {})) - set(section["panels"]))
    if sized:
        raise ConfigError(
            f"nonmanip.pomis_plus.panel_seeds_per_job names {sized}, which are not panels "
            f"(panels: {list(section['panels'])}); name panels of nonmanip.panels or remove those keys"
        )
    for name, panel in section["panels"].items():
        try:
            diagram, reward = panel_diagram(panel)
            pomis(diagram, reward, panel.get("non_manipulable", ()))
            XorBernoulliSCM(diagram, panel["scm"]["q"], panel["scm"]["c"])
        except CausalBanditsError as err:
            raise type(err)(f"nonmanip panel {name!r}: {err}") from err


def skipped(section: Mapping[str, Any]) -> list[str]:
    """The pairs the section names and does not run: POMIS+ with a solver that has no z² version."""
    if POMIS_PLUS not in section["strategies"]:
        return []
    registry = algorithms.registry(PAPER)
    return [
        f"{PAPER}: POMIS+ with {registry[a].display} is not run: no z² version"
        for a in section["algorithms"]
        if registry[a].z2 is None
    ]


# The cost check's model of this paper's runs (causal_bandits.cost), fitted to an archived paper-scale run
# (archive/paper-scale/manifest.json, each job's exact CPU less a start-up, over its seeds x rounds; the fit
# printed by benchmarks/cost_model.py): the baselines 185 CPU-s over 1.8e8 seed-rounds (18 jobs); POMIS+ per graph
# (Fig. 5a plays the front-door graph, 5b Fig. 2a's, 5c Fig. 5d's) over 2.0e7 seed-rounds each: 100 CPU-s in 2 jobs
# of 1,000 seeds, 363 in 4 of 500 and 845 in 10 of 200. A POMIS+ seed-round costs less in a larger job (a round's
# work is partly per job: 1.6x from 200 seeds to 1,000 on Fig. 5a, docs/performance.md#job-sizes), so a 200-seed
# front-door job (a study's) costs up to that much more than its rate says. Studies and own experiments on this
# runner are costed the same way.
#: CPU seconds per seed-round of a BF, MIS or POMIS run.
PER_SEED_ROUND = 9.3e-7
#: CPU seconds per seed-round of a POMIS+ run, by graph; any other graph costs as Fig. 5d (the largest catalogue).
POMIS_PLUS_PER_SEED_ROUND = {"frontdoor": 4.9e-6, "fig2a": 1.8e-5, "fig5d": 4.2e-5}
#: POMIS+ under the paper's every-round bootstrap (the refresh study) against the adaptive schedule: the spot
#: check measured 2.28 CPU-h for 50 seeds of the three panels and both solvers, 36 times the adaptive run's
#: cost for the same seeds; the bit-identical speed-up helped the every-round path a little more.
EVERY_ROUND = 30.0
#: The CPU of the paper's jobs other than its runs, as a share of its runs' (22 of 1,850 CPU-s in that run).
OTHER_SHARE = 0.012


def cpu_seconds(job: RunJob) -> float:
    """The cost model's CPU seconds of a run job on this paper's runner, beyond its start-up."""
    rate = PER_SEED_ROUND
    if job.strategy == POMIS_PLUS:
        graph = job.science.get("panel", {}).get("graph", "fig5d")
        rate = POMIS_PLUS_PER_SEED_ROUND.get(graph, POMIS_PLUS_PER_SEED_ROUND["fig5d"])
        if job.science.get("pomis_plus", {}).get("refresh") == "every_round":
            rate *= EVERY_ROUND
    return rate * len(job.seeds) * job.horizon
