"""The fairness config section: both config files validate; bad values stop with one line."""

import copy
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from causal_bandits import config as cb_config
from causal_bandits.errors import ConfigError
from causal_bandits.papers.fairness import claims as fairness
from causal_bandits.papers.fairness.config import check_config

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def paper_config():
    return cb_config.validate(cb_config.load(REPO / "config" / "config.yaml"))


@pytest.fixture(scope="module")
def quick_config():
    return cb_config.validate(cb_config.load(REPO / "config" / "config.yaml", REPO / "config" / "quick.yaml"))


def test_paper_scale_section_is_the_papers_setting(paper_config):
    cfg = paper_config["fairness"]
    check_config(cfg)
    assert (cfg["horizon"], cfg["n_seeds"], cfg["taus"]) == (5000, 5, [0.1, 0.2, 0.3, 0.4, 0.5])
    assert cfg["raw"]["adult"]["sha256"] == "5b00264637dbfec36bdeaab5676b0b309ff9eb788d63554ca0a249491c86603d"
    assert fairness.is_paper_scale(cfg)


def test_quick_section_is_small_and_uses_standins(quick_config):
    cfg = quick_config["fairness"]
    check_config(cfg)
    assert cfg["horizon"] == 500 and cfg["raw"]["on_missing"] == "standin"
    assert cfg["adult_video"]["arm_features"] == ["length", "ratings", "views", "comments"]  # merged defaults


@pytest.mark.parametrize("tau", [0.0, -0.1, 1.5])
def test_tau_outside_the_unit_interval_is_rejected(paper_config, tau):
    cfg = copy.deepcopy(paper_config["fairness"])
    cfg["taus"] = [0.1, tau]
    with pytest.raises(ConfigError, match=r"fairness.taus contains .* must lie in \(0, 1\]") as err:
        check_config(cfg)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize(
    "edit, match",
    [
        (lambda c: c.update(figure2b_tau=0.25), "figure2b_tau"),
        (lambda c: c.update(horizon=6000), "exceeds the 5000 online Adult users"),
        (lambda c: c["adult_video"].update(n_graph=10000), "leaves no online users"),
        (lambda c: c["adult_video"]["reward"]["coef"].update(votes=0.2), "neither user features nor arm features"),
        (lambda c: c["email"].update(s_minus=2), "s_plus equals s_minus"),
        (lambda c: c["fucb"].update(fallback="safe_arm"), "safe_arm.email is not set"),
    ],
)
def test_semantic_errors(paper_config, edit, match):
    cfg = copy.deepcopy(paper_config["fairness"])
    edit(cfg)
    with pytest.raises(ConfigError, match=match):
        check_config(cfg)


def test_schema_rejects_unknown_keys_and_bad_checksums():
    base = cb_config.load(REPO / "config" / "config.yaml")
    bad = copy.deepcopy(base)
    bad["fairness"]["fucb"]["fallbak"] = "unconstrained"
    with pytest.raises(ConfigError, match=re.escape("unknown config key 'fallbak' under fairness.fucb")):
        cb_config.validate(bad)
    bad = copy.deepcopy(base)
    bad["fairness"]["raw"]["adult"]["sha256"] = "abc"
    with pytest.raises(ConfigError, match=re.escape("fairness.raw.adult.sha256")):
        cb_config.validate(bad)


def test_ordering_claim_lists_tied_algorithms_by_name_whatever_the_hash_seed():
    """Tied regrets are listed in one order (by name), not in a set's order, which changes with
    PYTHONHASHSEED from one process to the next (found by tests/test_determinism.py)."""
    code = """
import pandas as pd
from causal_bandits.papers.fairness import claims
summary = pd.DataFrame({"algorithm": ["ucb", "cucb", "ducb", "fucb_tau0.3"] * 2, "seed": [0] * 4 + [1] * 4,
                        "final_regret": [22.0, 18.0, 17.0, 17.0, 23.0, 19.0, 18.0, 18.0]})
results = {"config": {"figure2b_tau": 0.3, "horizon": 200, "n_seeds": 2}, "summary": {"email": summary}}
claim = next(c for c in claims.claims() if c.id == "fig2b-causal-below-ucb")
print(claim.check(results)["ours"])
"""
    outs = {
        subprocess.run(
            [sys.executable, "-c", code],
            env={**os.environ, "PYTHONHASHSEED": str(seed)},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in range(4)
    }
    assert outs == {
        "UCB 22.5 [16.1, 28.9]; C-UCB 18.5 [12.1, 24.9]; D-UCB 17.5 [11.1, 23.9]; F-UCB (τ=0.3) 17.5 [11.1, 23.9]\n"
    }


def test_stand_in_data_is_a_notice_of_the_whole_paper():
    """Stand-in data is said once, in the claims document's notices, which the report puts at its top."""
    from causal_bandits.claims import document

    raw = {"adult_video": {"data_provenance": "raw"}, "users_meta": {"data_provenance": "raw"}}
    standin = {
        "adult_video": {"data_provenance": "synthetic-standin"},
        "users_meta": {"data_provenance": "synthetic-standin"},
    }
    assert fairness.notices(raw) == []
    assert "notices" not in document("fairness", {"horizon": 500, "n_seeds": 2}, [], notices=fairness.notices(raw))
    doc = document("fairness", {"horizon": 500, "n_seeds": 2}, [], notices=fairness.notices(standin))
    assert len(doc["notices"]) == 1 and doc["notices"][0].startswith("Synthetic stand-in data")
