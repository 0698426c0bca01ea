"""Equal law of the z² bootstrap's random layout: this package against the package at git ref ``--before``.

Usage: ``python benchmarks/z2_law.py --before REF [--refreshes 300] [--sigma-seeds 3] [--sigma-rounds 3000]
[--seeds 200] [--horizon 1000] [--panels fig5a fig5b fig5c] [--algorithms TS KLUCB] [--skip sigma traj]``.

The z² solvers' estimator is a fresh nonparametric multinomial bootstrap of the current data (B resamples per
refresh, AAAI-19 Alg. 2); how the resamples are drawn (their random layout) may change only if the law does not.
Three checks, each printed with its numbers (the ``--before`` side runs in its own process on ``src`` exported
with ``git archive``, as in ``z2_speed.py``):

1. **Σ̂ entries.** One data state per panel (the count tables of ``--sigma-seeds`` z²-TS seeds after
   ``--sigma-rounds`` rounds on the panel, made by this package), fed to a fresh :class:`Z2Estimates` and refreshed
   once from scratch, ``--refreshes`` times with independent bootstrap streams, per side; a second ``--before``
   run with other streams is the control. Per Σ̂ entry (seed, arm, pair of estimators kept in every refresh of
   both sides): two-sample Kolmogorov-Smirnov, and the z of the difference of the means. Printed: the share of
   entries with p < 0.01 and p < 0.05 and the largest |z| (under equal law about 1 % / 5 % and a few; the entries
   are strongly correlated, so the shares are a sanity check, not a test), and the share of refreshes whose kept
   estimators agree with the modal set.
2. **Trajectories.** Per panel and solver, ``--seeds`` seeds for ``--horizon`` rounds on common environment
   streams, per-arm pull counts at the horizon, both sides: a paired Wilcoxon signed-rank test per arm (the seeds
   pair up by their environment streams) and an unpaired Mann-Whitney U test per arm, each Bonferroni-corrected
   over the arms of all panels and solvers. Printed: the smallest corrected p of each.
3. **The binomial sampler** (this package only): chi-square of 200,000 draws against the exact binomial pmf
   (``scipy.stats.binom``) at 12 (n, p) points on both sides of the BTRS / inversion switch (n·min(p, 1−p) = 10)
   and with p > 1/2; cells with an expected count under 5 are pooled.

The last line is one JSON object with every number.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np
from scipy import stats
from z2_speed import PANELS, SOLVERS, export_src

from causal_bandits.bandits.engine import Streams, simulate
from causal_bandits.bandits.environments import InterventionArms
from causal_bandits.bandits.z2_estimates import Z2Estimates
from causal_bandits.causal.estimators import pomis_plus_estimators
from causal_bandits.papers.nonmanip.graphs import GRAPHS
from causal_bandits.rng import SeedStreams
from causal_bandits.scm.xor_bernoulli import XorBernoulliSCM

SIGMA_PANELS = ("fig5a", "fig5c")
#: (n, p) of the sampler check: inversion (n·p < 10) and BTRS on both sides of the switch, p > 1/2 mirrored.
POINTS = (
    (5, 0.3),
    (20, 0.45),
    (30, 0.33),
    (31, 0.34),
    (100, 0.09),
    (100, 0.11),
    (250, 0.04),
    (40, 0.6),
    (100, 0.7),
    (1000, 0.95),
    (1000, 0.995),
    (9000, 0.2),
)


def panel_setup(panel: str):
    graph, N, q, c = PANELS[panel]
    G = GRAPHS[graph]
    est = pomis_plus_estimators(G, "Y", N)
    arms = tuple(est.layout.arm_values(a) for a in range(len(est.layout.arms)))
    env = InterventionArms(XorBernoulliSCM(G, q, c), "Y", arms, np.zeros(len(arms)), observe=True)
    return G, est, env


def run(panel: str, algorithm: str, seeds: int, horizon: int):
    """A z² policy after ``horizon`` rounds of ``seeds`` seeds on the panel (common environment streams)."""
    G, est, env = panel_setup(panel)
    policy = SOLVERS[algorithm](est, G.nodes)
    simulate(policy, env, Streams("z2-law", panel, np.arange(seeds)), horizon)
    return policy


def sigma_draws(panel: str, counts: np.ndarray, refreshes: int, key: str) -> dict:
    """Σ̂ and the kept sets of one from-scratch refresh of the data state ``counts`` (seeds, arms, cells), per
    independent bootstrap stream ``key``-r, r < ``refreshes``."""
    _, est, _ = panel_setup(panel)
    seeds, _, n_cells = counts.shape
    # the samples of each seed in any order (only the counts matter): (rounds, seeds) arms and cells
    flat = [np.repeat(np.arange(counts[s].size), counts[s].ravel().astype(np.int64)) for s in range(seeds)]
    samples = np.stack(flat, axis=1)
    arms, cells = samples // n_cells, samples % n_cells
    covs, kept = [], []
    for r in range(refreshes):
        z2 = Z2Estimates(est)
        z2.reset(seeds, SeedStreams("z2-law", f"{key}-{r}", np.arange(seeds), "policy/bootstrap"))
        for a, c in zip(arms, cells):
            z2.add(a, c)
        z2.estimates(arms.shape[0] + 1)
        covs.append(z2._cov.copy())
        kept.append(z2._kept & z2._last_active)
    return {"cov": np.stack(covs), "kept": np.stack(kept)}


def worker(args: argparse.Namespace) -> None:
    """One side's draws, saved to ``args.out`` (runs in the process that imports that side's package)."""
    if args.worker == "sigma":
        counts = np.load(args.state)
        np.savez(args.out, **sigma_draws(args.panel, counts, args.refreshes, args.key))
    else:
        policy = run(args.panel, args.algorithm, args.seeds, args.horizon)
        np.save(args.out, policy._pulls)


def in_process(src: str, tmp: str, name: str, *options: str) -> str:
    """Run :func:`worker` with ``options`` on the package at ``src``; returns its output file."""
    out = os.path.join(tmp, name)
    cmd = [sys.executable, __file__, *options, "--out", out]
    subprocess.run(cmd, check=True, env={**os.environ, "PYTHONPATH": src})
    return out if out.endswith(".npy") else out + ".npz"


def compare_sigma(a: dict, b: dict) -> dict:
    """KS per Σ̂ entry kept in every refresh of both samples, the largest |z| of the mean difference."""
    both = a["kept"].all(axis=0) & b["kept"].all(axis=0)  # (seeds, arms, K)
    s, arm, _ = np.nonzero(both)
    ps, zs = [], []
    for seed, x in {(s_, a_) for s_, a_ in zip(s, arm)}:
        slots = np.flatnonzero(both[seed, x])
        for u, v in [(u, v) for u in slots for v in slots if u <= v]:
            left, right = a["cov"][:, seed, x, u, v], b["cov"][:, seed, x, u, v]
            ps.append(stats.ks_2samp(left, right).pvalue)
            se = np.sqrt(left.var(ddof=1) / left.size + right.var(ddof=1) / right.size)
            zs.append(abs(left.mean() - right.mean()) / se if se > 0 else 0.0)
    ps_arr = np.array(ps)
    return {
        "entries": int(ps_arr.size),
        "share_p_below_0.01": float((ps_arr < 0.01).mean()),
        "share_p_below_0.05": float((ps_arr < 0.05).mean()),
        "max_abs_z": float(max(zs)),
        "kept_agreement": kept_agreement(a["kept"], b["kept"]),
    }


def kept_agreement(a: np.ndarray, b: np.ndarray) -> float:
    """The share of (refresh, seed, arm) kept sets of ``b`` equal to the modal kept set of ``a``."""
    agree = []
    for s in range(a.shape[1]):
        for x in range(a.shape[2]):
            if not a[:, s, x].any():
                continue
            sets, counts = np.unique(a[:, s, x], axis=0, return_counts=True)
            mode = sets[counts.argmax()]
            agree.append((b[:, s, x] == mode).all(axis=1).mean())
    return float(np.mean(agree))


def sigma_check(args: argparse.Namespace, here: str, before: str, tmp: str) -> dict:
    out = {}
    for panel in SIGMA_PANELS:
        state = os.path.join(tmp, f"{panel}-state.npy")
        np.save(state, run(panel, "TS", args.sigma_seeds, args.sigma_rounds).estimates.counts)
        common = ["--worker", "sigma", "--panel", panel, "--state", state, "--refreshes", str(args.refreshes)]
        new = np.load(in_process(here, tmp, f"{panel}-new", *common, "--key", "a"))
        old = np.load(in_process(before, tmp, f"{panel}-old", *common, "--key", "a"))
        control = np.load(in_process(before, tmp, f"{panel}-control", *common, "--key", "b"))
        out[panel] = {"new_vs_before": compare_sigma(old, new), "control": compare_sigma(old, control)}
        for name, r in out[panel].items():
            print(
                f"Σ̂ {panel} {name:12} entries {r['entries']:4d}  p<0.01 {r['share_p_below_0.01']:6.1%}  "
                f"p<0.05 {r['share_p_below_0.05']:6.1%}  max|z| {r['max_abs_z']:4.2f}  "
                f"kept agreement {r['kept_agreement']:6.1%}",
                flush=True,
            )
    return out


def trajectory_check(args: argparse.Namespace, here: str, before: str, tmp: str) -> dict:
    pulls = {}
    for panel in args.panels:
        for algorithm in args.algorithms:
            common = ["--worker", "traj", "--panel", panel, "--algorithm", algorithm]
            common += ["--seeds", str(args.seeds), "--horizon", str(args.horizon)]
            pulls[panel, algorithm] = [
                np.load(in_process(src, tmp, f"{panel}-{algorithm}-{side}.npy", *common))
                for side, src in (("new", here), ("old", before))
            ]
    n_tests = sum(new.shape[1] for new, _ in pulls.values())
    out = {}
    for (panel, algorithm), (new, old) in pulls.items():
        wilcoxon, mannwhitney = [], []
        for a in range(new.shape[1]):
            if np.array_equal(new[:, a], old[:, a]):
                wilcoxon.append(1.0)
            else:
                wilcoxon.append(stats.wilcoxon(new[:, a], old[:, a]).pvalue)
            mannwhitney.append(stats.mannwhitneyu(new[:, a], old[:, a]).pvalue)
        out[f"{panel} {algorithm}"] = r = {
            "wilcoxon_min_p": min(wilcoxon),
            "mannwhitney_min_p": min(mannwhitney),
            "wilcoxon_min_p_bonferroni": min(1.0, n_tests * min(wilcoxon)),
            "mannwhitney_min_p_bonferroni": min(1.0, n_tests * min(mannwhitney)),
            "mean_pulls_new": new.mean(axis=0).round(2).tolist(),
            "mean_pulls_before": old.mean(axis=0).round(2).tolist(),
        }
        print(
            f"pulls {panel} {algorithm:5}  smallest p (uncorrected; Bonferroni over {n_tests} tests): Wilcoxon "
            f"{r['wilcoxon_min_p']:.3f} ({r['wilcoxon_min_p_bonferroni']:.3f})  Mann-Whitney "
            f"{r['mannwhitney_min_p']:.3f} ({r['mannwhitney_min_p_bonferroni']:.3f})",
            flush=True,
        )
    return out


def chi_square(n: int, p: float, draws: np.ndarray) -> float:
    """p-value of the chi-square test of ``draws`` against Bin(n, p) (cells with expected count < 5 pooled)."""
    expected = stats.binom.pmf(np.arange(n + 1), n, p) * draws.size
    observed = np.bincount(draws, minlength=n + 1)
    big = expected >= 5
    e, o = list(expected[big]), list(observed[big])
    if expected[~big].sum() >= 5:
        e.append(expected[~big].sum())
        o.append(observed[~big].sum())
    e_arr, o_arr = np.array(e), np.array(o)
    e_arr *= o_arr.sum() / e_arr.sum()
    return float(stats.chisquare(o_arr, e_arr).pvalue)


def sampler_check(draws: int = 200_000) -> dict:
    from causal_bandits.bandits.multinomial import multinomial

    gen = np.random.default_rng(2024)
    out = {}
    for n, p in POINTS:
        x = multinomial(gen, np.full(draws, n), np.array([p, 1 - p]))[:, 0]
        out[f"n={n} p={p}"] = pv = chi_square(n, p, x)
        print(f"sampler Bin({n}, {p}) n·min(p,1-p) = {n * min(p, 1 - p):6.1f}: chi-square p = {pv:.3f}", flush=True)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", metavar="REF", help="the git ref whose layout is the reference")
    ap.add_argument("--refreshes", type=int, default=300)
    ap.add_argument("--sigma-seeds", type=int, default=3)
    ap.add_argument("--sigma-rounds", type=int, default=3000)
    ap.add_argument("--seeds", type=int, default=200)
    ap.add_argument("--horizon", type=int, default=1000)
    ap.add_argument("--panels", nargs="+", default=list(PANELS), choices=list(PANELS))
    ap.add_argument("--algorithms", nargs="+", default=list(SOLVERS), choices=list(SOLVERS))
    ap.add_argument("--skip", nargs="*", default=[], choices=["sigma", "traj", "sampler"])
    for hidden in ("worker", "panel", "algorithm", "state", "key", "out"):
        ap.add_argument(f"--{hidden}", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(args)
        return
    result: dict = {"before_ref": args.before}
    if "sampler" not in args.skip:
        result["sampler"] = sampler_check()
    if {"sigma", "traj"} - set(args.skip):
        if not args.before:
            ap.error("--before REF is needed for the Σ̂ and trajectory checks")
        here = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")
        with tempfile.TemporaryDirectory() as tmp:
            before = export_src(args.before, tmp)
            if "sigma" not in args.skip:
                result["sigma"] = sigma_check(args, here, before, tmp)
            if "traj" not in args.skip:
                result["trajectories"] = trajectory_check(args, here, before, tmp)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
