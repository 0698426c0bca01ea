"""The same-means family of SCMs of a Figure 5 panel, which the study ``same_means`` sweeps
(:mod:`causal_bandits.studies.same_means`): how POMIS+ depends on the SCM parameters the arm means leave open.

The paper publishes no SCM parameters; ours were chosen to meet the BF / MIS / POMIS regrets, which
depend on the arm means only. POMIS+ also depends on how much the other arms' data tell about an
arm's mean (AAAI-19 §4: z²-TS and z²-KL-UCB weigh each expression's estimate by its bootstrap
variance), which the arm means do not fix. This module finds, for a Figure 5 panel, the SCMs of the
XOR-Bernoulli family with exactly the canonical arm means, and parameterises them by the
**efficiency** of the panel's z² estimators (:mod:`causal_bandits.causal.efficiency`).

Same-means family. In the XOR-Bernoulli family (:mod:`causal_bandits.scm.xor_bernoulli`) Y under
do(x) is a constant XOR the exogenous bits of a set S_x (those reaching Y an odd number of times
once the intervened nodes are cut), so E[Y | do(x)] = (1 − s_x Π_{u ∈ S_x} (1 − 2 q_u)) / 2 with
s_x = ±1. In the coordinates r_u = log(1 − 2 q_u) (q_u < 1/2) every arm mean is fixed exactly by the
linear constraints Σ_{u ∈ S_x} r_u = const: the family is the canonical r plus the null space of the
0/1 matrix of the sets S_x (for the front-door, (1 − 2q_Y)(1 − 2q_Z)(1 − 2q_XY) and
(1 − 2q_Y)(1 − 2q_Z)(1 − 2q_X) are kept). Straight lines in r stay in the family, so the means
hold to rounding; :func:`family` checks them against the canonical ones to 1e-12.

Which direction. The same-means set has more than one dimension on every panel; we follow the path
of steepest descent of the panel efficiency E (below) inside it from the canonical SCM: each step of
length STEP_R in r goes along the projection of −∇_r E onto the same-means directions, the one in
which E falls fastest (every other same-means direction moves it less per unit step), so the sweep
covers the widest range of efficiency for the least change of parameters. A q that reaches
[Q_MIN, Q_MAX] is held there and the path goes on in the remaining directions. Steps are straight
in r, so every point of the path keeps the arm means exactly. The path stops at ``end_ratio`` ×
E(canonical), where E stops falling or where no same-means direction is left; the points are spaced
evenly in E (r interpolated linearly in E between the path's nodes, each point's E then computed
exactly). With ``towards="high"`` the path is the steepest ascent instead (for a panel whose paper
value lies on the side of higher efficiency), up to ``end_ratio`` × E(canonical).

Panel efficiency E: the mean over the POMIS arms that have an expression of the efficiency of the
arm's estimators combined with minimum variance (θ_x(1 − θ_x) / (n · Var) of bMVWA with the exact
covariance; one sample of every source arm per n).
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from causal_bandits import store
from causal_bandits.errors import CausalBanditsError
from causal_bandits.papers.nonmanip import experiments, scms
from causal_bandits.papers.nonmanip.catalogue import write_with_catalogue
from causal_bandits.papers.nonmanip.efficiency import PanelEfficiency
from causal_bandits.papers.nonmanip.graphs import panel_diagram
from causal_bandits.scm.xor_bernoulli import XorBernoulliSCM

if TYPE_CHECKING:
    from causal_bandits.stages import Job


log = logging.getLogger(__name__)

#: The q of every exogenous bit stays in [Q_MIN, Q_MAX] along the sweep (strictly inside (0, 1/2):
#: expressions are undefined at q = 0 and r = log(1 − 2q) at q = 1/2).
Q_MIN, Q_MAX = 0.01, 0.49
#: Arm means of every point equal the canonical ones to this (exact arithmetic gives equality).
MEAN_TOLERANCE = 1e-12
#: Step of the steepest-descent path (Euclidean length in r = log(1 − 2q)), its largest number of steps,
#: and the finite-difference step of E's gradient along the same-means directions.
STEP_R, MAX_STEPS, STEP_FD = 0.05, 80, 1e-5


def stream_key(panel: str, point: int) -> str:
    """The experiment name that keys point ``point``'s random streams: each point has its own (the table's test
    of equal POMIS means assumes independent points)."""
    return f"{panel}_sens{point}"


# ---------------------------------------------------------------------------------- arm means
def parity(model: XorBernoulliSCM, reward: str, do: Mapping[str, int]) -> tuple[int, np.ndarray]:
    """(constant bit, 0/1 vector over ``model.exogenous``) with Y = constant XOR the bits of the vector,
    under do(``do``) (the XOR-Bernoulli structural functions composed over GF(2))."""
    col = {u: i for i, u in enumerate(model.exogenous)}
    const: dict[str, int] = {}
    vec: dict[str, np.ndarray] = {}
    for v in model.diagram.topological_order():
        if v in do:
            const[v], vec[v] = int(do[v]), np.zeros(len(col), dtype=np.int64)
            continue
        parents, exo = model._inputs(v)
        bits = np.zeros(len(col), dtype=np.int64)
        bits[[col[u] for u in exo]] = 1
        const[v] = (model.c[v] + sum(const[p] for p in parents)) % 2
        vec[v] = (bits + sum((vec[p] for p in parents), np.zeros_like(bits))) % 2
    return const[reward], vec[reward]


def arm_means(q: np.ndarray, parities: Sequence[tuple[int, np.ndarray]]) -> np.ndarray:
    """E[Y | do(x)] = (1 − (−1)^const Π_{u ∈ S_x} (1 − 2 q_u)) / 2 for every arm's parity."""
    return np.array([(1.0 - (-1) ** c * np.prod(np.where(s == 1, 1.0 - 2.0 * q, 1.0))) / 2.0 for c, s in parities])


def same_means_basis(parities: Sequence[tuple[int, np.ndarray]], n_exogenous: int) -> np.ndarray:
    """Orthonormal basis (k, n_exogenous) of the directions in r = log(1 − 2q) that keep every arm mean."""
    M = np.array([s for _, s in parities], dtype=float).reshape(-1, n_exogenous)
    _, sv, vt = np.linalg.svd(M)
    rank = int((sv > 1e-10).sum())
    return vt[rank:]


# ---------------------------------------------------------------------------------- the family
def _spec(model: XorBernoulliSCM, q: np.ndarray) -> dict[str, Any]:
    return {"family": "xor_bernoulli", "q": {u: float(x) for u, x in zip(model.exogenous, q)}, "c": dict(model.c)}


def _room(r: np.ndarray, d: np.ndarray) -> np.ndarray:
    """How far each coordinate of r can move along d before its q leaves [Q_MIN, Q_MAX]."""
    lo, hi = np.log1p(-2.0 * Q_MAX), np.log1p(-2.0 * Q_MIN)  # r decreases with q
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(d > 0, (hi - r) / d, np.where(d < 0, (lo - r) / d, np.inf))


def _q_of(r: np.ndarray) -> np.ndarray:
    """q from r = log(1 − 2q)."""
    return -np.expm1(r) / 2.0


@dataclass(frozen=True)
class _Sweep:
    """What the path and its points read of a panel: its SCM, the parities of its arms' rewards and their
    canonical means, the panel efficiency, and the sign that makes ``sgn · E`` fall along the path (1 towards
    low, −1 towards high)."""

    name: str
    model: XorBernoulliSCM
    parities: list[tuple[int, np.ndarray]]
    mu0: np.ndarray
    efficiency: PanelEfficiency
    sgn: float

    def E(self, r: np.ndarray) -> float:
        """The panel efficiency at r."""
        return self.efficiency.of(_spec(self.model, _q_of(r)))["panel"]

    def descent(self, r: np.ndarray, held: np.ndarray) -> np.ndarray | None:
        """The unit same-means direction, with the held coordinates fixed, in which sgn · E falls fastest."""
        constraints = np.array([s for _, s in self.parities], dtype=float).reshape(-1, len(r))
        basis = same_means_basis([(0, row) for row in np.vstack([constraints, np.eye(len(r))[held]])], len(r))
        if basis.shape[0] == 0:
            return None
        grad = np.array([(self.E(r + STEP_FD * b) - self.E(r - STEP_FD * b)) / (2 * STEP_FD) for b in basis])
        d = -self.sgn * (grad @ basis)
        d[held] = 0.0
        norm = np.linalg.norm(d)
        return d / norm if norm > 0 else None

    def path(self, r0: np.ndarray, e0: float, end_ratio: float) -> tuple[list[np.ndarray], list[float], str]:
        """The steepest-descent (or ascent) path from r0: its nodes in r, E at each, and why it stopped."""
        sgn = self.sgn
        path_r, path_e, held = [r0], [e0], np.zeros(len(r0), dtype=bool)
        while sgn * path_e[-1] > sgn * end_ratio * e0:
            if len(path_r) > MAX_STEPS:
                return path_r, path_e, f"the path reached {MAX_STEPS} steps"
            r = path_r[-1]
            d = self.descent(r, held)
            if d is None:
                way = "down" if sgn > 0 else "up"
                return path_r, path_e, f"no same-means direction moves E {way} with the q at their bounds held"
            room = _room(r, d)
            if room.min() <= 1e-12:  # a coordinate already at its bound would leave it: hold it, look again
                held |= room <= 1e-12
                continue
            h = min(STEP_R, float(room.min()))
            hit = room <= h * (1 + 1e-12)
            r_new = r + h * d
            r_new[hit] = np.where(d[hit] > 0, np.log1p(-2.0 * Q_MIN), np.log1p(-2.0 * Q_MAX))
            e_new = self.E(r_new)
            if not sgn * e_new < sgn * path_e[-1]:
                return path_r, path_e, f"E stopped {'falling' if sgn > 0 else 'rising'}"
            held |= hit
            path_r.append(r_new)
            path_e.append(e_new)
        return path_r, path_e, f"E reached {end_ratio:g} × E(canonical)"

    def points(
        self, path_r: list[np.ndarray], path_e: list[float], arc: np.ndarray, targets: np.ndarray
    ) -> list[dict[str, Any]]:
        """The sweep's points at the given values of E, each with its SCM and efficiencies; every arm mean
        checked against the canonical one to MEAN_TOLERANCE."""
        sgn, r0 = self.sgn, path_r[0]
        points = []
        for k, target in enumerate(targets):
            # sgn · E falls strictly along the path: segment i holds the target; r linear in E on it (both ends
            # are same-means)
            i = (
                min(int(np.searchsorted(-sgn * np.array(path_e), -sgn * target, side="right")) - 1, len(path_e) - 2)
                if k
                else -1
            )
            if i < 0:
                r, t = r0, 0.0
            else:
                w = (path_e[i] - target) / (path_e[i] - path_e[i + 1])
                r, t = path_r[i] + w * (path_r[i + 1] - path_r[i]), float(arc[i] + w * (arc[i + 1] - arc[i]))
            q = _q_of(r)
            worst = float(np.abs(arm_means(q, self.parities) - self.mu0).max())
            if worst > MEAN_TOLERANCE:
                raise CausalBanditsError(
                    f"nonmanip panel {self.name!r}: same-means point {k} moves an arm mean by {worst:.3g} "
                    f"(> {MEAN_TOLERANCE:g}); this is a bug"
                )
            spec = _spec(self.model, q)
            points.append(
                {
                    "point": k,
                    "arc": t,
                    "scm": spec,
                    "max_mean_change": worst,
                    **self.efficiency.document(self.efficiency.of(spec)),
                }
            )
        return points


def _sweep(name: str, panel: Mapping[str, Any], towards: str) -> _Sweep:
    """The sweep of a panel, checked: an XOR-Bernoulli SCM, every q < 1/2."""
    if towards not in ("low", "high"):
        raise ValueError(f"towards = {towards!r}; use low or high")
    if panel["scm"].get("family", "xor_bernoulli") != "xor_bernoulli":
        raise CausalBanditsError(f"nonmanip panel {name!r}: the same-means family needs an xor_bernoulli SCM")
    canonical = experiments.instance_document(name, panel)
    diagram, reward = panel_diagram(panel)
    model = cast(XorBernoulliSCM, scms.scm(diagram, panel["scm"]))  # family checked above
    q0 = np.array([model.q[u] for u in model.exogenous])
    if (q0 >= 0.5).any():
        raise CausalBanditsError(
            f"nonmanip panel {name!r}: the same-means family needs every q < 1/2 "
            f"(r = log(1 − 2q)); got {dict(zip(model.exogenous, q0))}"
        )
    parities = [parity(model, reward, a["values"]) for a in canonical["arms"]]
    sgn = 1.0 if towards == "low" else -1.0
    mu0 = np.array([a["mu"] for a in canonical["arms"]])
    return _Sweep(name, model, parities, mu0, PanelEfficiency(canonical), sgn)


def family(
    name: str, panel: Mapping[str, Any], n_points: int, end_ratio: float, towards: str = "low"
) -> dict[str, Any]:
    """The same-means sweep of a panel: the path swept, the points (SCM, efficiencies) and the checks.
    Point 0 is the canonical SCM; there is always that point (Table 1's efficiency note reads it).
    ``towards`` "low" follows E down to ``end_ratio`` × E(canonical), "high" up to it (ascent)."""
    n_points = max(int(n_points), 1)
    sweep = _sweep(name, panel, towards)
    model, sgn = sweep.model, sweep.sgn
    r0 = np.log1p(-2.0 * np.array([model.q[u] for u in model.exogenous]))
    e0 = sweep.E(r0)
    dimension = same_means_basis(sweep.parities, len(r0)).shape[0]
    if dimension == 0:
        path_r, path_e, stop = [r0], [e0], "the arm means fix every parameter: the family is the canonical SCM alone"
    elif np.isnan(e0):
        path_r, path_e = [r0], [e0]
        stop = "z²ID finds no expression on this panel, so the efficiency is undefined and POMIS+ is POMIS"
    else:
        path_r, path_e, stop = sweep.path(r0, e0, end_ratio)
    e_end = sgn * max(sgn * path_e[-1], sgn * end_ratio * e0) if len(path_e) > 1 else e0
    arc = np.concatenate([[0.0], np.cumsum([np.linalg.norm(b - a) for a, b in itertools.pairwise(path_r)])])
    why = (
        f"same-means SCMs form a {dimension}-dimensional set in r = log(1 − 2q); swept along the path of steepest "
        f"{'descent' if sgn > 0 else 'ascent'} of the panel efficiency E from the canonical SCM "
        f"({len(path_r) - 1} steps of {STEP_R} in r, a q "
        f"reaching [{Q_MIN}, {Q_MAX}] held there); stopped: {stop}"
    )
    return {
        "panel": name,
        "title": panel.get("title", name),
        "exogenous": list(model.exogenous),
        "null_space_dimension": int(dimension),
        "direction_note": why,
        "q_bounds": [Q_MIN, Q_MAX],
        "towards": towards,
        "end_ratio": end_ratio,
        "path": [
            {"arc": float(a), "q": _spec(model, _q_of(r))["q"], "panel_efficiency": float(e)}
            for a, r, e in zip(arc, path_r, path_e)
        ],
        "points": sweep.points(path_r, path_e, arc, np.linspace(e0, e_end, n_points)),
    }


def point_instance(panel: Mapping[str, Any], family_doc: Mapping[str, Any], k: int) -> dict[str, Any]:
    """The instance document of sweep point k (the panel's, with the point's SCM and its efficiencies; its
    experiment name :func:`stream_key`), checked against the canonical arm means by exact inference (pgmpy),
    independently of :func:`parity`."""
    point = family_doc["points"][k]
    name = stream_key(family_doc["panel"], k)
    doc = experiments.instance_document(
        name,
        {**panel, "scm": point["scm"], "title": f"{panel.get('title', family_doc['panel'])}, same-means point {k}"},
    )
    canonical = experiments.instance_document(family_doc["panel"], panel)
    worst = max(abs(a["mu"] - b["mu"]) for a, b in zip(doc["arms"], canonical["arms"]))
    if worst > 1e-9:
        raise CausalBanditsError(
            f"nonmanip {name}: an arm mean differs from the canonical SCM's by {worst:.3g} (> 1e-9)"
        )
    doc["sensitivity"] = {"panel": family_doc["panel"], **{k_: v for k_, v in point.items() if k_ != "scm"}}
    return doc


def family_step(job: Job) -> None:
    """Rule same_means_family: a panel's same-means SCMs and the efficiency of its z² estimators (:func:`family`)."""
    doc = family(job.wildcards.experiment, job.params.panel, **job.params.sweep)
    store.write_json(job.output[0], doc)
    log.info(
        "%s: %s; efficiency %s",
        doc["panel"],
        doc["direction_note"],
        ", ".join(f"{pt['panel_efficiency']:.4g}" for pt in doc["points"]),
    )


def instance_step(job: Job) -> None:
    """Rule same_means_instance: one same-means point's instance (:func:`point_instance`: arms, exact means,
    efficiencies) and its POMIS+ expression catalogue."""
    out, wc = job.output, job.wildcards
    doc = point_instance(job.params.panel, store.read_json(job.input.family), int(wc.point))
    found = write_with_catalogue(out.instance, out.catalogue, doc)
    log.info(
        "%s point %s: efficiency %.6g, arm means as the canonical SCM's (max change %.2g); %d expressions",
        wc.experiment,
        wc.point,
        doc["sensitivity"]["panel_efficiency"],
        doc["sensitivity"]["max_mean_change"],
        found["n_expressions"],
    )
