"""Binary SCMs given by conditional probability tables, with roles for a causal contextual bandit.

A model holds, for every variable V (domain {0, 1}), its parents and P(V = 1 | pa(V)) for each
parent configuration, in binary order with the first parent most significant (pgmpy's column
order). Huang & Wu's Table 2 is such a table: it defines the Figure 2 SCM (hidden confounder C1,
selection node S) that generates the offline data. The roles name the context C, the treatment /
arm features X, the outcome Y, the latent variables and the selection node S.

Exact queries (interventional, conditional, selected joints) use pgmpy's variable elimination on
the explicit Bayesian network, so ground truth comes from enumeration, never from simulation.
pgmpy is imported by the methods that query (it takes ~2 s to load), so jobs that only simulate
bandits with the configuration helpers never load it. Sampling is vectorised numpy on uniforms
from a keyed generator (:mod:`causal_bandits.rng`).
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from itertools import product
from typing import TYPE_CHECKING, Any

import numpy as np

from causal_bandits.errors import ConfigError, DataError
from causal_bandits.scm.diagram import CausalDiagram

if TYPE_CHECKING:  # networkx and pandas load on first use: jobs that only need configurations() skip them
    import networkx as nx
    import pandas as pd
    from pgmpy.factors.discrete import DiscreteFactor
    from pgmpy.models import DiscreteBayesianNetwork

DOMAIN = (0, 1)
ROLES = ("latent", "selection", "context", "treatment", "outcome")


def configurations(n: int) -> np.ndarray:
    """All binary configurations of ``n`` variables, shape (2**n, n), first column most significant."""
    return np.array(list(product(DOMAIN, repeat=n)), dtype=np.int64).reshape(2**n, n)


def config_index(values: np.ndarray) -> np.ndarray:
    """Index of binary configurations (rows of ``values``), first column most significant."""
    values = np.asarray(values, dtype=np.int64)
    weights = 1 << np.arange(values.shape[-1])[::-1]
    return values @ weights


def _probability(name: str, row: str, p: Any) -> float:
    """A table entry as a float: a number or a fraction string such as ``"4/15"``."""
    try:
        value = float(Fraction(p)) if isinstance(p, str) else float(p)
    except (ValueError, ZeroDivisionError, TypeError):
        raise ConfigError(
            f'CPT of {name}, row {row}: {p!r} is not a number; write a probability such as 0.25 or "4/15"'
        ) from None
    if not 0.0 <= value <= 1.0:
        raise ConfigError(
            f"CPT of {name}, row {row}: P({name}=1 | parents) = {p} is outside [0, 1]; "
            "give a probability between 0 and 1"
        )
    return value


@dataclass(frozen=True)
class Variable:
    """One binary variable: its parents and P(V = 1 | parents) per parent configuration."""

    name: str
    parents: tuple[str, ...]
    p1: tuple[float, ...]
    formula: str = ""

    def row_label(self, k: int) -> str:
        """``"(X1=0, C1=1)"`` for parent configuration ``k`` (``"()"`` without parents)."""
        bits = configurations(len(self.parents))[k]
        return "(" + ", ".join(f"{p}={b}" for p, b in zip(self.parents, bits)) + ")"


class CPTModel:
    """A binary SCM over a DAG, given by CPTs, with the roles of a causal contextual bandit.

    Invalid input raises :class:`ConfigError` with one line naming the problem and the fix: an
    unknown parent, a table of the wrong length, a probability outside [0, 1], a cycle, a role
    naming an unknown variable, a selection node with children or latent parents, a context that
    descends from the treatment.

    Parameters
    ----------
    variables : iterable of Variable
        Every binary variable with its parents and P(V = 1 | parents).
    latent : sequence of str
        The unobserved variables.
    selection : str
        The selection node S (offline data are the rows with S = 1).
    context : sequence of str
        The context variables the learner observes.
    treatment : sequence of str
        The variables the learner sets (its arms).
    outcome : str
        The reward variable.
    """

    def __init__(
        self,
        variables: Iterable[Variable],
        *,
        latent: Sequence[str],
        selection: str,
        context: Sequence[str],
        treatment: Sequence[str],
        outcome: str,
    ) -> None:
        self.variables = {v.name: v for v in variables}
        self.latent = tuple(latent)
        self.selection = selection
        self.context = tuple(context)
        self.treatment = tuple(treatment)
        self.outcome = outcome
        self._check()

    # ------------------------------------------------------------------------- construction
    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> CPTModel:
        """From the ``scm`` config section: ``variables: {name: {parents, p1, formula}}`` + roles."""
        table = config.get("variables")
        if not isinstance(table, Mapping) or not table:
            raise ConfigError("scm.variables must map each variable to {parents: [...], p1: [...]}")
        variables = []
        for name, spec in table.items():
            parents = tuple(spec.get("parents", ()))
            for p in parents:
                if p not in table:
                    raise ConfigError(
                        f"CPT of {name} names unknown parent {p!r}; add {p} to scm.variables "
                        "or remove it from the parents"
                    )
            rows = list(spec.get("p1", ()))
            if len(rows) != 2 ** len(parents):
                raise ConfigError(
                    f"CPT of {name} has {len(rows)} rows but {len(parents)} binary parents need "
                    f"{2 ** len(parents)}; give P({name}=1 | parents) for each parent configuration"
                )
            probe = Variable(name, parents, ())
            p1 = tuple(_probability(name, probe.row_label(k), p) for k, p in enumerate(rows))
            variables.append(Variable(name, parents, p1, str(spec.get("formula", ""))))
        return cls(variables, **{role: config[role] for role in ROLES})

    def _check(self) -> None:
        import networkx as nx

        names = set(self.variables)
        dag = nx.DiGraph()
        dag.add_nodes_from(names)
        dag.add_edges_from((p, v.name) for v in self.variables.values() for p in v.parents)
        try:
            cycle = nx.find_cycle(dag)
            path = " -> ".join([a for a, _ in cycle] + [cycle[0][0]])
            raise ConfigError(f"the CPT parents form a directed cycle {path}; remove one of its edges")
        except nx.NetworkXNoCycle:
            pass
        for role in ROLES:
            value = getattr(self, role)
            for v in (value,) if isinstance(value, str) else value:
                if v not in names:
                    raise ConfigError(f"scm.{role} names unknown variable {v!r}; use one of {sorted(names)}")
        s = self.selection
        if children := sorted(dag.successors(s)):
            raise ConfigError(
                f"selection node {s} has children {children}; S must be a sink (it only marks "
                "which rows enter the offline data), so remove its outgoing edges"
            )
        if hidden := sorted(set(self.variables[s].parents) & set(self.latent)):
            raise ConfigError(
                f"selection node {s} has latent parents {hidden}; selection may only depend on observed variables"
            )
        roles = [set(self.latent), {s}, set(self.context), set(self.treatment), {self.outcome}]
        for i, a in enumerate(roles):
            for b in roles[i + 1 :]:
                if a & b:
                    raise ConfigError(
                        f"variable {sorted(a & b)[0]} has two roles in scm; give each "
                        "variable at most one of latent/selection/context/treatment/outcome"
                    )
        descendants = set().union(*(nx.descendants(dag, x) for x in self.treatment))
        if bad := sorted(set(self.context) & descendants):
            raise ConfigError(
                f"context variable {bad[0]} descends from the treatment; contexts must be "
                "observed before acting (non-descendants of X)"
            )
        if self.outcome not in descendants:
            raise ConfigError(
                f"outcome {self.outcome} does not descend from the treatment; the arms would have no effect"
            )

    def with_context(self, context: Sequence[str]) -> CPTModel:
        """The same SCM with another context (e.g. none, for the non-contextual arms of Algorithm 6)."""
        return CPTModel(
            self.variables.values(),
            latent=self.latent,
            selection=self.selection,
            context=context,
            treatment=self.treatment,
            outcome=self.outcome,
        )

    # ------------------------------------------------------------------------------ structure
    @cached_property
    def dag(self) -> nx.DiGraph:
        """The DAG over all variables, latent ones and the selection node included."""
        import networkx as nx

        g = nx.DiGraph()
        g.add_nodes_from(self.variables)
        g.add_edges_from((p, v.name) for v in self.variables.values() for p in v.parents)
        return nx.freeze(g)

    @cached_property
    def order(self) -> tuple[str, ...]:
        """A topological order (alphabetical among ties)."""
        import networkx as nx

        return tuple(nx.lexicographical_topological_sort(self.dag))

    @property
    def observed(self) -> tuple[str, ...]:
        """The variables recorded in the offline data (all but the latent and selection nodes)."""
        return tuple(v for v in self.order if v not in self.latent and v != self.selection)

    @cached_property
    def diagram(self) -> CausalDiagram:
        """The causal diagram over the observed variables and S: latents projected to ↔ edges."""
        full = CausalDiagram(self.variables, self.dag.edges)
        return full.latent_projection([*self.observed, self.selection])

    def parent_index(self, name: str, values: Mapping[str, np.ndarray], n: int) -> np.ndarray:
        """Row of ``name``'s table for ``n`` parent configurations (arrays), first parent most significant."""
        index = np.zeros(n, dtype=np.int64)
        for p in self.variables[name].parents:
            index = 2 * index + values[p]
        return index

    # ------------------------------------------------------------------------------- sampling
    def sample(self, rng: np.random.Generator, n: int) -> pd.DataFrame:
        """``n`` i.i.d. rows of every variable (int8 columns in topological order)."""
        import pandas as pd

        noise = rng.random((n, len(self.order)))
        values: dict[str, np.ndarray] = {}
        for j, name in enumerate(self.order):
            p1 = np.asarray(self.variables[name].p1)
            values[name] = (noise[:, j] < p1[self.parent_index(name, values, n)]).astype(np.int8)
        return pd.DataFrame(values)

    # ------------------------------------------------------------------------- exact queries
    @cached_property
    def bayesian_network(self) -> DiscreteBayesianNetwork:
        warnings.filterwarnings("ignore", message=".*StructureScore.*", category=FutureWarning)
        from pgmpy.factors.discrete import TabularCPD
        from pgmpy.models import DiscreteBayesianNetwork

        model = DiscreteBayesianNetwork()
        model.add_nodes_from(self.order)
        model.add_edges_from(self.dag.edges)
        for name in self.order:
            v = self.variables[name]
            p1 = np.asarray(v.p1)
            model.add_cpds(
                TabularCPD(
                    name,
                    2,
                    np.vstack([1 - p1, p1]),
                    evidence=list(v.parents) or None,
                    evidence_card=[2] * len(v.parents) or None,
                )
            )
        model.check_model()
        return model

    def check_values(self, values: Mapping[str, Any], role: str = "value") -> dict[str, int]:
        """``values`` as ints, or :class:`DataError` naming a variable or value outside the domain."""
        out = {}
        for name, value in values.items():
            if name not in self.variables:
                raise DataError(f"{role} names unknown variable {name!r}; use one of {sorted(self.variables)}")
            if value not in DOMAIN or isinstance(value, bool):
                raise DataError(f"{role} {name}={value!r} is not in the domain {{0, 1}} of {name}; use 0 or 1")
            out[name] = int(value)
        return out

    def joint(
        self, variables: Sequence[str], evidence: Mapping[str, int] | None = None, do: Mapping[str, int] | None = None
    ) -> DiscreteFactor:
        """P(variables | evidence) in the model, or in its mutilation under ``do``; exact."""
        from pgmpy.factors.discrete import DiscreteFactor
        from pgmpy.inference import VariableElimination

        evidence = self.check_values(dict(evidence or {}), "evidence")
        do = self.check_values(dict(do or {}), "intervention")
        model = self.bayesian_network.do(list(do)) if do else self.bayesian_network
        factor = VariableElimination(model).query(
            list(variables), evidence={**evidence, **do}, joint=True, show_progress=False
        )
        factor.normalize()
        order = list(variables)
        perm = [factor.variables.index(v) for v in order]
        return DiscreteFactor(order, [2] * len(order), np.transpose(factor.values, perm))

    def probability(
        self, event: Mapping[str, int], evidence: Mapping[str, int] | None = None, do: Mapping[str, int] | None = None
    ) -> float:
        """P(event | evidence) under do(do), exactly."""
        event = self.check_values(event, "event")
        factor = self.joint(list(event), evidence, do)
        return float(factor.values[tuple(event.values())])

    def context_distribution(self) -> np.ndarray:
        """P(C = c) for each context configuration (index: first context variable most significant)."""
        return self.joint(self.context).values.reshape(-1)

    def conditional_effects(self) -> np.ndarray:
        """mu(a, c) = P(Y = 1 | do(X = x_a), C = c), shape (n_contexts, n_arms); exact (Eq. 5-6)."""
        n_ctx, n_arms = 2 ** len(self.context), 2 ** len(self.treatment)
        out = np.empty((n_ctx, n_arms))
        for a, x in enumerate(configurations(len(self.treatment))):
            do = dict(zip(self.treatment, map(int, x)))
            joint = self.joint([*self.context, self.outcome], do=do).values.reshape(n_ctx, 2)
            out[:, a] = joint[:, 1] / joint.sum(axis=1)
        return out

    def interventional_means(self) -> np.ndarray:
        """P(Y = 1 | do(X = x_a)) per arm (no context; the arms of UCB-PCB, Algorithm 6)."""
        return np.array(
            [
                self.probability({self.outcome: 1}, do=dict(zip(self.treatment, map(int, x))))
                for x in configurations(len(self.treatment))
            ]
        )
