"""The offline baselines of Huang & Wu's Table 1 / Figure 3: CP and Biased.

* **CP** — the naive conditional probability P̂(y | x, c, S=1): ignores confounding and selection.
* **Biased** — back-door adjustment for a confounder set Z computed on the selected data as if it
  were unbiased (Eq. 2 with the selected distribution; "accounts only for confounding"):
  Σ_z P̂(y | x, c, z, S=1) P̂(z | S=1). For Figure 2, Z = {C1}, read from the simulated hidden
  column (docs/papers/bounds.md#bounds-a-biased-adjustment); a sub-cell (x, c, z) with fewer than ``min_count`` rows
  falls back to CP(x, c).

Both return arrays of shape (n_contexts, n_arms) (an empty ``context`` gives one row), NaN where
the (x, c) cell itself is empty.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from causal_bandits.causal.bounds import cells
from causal_bandits.causal.joint import Joint


def conditional_probability(
    joint: Joint, *, outcome: str, treatment: Sequence[str], context: Sequence[str], min_count: int = 1
) -> np.ndarray:
    """CP(x, c) = P̂(Y = 1 | x, c) on ``joint`` (the selected rows: P̂(y | x, c, S=1))."""
    p, _ = joint.conditional(outcome, [*treatment, *context], min_count)
    return cells(p, len(treatment), len(context))


def adjusted(
    joint: Joint,
    *,
    outcome: str,
    treatment: Sequence[str],
    context: Sequence[str],
    adjust: Sequence[str],
    min_count: int = 1,
) -> np.ndarray:
    """Biased(x, c) = Σ_z P̂(Y = 1 | x, c, z) P̂(z) (Eq. 2 on ``joint``), CP where a sub-cell is empty."""
    cp = conditional_probability(joint, outcome=outcome, treatment=treatment, context=context, min_count=min_count)
    p, _ = joint.conditional(outcome, [*treatment, *context, *adjust], min_count)
    weights = joint.table(list(adjust)) / joint.total
    n_x, n_c, n_z = len(treatment), len(context), len(adjust)
    p = p.reshape(2**n_x, 2**n_c, 2**n_z).transpose(1, 0, 2)
    p = np.where(np.isnan(p), cp[:, :, None], p)
    return p @ weights.reshape(-1)
