"""Replication package for five causal-bandit papers (see README.md), and a library for one's own studies.

What a user needs is importable from here; each name loads its module on first use, so
``import causal_bandits`` stays cheap (run jobs start often).

* diagrams and SCMs: :class:`CausalDiagram`, :class:`XorBernoulliSCM`, :class:`ConfoundedCPT`, :class:`CPTModel`;
* intervention sets (Lee & Bareinboim, AAAI-19): :func:`pomis`, :func:`mis`, :func:`brute_force_sets`,
  and arms of a strategy with exact means: :func:`arms_for`;
* environments: :class:`InterventionArms`, :class:`BernoulliArms`, :class:`ContextualBernoulli`;
* policies: :class:`ThompsonSampling`, :class:`KLUCB` and their z² versions :class:`Z2ThompsonSampling`,
  :class:`Z2KLUCB` (POMIS+; built by ``arms_for(..., "POMISplus").policy("TS")``);
* the engine: :func:`simulate`, :class:`Streams` (``Streams.for_experiment(name, seeds)``), :class:`Run`
  (``run.to_frame()``), :func:`linear_grid`, and the recorder :class:`RegretTrace`.

>>> import causal_bandits as cb
>>> G = cb.CausalDiagram(["X", "Z", "Y"], [("X", "Z"), ("Z", "Y")], [("X", "Y")])
>>> cb.pomis(G, "Y"), cb.mis(G, "Y")
([(), ('Z',)], [(), ('X',), ('Z',)])
"""

__version__ = "0.1.0"

_WHERE = {
    "CausalDiagram": "causal_bandits.scm.diagram",
    "XorBernoulliSCM": "causal_bandits.scm.xor_bernoulli",
    "ConfoundedCPT": "causal_bandits.scm.confounded_cpt",
    "CPTModel": "causal_bandits.scm.cpt",
    "pomis": "causal_bandits.causal.pomis",
    "mis": ("causal_bandits.causal.pomis", "minimal_intervention_sets"),
    "brute_force_sets": "causal_bandits.causal.pomis",
    "arms_for": "causal_bandits.arms",
    "Arms": "causal_bandits.arms",
    "InterventionArms": "causal_bandits.bandits.environments",
    "BernoulliArms": "causal_bandits.bandits.environments",
    "ContextualBernoulli": "causal_bandits.bandits.environments",
    "ThompsonSampling": "causal_bandits.bandits.thompson",
    "KLUCB": "causal_bandits.bandits.klucb",
    "Z2ThompsonSampling": "causal_bandits.bandits.z2_thompson",
    "Z2KLUCB": "causal_bandits.bandits.z2_klucb",
    "simulate": "causal_bandits.bandits.engine",
    "Streams": "causal_bandits.bandits.engine",
    "Run": "causal_bandits.bandits.engine",
    "linear_grid": "causal_bandits.bandits.engine",
    "RegretTrace": "causal_bandits.bandits.recorders",
}
__all__ = [
    "KLUCB",
    "Z2KLUCB",
    "Arms",
    "BernoulliArms",
    "CPTModel",
    "CausalDiagram",
    "ConfoundedCPT",
    "ContextualBernoulli",
    "InterventionArms",
    "RegretTrace",
    "Run",
    "Streams",
    "ThompsonSampling",
    "XorBernoulliSCM",
    "Z2ThompsonSampling",
    "arms_for",
    "brute_force_sets",
    "linear_grid",
    "mis",
    "pomis",
    "simulate",
]


def __getattr__(name: str):
    """Load a re-exported name's module on first use (PEP 562)."""
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module 'causal_bandits' has no attribute {name!r}")
    module, attr = where if isinstance(where, tuple) else (where, name)
    value = getattr(__import__(module, fromlist=[attr]), attr)  # the builtin: no importlib to load at start-up
    globals()[name] = value
    return value


def __dir__():
    return sorted([*globals(), *__all__])
