"""Arms of a strategy on a causal diagram, from Python: :func:`arms_for`.

A strategy of Lee & Bareinboim (AAAI-19) is a set of interventions to play as bandit arms: ``BF``
(every intervention on the manipulable variables), ``MIS`` (minimal intervention sets, Def. 2),
``POMIS`` (possibly-optimal MISs, Theorem 4) or ``POMISplus`` (the POMIS arms played by a z² solver
that also learns from the values of every variable). An explicit list of assignments works too.
The arms are those of the workflow's instance stage
(:func:`causal_bandits.papers.nonmanip.experiments.instance_document`), with exact means, so a
study run from Python and from the workflow's ``experiments:`` section give the same numbers.

>>> import causal_bandits as cb
>>> G = cb.CausalDiagram(["X", "Z", "Y"], [("X", "Z"), ("Z", "Y")], [("X", "Y")])
>>> scm = {"q": {"U_X": 0.2, "U_Y": 0.3, "U_Z": 0.2, "U_XY": 0.1}, "c": {"X": 0, "Y": 0, "Z": 0}}
>>> arms = cb.arms_for(G, scm, "POMIS", reward="Y")
>>> arms.values
({}, {'Z': 0}, {'Z': 1})
>>> tuple(round(float(m), 3) for m in arms.means)
(0.428, 0.34, 0.66)
>>> len(cb.arms_for(G, scm, "BF", reward="Y").values), cb.arms_for(G, scm, [{}, {"X": 1}], reward="Y").values
(9, ({}, {'X': 1}))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from causal_bandits import algorithm_params, algorithms, checks
from causal_bandits.algorithm_params import HORIZON
from causal_bandits.algorithms import played
from causal_bandits.bandits.environments import SCM_MEMBERS
from causal_bandits.errors import ArgumentError, ArgumentTypeError, ConfigError
from causal_bandits.experiments import instance as own
from causal_bandits.experiments.algorithms import skip_reason
from causal_bandits.papers.nonmanip import NOT_SETTINGS, POMIS_PLUS
from causal_bandits.papers.nonmanip.catalogue import catalogue_document
from causal_bandits.papers.nonmanip.experiments import instance_document
from causal_bandits.papers.nonmanip.runs import environment, solver
from causal_bandits.scm.diagram import CausalDiagram


@dataclass(frozen=True)
class Arms:
    """The arms of ``strategy`` in ``instance`` (the instance document of the workflow's instance stage).

    Parameters
    ----------
    instance : mapping
        The instance document: diagram, SCM, every arm with its exact mean, and the arm lists.
    strategy : str
        The arm set played: ``"BF"``, ``"MIS"``, ``"POMIS"``, ``"POMISplus"`` or an explicit list's name.
    """

    instance: Mapping[str, Any]
    strategy: str

    @property
    def ids(self) -> list[int]:
        """The arms' ids in the diagram's full (brute-force) arm list."""

        return self.instance["arm_lists"]["POMIS" if self.strategy == POMIS_PLUS else self.strategy]

    @property
    def values(self) -> tuple[dict[str, int], ...]:
        """Each arm's assignment do(X = x), as a mapping (``{}``: the observational arm)."""
        return tuple(dict(self.instance["arms"][i]["values"]) for i in self.ids)

    @property
    def means(self) -> np.ndarray:
        """Each arm's exact mean reward E[Y | do(x)]."""
        return np.array([self.instance["arms"][i]["mu"] for i in self.ids])

    @property
    def labels(self) -> list[str]:
        return [self.instance["arms"][i]["label"] for i in self.ids]

    def environment(self):
        """The arms as an engine environment (:class:`~causal_bandits.bandits.environments.InterventionArms`;
        POMIS+ observes every variable of each pull)."""

        return environment(self.instance, self.strategy)[0]

    def policy(self, algorithm: str, **settings: Any):
        """A fresh solver of the registry (``ts``, ``kl_ucb``, ...) for these arms.

        ``settings`` are values for the parameters the algorithm's registry entry declares (``alpha=1``), checked
        as a config's ``params`` are (:func:`causal_bandits.algorithms.variant`: type, bounds, the closest name for
        one it does not declare); for POMIS+ also the z² settings (bootstrap, ...) of the z² version, built from the
        diagram's expression catalogue.
        """

        entry = algorithms.registry("nonmanip")[algorithm]
        params = {k: v for k, v in settings.items() if k in entry.params}
        pomis_plus = {k: v for k, v in settings.items() if k not in entry.params}
        if pomis_plus and self.strategy != POMIS_PLUS:
            name = sorted(pomis_plus)[0]
            error = algorithm_params.unknown(
                entry.key,
                name,
                entry.declared,
                "policy(...)",
                f'the z² settings of POMIS+ need arms_for(..., "{POMIS_PLUS}")',
            )
            raise ArgumentError(str(error))
        if HORIZON in params.values():
            raise ArgumentError(f"policy(...): {HORIZON} stands for a run's horizon in a config; pass the number")
        try:
            variant = algorithms.variant("nonmanip", {"key": entry.key, "params": params}, where="policy(...)")
        except ConfigError as err:
            raise ArgumentError(str(err)) from None
        if pomis_plus:
            from causal_bandits.config import check_settings  # late: the config loads every schema

            check_settings(pomis_plus, ("nonmanip", "pomis_plus"), "policy(...)", exclude=NOT_SETTINGS)
        catalogue = None
        if self.strategy == POMIS_PLUS:
            reason = skip_reason(variant, POMIS_PLUS)
            if reason:
                raise ArgumentError(f"policy({entry.key!r}) does not play {POMIS_PLUS}: {reason}; use other arms")
            catalogue = catalogue_document(self.instance)
        path = played("nonmanip", entry.key, z2=self.strategy == POMIS_PLUS).path
        return solver(path, self.instance, self.strategy, catalogue, pomis_plus, variant.arguments(0))


def arms_for(
    diagram: CausalDiagram | Mapping[str, Any],
    scm: Any,
    strategy: str | Sequence[Mapping[str, int]],
    *,
    reward: str | None = None,
    non_manipulable: Sequence[str] | None = None,
    name: str = "arms",
) -> Arms:
    """The arms of ``strategy`` on ``diagram`` with exact means from ``scm``.

    ``diagram`` is a :class:`CausalDiagram` or the ``pomis`` command's graph object (which may carry
    ``reward`` and ``non_manipulable``); ``scm`` is an SCM (:class:`~causal_bandits.scm.xor_bernoulli.XorBernoulliSCM`,
    :class:`~causal_bandits.scm.confounded_cpt.ConfoundedCPT`) or a config entry (``{"q": ..., "c": ...}``,
    ``{"family": "cpt", "p_u": ..., "p1": ...}``, ``{"family": "random_cpt", "seed": 0}``); ``strategy``
    is BF, MIS, POMIS, POMISplus or a list of assignments. ``name`` keys a random SCM's stream.

    Parameters
    ----------
    diagram : CausalDiagram or mapping
        The causal diagram, or a graph object (``nodes``, ``directed``, ``bidirected``, ``reward``,
        ``non_manipulable``).
    scm : SCM or mapping
        The model that gives the exact arm means, or its config entry.
    strategy : str or sequence of mapping
        ``"BF"``, ``"MIS"``, ``"POMIS"``, ``"POMISplus"``, or explicit arms (variable to 0/1 each).
    reward : str, optional
        The reward variable; required unless the graph object names one.
    non_manipulable : sequence of str, optional
        Variables that cannot be intervened on (AAAI-19's N); the graph object's by default.
    name : str, optional
        The experiment name that keys a random SCM's stream (``family: random_cpt``).

    Returns
    -------
    Arms
        The arms, their exact means, an environment and the solvers that play them.
    """
    checks.text(name, "arms_for(name)")
    data = _graph_object(diagram, scm, reward, non_manipulable)
    model = None if isinstance(scm, Mapping) else scm
    experiment = {"diagram": data, "scm": scm if model is None else {}}
    doc = instance_document(name, own.panel(name, experiment, model))
    if isinstance(strategy, str):
        if strategy not in (*doc["arm_lists"], "POMISplus"):
            raise ArgumentError(
                f"unknown strategy {strategy!r}; use BF, MIS, POMIS, POMISplus or a list of assignments"
            )
        return Arms(doc, strategy)
    strategy = checks.listed(strategy, "arms_for(strategy)", "assignments")
    if not strategy:
        raise ArgumentError(
            "arms_for(strategy) is an empty list of arms; give at least one assignment, or BF/MIS/POMIS"
        )
    doc["arm_lists"]["arms"] = own.arm_ids(doc, strategy, "strategy")
    return Arms(doc, "arms")


def _graph_object(
    diagram: CausalDiagram | Mapping[str, Any], scm: Any, reward: str | None, non_manipulable: Sequence[str] | None
) -> dict[str, Any]:
    """:func:`arms_for`'s graph object (the diagram with its reward and non-manipulable nodes), its arguments
    checked: one line naming the argument and the fix for each mistake."""
    checks.kind(diagram, (CausalDiagram, Mapping), "arms_for(diagram)", "give a CausalDiagram or a graph object")
    data: dict[str, Any] = diagram.to_dict() if isinstance(diagram, CausalDiagram) else dict(diagram)
    if reward is not None:
        data["reward"] = reward
    if non_manipulable is not None:
        data["non_manipulable"] = checks.listed(non_manipulable, "arms_for(non_manipulable)", "node names")
    if "reward" not in data:
        raise ArgumentError("arms_for needs the reward node: pass reward=<name>")
    checks.node(data["reward"], list(data.get("nodes", ())), "arms_for(reward)")
    if not isinstance(scm, Mapping):
        missing = [m for m in SCM_MEMBERS if not hasattr(scm, m)]
        if missing:
            raise ArgumentTypeError(
                f"arms_for(scm) is a {type(scm).__name__}, neither an SCM nor its config entry; give a "
                'causal_bandits.XorBernoulliSCM or ConfoundedCPT, or a mapping such as {"q": ..., "c": ...}'
            )
    return data
