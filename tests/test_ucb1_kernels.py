"""UCB1's compiled passes (causal_bandits.bandits.ucb1) do numpy's element-wise operations bit for bit."""

from __future__ import annotations

import numpy as np

from causal_bandits.bandits.ucb1 import _CHUNK, ArmLists, _argmax_index, _bounded_max, _bounds, _learn


def numpy_argmax(radius: np.ndarray, inv_root: np.ndarray, mean: np.ndarray) -> np.ndarray:
    """The numpy expression the kernel replaced: flat index of each row's first maximum."""
    index = radius[:, None] * inv_root
    index += mean
    return np.arange(mean.shape[0]) * mean.shape[1] + index.argmax(axis=1)


def test_argmax_index_is_numpy_argmax_with_ties_padding_and_unpulled_slots():
    """Rows narrower than a chunk, one chunk wide (one scan), one slot wider and many chunks with a remainder."""
    rng = np.random.default_rng(0)
    for width in (1, 2, 7, 16, 17, 300):
        mean = rng.choice([0.0, 0.25, 0.5, 1 / 3], size=(40, width))  # many exact ties
        inv_root = 1.0 / np.sqrt(rng.integers(1, 4, size=(40, width)).astype(float))
        inv_root[rng.random((40, width)) < 0.1] = ArmLists._UNPULLED
        pad = rng.random((40, width)) < 0.2
        mean[pad], inv_root[pad] = -np.inf, 0.0
        radius = np.sqrt(2.0 * np.log(rng.integers(0, 50, 40) + 1.0))
        flat, on = np.full(40, -1, dtype=np.int64), rng.random(40) < 0.7
        _argmax_index(radius, inv_root, mean, flat, on)
        assert (flat[on] == numpy_argmax(radius, inv_root, mean)[on]).all() and (flat[~on] == -1).all()


def test_learn_is_the_numpy_update_for_the_seeds_on():
    rng = np.random.default_rng(1)
    sums, counts = rng.normal(size=(9, 5)), rng.integers(0, 6, size=(9, 5)).astype(float)
    mean, inv_root, t = np.zeros((9, 5)), np.zeros((9, 5)), np.arange(9)
    flat = np.arange(9) * 5 + rng.integers(0, 5, 9)
    rewards, on = rng.normal(size=9), rng.random(9) < 0.6
    expected = [a.copy() for a in (sums, counts, mean, inv_root, t)]
    f = flat[on]
    s, c = expected[0].ravel()[f] + rewards[on], expected[1].ravel()[f] + 1.0
    expected[0].ravel()[f], expected[1].ravel()[f] = s, c
    expected[2].ravel()[f], expected[3].ravel()[f] = s / c, 1.0 / np.sqrt(c)
    expected[4][on] += 1
    _learn(flat, rewards, on, sums.ravel(), counts.ravel(), mean.ravel(), inv_root.ravel(), t)
    for got, want in zip((sums, counts, mean, inv_root, t), expected):
        assert got.tobytes() == want.tobytes()


def test_bounded_max_is_numpy_argmax_with_bounds_at_any_larger_radius():
    """The wide rows' scan through chunk bounds finds numpy's first maximum whatever radius at least the round's the
    bounds were computed at: on rows of dyadic values (exact sums, so the maximum is often tied across chunks, and
    the chunk with the largest bound often holds a later tied slot than the first), with padding and unpulled slots."""
    rng = np.random.default_rng(2)
    for width in (_CHUNK + 1, 3 * _CHUNK, _CHUNK * _CHUNK + 1, 300, 2047):
        for _ in range(200):
            mean = rng.choice([0.0, 0.5, 1.0], size=(1, width))
            inv_root = rng.choice([0.0, 0.25, 0.5, 1.0], size=(1, width))
            inv_root[rng.random((1, width)) < 0.002] = ArmLists._UNPULLED
            pad = rng.random((1, width)) < 0.2
            mean[pad], inv_root[pad] = -np.inf, 0.0
            r = float(rng.choice([0.0, 1.0, 2.0]))
            bound, top = np.empty(width), np.empty(-(-width // _CHUNK))
            group = np.empty(-(-top.size // _CHUNK))
            _bounds(r + float(rng.choice([0.0, 1.0, 2.0])), inv_root[0], mean[0], bound, top, group)
            assert _bounded_max(r, inv_root[0], mean[0], top, group) == numpy_argmax(np.array([r]), inv_root, mean)[0]
