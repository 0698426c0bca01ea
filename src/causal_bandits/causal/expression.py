"""Symbolic probability expressions over experiments: what ID and z²ID return.

An expression is a tree of four node types (docs/papers/nonmanip.md#nonmanip-z2id):

* ``Leaf(src, W)`` = P_src(W): the joint distribution of the variables W in the experiment that
  intervenes on the arm set ``src`` (``src = ()`` is the observational arm), as a function of the
  values of ``src`` *and* of W;
* ``Prod(factors)``, ``Sum(vars, body)`` (Σ over ``vars``, which it binds) and ``Div(num, den)``.

Variables are named by their node; a value of an intervened variable is the variable itself, so
P_b(c|a) inside Σ_b binds the intervention value to the summed b (AAAI-19 Eq. (1)). Scoping is
lexical: a Sum binds its variables in its body only, so Σ_{x} P(x) P(y|x,z) next to a free x is the
front-door's Σ_{x'}. :func:`free_variables` gives what an expression is a function of;
:func:`show` prints it for a reader (primes mark bound variables that shadow a visible one, and
P_s(A, B) / P_s(B) is printed P_s(A | B)); :func:`to_json` / :func:`from_json` serialise it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, cast


def _names(vs: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(set(vs)))


@dataclass(frozen=True)
class Leaf:
    """P_src(vars): joint of ``vars`` in the experiment on ``src`` (both sorted tuples)."""

    src: tuple[str, ...]
    vars: tuple[str, ...]


@dataclass(frozen=True)
class Prod:
    factors: tuple[Expr, ...]


@dataclass(frozen=True)
class Sum:
    vars: tuple[str, ...]
    body: Expr


@dataclass(frozen=True)
class Div:
    num: Expr
    den: Expr


Expr = Leaf | Prod | Sum | Div


# ------------------------------------------------------------------------------ constructors
def leaf(src: Iterable[str], vs: Iterable[str]) -> Leaf:
    """P_src(vs); the experiment's own variables never appear among ``vs``."""
    src, vs = _names(src), _names(vs)
    if set(src) & set(vs):
        raise ValueError(f"P_{src}({vs}): an intervened variable cannot be a variable of its experiment")
    return Leaf(src, vs)


def prod(*factors: Expr) -> Expr:
    """The product, flattening nested products; one factor is returned as it is."""
    flat: list[Expr] = []
    for f in factors:
        flat.extend(f.factors if isinstance(f, Prod) else (f,))
    if not flat:
        raise ValueError("empty product")
    return flat[0] if len(flat) == 1 else Prod(tuple(flat))


def sum_over(vs: Iterable[str], body: Expr) -> Expr:
    """Σ_vs body; every summed variable must be a free variable of ``body`` (summing a variable the
    body does not depend on would multiply it by the domain size, which no ID step intends)."""
    vs = _names(vs)
    if not vs:
        return body
    missing = set(vs) - free_variables(body)
    if missing:
        raise ValueError(f"sum over {sorted(missing)}, which the body does not depend on")
    if isinstance(body, Sum):
        return Sum(_names(vs + body.vars), body.body)
    return Sum(vs, body)


def div(num: Expr, den: Expr) -> Div:
    return Div(num, den)


# ------------------------------------------------------------------------------ queries
@cache
def free_variables(e: Expr) -> frozenset[str]:
    """The variables ``e`` is a function of (intervention values of its leaves included)."""
    if isinstance(e, Leaf):
        return frozenset(e.src + e.vars)
    if isinstance(e, Prod):
        return frozenset().union(*map(free_variables, e.factors))
    if isinstance(e, Sum):
        return free_variables(e.body) - set(e.vars)
    return free_variables(e.num) | free_variables(e.den)


def leaves(e: Expr) -> set[Leaf]:
    """Every distinct leaf of ``e``."""
    if isinstance(e, Leaf):
        return {e}
    if isinstance(e, Prod):
        return set().union(*map(leaves, e.factors))
    if isinstance(e, Sum):
        return leaves(e.body)
    return leaves(e.num) | leaves(e.den)


def sources(e: Expr) -> list[tuple[str, ...]]:
    """The experiments (arm sets) whose data ``e`` uses, ordered by (size, names)."""
    return sorted({lf.src for lf in leaves(e)}, key=lambda s: (len(s), s))


# ------------------------------------------------------------------------------ printing
def _value(name: str, env: Mapping[str, str]) -> str:
    return env.get(name, name.lower())


def _p(src: tuple[str, ...], vs: Iterable[str], given: Iterable[str], env: Mapping[str, str]) -> str:
    sub = "_{" + ",".join(_value(v, env) for v in src) + "}" if src else ""
    body = ",".join(_value(v, env) for v in vs)
    cond = ",".join(_value(v, env) for v in given)
    return f"P{sub}({body}|{cond})" if cond else f"P{sub}({body})"


def _show(e: Expr, env: dict[str, str]) -> str:
    if isinstance(e, Leaf):
        return _p(e.src, e.vars, (), env)
    if isinstance(e, Prod):
        # Sums go last (a product commutes), so that Σ reaches to the end of the term as a reader
        # expects; every sum but the last is parenthesised.
        plain = [f for f in e.factors if not isinstance(f, Sum)]
        sums = [f for f in e.factors if isinstance(f, Sum)]
        parts = [f"[{_show(f, env)}]" if isinstance(f, Div) and not _conditional(f) else _show(f, env) for f in plain]
        parts += [f"({_show(f, env)})" for f in sums[:-1]] + [_show(f, env) for f in sums[-1:]]
        return " ".join(parts)
    if isinstance(e, Sum):
        inner = dict(env)
        visible = set(env.values())
        for v in e.vars:
            name = v.lower()
            while name in visible:
                name += "'"
            inner[v] = name
            visible.add(name)
        return f"Σ_{{{','.join(inner[v] for v in e.vars)}}} {_show(e.body, inner)}"
    if _conditional(e):
        num, den = cast(Leaf, e.num), cast(Leaf, e.den)  # _conditional: both are leaves
        return _p(num.src, [v for v in num.vars if v not in den.vars], den.vars, env)
    return f"{_wrap(e.num, env)} / {_wrap(e.den, env)}"


def _wrap(e: Expr, env: dict[str, str]) -> str:
    return _show(e, env) if isinstance(e, Leaf) or (isinstance(e, Div) and _conditional(e)) else f"({_show(e, env)})"


def _conditional(e: Div) -> bool:
    """P_s(A ∪ B) / P_s(B) with B ⊊ A ∪ B: printed as the conditional P_s(A | B)."""
    n, d = e.num, e.den
    return isinstance(n, Leaf) and isinstance(d, Leaf) and n.src == d.src and set(d.vars) < set(n.vars)


def show(e: Expr) -> str:
    """``e`` for a reader, e.g. ``Σ_{z} P(z|x) Σ_{x'} P(x') P(y|x',z)``; values are lower-case names."""
    env = {v: v.lower() for v in free_variables(e)}
    return _show(e, env)


# ------------------------------------------------------------------------------ JSON
def to_json(e: Expr) -> dict[str, Any]:
    """``{"P": {"src": [..], "vars": [..]}}``, ``{"prod": [..]}``, ``{"sum": [..], "of": ..}``,
    ``{"div": [num, den]}``."""
    if isinstance(e, Leaf):
        return {"P": {"src": list(e.src), "vars": list(e.vars)}}
    if isinstance(e, Prod):
        return {"prod": [to_json(f) for f in e.factors]}
    if isinstance(e, Sum):
        return {"sum": list(e.vars), "of": to_json(e.body)}
    return {"div": [to_json(e.num), to_json(e.den)]}


def from_json(d: Mapping[str, Any]) -> Expr:
    """Inverse of :func:`to_json`."""
    if "P" in d:
        return leaf(d["P"]["src"], d["P"]["vars"])
    if "prod" in d:
        return prod(*map(from_json, d["prod"]))
    if "sum" in d:
        return Sum(_names(d["sum"]), from_json(d["of"]))
    if "div" in d:
        return Div(from_json(d["div"][0]), from_json(d["div"][1]))
    raise ValueError(f"not an expression: keys {sorted(d)}; expected one of P, prod, sum, div")
