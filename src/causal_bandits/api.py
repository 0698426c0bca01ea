"""The public names of the library, importable from the package itself (``import causal_bandits as cb``).

Each name loads its module on first use, so ``import causal_bandits`` stays cheap (run jobs start
often). Every job imports the package, and so this module: adding a name reruns the workflow's jobs
(:mod:`causal_bandits.sources`; a docstring edit reruns nothing).

* diagrams and SCMs: :class:`CausalDiagram`, :class:`XorBernoulliSCM`, :class:`ConfoundedCPT`, :class:`CPTModel`;
* intervention sets (Lee & Bareinboim, AAAI-19): :func:`pomis`, :func:`mis`, :func:`brute_force_sets`,
  and arms of a strategy with exact means: :func:`arms_for`;
* environments: :class:`InterventionArms`, :class:`BernoulliArms`, :class:`ContextualBernoulli`;
* policies: :class:`ThompsonSampling`, :class:`KLUCB` and their z² versions :class:`Z2ThompsonSampling`,
  :class:`Z2KLUCB` (POMIS+; built by ``arms_for(..., "POMISplus").policy("ts")``);
* the engine: :func:`simulate`, :class:`Streams` (``Streams.for_experiment(name, seeds)``), :class:`Run`
  (``run.to_frame()``), :func:`linear_grid`, and the recorder :class:`RegretTrace`;
* pure exploration on one's own graph (cpe, ICLR 2023): :func:`pure_exploration` runs CCPE-BGLM, CCPE-General,
  LUCB and the naive ablation and returns their table.

>>> import causal_bandits as cb
>>> G = cb.CausalDiagram(["X", "Z", "Y"], [("X", "Z"), ("Z", "Y")], [("X", "Y")])
>>> cb.pomis(G, "Y"), cb.mis(G, "Y")
([(), ('Z',)], [(), ('X',), ('Z',)])
"""

#: Public name -> module (or (module, attribute) where the names differ).
WHERE = {
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
    "pure_exploration": "causal_bandits.experiments.cpe",
}
NAMES = sorted(WHERE)


def load(name: str):
    """The object a public name stands for, its module imported on first use."""
    where = WHERE.get(name)
    if where is None:
        raise AttributeError(f"module 'causal_bandits' has no attribute {name!r}")
    module, attr = where if isinstance(where, tuple) else (where, name)
    return getattr(__import__(module, fromlist=[attr]), attr)  # the builtin: no importlib to load at start-up
