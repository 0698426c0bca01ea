"""Experiment instances of Huang, Zhang & Wu (AAAI-22): what the run stage needs, as one document.

Both experiments (Email Campaign, Adult-Video) are contextual causal bandits over discrete user
features X, arm features A and intermediate features I, with a reward linear in variable values.
An instance document holds the variables and their domains, every context (assignment of X) and
arm (assignment of A) in lexicographic order of domain indices, the CPTs of I, the reward, the
exact means ``mu[c][a]`` and counterfactual discrepancies ``delta_true[c][a]``, and each causal
learner's :class:`~causal_bandits.bandits.cells.CellModel` (D-UCB / F-UCB on the minimum-domain
d-separation set, C-UCB on Pa(R)). This module holds what both experiments share: enumerating
assignments and building cell models from P(z | x, a).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import product
from typing import Any

import numpy as np

from causal_bandits.bandits.cells import CellModel, cell_ids


def assignments(cards: Sequence[int]) -> np.ndarray:
    """Every assignment of domain indices, lexicographic (first variable slowest), (n, len(cards))."""
    rows = list(product(*(range(c) for c in cards)))
    return np.array(rows, dtype=np.int64).reshape(len(rows), len(cards))


def cell_model(
    *,
    cards: Mapping[str, int],
    columns: Mapping[str, int],
    W: Sequence[str],
    Z: Sequence[str],
    x_vars: Sequence[str],
    a_vars: Sequence[str],
    contexts: np.ndarray,
    arms: np.ndarray,
    p_z: np.ndarray,
    sensitive: str,
    s_values: tuple[int, int],
    b_vars: Sequence[str] = (),
    cf_mode: str = "identifiable",
) -> CellModel:
    """The CellModel of W (Eq. 2) given P(z | x_c, a) as ``p_z[c, a, j]`` over Z's assignments j.

    ``contexts`` must be *all* assignments of ``x_vars`` in lexicographic order, so that the
    counterfactual contexts x[S := s*, B := b] can be looked up; ``s_values`` are the domain
    indices of (s+, s-).
    """
    z_rows = assignments([cards[v] for v in Z])
    n_ctx, n_arms, n_z = contexts.shape[0], arms.shape[0], z_rows.shape[0]
    if p_z.shape != (n_ctx, n_arms, n_z):
        raise ValueError(f"p_z has shape {p_z.shape}, expected {(n_ctx, n_arms, n_z)}")
    w_values = np.empty((n_ctx, n_arms, n_z, len(W)), dtype=np.int64)
    for k, v in enumerate(W):
        if v in x_vars:
            w_values[..., k] = contexts[:, None, None, list(x_vars).index(v)]
        elif v in a_vars:
            w_values[..., k] = arms[None, :, None, list(a_vars).index(v)]
        else:
            w_values[..., k] = z_rows[None, None, :, list(Z).index(v)]
    x_cards = [cards[v] for v in x_vars]
    b_rows = assignments([cards[v] for v in b_vars])
    cf = np.empty((n_ctx, 2, b_rows.shape[0]), dtype=np.int64)
    for s, value in enumerate(s_values):
        for b, row in enumerate(b_rows):
            changed = contexts.copy()
            changed[:, list(x_vars).index(sensitive)] = value
            for v, level in zip(b_vars, row):
                changed[:, list(x_vars).index(v)] = level
            cf[:, s, b] = cell_ids(changed, x_cards)
    return CellModel(
        w_vars=tuple(W),
        w_columns=tuple(columns[v] for v in W),
        w_cards=tuple(cards[v] for v in W),
        z_vars=tuple(Z),
        cells=cell_ids(w_values, [cards[v] for v in W]),
        weights=p_z,
        cf_contexts=cf,
        cf_mode=cf_mode,
    )


def variables_document(variables: Sequence[tuple[str, str, Sequence, str]]) -> list[dict[str, Any]]:
    """``[(name, label, domain, role)]`` as the document's variable list (role X, A or I)."""
    return [{"name": n, "label": label, "domain": list(domain), "role": role} for n, label, domain, role in variables]
