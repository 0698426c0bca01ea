"""Bad input stops the workflow at parse time with one line naming the problem and the fix."""

from __future__ import annotations

import pytest

from conftest import assert_bad_config_fails_cleanly, copy_workflow

pytestmark = pytest.mark.workflow

FRONTDOOR = {"nodes": ["X", "Z", "Y"], "directed": [["X", "Z"], ["Z", "Y"]], "bidirected": [["X", "Y"]],
             "reward": "Y"}


def _panel(graph, non_manipulable=("Z",)):
    return {"nonmanip": {"panels": {"mine": {
        "graph": graph, "non_manipulable": list(non_manipulable),
        "scm": {"q": {"U_X": 0.1, "U_Y": 0.2, "U_Z": 0.3, "U_XY": 0.4}, "c": {"X": 0, "Y": 0, "Z": 0}}}}}}


CASES = {
    "unknown key": ({"nonmanip": {"horizn": 10}}, "unknown config key 'horizn'"),
    "negative horizon": ({"nonmanip": {"horizon": -5}}, "nonmanip.horizon = -5"),
    "zero seeds": ({"nonmanip": {"n_seeds": 0}}, "nonmanip.n_seeds = 0"),
    "node named twice": (_panel({**FRONTDOOR, "nodes": ["X", "Z", "Y", "X"]}), "'X' is listed twice"),
    "cyclic graph": (_panel({**FRONTDOOR, "directed": [["X", "Z"], ["Z", "Y"], ["Y", "X"]]}), "cycle"),
    "reward non-manipulable": (_panel(FRONTDOOR, ("Z", "Y")), "cannot be non-manipulable"),
    "SCM names an unknown exogenous": (
        {"nonmanip": {"panels": {"fig5a": {"scm": {"q": {"U_W": 0.1}}}}}},
        "unexpected ['U_W']",
    ),
    "probability above 1": ({"nonmanip": {"panels": {"fig5a": {"scm": {"q": {"U_X": 1.5}}}}}}, "U_X = 1.5"),
    "unregistered algorithm": (
        {"nonmanip": {"algorithms": ["TS", "EPSGREEDY"]}},
        "nonmanip.algorithms.1 = 'EPSGREEDY' is not a registered algorithm of nonmanip; use one of TS, KLUCB, "
        "POMISONLY, or register it in causal_bandits/papers/nonmanip/algorithms.py",
    ),
    "z² version named as a solver": ({"nonmanip": {"algorithms": ["z2TS"]}}, "use one of TS, KLUCB"),
    "unregistered cpe algorithm": (
        {"cpe": {"experiments": {"E0": {"runs": [{"algorithms": ["LUCB2"]}]}}}},
        "'LUCB2' is not a registered algorithm of cpe; use one of CCPE-General, CCPE-BGLM",
    ),
    "strategy the algorithm does not play": (
        {"nonmanip": {"algorithms": ["TS", "POMISONLY"]}},
        "nonmanip.algorithms names algorithm 'POMISONLY', which does not play strategy 'BF' (it plays POMIS); drop",
    ),
}
#: A registry entry that plays POMIS only, added to the scratch copy's nonmanip registry (the paper's
#: solvers play every arm set).
POMIS_ONLY = ('    Algorithm("POMISONLY", "causal_bandits.bandits.thompson.ThompsonSampling", "TS on POMIS", '
              'strategies=("POMIS",), addition=True),\n')


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    work = copy_workflow(tmp_path_factory.mktemp("bad") / "repo")
    registry = work / "src" / "causal_bandits" / "papers" / "nonmanip" / "algorithms.py"
    head, _, tail = registry.read_text().rpartition("\n)\n")
    registry.write_text(head + "\n" + POMIS_ONLY + ")\n" + tail)
    return work


@pytest.mark.parametrize("case", list(CASES))
def test_bad_config_fails_cleanly(workdir, case):
    assert_bad_config_fails_cleanly(workdir, *CASES[case])
