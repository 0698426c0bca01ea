"""POMIS -> arms -> Thompson sampling for 1,000 seeds, from Python (Lee & Bareinboim, AAAI-19).

Run: ``python examples/library_from_python.py``. The same study in the workflow's ``experiments:``
section (examples/own_experiment.yaml) stores the same numbers: streams are keyed by the study's name.
"""

import causal_bandits as cb


def main(seeds=1000, horizon=10_000, points=200):
    G = cb.CausalDiagram(["X", "Z", "Y"], [("X", "Z"), ("Z", "Y")], [("X", "Y")])
    scm = {"q": {"U_X": 0.2, "U_Y": 0.3, "U_Z": 0.2, "U_XY": 0.1}, "c": {"X": 0, "Y": 0, "Z": 0}}
    arms = cb.arms_for(G, scm, "POMIS", reward="Y")
    streams = cb.Streams.for_experiment("my_study", range(seeds))
    trace = cb.RegretTrace(cb.linear_grid(horizon, points))
    run = cb.simulate(arms.policy("ts"), arms.environment(), streams, horizon, [trace])
    return run.to_frame()


if __name__ == "__main__":
    print(main().groupby("round")["cum_regret"].mean().tail())
