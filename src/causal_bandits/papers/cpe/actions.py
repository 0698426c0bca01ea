"""Actions do(S = s) and action sets in the canonical arm order of docs/papers/cpe.md#cpe-conventions.

An action is a set S ⊆ X of observed variables with values s ∈ {0,1}^|S|; do() (S = ∅) is the
null intervention, always arm 0 (cpe §2: "{do()} ∈ A"). Arms are ordered by |S|, then by S in
the declared variable order, then by s in binary order.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import combinations, product

from causal_bandits.errors import ConfigError


@dataclass(frozen=True)
class Action:
    """do(S = s): ``assignment`` holds (variable, value) pairs in declared variable order."""

    assignment: tuple[tuple[str, int], ...] = ()

    @cached_property
    def S(self) -> tuple[str, ...]:
        return tuple(v for v, _ in self.assignment)

    @cached_property
    def s(self) -> tuple[int, ...]:
        return tuple(x for _, x in self.assignment)

    def as_dict(self) -> dict[str, int]:
        return dict(self.assignment)

    @property
    def label(self) -> str:
        """``do()`` or ``do(X3=1,X4=1)``."""
        return "do(" + ",".join(f"{v}={x}" for v, x in self.assignment) + ")"


def make_action(values: Mapping[str, int], variables: Sequence[str]) -> Action:
    """The action setting ``values``, checked against the intervenable ``variables``."""
    rank = {v: i for i, v in enumerate(variables)}
    for v, x in values.items():
        if v not in rank:
            raise ConfigError(
                f"action do({','.join(f'{k}={y}' for k, y in values.items())}) names unknown "
                f"variable {v!r}; intervene only on {list(variables)}"
            )
        if x not in (0, 1) or isinstance(x, bool):
            raise ConfigError(f"action sets {v} = {x!r}; variables are binary, use 0 or 1")
    S = sorted(values, key=rank.__getitem__)
    return Action(tuple(zip(S, map(int, map(values.__getitem__, S)))))


def canonical(actions: Iterable[Action], variables: Sequence[str]) -> tuple[Action, ...]:
    """Deduplicated actions in canonical order (|S|, S in declared order, s); do() must be among them."""
    rank = {v: i for i, v in enumerate(variables)}

    def key(a: Action) -> tuple[int, list[int], tuple[tuple[str, int], ...]]:
        # From the pairs, not the cached S and s: faster. Equal ranks mean equal variables, so the pairs then order
        # by s. dict.fromkeys keeps the given order: input already canonical (an instance's check) sorts in linear time.
        return len(a.assignment), [rank[v] for v, _ in a.assignment], a.assignment

    unique = sorted(dict.fromkeys(actions), key=key)
    if not unique or unique[0].assignment:
        raise ConfigError("the action set must contain do() (the null intervention); add it")
    return tuple(unique)


def actions_up_to(variables: Sequence[str], size: int) -> tuple[Action, ...]:
    """do() and every do(S = s) with 1 <= |S| <= ``size`` over ``variables``, canonical order by construction:
    |S| ascending, then the combinations of S in declared order, then s in binary order."""
    acts = [Action()]
    for k in range(1, size + 1):
        for S in combinations(variables, k):
            acts.extend(Action(tuple(zip(S, s))) for s in product((0, 1), repeat=k))
    return tuple(acts)


def atomic_actions(variables: Sequence[str]) -> tuple[Action, ...]:
    """do() and every do(X_i = x) (Lattimore et al.'s parallel-bandit action set; cpe §3)."""
    return actions_up_to(variables, 1)


def all_actions(variables: Sequence[str]) -> tuple[Action, ...]:
    """Every do(S = s) with S ⊆ ``variables`` (3**n actions; E4)."""
    return actions_up_to(variables, len(variables))
