"""The one engine: adaptive stopping (seeds that stop on their own), censoring and the run store."""

from __future__ import annotations

import numpy as np
import pyarrow.parquet as pq
import pytest

from causal_bandits import store
from causal_bandits.bandits.engine import StoppingPolicy, Streams, linear_grid, simulate
from causal_bandits.bandits.environments import BernoulliArms
from causal_bandits.bandits.recorders import RegretTrace
from causal_bandits.papers import PAPERS

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
    return simulate(SuccessCount(k), BernoulliArms(MEANS), Streams("test", "stopping", np.asarray(seeds)), horizon,
                    [RegretTrace(linear_grid(horizon, horizon))])


def _alone(seed, k=6, horizon=40):
    """One seed by hand, from its own environment stream: (stopping round or None, recommendation)."""
    u = Streams("test", "stopping", np.array([seed])).uniforms("environment").uniform(horizon)[0]
    offset = int(np.floor(Streams("test", "stopping", np.array([seed])).uniforms("policy/start").uniform(1)[0, 0]
                          * 3))
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


@pytest.mark.parametrize("chunks", [[range(0, 3), range(3, 10)], [range(0, 1), range(1, 10)]])
def test_stopping_runs_do_not_depend_on_the_chunking(chunks):
    whole = _run(np.arange(10))
    parts = [_run(np.asarray(c)) for c in chunks]
    for name in ("stopped_at", "recommended", "censored"):
        assert np.array_equal(whole.summary[name], np.concatenate([p.summary[name] for p in parts])), name
    assert np.array_equal(whole.trace["cum_regret"], np.concatenate([p.trace["cum_regret"] for p in parts]))


def test_summary_holds_the_stopping_columns_and_paper_columns(tmp_path):
    run = _run(np.arange(5))
    column = f"{PAPERS[0]}_width"  # a registered paper's own column
    run.summary[column] = np.linspace(0.1, 0.5, 5)
    store.write_run(tmp_path / "t.parquet", tmp_path / "t.summary.parquet", run, {"k": "v"})
    table = pq.read_table(tmp_path / "t.summary.parquet")
    assert table.column_names == ["seed", "final_regret", "final_realized_regret", "optimal_fraction", "stopped_at",
                                  "recommended", "correct", "censored", column]
    run.summary["width"] = run.summary.pop(column)
    with pytest.raises(ValueError, match="<paper>_<what>"):
        store.summary_table(run)
