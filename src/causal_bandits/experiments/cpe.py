"""cpe's pure-exploration algorithms on a researcher's own graph: CCPE-BGLM, CCPE-General, LUCB and the naive
ablation (Combinatorial pure exploration of causal bandits, ICLR 2023; docs/papers/cpe.md), each run until it
stops with a (ε, δ)-PAC answer or reaches the sample cap, and the paper-style Table 2 of the result.

The model is cpe's binary SCM (:class:`causal_bandits.papers.cpe.scm.BinarySCM`): nodes in a topological order,
the hidden ones named, the reward, and one parametric mechanism per node, P(V = 1 | parents) =
``linear`` (intercept + Σ w·pa), ``logistic`` (the BGLM's link) or ``max``. Explicit tables are not among
them (cpe's instances have nodes with up to 64 parents): a graph with tables is an own experiment of the
``experiments:`` block (scm family ``cpt``), played by regret-minimising solvers. :func:`instance` builds the
arms from the graph, all interventions on at most ``max_intervened`` observed variables, do() first; each arm's
exact mean μ_a and E[Y | S = s] (what the naive ablation estimates) by enumeration; each arm's admissible
sequence (Definition 3) where the observed parents of S adjust for it, else none (the arm is then learnt from
its own pulls). CCPE-BGLM needs a BGLM (``bglm: {link, constant}``: every node has the constant node among its
parents and the link's mechanism); without one it is not run, and :func:`pure_exploration` says so.

:func:`pure_exploration` (``cb.pure_exploration``) runs it all from Python and returns the table; the workflow's
``pure_exploration:`` block runs the same through the workflow.
"""

from __future__ import annotations

import graphlib
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from causal_bandits import runs
from causal_bandits.errors import ConfigError
from causal_bandits.experiments.pure_exploration_keys import ALGORITHMS, KEY, STRATEGY, skipped
from causal_bandits.papers.cpe.actions import actions_up_to
from causal_bandits.papers.cpe.admissible import AdmissibleSequence, adjustment_sequence, is_admissible
from causal_bandits.papers.cpe.assumptions import eta, kappa
from causal_bandits.papers.cpe.instance import CPEInstance
from causal_bandits.papers.cpe.scm import BinarySCM

#: What a mechanism of cpe's SCMs may hold.
MECHANISM_KEYS = {"kind", "parents", "weights", "intercept", "damping", "scale"}
#: What the model takes, for the error messages.
MODELS = (
    "cpe's SCMs take one parametric mechanism per node: kind linear, logistic or max, with an intercept and one "
    "weight per parent (docs/guide/python-api.md#python-api-cpe)"
)


def scm(document: Mapping[str, Any], where: str = "scm") -> BinarySCM:
    """The binary SCM of a ``{nodes, hidden, reward, mechanisms}`` document; explicit tables are refused with a line
    that says which models it takes."""
    tables = sorted({"p1", "p_u", "q", "c", "family"} & set(document))
    if tables:
        raise ConfigError(
            f"{where} gives {tables[0]!r}: explicit tables are not a model cpe's algorithms take; {MODELS} "
            "(a tabular SCM is an own experiment of the experiments: block, scm family cpt)"
        )
    for v, mech in dict(document.get("mechanisms", {})).items():
        extra = sorted(set(mech) - MECHANISM_KEYS)
        if extra:
            raise ConfigError(f"{where}.mechanisms.{v} gives {extra[0]!r}, not a key of a mechanism; {MODELS}")
    _check_graph(document, where)
    return BinarySCM.from_document(document)


def _check_graph(document: Mapping[str, Any], where: str) -> None:
    """The graph's own checks, before the model's: a reward node named (never a default), and parents that form
    no directed cycle (a cycle is named with its nodes: no order of the nodes lists every parent first)."""
    if document.get("reward") is None:
        nodes = list(document.get("nodes") or ())
        raise ConfigError(
            f"{where} names no reward node; add reward: <node> naming the node whose mean the arms are judged by"
            + (f" (one of {nodes})" if nodes else "")
        )
    sorter: graphlib.TopologicalSorter[str] = graphlib.TopologicalSorter()
    for v, mech in dict(document.get("mechanisms", {})).items():
        sorter.add(v, *(mech.get("parents") or ()))
    try:
        sorter.prepare()
    except graphlib.CycleError as err:
        path = " -> ".join(err.args[1])  # each node a parent of the next, the first repeated at the end
        raise ConfigError(
            f"{where}: the parents form a directed cycle {path}; a causal graph is acyclic, so remove one of its edges"
        ) from None


def _naive_means(model: BinarySCM, actions: Sequence[Any]) -> np.ndarray:
    """E[Y | S = s] of every action (E[Y] for do()), from the exact joint distribution."""
    names, configs, prob = model.joint()
    col = {v: i for i, v in enumerate(names)}
    y = configs[:, col[model.reward]]
    out = []
    for a in actions:
        rows = np.all([configs[:, col[v]] == x for v, x in a.assignment], axis=0) if a.S else np.ones(len(y), bool)
        mass = prob[rows].sum()
        out.append(float(prob[rows] @ y[rows] / mass) if mass > 0 else float("nan"))
    return np.asarray(out)


def _sequence(model: BinarySCM, S: Sequence[str], constant: str | None) -> AdmissibleSequence | None:
    """An admissible sequence for do(S): the observed parents of S as one adjustment block, when admissible."""
    if not S:
        return None
    parents = {p for v in S for p in model.parents(v)} - set(S) - model.hidden - {constant}
    seq = adjustment_sequence(S, [v for v in model.observed if v in parents])
    return seq if is_admissible(model, seq) else None


def instance(
    document: Mapping[str, Any],
    *,
    max_intervened: int = 1,
    bglm: Mapping[str, str] | None = None,
    name: str = "own",
    where: str = "scm",
) -> CPEInstance:
    """The cpe instance of a researcher's SCM ``document``: arms, exact means, admissible sequences, and with
    ``bglm`` (``{link: logistic | linear, constant: <node>}``) the BGLM's structure and constants κ, η."""
    model = scm(document, where)
    constant = (bglm or {}).get("constant")
    variables = [v for v in model.observed if v != constant]
    if not 1 <= max_intervened <= len(variables):
        raise ConfigError(
            f"max_intervened = {max_intervened} must lie in 1..{len(variables)} (the observed variables to set)"
        )
    actions = actions_up_to(variables, max_intervened)
    mu = np.array([model.interventional_mean(a.as_dict()) for a in actions])
    extra: dict[str, Any] = {}
    if bglm:
        if constant not in model.nodes:
            raise ConfigError(f"bglm.constant {constant!r} is not a node of {where}; name the node that is always 1")
        extra = {
            "link": bglm["link"],
            "constant": constant,
            "kappa": kappa(model, constant, bglm["link"]),
            "eta": eta(model, constant),
        }
    return CPEInstance(
        family=name,
        params={},
        scm=model,
        actions=actions,
        sequences=tuple(_sequence(model, a.S, constant) for a in actions),
        mu=mu,
        naive_mu=_naive_means(model, actions),
        **extra,
    )


def simulation(job: runs.RunJob, inputs: Mapping[str, str]) -> runs.Simulation:
    """A run job of the ``pure_exploration:`` section (:func:`causal_bandits.experiments.pure_exploration.describe`):
    the algorithm with cpe's practical constants, δ and ε on the ``instance`` document's environment, until every
    seed stops or the cap (the job's horizon), recording cpe's stopping diagnostics."""
    from causal_bandits import store

    inst = CPEInstance.from_document(store.read_json(inputs["instance"]))
    played = _played(inst, job.algorithm, job.science["delta"], job.science["epsilon"], job.horizon)
    return runs.Simulation(*played, declared=("cpe_",))


def _played(inst: CPEInstance, algorithm: str, delta: float, epsilon: float, cap: int) -> tuple[Any, Any, list[Any]]:
    """The policy, the environment and the recorders of one algorithm on ``inst``: cpe's stopping diagnostics, and
    the regret at cpe's sample checkpoints up to the ``cap`` (the run store's trace)."""
    from causal_bandits.bandits.recorders import RegretTrace
    from causal_bandits.papers.cpe.design import Job
    from causal_bandits.papers.cpe.environment import CPEEnvironment
    from causal_bandits.papers.cpe.recorders import StoppingDiagnostics, checkpoints
    from causal_bandits.papers.cpe.runs import policy

    job = Job(inst.family, "own", STRATEGY, algorithm, 0, STRATEGY)
    recorders = [RegretTrace(checkpoints(cap, first=min(1000, cap))), StoppingDiagnostics()]
    return policy(job, inst, delta=delta, epsilon=epsilon), CPEEnvironment(inst), recorders


#: The columns :func:`table` adds to cpe's Table 2, after ``n_arms``: the arms by name.
ARM_COLUMNS = ("best_arm", "best_mean", "recommended")


def table(summaries: pd.DataFrame, inst: CPEInstance, delta: float, epsilon: float) -> pd.DataFrame:
    """The paper-style Table 2 (:func:`causal_bandits.papers.cpe.tables.pac_table`) of per-seed ``summaries``
    (columns ``algorithm`` and the engine's and cpe's summary columns) on ``inst``, algorithms by label, with the arms
    named (:data:`ARM_COLUMNS`, :func:`named_arms`)."""
    from causal_bandits.papers.cpe import aggregate, tables
    from causal_bandits.papers.cpe.quantities import quantities

    name = inst.family
    summary = quantities(inst, epsilon, delta, with_burn_in=False).summary
    described = {name: {"mu": inst.mu, "epsilon": epsilon, "config": "own", "params": {}, "summary": summary}}
    stopping = aggregate.stopping_table(summaries.assign(key=name, strategy=STRATEGY), described, delta)
    return tables.printed(named_arms(tables.pac_table({name: stopping}), summaries, inst))


def best_arm(inst: CPEInstance) -> tuple[str, float]:
    """The instance's exact best arm (``do(X=1)``; every arm of the top mean, joined by " = ", where several tie) and
    its mean."""
    top = inst.mu.max()
    return " = ".join(a.label for a, m in zip(inst.actions, inst.mu, strict=True) if m >= top - 1e-12), float(top)


def named_arms(frame: pd.DataFrame, summaries: pd.DataFrame, inst: CPEInstance) -> pd.DataFrame:
    """``frame`` (one row per algorithm key) with :data:`ARM_COLUMNS` after ``n_arms``: the instance's exact best
    arm and its mean (:func:`best_arm`), and the arms the algorithm's runs recommended, each with how many of its
    runs did, most often first ("do(X=1) 18/20; do() 2/20")."""
    best, top = best_arm(inst)

    def recommended(algorithm: str) -> str:
        picks = [int(a) for a in summaries.loc[summaries["algorithm"] == algorithm, "recommended"]]
        counts = sorted(Counter(picks).items(), key=lambda c: (-c[1], c[0]))
        return "; ".join(f"{inst.actions[arm].label} {n}/{len(picks)}" for arm, n in counts)

    at = list(frame.columns).index("n_arms") + 1
    named = frame.copy()
    named.insert(at, "best_arm", best)
    named.insert(at + 1, "best_mean", top)
    named.insert(at + 2, "recommended", [recommended(a) for a in frame["algorithm"]])
    return named


def pure_exploration(
    document: Mapping[str, Any],
    *,
    delta: float = 0.05,
    epsilon: float = 0.0,
    max_samples: int = 100_000,
    n_seeds: int = 20,
    max_intervened: int = 1,
    bglm: Mapping[str, str] | None = None,
    algorithms: Sequence[str] = ALGORITHMS,
    name: str = "own",
) -> pd.DataFrame:
    """Run cpe's algorithms on a researcher's SCM and return the paper-style Table 2 of the result.

    Per algorithm: the runs, how many reached the cap (``n_censored``), the exact best arm and its mean
    (``best_arm``, ``best_mean``), the arms its runs recommended with how many did (``recommended``: "do(X=1) 18/20;
    do() 2/20"), the correctness rate with its Wilson 95 % interval, and the samples to stop, beside the instance's
    hardness H and H_m (the columns: docs/guide/python-api.md#python-api-cpe). Streams are keyed
    ("pure_exploration", ``name``, seed, purpose), as the workflow's runs of an experiment of that name, so a call
    repeats to the bit. An algorithm that cannot run
    (CCPE-BGLM without a BGLM) is left out with a warning that says why.

    Parameters
    ----------
    document : Mapping
        The SCM: ``{nodes, hidden, reward, mechanisms}``, nodes parents first, one mechanism per node
        (``{kind: linear | logistic | max, parents, weights, intercept}``); explicit tables are refused.
    delta : float
        The confidence δ: each algorithm's answer is (ε, δ)-PAC.
    epsilon : float
        The tolerance ε: an arm within ε of the best counts as correct.
    max_samples : int
        The sample cap: a seed still running then is censored and answers with its current recommendation.
    n_seeds : int
        Independent runs per algorithm, seeds 0..n-1.
    max_intervened : int
        The arms: every do(S = s) with at most this many observed variables in S, and do().
    bglm : Mapping, optional
        ``{link: logistic | linear, constant: <node always 1>}`` when the SCM is a BGLM (CCPE-BGLM needs one).
    algorithms : Sequence[str]
        Keys of cpe's registry, in table order (default: CCPE-BGLM, CCPE-General, LUCB, the naive ablation).
    name : str
        The experiment's name: its streams' key and its row label.
    """
    import warnings

    from causal_bandits.bandits.engine import Streams, simulate

    inst = instance(document, max_intervened=max_intervened, bglm=bglm, name=name)
    gone = skipped(algorithms, bglm)
    for algorithm, reason in gone.items():
        warnings.warn(f"{algorithm} is not run on {name}: {reason}", stacklevel=2)
    frames = []
    for algorithm in [a for a in algorithms if a not in gone]:
        policy, env, recorders = _played(inst, algorithm, delta, epsilon, max_samples)
        run = simulate(policy, env, Streams(KEY, name, np.arange(n_seeds)), max_samples, recorders)
        frames.append(pd.DataFrame({"seed": run.seeds, **run.summary}).assign(algorithm=algorithm))
    return table(pd.concat(frames, ignore_index=True), inst, delta, epsilon)
