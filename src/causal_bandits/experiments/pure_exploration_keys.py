"""The names the ``pure_exploration:`` section and its runs share (:mod:`causal_bandits.experiments.pure_exploration`
plans them, :mod:`causal_bandits.experiments.cpe` runs them): its key, its algorithms, its strategy, its runner, and
which algorithms a model does not run. No import beyond the standard library, so that both read them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

#: The section's key, its run store's group and its streams' first key (never a paper's key).
KEY = "pure_exploration"
#: The algorithms of the table, in its order (keys of cpe's registry).
ALGORITHMS = ("ccpe_bglm", "ccpe_general", "lucb", "naive")
#: The run store's strategy: cpe's practical constants (docs/papers/cpe.md).
STRATEGY = "practical"
#: The runner of its run jobs (:data:`causal_bandits.runs.OWN_RUNNERS`: :mod:`causal_bandits.experiments.cpe`).
RUNNER = "pure_exploration"
#: The paper whose cost model its run jobs follow: cpe's, whose algorithms they run.
COST_MODEL = "cpe"


def skipped(algorithms: Sequence[str], bglm: Mapping[str, str] | None) -> dict[str, str]:
    """The algorithms of ``algorithms`` that do not run, with why: CCPE-BGLM needs a BGLM."""
    if "ccpe_bglm" in algorithms and not bglm:
        return {"ccpe_bglm": "not a BGLM (give bglm: {link, constant})"}
    return {}
