"""A *located* finding needs its numbers (causal_bandits.studies.Located): the claim's rule reproducing the paper at a
setting other than the main run's, the setting named, and what it does to the other claims; the archived knobs and
fucb_radius outputs re-judged under that standard."""

from pathlib import Path

import pandas as pd
import pytest

from causal_bandits import studies
from causal_bandits.studies import fucb_radius, knobs

ROOT = Path(__file__).resolve().parents[1]
ARCHIVE = ROOT / "archive" / "studies" / "figures" / "studies"
GOOD = studies.Located("n_min = 1000", "n_min = 20", True, "26.0 [25.0, 27.0]", "TS fig5b reproduced → differs")


@pytest.mark.parametrize(
    ("evidence", "problem"),
    [
        (None, "no numbers"),
        (studies.Located("n_min = 20", "n_min = 20", True, "x", "y"), "is the main run's own"),
        (
            studies.Located("n_min = 1000", "n_min = 20", False, "x", "y"),
            "does not reproduce the paper at n_min = 1000",
        ),
        (studies.Located("n_min = 1000", "n_min = 20", True, "x", " "), "what the setting does to the other claims"),
    ],
)
def test_a_located_finding_without_its_numbers_is_refused(evidence, problem):
    with pytest.raises(ValueError, match=f"a located finding needs its numbers: .*{problem}.*partly or inconclusive"):
        studies.finding(studies.LOCATED, "the knob reproduces the cell", "n", evidence)
    assert studies.finding(studies.PARTLY, "the knob moves the cell", "n", evidence)["outcome"] == "partly"


def test_a_located_record_carries_its_numbers_and_a_bare_one_is_refused_by_the_document():
    record = studies.finding(studies.LOCATED, "n_min = 1000 reproduces the cell", "n", GOOD)
    assert {k: record[k] for k in studies.LOCATED_KEYS} == {
        "setting": "n_min = 1000",
        "main_setting": "n_min = 20",
        "at_setting": "26.0 [25.0, 27.0]",
        "others": "TS fig5b reproduced → differs",
    }
    assert studies.document("knobs", "s", [], {"c": record})["findings"]["c"] == record
    bare = {"outcome": "located", "numbers": "n_min ∈ {1000}", "sentence": "some n_min reproduces the cell"}
    with pytest.raises(ValueError, match=r"findings \['c'\] say located without the setting"):
        studies.document("knobs", "s", [], {"c": bare})
    with pytest.raises(ValueError, match="say located without"):
        studies.document("knobs", "s", [], {"c": {**record, "setting": "n_min = 20"}})


def test_the_archived_knob_study_locates_no_cause_under_the_claims_rule():
    """The archive printed *located* for TS fig5a and KL-UCB fig5b (n_min = 1000) and TS fig5c (n_min ∈ {0, 20}, the
    main run's own included): under the cells' own interval rule n_min = 1000 only reaches the band's edge and breaks
    other cells, and n_min = 0 straddles the band as the main run does."""
    found = knobs.findings(pd.read_csv(ARCHIVE / "knobs" / "table.csv"))
    outcomes = {k: r["outcome"] for k, r in knobs.located(found).items()}
    assert outcomes == {
        "table1-ts-POMIS+-fig5a": "partly",
        "table1-kl_ucb-POMIS+-fig5a": "ruled out",
        "table1-ts-POMIS+-fig5b": "inconclusive",
        "table1-kl_ucb-POMIS+-fig5b": "partly",
        "table1-ts-POMIS+-fig5c": "inconclusive",
        "table1-kl_ucb-POMIS+-fig5c": "ruled out",
    }
    ts = knobs.located(found)["table1-ts-POMIS+-fig5a"]
    assert ts["numbers"].startswith("n_min = 1000: 26.12 [23.44, 28.79]; the main run (n_min = 20): 16.53")
    assert "TS fig5b 49.31 [43.16, 55.46] (reproduced) → 64.33 [55.79, 72.87] (inconclusive" in ts["numbers"]


def test_the_archived_radius_study_gives_the_trend_but_not_the_papers_regrets():
    tab = pd.read_csv(ARCHIVE / "fucb_radius" / "table.csv")
    record = fucb_radius.finding_record(tab, ("1.0", 1.0))
    assert record["outcome"] == "partly"
    assert "(alpha_r=theory, alpha_c=0.3): 2 of 5 regrets within 30% of the paper's" in record["numbers"]
    paper_like = tab.assign(within_30pct_of_paper=5)  # were the regrets the paper's too, the cause is located
    located = fucb_radius.finding_record(paper_like, ("1.0", 1.0))
    assert located["outcome"] == "located" and located["setting"] == "(alpha_r=1.0, alpha_c=0.3)"
    assert located["main_setting"] == "(alpha_r=1.0, alpha_c=1)"
    assert fucb_radius.finding_record(paper_like, ("1.0", 0.3))["setting"] == "(alpha_r=theory, alpha_c=0.01)"
