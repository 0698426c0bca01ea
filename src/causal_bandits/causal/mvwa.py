"""Minimum-variance weighted average of dependent estimators (AAAI-19 Algorithm 2, bMVWA).

Given m estimators of one quantity with covariance Σ, the convex combination of least variance has
weights w = argmin wᵀΣw subject to Σ_i w_i = 1, w ≥ 0 (Alg. 2 line 6). :func:`min_variance_weights`
solves this small quadratic programme exactly for a whole batch of problems at once (seeds × arms)
by an active-set method (docs/papers/nonmanip.md#nonmanip-a-mvwa-qp [R] suggests enumerating supports, which is
exponential in m: Fig. 5c has arms with 20 estimators). A ridge of 1e-12·tr(Σ)/m keeps Σ invertible.

:func:`bootstrap_covariance` is Alg. 2 lines 2-5 on given replicate values: the sample covariance
(ddof = 1) of each arm's estimators over its valid replicates, where an estimator undefined in more
than 10 % of the replicates is dropped for this refresh and replicates in which a kept estimator is
undefined are dropped (docs/papers/nonmanip.md#nonmanip-a-mvwa-qp [R]).
"""

from __future__ import annotations

import numpy as np

#: An estimator undefined (0/0) in more than this share of bootstrap replicates is not used.
MAX_UNDEFINED_SHARE = 0.10
RIDGE = 1e-12


def _equality_optimum(cov: np.ndarray, support: np.ndarray) -> np.ndarray:
    """w_S ∝ Σ_SS⁻¹ 1 on each problem's support (0 elsewhere), normalised to sum 1."""
    eye = np.eye(cov.shape[-1], dtype=bool)
    mat = np.where(support[:, :, None] & support[:, None, :], cov, eye)
    u = np.linalg.solve(mat, support.astype(float)[..., None])[..., 0]
    return u / u.sum(axis=-1, keepdims=True)


def min_variance_weights(cov: np.ndarray, allowed: np.ndarray, tol: float = 1e-12) -> tuple[np.ndarray, np.ndarray]:
    """(w, wᵀΣw) minimising wᵀΣw over the simplex, for ``cov`` (..., m, m) and ``allowed`` (..., m)
    (w_i = 0 where not allowed; each problem must allow at least one estimator).

    Wolfe's active-set method for the minimum-norm point of a polytope (Wolfe 1976, Math.
    Programming 11, 128-149), run on all problems of the batch at once: start from the allowed
    estimator of least variance; while some allowed estimator i has (Σw)_i < wᵀΣw (adding it lowers
    the variance), add the most promising one and re-solve the equality-constrained problem on the
    support, stepping back to the boundary and dropping estimators whose weight would turn negative.
    Each step is exact, so the result is the QP's optimum (the KKT conditions hold on exit).
    Written by hand: scipy's QP/NNLS solvers take one problem per call.
    """
    batch, m = cov.shape[:-2], cov.shape[-1]
    cov = cov.reshape(-1, m, m)
    allowed = allowed.reshape(-1, m)
    n = cov.shape[0]
    both = allowed[:, :, None] & allowed[:, None, :]
    scale = np.where(allowed, np.diagonal(cov, axis1=1, axis2=2), 0.0).sum(axis=1) / allowed.sum(axis=1)
    cov = np.where(both, cov, np.eye(m)) + (RIDGE * scale)[:, None, None] * np.eye(m)
    rows = np.arange(n)
    first = np.where(allowed, np.diagonal(cov, axis1=1, axis2=2), np.inf).argmin(axis=1)
    support = np.zeros((n, m), dtype=bool)
    support[rows, first] = True
    w = support.astype(float)
    previous = np.full(n, np.inf)
    for _ in range(4 * m + 10):
        grad = np.einsum("nij,nj->ni", cov, w)
        variance = (w * grad).sum(axis=1)
        candidate = np.where(allowed & ~support, grad, np.inf)
        j = candidate.argmin(axis=1)
        # Each major step lowers the variance in exact arithmetic; a step that did not (a nearly
        # singular Σ: a constant estimator, B close to the number of estimators) ends that problem.
        todo = (candidate[rows, j] < variance * (1.0 - tol)) & (variance < previous * (1.0 - tol))
        previous = variance
        if not todo.any():
            break
        support[todo, j[todo]] = True
        while todo.any():
            idx = np.flatnonzero(todo)
            v = _equality_optimum(cov[idx], support[idx])
            negative = support[idx] & (v < 0)
            done = ~negative.any(axis=1)
            w[idx[done]] = v[done]
            if done.all():
                break
            back = idx[~done]
            wb, vb, nb = w[back], v[~done], negative[~done]
            with np.errstate(divide="ignore", invalid="ignore"):
                theta = np.where(nb, wb / (wb - vb), np.inf).min(axis=1, keepdims=True)
            wb = wb + theta * (vb - wb)
            drop = support[back] & (wb <= tol)
            wb[drop] = 0.0
            support[back] &= ~drop
            w[back] = wb / wb.sum(axis=1, keepdims=True)
            todo = np.zeros(n, dtype=bool)
            todo[back] = True
    else:
        raise RuntimeError("min_variance_weights did not converge; this is a bug")
    variance = np.einsum("ni,nij,nj->n", w, cov, w)
    return w.reshape((*batch, m)), variance.reshape(batch)


def bootstrap_covariance(reps: np.ndarray, use: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Covariance of estimators over bootstrap replicates.

    ``reps`` (..., B, k): replicate values (nan/inf where undefined); ``use`` (..., k): the estimators
    wanted. Returns (cov (..., k, k), kept (..., k)): kept estimators are wanted, defined in at
    least 90 % of the replicates, and have at least two valid replicates (rows in which every kept
    estimator is defined); cov is zero outside kept × kept.
    """
    finite = np.isfinite(reps)
    share_bad = 1.0 - np.count_nonzero(finite, axis=-2) / reps.shape[-2]
    kept = use & (share_bad <= MAX_UNDEFINED_SHARE)
    valid = (finite | ~kept[..., None, :]).all(axis=-1)  # (..., B)
    n_valid = np.count_nonzero(valid, axis=-1)
    kept &= (n_valid >= 2)[..., None]
    mask = valid[..., None] & kept[..., None, :]
    x = np.where(mask, reps, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = x.sum(axis=-2) / n_valid[..., None]
        dev = np.subtract(x, mean[..., None, :], out=x, where=mask)  # x is 0 off the mask: deviations in place
        cov = np.matmul(np.swapaxes(dev, -1, -2), dev) / (n_valid - 1)[..., None, None]  # BLAS: 10-40x einsum
    cov = np.where(kept[..., :, None] & kept[..., None, :], cov, 0.0)
    return cov, kept
