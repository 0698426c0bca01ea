r"""The designed instance families of docs/papers/cpe.md#cpe-experiments (not in the paper), each with exact means in
closed form.

* ``parallel``  (E1): X_i ~ Bern(1/2) iid, P(Y=1 | X) = 0.4 + 0.2 X_1, atomic actions.
  μ_do(S=s) = 0.4 + 0.2 x̄_1.
* ``rare``      (E2): X_1 ~ Bern(1/2), rare X_2..X_{r+1} ~ Bern(0.02), the rest Bern(1/2) without
  effect; P(Y=1 | X) = (0.4 + 0.2 X_1) Π_{i=2}^{r+1} (1 − d X_i). μ = (0.4 + 0.2 x̄_1) Π (1 − d x̄_i).
* ``confounded`` (E3): hidden U_1..U_3, U_Y ~ Bern(1/2); X_{2j−1}, X_{2j} <- U_j with
  P(X=1 | U=u) = (1−ρ)/2 + ρu; X_7 <- U_Y (ρ_Y); P(Y=1 | x, u_Y) = 0.15 + w·x + 0.15 u_Y; actions
  with |S| <= 2; Z_a = pair partners of S outside S (an adjustment set), none when X_7 ∈ S.
  μ = 0.475 + Σ_{i∈S} w_i (s_i − 1/2).
* ``bglm``      (E4): X_1 ≡ 1; roots X_2..X_{k+1} with θ = (0) (P = 1/2); Y logistic with
  θ_{Y,X_{i+2}} = (−1)^i (1.2 − 0.1 i), intercept −½ Σ_i max(θ_{Y,X_{i+2}}, 0); every do(S = s),
  S ⊆ roots; μ = σ(θ*, a) by the {0, 1, ∗}^k table (exact enumeration over the roots).
* ``parallel_max`` (E5, Theorem 3 class): X_i ~ Bern(p) iid, P(Y=1 | X) = 0.3 + 0.2 max_i v_i X_i,
  $v = (1, 0.5, \dots, 0.5)$; $\mu = 0.3 + 0.2 \sum_j v_{(j)} \bar x_{(j)} \prod_{i<j} (1 - \bar x_{(i)})$ ($v$ sorted
  decreasing).

x̄_i is the set value when X_i ∈ S, else P(X_i = 1). The naive means E[Y | S = s] equal μ on the
parallel families (no confounding) and are given in closed form for ``confounded``. Each closed
form is checked against enumeration of the whole SCM (hidden nodes included) in the tests.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from causal_bandits import store
from causal_bandits.bandits.bglm_model import sigma
from causal_bandits.errors import ConfigError
from causal_bandits.papers.cpe.actions import Action, actions_up_to, all_actions, atomic_actions
from causal_bandits.papers.cpe.admissible import AdmissibleSequence, adjustment_sequence, parent_sequences
from causal_bandits.papers.cpe.assumptions import eta, kappa
from causal_bandits.papers.cpe.instance import CPEInstance, bglm_structure, bglm_theta, policy_arms
from causal_bandits.papers.cpe.scm import BinarySCM, Mechanism, bernoulli

if TYPE_CHECKING:
    from causal_bandits.stages import Job


log = logging.getLogger(__name__)

#: E3's reward weights w of X_1..X_7 (docs/papers/cpe.md#cpe-e3).
CONFOUNDED_WEIGHTS = (-0.10, 0.0, 0.30, 0.20, 0.05, 0.10, -0.05)


def _names(n: int, start: int = 1) -> list[str]:
    return [f"X{i}" for i in range(start, start + n)]


def _set_or(action: Action, names: Sequence[str], p: Sequence[float]) -> np.ndarray:
    """x̄: the set value of each variable under ``action``, else its probability ``p``."""
    fixed = action.as_dict()
    return np.array([fixed.get(v, q) for v, q in zip(names, p)], dtype=float)


def _parallel_sequences(actions: Sequence[Action]) -> tuple[AdmissibleSequence | None, ...]:
    """Z_a = ∅ for every arm of a parallel graph (roots: Theorem 4 gives empty blocks)."""
    return tuple(adjustment_sequence(a.S, ()) if a.S else None for a in actions)


def _check_probability(name: str, p: float) -> None:
    if not 0.0 <= p <= 1.0:
        raise ConfigError(f"{name} = {p} is not a probability; give a value in [0, 1]")


def _instance(family, params, scm, actions, sequences, mu, naive=None, **bglm):
    mu = np.asarray(mu, dtype=float)
    return CPEInstance(
        family,
        params,
        scm,
        tuple(actions),
        tuple(sequences),
        mu,
        mu.copy() if naive is None else np.asarray(naive, dtype=float),
        **bglm,
    )


def parallel(n: int) -> CPEInstance:
    """E1 (``par_scale``): parallel graph with n binary causes, only X_1 matters."""
    if n < 2:
        raise ConfigError(f"n = {n}: the parallel family needs n >= 2 variables")
    xs = _names(n)
    mechanisms = {v: bernoulli(0.5) for v in xs}
    mechanisms["Y"] = Mechanism("linear", tuple(xs), (0.2,) + (0.0,) * (n - 1), intercept=0.4)
    actions = atomic_actions(xs)
    mu = [0.4 + 0.2 * _set_or(a, xs[:1], [0.5])[0] for a in actions]
    return _instance("parallel", {"n": n}, BinarySCM((*xs, "Y"), mechanisms), actions, _parallel_sequences(actions), mu)


def rare(r: int, d: float, n: int = 32, p_rare: float = 0.02) -> CPEInstance:
    """E2 (``par_rare``): r rarely observed arms X_2..X_{r+1} that damp the reward by d when set to 1."""
    if not 0 <= r <= n - 1:
        raise ConfigError(f"r = {r} rare variables do not fit among X2..X{n}; choose 0 <= r <= {n - 1}")
    _check_probability("d", d)
    _check_probability("p_rare", p_rare)
    xs = _names(n)
    p = [0.5] + [p_rare] * r + [0.5] * (n - 1 - r)
    mechanisms = {v: bernoulli(q) for v, q in zip(xs, p)}
    damping = (0.0,) + (float(d),) * r + (0.0,) * (n - 1 - r)
    mechanisms["Y"] = Mechanism("linear", tuple(xs), (0.2,) + (0.0,) * (n - 1), intercept=0.4, damping=damping)
    actions = atomic_actions(xs)
    mu = []
    for a in actions:
        x = _set_or(a, xs, p)
        mu.append((0.4 + 0.2 * x[0]) * np.prod(1.0 - d * x[1 : r + 1]))
    params = {"r": r, "d": d, "n": n, "p_rare": p_rare}
    return _instance("rare", params, BinarySCM((*xs, "Y"), mechanisms), actions, _parallel_sequences(actions), mu)


def confounded(rho: float, rho_Y: float = 0.8) -> CPEInstance:
    """E3 (``conf_pairs``): three confounded pairs, a confounded X_7, combinatorial actions |S| <= 2."""
    _check_probability("rho", rho)
    _check_probability("rho_Y", rho_Y)
    xs = _names(7)
    us = ["U1", "U2", "U3", "UY"]
    mechanisms = {u: bernoulli(0.5) for u in us}
    for j in range(3):
        for v in xs[2 * j : 2 * j + 2]:
            mechanisms[v] = Mechanism("linear", (us[j],), (rho,), intercept=(1 - rho) / 2)
    mechanisms["X7"] = Mechanism("linear", ("UY",), (rho_Y,), intercept=(1 - rho_Y) / 2)
    w = CONFOUNDED_WEIGHTS
    mechanisms["Y"] = Mechanism("linear", (*xs, "UY"), (*w, 0.15), intercept=0.15)
    partner = {xs[i]: xs[i ^ 1] for i in range(6)}
    actions = actions_up_to(xs, 2)
    sequences: list[AdmissibleSequence | None]
    sequences, mu, naive = [], [], []
    ev: float
    for a in actions:
        S, fixed = a.S, a.as_dict()
        if not S or "X7" in S:
            sequences.append(None)
        else:
            Z = sorted({partner[v] for v in S} - set(S), key=xs.index)
            sequences.append(adjustment_sequence(S, Z))
        mu.append(0.475 + sum(w[xs.index(v)] * (x - 0.5) for v, x in fixed.items()))
        # E[Y | S = s]: a partner of a conditioned X follows E[X' | X = x] = (1 − ρ²)/2 + ρ² x;
        # U_Y given X_7 = x has mean (1 − ρ_Y)/2 + ρ_Y x.
        cond = 0.15 + 0.15 * ((1 - rho_Y) / 2 + rho_Y * fixed["X7"] if "X7" in fixed else 0.5)
        for i, v in enumerate(xs):
            if v in fixed:
                ev = fixed[v]
            elif v in partner and partner[v] in fixed:
                ev = (1 - rho**2) / 2 + rho**2 * fixed[partner[v]]
            else:
                ev = 0.5
            cond += w[i] * ev
        naive.append(cond)
    params = {"rho": rho, "rho_Y": rho_Y}
    scm = BinarySCM((*us, *xs, "Y"), mechanisms, frozenset(us))
    return _instance("confounded", params, scm, actions, sequences, mu, naive)


def bglm_weights(k: int) -> tuple[float, ...]:
    """(θ_{Y,X_1}, θ_{Y,X_2}, ..., θ_{Y,X_{k+1}}) of E4: alternating signs, intercept −½ Σ positive."""
    w = [(-1) ** i * (1.2 - 0.1 * i) for i in range(k)]
    return (-0.5 * sum(max(x, 0.0) for x in w), *w)


def bglm(k: int, link: str = "logistic", weights: Sequence[float] | None = None) -> CPEInstance:
    """E4 (``bglm2``): two-layer BGLM with k roots and every combinatorial action (3^k arms).

    ``weights`` = (θ_{Y,X_1}, θ_{Y,X_2}, ..., θ_{Y,X_{k+1}}) replaces E4's (:func:`bglm_weights`);
    with ``link="linear"`` the roots have P = θ_{X,X_1} = 1/2 and P(Y=1 | x) = θ_Y · (1, x) must stay
    in [0, 1] (else a one-line error names Y and the value reached).
    """
    if not 1 <= k <= 12:
        raise ConfigError(f"k = {k}: the BGLM family is built for 1 <= k <= 12 roots")
    if link not in ("logistic", "linear"):
        raise ConfigError(f"link = {link!r} is unknown; use logistic or linear")
    theta = tuple(float(w) for w in (bglm_weights(k) if weights is None else weights))
    if len(theta) != k + 1:
        raise ConfigError(f"weights has {len(theta)} entries; give k + 1 = {k + 1} (the X1 intercept first)")
    roots = _names(k, start=2)
    root_weight = 0.0 if link == "logistic" else 0.5  # P(root = 1) = 1/2 either way
    mechanisms = {"X1": bernoulli(1.0)}
    mechanisms.update({v: Mechanism(link, ("X1",), (root_weight,)) for v in roots})
    mechanisms["Y"] = Mechanism(link, ("X1", *roots), theta)
    actions = all_actions(roots)
    scm = BinarySCM(("X1", *roots, "Y"), mechanisms)
    sequences = parent_sequences(scm, [a.S for a in actions])
    mu = sigma(bglm_theta(scm, "X1"), bglm_structure(scm, "X1", link), policy_arms(scm, actions))[0]
    params = {"k": k} if (link, weights) == ("logistic", None) else {"k": k, "link": link, "weights": list(theta)}
    return _instance(
        "bglm",
        params,
        scm,
        actions,
        sequences,
        mu,
        link=link,
        constant="X1",
        kappa=kappa(scm, "X1", link),
        eta=eta(scm, "X1"),
    )


def parallel_max(n: int, p: float) -> CPEInstance:
    """E5 (``par_max``): the Theorem 3 class, P(Y=1 | X) = 0.3 + 0.2 max_i v_i X_i."""
    if n < 2:
        raise ConfigError(f"n = {n}: the parallel_max family needs n >= 2 variables")
    _check_probability("p", p)
    xs = _names(n)
    v = np.array([1.0] + [0.5] * (n - 1))
    mechanisms = {x: bernoulli(p) for x in xs}
    mechanisms["Y"] = Mechanism("max", tuple(xs), tuple(v), intercept=0.3, scale=0.2)
    actions = atomic_actions(xs)
    order = np.argsort(-v, kind="stable")
    mu = []
    for a in actions:
        xbar = _set_or(a, xs, [p] * n)[order]
        survive = np.concatenate([[1.0], np.cumprod(1.0 - xbar)[:-1]])
        mu.append(0.3 + 0.2 * float(np.sum(v[order] * xbar * survive)))
    return _instance(
        "parallel_max", {"n": n, "p": p}, BinarySCM((*xs, "Y"), mechanisms), actions, _parallel_sequences(actions), mu
    )


#: Generator of each family, by the name stored in instance documents.
FAMILIES: dict[str, Callable[..., CPEInstance]] = {
    "parallel": parallel,
    "rare": rare,
    "confounded": confounded,
    "bglm": bglm,
    "parallel_max": parallel_max,
}


def from_config(spec: Mapping[str, Any]) -> CPEInstance:
    """The instance of a config entry ``{family, params}``."""
    return FAMILIES[spec["family"]](**spec.get("params", {}))


def check_document(doc: Mapping[str, Any]) -> CPEInstance:
    """The instance of a document, checked to be exactly what its family's generator makes."""
    instance = CPEInstance.from_document(doc)
    if (
        instance.family in FAMILIES
        and instance.to_document() != FAMILIES[instance.family](**instance.params).to_document()
    ):
        raise ConfigError(
            f"the instance document differs from what family {instance.family!r} makes with "
            f"{dict(instance.params)}; regenerate it instead of editing it"
        )
    return instance


def instance_step(job: Job) -> None:
    """Rule cpe_instance: one config's instance document (exact means from the family's closed form), as JSON."""
    instance = from_config(job.params.spec)
    store.write_json(job.output[0], instance.to_document())
    log.info("%s %s: %d arms, mu* = %.6f", instance.family, dict(instance.params), instance.n_arms, instance.mu.max())
