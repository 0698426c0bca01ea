"""The engine's windows (``WindowPolicy`` against an environment's ``OutcomeTables``) play the same run, bit for bit,
as the same policy served round by round: UCB1 on all arms and on each seed's own list, CN-UCB once its discovery
has ended, binary and K-valued outcomes, grid points inside and on the edges of windows, any window size."""

from __future__ import annotations

import numpy as np
import pytest

from causal_bandits.bandits import engine
from causal_bandits.bandits.cn_ucb import CNUCB
from causal_bandits.bandits.engine import Feedback, Step, Streams, Window, simulate
from causal_bandits.bandits.recorders import RegretTrace
from causal_bandits.bandits.ucb1 import UCBPolicy
from causal_bandits.papers.unknown_graph import families as F
from causal_bandits.papers.unknown_graph.environment import SCMEnvironment
from causal_bandits.papers.unknown_graph.inputs import discovery_inputs
from causal_bandits.rng import generator

PAPER = "unknown_graph"
SEEDS = [0, 1, 2, 5]


def trees(K: int) -> list:
    return [F.tree(3, rng=generator(PAPER, "windows", s, "instance"), regime="A", K=K) for s in SEEDS]


def policies(insts) -> dict:
    return {
        "ucb": UCBPolicy(c=1.0),
        "oracle": UCBPolicy([i.arms_of([i.reward_node]) for i in insts], c=0.5, name="Oracle"),
        "cn_ucb": CNUCB([discovery_inputs(i, c_B=0.03) for i in insts]),
    }


def run_bytes(policy, insts, horizon: int, windows: bool) -> list[bytes]:
    """Every array of the run (trace and summary, in a fixed order) as bytes."""
    if not windows:
        policy.window = lambda t: 1
    grid = np.unique(np.r_[1, 2, 17, 64, 65, 1000, 1001, np.arange(500, horizon, 997), horizon])
    run = simulate(
        policy, SCMEnvironment(insts), Streams(PAPER, "windows", np.array(SEEDS)), horizon, [RegretTrace(grid)]
    )
    return (
        [run.rounds.tobytes()]
        + [run.trace[k].tobytes() for k in sorted(run.trace)]
        + [run.summary[k].tobytes() for k in sorted(run.summary)]
    )


@pytest.mark.parametrize("K", [2, 3])
@pytest.mark.parametrize("name", ["ucb", "oracle", "cn_ucb"])
@pytest.mark.parametrize("size", [64, 4096])
def test_windows_play_the_rounds_bit_for_bit(monkeypatch, K, name, size):
    insts = trees(K)
    horizon = 9000
    by_round = run_bytes(policies(insts)[name], insts, horizon, windows=False)
    monkeypatch.setattr(engine, "WINDOW", size)
    played = []
    policy = policies(insts)[name]
    play = policy.play_window
    policy.play_window = lambda t, length, tables: played.append(length) or play(t, length, tables)
    assert run_bytes(policy, insts, horizon, windows=True) == by_round
    assert played and max(played) <= size  # windows were played, not the rounds one by one
    if name == "cn_ucb":  # discovery first (blocks and rounds), windows only after every seed's discovery
        assert sum(played) < horizon - discovery_inputs(insts[0], c_B=0.03).B


def test_observing_every_round_turns_windows_off():
    """With ``observe_all`` every pull returns every variable, so the environment serves no tables."""
    env = SCMEnvironment(trees(2), observe_all=True)
    assert env.outcome_law() is None
    policy = UCBPolicy()
    policy.play_window = None  # would fail if called
    run = simulate(policy, env, Streams(PAPER, "windows", np.array(SEEDS)), 300, [RegretTrace(np.array([300]))])
    assert run.trace["cum_regret"].shape == (len(SEEDS), 1)


def test_regret_trace_takes_a_window_as_its_rounds():
    """``RegretTrace.record_window`` leaves every array where ``record`` round by round does (grid points at both
    ends of the window and inside it, sums of many rounds)."""
    rng = np.random.default_rng(3)
    S, L, horizon = 3, 50, 120
    grid = np.array([1, 10, 11, 60, 71, 110, 120])
    arms = rng.integers(0, 4, size=(S, horizon))
    rewards, gap = rng.normal(size=(S, horizon)), rng.random((S, horizon)) / 3
    optimal, best = gap == 0, rng.random((S, 1))
    one, many = RegretTrace(grid), RegretTrace(grid)
    for recorder in (one, many):
        recorder.start(np.arange(S), horizon, None, None)
    for t in range(1, horizon + 1):
        i = t - 1
        feedback = Feedback(arms[:, i], rewards[:, i])
        one.record(Step(t, np.arange(S), feedback, gap[:, i], best[:, 0], optimal[:, i]))
    for t in (1, 1 + L, 1 + 2 * L):
        cut = slice(t - 1, min(t - 1 + L, horizon))
        many.record_window(Window(t, np.arange(S), arms[:, cut], rewards[:, cut], gap[:, cut], best, optimal[:, cut]))
    for a, b in zip(one.finish(), many.finish()):
        if isinstance(a, dict):
            assert a.keys() == b.keys() and all(a[k].tobytes() == b[k].tobytes() for k in a)
        else:
            assert a.tobytes() == b.tobytes()
