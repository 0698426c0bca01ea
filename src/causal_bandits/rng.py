"""Keyed random streams, one per (paper, experiment, seed, purpose).

Every random number the pipeline uses comes from a :class:`numpy.random.SeedSequence` whose
spawn key is derived from ``(paper, experiment, seed, purpose)``. A seed's numbers therefore do
not depend on which other seeds share its job, on the chunk size or on the number of cores: the
same config gives the same bytes.

Vectorising over seeds while keeping one generator per seed is what :class:`SeedStreams` is for:
it refills, once every ``block`` draws, a buffer of standard uniforms per seed (one numpy call per
seed per block, not per round), and hands out rows of that buffer to the vectorised algorithms.
Rejection samplers, which need a varying number of uniforms per seed, take them with
:meth:`SeedStreams.take` and consume each seed's own stream in a fixed order.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np

#: Root entropy of the project; changing it changes every random number (never do it lightly).
ROOT_ENTROPY = 20190127


def _word(label: str) -> int:
    """A stable 32-bit integer for a label (Python's ``hash`` is salted per process)."""
    return int.from_bytes(hashlib.sha256(label.encode()).digest()[:4], "little")


def seed_sequence(paper: str, experiment: str, seed: int, purpose: str) -> np.random.SeedSequence:
    """The SeedSequence of one stream, keyed by (paper, experiment, seed, purpose)."""
    if seed < 0:
        raise ValueError(f"seed must be >= 0, got {seed}")
    key = (_word(paper), _word(experiment), int(seed), _word(purpose))
    return np.random.SeedSequence(ROOT_ENTROPY, spawn_key=key)


def generator(paper: str, experiment: str, seed: int, purpose: str) -> np.random.Generator:
    """A PCG64 generator for one keyed stream."""
    return np.random.default_rng(seed_sequence(paper, experiment, seed, purpose))


class SeedStreams:
    """Standard uniforms from one generator per seed, served as arrays over seeds.

    Parameters
    ----------
    paper, experiment, purpose:
        The stream key, shared by all seeds.
    seeds:
        The simulation indices handled together (any subset, any order).
    block:
        Uniforms buffered per seed between refills; it changes speed and memory, never values.
    """

    def __init__(self, paper: str, experiment: str, seeds: Sequence[int] | np.ndarray, purpose: str, block: int = 4096):
        self._gens = [generator(paper, experiment, s, purpose) for s in seeds]
        self._block = int(block)
        self._buf = np.empty((len(self._gens), 0))
        self._pos = np.zeros(len(self._gens), dtype=np.int64)

    @property
    def n_seeds(self) -> int:
        return len(self._gens)

    def _ensure(self, need: np.ndarray) -> None:
        """Make sure seed i has at least ``need[i]`` unread uniforms in the buffer."""
        avail = self._buf.shape[1] - self._pos
        short = need > avail
        if not short.any():
            return
        if not avail.any() and need.max() <= self._buf.shape[1]:
            # Everything read: refill in place (the usual case for fixed-width reads).
            for i, gen in enumerate(self._gens):
                gen.random(out=self._buf[i])
            self._pos[:] = 0
            return
        # Keep every row's unread tail, left-aligned, then append fresh draws; each seed's sequence
        # of values is its generator's sequence, whatever the refill pattern. The width is a
        # multiple of the largest request, so fixed-width readers later refill in place.
        step = int(need.max())
        width = -(-int(avail.max() + self._block) // step) * step + step
        new = np.empty((self.n_seeds, width))
        for i, gen in enumerate(self._gens):
            tail = self._buf[i, self._pos[i] :]
            new[i, : tail.size] = tail
            gen.random(out=new[i, tail.size :])
        self._buf, self._pos = new, np.zeros(self.n_seeds, dtype=np.int64)

    def uniform(self, width: int) -> np.ndarray:
        """The next ``width`` uniforms of every seed, shape (n_seeds, width)."""
        if self.n_seeds == 0:
            return np.empty((0, width))
        self._ensure(np.full(self.n_seeds, width))
        pos = self._pos[0]
        if (self._pos == pos).all():  # the usual case: all seeds read in step
            out = self._buf[:, pos : pos + width]
        else:
            out = self._buf[np.arange(self.n_seeds)[:, None], self._pos[:, None] + np.arange(width)]
        self._pos += width
        return out

    def take(self, counts: np.ndarray) -> np.ndarray:
        """``counts[i]`` uniforms from seed i, concatenated in seed order (flat array)."""
        counts = np.asarray(counts, dtype=np.int64)
        self._ensure(counts)
        rows = np.repeat(np.arange(self.n_seeds), counts)
        starts = np.cumsum(counts) - counts
        cols = self._pos[rows] + np.arange(rows.size) - starts[rows]
        self._pos += counts
        return self._buf[rows, cols]

    def retain(self, keep: np.ndarray) -> None:
        """Keep only the seeds where ``keep`` is True (the others stopped); their streams go on unchanged."""
        keep = np.asarray(keep, dtype=bool)
        self._gens = [g for g, k in zip(self._gens, keep) if k]
        self._buf, self._pos = self._buf[keep], self._pos[keep]


class RoundBlocks:
    """Fixed-width reads of a :class:`SeedStreams`, fetched ``rounds`` reads at a time.

    ``uniform(width)`` returns exactly what ``stream.uniform(width)`` would, in the same order, but
    one stream call serves ``rounds`` consecutive reads (a view into the block), which matters when
    a read happens every round. ``next_rounds(count)`` returns the next ``count`` reads at once,
    (n_seeds, count, width): exactly what ``count`` calls of ``uniform(width)`` would give.
    """

    def __init__(self, stream: SeedStreams, width: int, rounds: int = 256) -> None:
        self._stream, self._width, self._rounds = stream, int(width), int(rounds)
        self._block = np.empty((stream.n_seeds, 0, self._width))
        self._next = 0

    def uniform(self, width: int) -> np.ndarray:
        if width != self._width:
            raise ValueError(f"RoundBlocks serves reads of width {self._width}, not {width}")
        if self._next == self._block.shape[1]:
            self._block = self._stream.uniform(self._width * self._rounds).reshape(-1, self._rounds, self._width)
            self._next = 0
        self._next += 1
        return self._block[:, self._next - 1]

    def next_rounds(self, count: int) -> np.ndarray:
        """The next ``count`` reads, shape (n_seeds, count, width) (a view, valid until the next read; ``count`` may
        exceed ``rounds``)."""
        left = self._block.shape[1] - self._next
        if count > left:
            fresh = -(-(count - left) // self._rounds) * self._rounds
            # The unread rounds are copied first: they may be a view into the stream's buffer, which the read below
            # can refill in place.
            rest = self._block[:, self._next :].copy() if left else None
            more = self._stream.uniform(self._width * fresh).reshape(-1, fresh, self._width)
            self._block = more if rest is None else np.concatenate([rest, more], axis=1)
            self._next = 0
        self._next += count
        return self._block[:, self._next - count : self._next]

    def available(self) -> int:
        """Rounds that the next :meth:`next_rounds` serves without a copy: those left of the current fetch, or a whole
        fetch when none is left."""
        return self._block.shape[1] - self._next or self._rounds

    def unread(self, count: int) -> None:
        """Give back the last ``count`` rounds of the last :meth:`next_rounds`: the next reads return them again."""
        if not 0 <= count <= self._next:
            raise ValueError(f"cannot give back {count} rounds: {self._next} of this block were read")
        self._next -= count

    def retain(self, keep: np.ndarray) -> None:
        """Keep only the seeds where ``keep`` is True (the others stopped): their reads go on unchanged, and the
        stopped seeds' uniforms are no longer drawn."""
        keep = np.asarray(keep, dtype=bool)
        self._stream.retain(keep)
        self._block = self._block[keep]
