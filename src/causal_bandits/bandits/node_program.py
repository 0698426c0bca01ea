"""Compiled ancestral sampling of binary nodes: the draw of an SCM environment's round as one compiled pass.

A :class:`NodeProgram` lists nodes in a topological order, each drawn from the round's uniforms in one of two ways:

* a **table** node: ``u < table[offset + Σ_j x[parent_j] · 2^(w-1-j)]``, P(V = 1) tabulated over the parents that
  matter;
* a **max** node: ``u < clip(intercept + scale · max(0, max_j x[parent_j] · weight_j), 0, 1)`` (a ``max`` mechanism
  over more parents than a table holds: the same products, their maximum, which no order changes, and the same
  affine map and clip as the mechanism's own arithmetic);

and a node the arm intervenes on takes its set value. :func:`draw_row` draws one seed's row; :meth:`NodeProgram.draw`
draws every row of a round, and a policy that plays windows of rounds itself (the engine's ``WindowPolicy`` with
its ``NodeDraws``) calls :func:`draw_row` inside its own compiled pass. Rows never read each other, so a row's
values are the same whichever pass draws it. numba (cached on disk beside this module); nothing here is in pgmpy,
whose samplers draw from their own generator rather than from given uniforms.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numba
import numpy as np

TABLE, MAX = 0, 1


@numba.njit(cache=True, inline="always")
def draw_row(x, r, noise, arm, program):
    """Fill row ``r`` of ``x`` (rows, nodes) node by node for a seed playing ``arm``, from that row's uniforms
    ``noise`` (one per node column) with ``program`` (:attr:`NodeProgram.args`; inlined where it is called: a call
    per row cost more than most rows' draws)."""
    is_set, set_value, kind, column, uniform, width, parents, bits, offset, table, weight, affine = program
    for i in range(column.shape[0]):
        c = column[i]
        if is_set[arm, c]:
            x[r, c] = set_value[arm, c]
            continue
        if kind[i] == TABLE:
            k = 0
            for j in range(width[i]):
                k += x[r, parents[i, j]] * bits[i, j]
            p = table[offset[i] + k]
        else:
            top = 0.0
            for j in range(width[i]):
                value = x[r, parents[i, j]] * weight[i, j]
                if value > top:
                    top = value
            p = min(max(affine[i, 0] + affine[i, 1] * top, 0.0), 1.0)
        x[r, c] = 1 if noise[uniform[i]] < p else 0


@numba.njit(cache=True)
def _draw_rows(x, noise, arms, program):
    for r in range(x.shape[0]):
        draw_row(x, r, noise[r], arms[r], program)


@dataclass(frozen=True)
class Node:
    """One node of a program: its value column, the column of its uniform, its parents' value columns (those that
    matter) and either its table of P(V = 1) over them (first parent most significant) or, for a max node, the
    weights, intercept and scale."""

    column: int
    uniform: int
    parents: Sequence[int] | np.ndarray
    table: np.ndarray | None = None
    weights: Sequence[float] | np.ndarray = ()
    intercept: float = 0.0
    scale: float = 1.0


class NodeProgram:
    """The nodes of one pass, in order, with each arm's interventions (``is_set``, ``set_value``: arms × columns)."""

    def __init__(self, nodes: Sequence[Node], is_set: np.ndarray, set_value: np.ndarray):
        n, width = len(nodes), max((len(node.parents) for node in nodes), default=0)
        kind = np.array([TABLE if node.table is not None else MAX for node in nodes], dtype=np.int64)
        parents = np.zeros((n, max(width, 1)), dtype=np.int64)
        bits = np.zeros_like(parents)
        weight = np.zeros(parents.shape)
        affine = np.zeros((n, 2))
        tables = []
        for i, node in enumerate(nodes):
            parents[i, : len(node.parents)] = node.parents
            if node.table is not None:
                bits[i, : len(node.parents)] = 1 << np.arange(len(node.parents))[::-1]
                tables.append(np.asarray(node.table, dtype=float))
            else:
                weight[i, : len(node.parents)] = node.weights
                affine[i] = node.intercept, node.scale
                tables.append(np.zeros(0))
        offset = np.cumsum([0] + [t.size for t in tables])[:-1].astype(np.int64)
        self.args = (
            np.asarray(is_set, dtype=np.bool_),
            np.asarray(set_value, dtype=np.int64),
            kind,
            np.array([node.column for node in nodes], dtype=np.int64),
            np.array([node.uniform for node in nodes], dtype=np.int64),
            np.array([len(node.parents) for node in nodes], dtype=np.int64),
            parents,
            bits,
            offset,
            np.concatenate(tables) if tables else np.zeros(0),
            weight,
            affine,
        )

    def draw(self, x: np.ndarray, noise: np.ndarray, arms: np.ndarray) -> None:
        """Fill the program's columns of ``x`` (rows, nodes) for rows playing ``arms``, from their uniforms
        ``noise`` (rows, uniform columns)."""
        _draw_rows(x, noise, arms, self.args)
