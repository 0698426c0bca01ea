"""Test helper: run a cpe policy on the one engine and read its stopping summary as arrays."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from causal_bandits.bandits.engine import Streams, simulate
from causal_bandits.papers.cpe.recorders import StoppingDiagnostics


@dataclass
class Stopping:
    seeds: np.ndarray
    samples: np.ndarray  # stopping round (= samples used); the cap when censored
    recommended: np.ndarray
    censored: np.ndarray
    diagnostics: dict  # counter -> (n_seeds,) at stopping or at the cap
    summary: dict  # every summary column of the run


def run_to_stop(policy, env, *, seeds, horizon, experiment="test", block=4096, recorders=()) -> Stopping:
    """Every seed runs until its policy stops or ``horizon`` (the sample cap) passes."""
    seeds = np.asarray(list(seeds), dtype=np.int64)
    run = simulate(policy, env, Streams("cpe", experiment, seeds, block), horizon, [StoppingDiagnostics(), *recorders])
    s = run.summary
    diagnostics = {k.removeprefix("cpe_"): v for k, v in s.items() if k.startswith("cpe_")}
    return Stopping(seeds, s["stopped_at"], s["recommended"], s["censored"], diagnostics, s)
