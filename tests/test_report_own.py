"""The report's sections of own results (causal_bandits.report.own): a ``pure_exploration:`` experiment's row names
the exact best arm and its mean, the arms its runs recommended and the correct rate with its Wilson interval, in
REPORT.md and REPORT.html, after the ``experiments:`` block's section; without either block the report has neither."""

from __future__ import annotations

import re
import warnings

import matplotlib.pyplot as plt
import pytest

import causal_bandits as cb
from causal_bandits import report
from causal_bandits.experiments import cpe, pure_exploration_summary

#: Two nodes, X -> Y: do(X=1) is the best arm, mean 0.3 + 0.4.
CHAIN = {
    "nodes": ["X", "Y"],
    "hidden": [],
    "reward": "Y",
    "mechanisms": {
        "X": {"kind": "linear", "intercept": 0.5},
        "Y": {"kind": "linear", "parents": ["X"], "weights": [0.4], "intercept": 0.3},
    },
}
BLOCK = {"delta": 0.1, "epsilon": 0.0, "max_samples": 400, "n_seeds": 3}
TABLE = "figures/pure_exploration/chain/table.md"


@pytest.fixture(scope="module")
def summary():
    """The summary the workflow's table rule writes, from a real (small) run of the algorithms that run."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # CCPE-BGLM is left out: not a BGLM
        frame = cb.pure_exploration(CHAIN, name="chain", delta=0.1, epsilon=0.0, max_samples=400, n_seeds=3)
    best = cpe.best_arm(cpe.instance(CHAIN, name="chain"))
    skipped = {"ccpe_bglm": "not a BGLM (give bglm: {link, constant})"}
    return pure_exploration_summary.document("chain", "A chain", frame, best, skipped, BLOCK, TABLE), frame


def test_the_summary_names_the_best_arm_and_each_algorithms_recommendations(summary):
    doc, frame = summary
    assert (doc["best_arm"], doc["best_mean"]) == ("do(X=1)", pytest.approx(0.7))
    ran = [r for r in doc["rows"] if "not_run" not in r]
    assert [r["algorithm"] for r in ran] == list(frame["algorithm"])
    assert [r["recommended"] for r in ran] == list(frame["recommended"])
    assert [r["correct_wilson_low"] for r in ran] == list(frame["correct_wilson_low"])
    assert doc["rows"][-1] == {"algorithm": "CCPE-BGLM", "not_run": "not a BGLM (give bglm: {link, constant})"}


def test_the_report_has_a_row_per_algorithm_of_a_pure_exploration_experiment(summary):
    doc, frame = summary
    md, html = report.render([], {}, pure_exploration=[doc])
    section = md.split("## Own pure exploration")[1]
    assert (
        "best arm do(X=1), mean 0.7000" in section and f"Table: [{TABLE}](pure_exploration/chain/table.md)" in section
    )
    for r in frame.itertuples():
        interval = f"[{r.correct_wilson_low:.3f}, {r.correct_wilson_high:.3f}]"
        row = f"| {r.algorithm} | 3 | {r.n_censored} | {r.recommended} | {r.correct_rate:.3f} | {interval} |"
        assert row in section, section
    assert re.search(r"\| \S+ \| 3 \| \d \| do\(X=[01]\) \d/3", section)  # the arms named, with their frequency
    assert "| CCPE-BGLM | not run: not a BGLM" in section
    assert "<section class=paper id=pure-exploration>" in html and '<a href="#pure-exploration">' in html
    assert "best arm do(X=1), mean 0.7000" in html and "<td>CCPE-BGLM</td>" in html


def test_both_own_sections_in_order_and_none_without_their_blocks(summary, tmp_path):
    doc, _ = summary
    figure = tmp_path / "figures/experiments/s/regret.png"
    figure.parent.mkdir(parents=True)
    plt.figure(figsize=(2, 1))
    plt.savefig(figure)
    plt.close()
    own = {"experiment": "s", "title": "S", "horizon": 10, "n_seeds": 1, "mu_star": 0.5, "optimal_arms": ["do()"]}
    own |= {"rows": [], "table": "figures/experiments/s/table.md", "figure": "figures/experiments/s/regret.png"}
    md, html = report.render([], {}, root=tmp_path, pure_exploration=[doc], experiments=[own])
    assert md.index("## Own experiments") < md.index("## Own pure exploration")
    assert html.index("id=experiments>") < html.index("id=pure-exploration>")
    assert "## Own experiments" not in report.render([], {}, pure_exploration=[doc])[0]
    assert report.render([], {}) == report.render([], {}, pure_exploration=[], experiments=[])
    assert "pure exploration" not in report.render([], {})[1].lower()
