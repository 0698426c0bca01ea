"""The one engine: adaptive stopping (seeds that stop on their own), censoring, blocks of rounds, early
ends (``until``) and the run store."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from causal_bandits import store
from causal_bandits.bandits.engine import StoppingPolicy, Streams, linear_grid, simulate
from causal_bandits.bandits.environments import BernoulliArms
from causal_bandits.bandits.recorders import RegretTrace
from causal_bandits.rng import RoundBlocks

MEANS = np.array([0.2, 0.5, 0.8])


class SuccessCount:
    """Round robin from a random first arm (policy stream); a seed stops once it has ``k`` successes
    and recommends its arm with the most successes (a toy pure-exploration policy)."""

    def __init__(self, k: int):
        self.k = k

    def reset(self, n_seeds, n_arms, stream):
        self._start = stream("start")
        self.offset = np.floor(self._start.uniform(1)[:, 0] * n_arms).astype(np.int64)
        self.wins = np.zeros((n_seeds, n_arms))
        self.n_arms = n_arms

    def select(self, t, contexts=None):
        return (self.offset + t - 1) % self.n_arms

    def update(self, feedback):
        self.wins[np.arange(feedback.arms.size), feedback.arms] += feedback.rewards

    def done(self):
        return self.wins.sum(axis=1) >= self.k

    def recommend(self):
        return self.wins.argmax(axis=1)

    def retain(self, keep):
        self.offset, self.wins = self.offset[keep], self.wins[keep]
        self._start.retain(keep)


def _run(seeds, k=6, horizon=40):
    return simulate(
        SuccessCount(k),
        BernoulliArms(MEANS),
        Streams("test", "stopping", np.asarray(seeds)),
        horizon,
        [RegretTrace(linear_grid(horizon, horizon))],
    )


def _alone(seed, k=6, horizon=40):
    """One seed by hand, from its own environment stream: (stopping round or None, recommendation)."""
    u = Streams("test", "stopping", np.array([seed])).uniforms("environment").uniform(horizon)[0]
    offset = int(np.floor(Streams("test", "stopping", np.array([seed])).uniforms("policy/start").uniform(1)[0, 0] * 3))
    wins = np.zeros(3)
    for t in range(1, horizon + 1):
        arm = (offset + t - 1) % 3
        wins[arm] += u[t - 1] < MEANS[arm]
        if wins.sum() >= k:
            return t, int(wins.argmax())
    return None, int(wins.argmax())


def test_stopping_policy_is_recognised():
    assert isinstance(SuccessCount(1), StoppingPolicy)


def test_each_seed_stops_on_its_own_and_is_censored_at_the_cap():
    seeds = np.arange(12)
    run = _run(seeds, k=6, horizon=15)
    for i, seed in enumerate(seeds):
        stop, recommended = _alone(seed, k=6, horizon=15)
        assert run.summary["censored"][i] == (stop is None)
        assert run.summary["stopped_at"][i] == (15 if stop is None else stop)
        assert run.summary["recommended"][i] == recommended
        assert run.summary["correct"][i] == (recommended == 2)
    assert run.summary["censored"].any() and not run.summary["censored"].all()


def test_stopped_seeds_keep_their_regret_and_pull_nothing():
    run = _run(np.arange(8))
    arm, regret = run.trace["arm"], run.trace["cum_regret"]
    for i, stop in enumerate(run.summary["stopped_at"]):
        assert (arm[i, :stop] >= 0).all() and (arm[i, stop:] == -1).all()
        assert (regret[i, stop:] == regret[i, stop - 1]).all()


@pytest.mark.parametrize("chunks", [[range(3), range(3, 10)], [range(1), range(1, 10)]])
def test_stopping_runs_do_not_depend_on_the_chunking(chunks):
    whole = _run(np.arange(10))
    parts = [_run(np.asarray(c)) for c in chunks]
    for name in ("stopped_at", "recommended", "censored"):
        assert np.array_equal(whole.summary[name], np.concatenate([p.summary[name] for p in parts])), name
    assert np.array_equal(whole.trace["cum_regret"], np.concatenate([p.trace["cum_regret"] for p in parts]))


def test_summary_holds_the_stopping_columns_and_the_jobs_own_columns(tmp_path):
    """Beyond the vocabulary, the store takes the job's paper's ``<paper>_<what>`` columns and the
    columns its recorders declare (by prefix), in the order given; anything else is refused."""
    run = _run(np.arange(5))
    run.summary["cpe_width"] = np.linspace(0.1, 0.5, 5)
    run.summary["audit_count3"] = np.arange(5)
    store.write_run(
        tmp_path / "t.parquet", tmp_path / "t.summary.parquet", run, {"k": "v"}, paper="cpe", declared=("audit_count",)
    )
    table = pq.read_table(tmp_path / "t.summary.parquet")
    assert table.column_names == [
        "seed",
        "final_regret",
        "final_realized_regret",
        "optimal_fraction",
        "stopped_at",
        "recommended",
        "correct",
        "censored",
        "cpe_width",
        "audit_count3",
    ]
    assert table.schema.field("audit_count3").type == pa.int64()
    with pytest.raises(ValueError, match="<paper>_<what>"):
        store.summary_table(run, paper="bounds", declared=("audit_count",))  # cpe_width is not bounds'
    with pytest.raises(ValueError, match="declare it"):
        store.summary_table(run, paper="cpe")


def test_run_tables_are_those_pa_array_makes_and_refuse_a_value_out_of_range(tmp_path):
    """The store builds its columns from the numpy buffers (pa.array would import pandas): the same tables, so the
    same Parquet bytes, booleans of every length included; a seed beyond int32 raises as pa.array's cast does."""
    for n in (1, 7, 8, 9, 65):
        run = _run(np.arange(n)[::-1].copy())
        run.summary["correct"] = np.arange(n) % 3 == 0
        for table, columns in (
            (store.trace_table(run), _columns_of(run, True)),
            (store.summary_table(run), _columns_of(run, False)),
        ):
            expected = pa.Table.from_pydict(columns, schema=table.schema)
            assert table.equals(expected)
            pq.write_table(table, tmp_path / "a.parquet", compression="zstd")
            pq.write_table(expected, tmp_path / "b.parquet", compression="zstd")
            assert (tmp_path / "a.parquet").read_bytes() == (tmp_path / "b.parquet").read_bytes()
    run = _run(np.array([2**40]))
    with pytest.raises(pa.ArrowInvalid, match="not in range"):
        store.summary_table(run)


def _columns_of(run, trace: bool) -> dict:
    """A run's columns as numpy arrays, sorted by seed (and round), as the store lays them out."""
    order = np.argsort(run.seeds, kind="stable")
    if not trace:
        return {"seed": run.seeds[order], **{k: v[order] for k, v in run.summary.items()}}
    n_grid = run.rounds.size
    columns = {"seed": np.repeat(run.seeds[order], n_grid), "round": np.tile(run.rounds, run.seeds.size)}
    return columns | {k: v[order].ravel() for k, v in run.trace.items()}


@dataclass(frozen=True)
class BernoulliBlocks(BernoulliArms):
    """Bernoulli arms that also serve blocks of rounds of one arm."""

    def pull_block(self, t, contexts, arms, length, noise, observe):
        return (noise[:, :, 0] < self.means[arms][:, None]).astype(np.int8), None


class ThreeRoundBlocks:
    """Arm ((t - 1) // 3) mod n_arms: three rounds of each arm in turn, served as one block when
    ``blocks`` (the hook), else round by round; counts successes and pulls."""

    def __init__(self, blocks: bool):
        if blocks:
            self.block = lambda t: 3 - (t - 1) % 3

    def reset(self, n_seeds, n_arms, stream):
        self.n_arms, self.wins, self.pulls = n_arms, np.zeros((n_seeds, n_arms)), 0

    def select(self, t, contexts=None):
        return np.full(self.wins.shape[0], (t - 1) // 3 % self.n_arms)

    def update(self, feedback):
        self.wins[np.arange(feedback.arms.size), feedback.arms] += feedback.rewards
        self.pulls += 1

    def update_block(self, feedback):
        self.wins[np.arange(feedback.arms.size), feedback.arms] += feedback.rewards.sum(axis=1)
        self.pulls += feedback.rewards.shape[1]


def _blocks_run(blocks, horizon=40, until=None):
    policy = ThreeRoundBlocks(blocks)
    run = simulate(
        policy,
        BernoulliBlocks(MEANS),
        Streams("test", "blocks", np.arange(6)),
        horizon,
        [RegretTrace(linear_grid(horizon, horizon))],
        until=None if until is None else until(policy),
    )
    return policy, run


def test_blocks_give_the_rounds_one_by_one_would():
    """Blocks read the very uniforms single rounds read (horizon 40 cuts the last block short), and
    recorders see every round of a block."""
    by_block, run = _blocks_run(True)
    by_round, reference = _blocks_run(False)
    assert by_block.pulls == by_round.pulls == 40
    np.testing.assert_array_equal(by_block.wins, by_round.wins)
    for name in ("cum_regret", "cum_realized_regret", "arm"):
        np.testing.assert_array_equal(run.trace[name], reference.trace[name])
    assert (run.trace["arm"][:, :6] == [0, 0, 0, 1, 1, 1]).all()


def test_until_ends_the_run_before_the_next_block():
    policy, run = _blocks_run(True, until=lambda p: lambda: p.pulls >= 10)
    assert policy.pulls == 12  # checked before the block of rounds 10-12, not inside it
    assert (run.trace["arm"][:, :12] >= 0).all() and (run.trace["arm"][:, 12:] == -1).all()
    assert (run.summary["final_regret"] == run.trace["cum_regret"][:, 11]).all()


def test_interfaces_are_checked_before_the_run():
    """A policy or environment that misses a protocol member is refused with the member's name, and a
    block policy needs an environment with ``pull_block``."""
    streams = Streams("test", "interfaces", np.arange(2))

    class NoSelect:
        def reset(self, n_seeds, n_arms, stream): ...

        def update(self, feedback): ...

    with pytest.raises(TypeError, match="NoSelect is not a Policy: it lacks select"):
        simulate(NoSelect(), BernoulliArms(MEANS), streams, 10)
    policy, _ = _blocks_run(True)
    with pytest.raises(TypeError, match="has no pull_block"):
        simulate(policy, BernoulliArms(MEANS), streams, 10)


@pytest.mark.parametrize("block", [4096, 8])
def test_round_blocks_serve_several_rounds_as_single_reads_would(block):
    """Also where the stream's buffer holds exactly one fetch (``block`` 8 = 4 rounds of 2) and is refilled in place
    while unread rounds of the last fetch are still wanted."""

    def stream():
        return Streams("test", "blocks", np.arange(3), block).uniforms("environment")

    reads = RoundBlocks(stream(), 2, rounds=4)
    got = []
    for count in (1, 3, 1, 5, 1, 2, 9, 1, 6, 1, 1, 3, 4):
        got.append(
            (reads.next_rounds(count) if count > 1 else reads.uniform(2)[:, None]).copy()
        )  # valid until the next read
    plain = stream()
    expected = np.stack([plain.uniform(2).copy() for _ in range(38)], axis=1)
    np.testing.assert_array_equal(np.concatenate(got, axis=1), expected)


def test_round_blocks_retain_keeps_each_kept_seeds_reads():
    """Seeds that leave stop drawing; the kept seeds read on exactly as they would have, mid-block or not."""

    def stream(seeds):
        return Streams("test", "blocks", np.asarray(seeds), 8).uniforms("environment")

    reads = RoundBlocks(stream([0, 1, 2, 3]), 2, rounds=4)
    first = reads.next_rounds(3).copy()
    reads.retain(np.array([True, False, True, False]))
    later = np.concatenate([reads.uniform(2)[:, None].copy(), reads.next_rounds(6).copy()], axis=1)
    plain = stream([0, 2])
    expected = np.stack([plain.uniform(2).copy() for _ in range(10)], axis=1)
    np.testing.assert_array_equal(first[[0, 2]], expected[:, :3])
    np.testing.assert_array_equal(later, expected[:, 3:])


def test_round_blocks_give_back_unread_rounds_and_say_what_a_fetch_holds():
    def stream():
        return Streams("test", "blocks", np.arange(2), 8).uniforms("environment")

    reads = RoundBlocks(stream(), 2, rounds=4)
    assert reads.available() == 4  # nothing fetched yet: a whole fetch
    got = [reads.next_rounds(3)[:, :1].copy()]
    reads.unread(2)
    assert reads.available() == 3
    got.append(reads.next_rounds(3).copy())
    assert reads.available() == 4  # the fetch is used up
    got.append(reads.next_rounds(4).copy())
    with pytest.raises(ValueError, match="cannot give back 5 rounds"):
        reads.unread(5)
    plain = stream()
    expected = np.stack([plain.uniform(2).copy() for _ in range(8)], axis=1)
    np.testing.assert_array_equal(np.concatenate(got, axis=1), expected)


def test_progress_sees_every_round_and_changes_nothing():
    seen = []
    with_progress = simulate(
        SuccessCount(6),
        BernoulliArms(MEANS),
        Streams("test", "stopping", np.arange(5)),
        40,
        [RegretTrace(linear_grid(40, 40))],
        progress=seen.append,
    )
    reference = _run(np.arange(5))
    assert seen == list(range(1, len(seen) + 1)) and len(seen) == int(reference.summary["stopped_at"].max())
    for name, column in reference.summary.items():
        np.testing.assert_array_equal(with_progress.summary[name], column)
    for name, column in reference.trace.items():
        np.testing.assert_array_equal(with_progress.trace[name], column)


def test_progress_log_reports_once_per_interval_with_the_time_left(caplog):
    from causal_bandits.runs import ProgressLog

    clock = iter([0.0, 30.0, 61.0, 90.0, 125.0]).__next__
    progress = ProgressLog("p/e/s/a seeds 0..9", 100, every=60.0, clock=clock)  # start at 0 s
    with caplog.at_level("INFO", logger="causal_bandits.runs"):
        for t in (11, 26, 31, 51):  # at 30, 61, 90 and 125 s
            progress(t)
    messages = [r.getMessage() for r in caplog.records]
    assert messages == [
        "p/e/s/a seeds 0..9: round 26 of 100 (25 %), 61 s so far, about 183 s left",
        "p/e/s/a seeds 0..9: round 51 of 100 (50 %), 125 s so far, about 125 s left",
    ]
    stopping = ProgressLog("x", 100, stopping=True, every=1.0, clock=iter([0.0, 2.0]).__next__)
    with caplog.at_level("INFO", logger="causal_bandits.runs"):
        stopping(11)
    assert caplog.records[-1].getMessage() == "x: round 11 of 100 (10 %), 2 s so far"


@pytest.mark.parametrize(("horizon", "kind"), [(0, ValueError), (-5, ValueError), (100.5, TypeError)])
def test_simulate_refuses_a_horizon_that_is_not_a_whole_number_of_rounds(horizon, kind):
    with pytest.raises(kind, match=r"horizon must be .*>= 1"):
        simulate(SuccessCount(6), BernoulliArms(MEANS), Streams("test", "stopping", np.arange(2)), horizon)


def test_simulate_refuses_float_seeds_instead_of_truncating_them():
    with pytest.raises(TypeError, match="seeds must be"):
        simulate(SuccessCount(6), BernoulliArms(MEANS), Streams("test", "stopping", np.array([0.0, 1.5])), 10)
