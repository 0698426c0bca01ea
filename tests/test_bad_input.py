"""Bad input is answered in one line naming the key or file and the fix, with nothing written.

Most cases go through ``causal-bandits check-config`` in-process: it runs the very checks the
workflow runs when Snakemake parses it (config files, the schema, each paper's checks), in
milliseconds. A few go through ``snakemake -n`` (marked ``workflow``), to show the line reaches the
console and the workflow stops before planning any job.
"""

from __future__ import annotations

import shutil

import pytest
from workflow_helpers import ROOT, SHARED_RAW, assert_bad_config_fails_cleanly, copy_workflow, snakemake

from causal_bandits import algorithms, cli
from causal_bandits import config as cb_config
from causal_bandits import cost as cb_cost
from causal_bandits import studies as cb_studies

BASE = ROOT / "config" / "config.yaml"

FRONTDOOR = {"nodes": ["X", "Z", "Y"], "directed": [["X", "Z"], ["Z", "Y"]], "bidirected": [["X", "Y"]], "reward": "Y"}
SCM = "scm: {q: {U_X: 0.1, U_Y: 0.2, U_Z: 0.3, U_XY: 0.4}, c: {X: 0, Y: 0, Z: 0}}"


def _panel(graph: str, non_manipulable: str = "[Z]") -> str:
    return (
        f"nonmanip:\n  panels:\n    mine:\n      graph: {graph}\n"
        f"      non_manipulable: {non_manipulable}\n      {SCM}\n"
    )


# Overlay files (YAML text merged over config/config.yaml) and a piece of the one line they get.
OVERLAYS = {
    # -- the files themselves
    "empty file": ("", "config file {file} is empty; write the keys it should change"),
    "comments only": ("# nothing yet\n", "config file {file} is empty"),
    "indentation error": ("nonmanip:\n  horizon: 10\n   n_seeds: 3\n", "{file}:3:11: not valid YAML"),
    "tab indentation": (
        "nonmanip:\n\thorizon: 10\n",
        "{file}:2:1: not valid YAML (found character that cannot "
        "start any token); YAML indents with spaces only: replace the tab with spaces",
    ),
    "tab hint only for tabs": ("nonmanip: {horizon: 10\n", "fix the indentation or quoting there"),
    "unclosed bracket": ("nonmanip: {horizon: 10\n", "{file}:2:1: not valid YAML"),
    "unclosed quote": ('data: {raw_dir: "data/raw}\n', "{file}:"),
    "top-level list": ("- nonmanip\n- bounds\n", "holds a list, not a mapping of config keys"),
    "top-level scalar": ("nonmanip\n", "holds a str, not a mapping of config keys"),
    # -- keys
    "unknown paper": ("nonmanpi: {horizon: 10}\n", "key 'nonmanpi' under <top level>; did you mean 'nonmanip'?"),
    "unknown key": ("nonmanip: {horizn: 10}\n", "unknown config key 'horizn' under nonmanip"),
    "unknown data key": ("data: {rawdir: /tmp}\n", "key 'rawdir' under data; did you mean 'raw_dir'? allowed keys"),
    "paper section not a mapping": ("nonmanip: [ts]\n", "config nonmanip = ['ts'] is invalid"),
    # -- own experiments (their checks beyond the schema run too)
    "experiment algorithm not registered": (
        "experiments: {s: {diagram: {nodes: [X, Y], directed: [[X, Y]], reward: Y}, scm: {q: {U_X: 0.2, U_Y: 0.3},"
        " c: {X: 0, Y: 0}}, algorithms: [TSX], horizon: 10, n_seeds: 2}}\n",
        "experiments.s.algorithms.0 names 'TSX', which is not a registered algorithm",
    ),
    "experiment reward not a node": (
        "experiments: {s: {diagram: {nodes: [X, Y], directed: [[X, Y]], reward: W}, scm: {q: {U_X: 0.2, U_Y: 0.3},"
        " c: {X: 0, Y: 0}}, algorithms: [ts], horizon: 10, n_seeds: 2}}\n",
        "experiments.s.diagram names 'W', which is not a node",
    ),
    # -- values against the schema
    "negative horizon": (
        "nonmanip: {horizon: -5}\n",
        "nonmanip.horizon = -5 is invalid: -5 is less than the minimum of 1; use an integer >= 1",
    ),
    "horizon as text": ("nonmanip: {horizon: abc}\n", "nonmanip.horizon = 'abc' is invalid"),
    "fractional horizon": ("nonmanip: {horizon: 1.5}\n", "use an integer >= 1"),
    "zero seeds": ("nonmanip: {n_seeds: 0}\n", "nonmanip.n_seeds = 0 is invalid"),
    "zero seeds per job": ("seeds_per_job: 0\n", "seeds_per_job = 0 is invalid"),
    "one record point": (
        "record_points: 1\n",
        "record_points = 1 is invalid: 1 is less than the minimum of 2; use an integer >= 2",
    ),
    "raw_dir too long": (
        f"data: {{raw_dir: {'x' * 5000}}}\n",
        "config data.raw_dir (5,000 characters, starting 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx') is not a usable "
        "path: longer than the 4,096 bytes a path may have; give the raw-data directory's path",
    ),
    "raw_dir with a NUL byte": (
        'data: {raw_dir: "data/\\0raw"}\n',
        "config data.raw_dir holds a NUL byte; give the directory's path without it",
    ),
    "raw_dir under a file": ("data: {raw_dir: mine.yaml/raw}\n", "is not a usable path: Not a directory"),
    "raw_dir a file": ("data: {raw_dir: mine.yaml}\n", "is not a usable path: it is a file, not a directory"),
    "raw_dir a number": (
        "data: {raw_dir: 5}\n",
        "data.raw_dir = 5 is invalid: 5 is not of type 'string'; use a string",
    ),
    "unknown algorithm": (
        "nonmanip: {algorithms: [XX]}\n",
        "nonmanip.algorithms.0 = 'XX' is not a registered algorithm "
        f"of nonmanip; use one of {', '.join(algorithms.solvers('nonmanip'))}, or register it in "
        "causal_bandits/papers/nonmanip/algorithms.py",
    ),
    "z² version named as a solver": ("nonmanip: {algorithms: [z2_ts]}\n", "use one of ts, kl_ucb"),
    "unregistered cpe algorithm": (
        "cpe: {experiments: {E0: {runs: [{algorithms: [lucb2]}]}}}\n",
        "'lucb2' is not a registered algorithm of cpe; did you mean 'lucb'? use one of ccpe_general, ccpe_bglm",
    ),
    "algorithms not a list": ("nonmanip: {algorithms: ts}\n", "nonmanip.algorithms = 'ts' is invalid"),
    "graph name misspelt": (
        "nonmanip: {panels: {fig5a: {graph: frontdor}}}\n",
        "nonmanip.panels.fig5a.graph = 'frontdor' is invalid; use one of: frontdoor, fig2a, fig3, fig5d; or a mapping",
    ),
    "inline graph reward a number": (
        "nonmanip: {panels: {fig5a: {graph: {nodes: [X, Y], reward: 3}}}}\n",
        "nonmanip.panels.fig5a.graph.reward = 3 is invalid: 3 is not of type 'string'; use a string",
    ),
    "inline graph without nodes": (
        "nonmanip: {panels: {fig5a: {graph: {reward: Y}}}}\n",
        "nonmanip.panels.fig5a.graph: 'nodes' is a required property; add it",
    ),
    "new panel without a graph": (
        f"nonmanip: {{panels: {{mine: {{{SCM}}}}}}}\n",
        "nonmanip.panels.mine: 'graph' is a required property; add it",
    ),
    "N listed twice": (_panel("frontdoor", "[Z, Z]"), "nonmanip.panels.mine.non_manipulable = ['Z', 'Z'] is invalid"),
    "robustness SCM count negative": (
        "studies: {robustness: {scms_per_panel: -1}}\n",
        "studies.robustness.scms_per_panel = -1 is invalid; use an integer >= 0",
    ),
    "robustness per-panel count negative": (
        "studies: {robustness: {scms_per_panel: {fig5a: -2}}}\n",
        "studies.robustness.scms_per_panel.fig5a = -2 is invalid",
    ),
    "study check beyond the schema": (
        "studies: {same_means: {towards: {nope: high}}}\n",
        "studies.same_means.towards names ['nope'], which are not panels",
    ),
    "unknown_graph delta 0": (
        "unknown_graph: {delta: 0}\n",
        "config unknown_graph.delta = 0 is invalid: 0 is less "
        "than or equal to the minimum of 0; use a number > 0 and < 1",
    ),
    "unknown_graph delta 1.5": ("unknown_graph: {delta: 1.5}\n", "unknown_graph.delta = 1.5 is invalid"),
    "unknown_graph zero seeds": ("unknown_graph: {n_seeds: 0}\n", "unknown_graph.n_seeds = 0 is invalid"),
    "unknown_graph weight update": (
        "unknown_graph: {reading: {weight_update: reset}}\n",
        "unknown_graph.reading.weight_update",
    ),
    "bounds zero horizon": ("bounds: {horizon: 0}\n", "bounds.horizon = 0 is invalid"),
    "bounds probability not a number": (
        "bounds: {scm: {variables: {Y: {p1: [1/10, x, 1/2, 1/2, 1/2, 1/2, 1/2, 1/2, "
        "1/2, 1/2, 1/2, 1/2, 1/2, 1/2, 1/2, 1/2]}}}}\n",
        "Y.p1.1 = 'x' is invalid; use a number; or a string matching",
    ),
    "fairness no taus": (
        "fairness: {taus: []}\n",
        "fairness.taus = [] is invalid: [] should be non-empty; use a list of at least 1 item(s)",
    ),
    "fairness on_missing unknown": (
        "fairness: {raw: {on_missing: skip}}\n",
        "fairness.raw.on_missing = 'skip' is "
        "invalid: 'skip' is not one of ['download', 'standin']; use one of: download, standin",
    ),
    "fairness unknown fucb key": (
        "fairness: {fucb: {fallbak: unconstrained}}\n",
        "unknown config key 'fallbak' under fairness.fucb",
    ),
    "fairness checksum": ("fairness: {raw: {adult: {sha256: abc}}}\n", "fairness.raw.adult.sha256"),
    "cpe profile unknown": (
        "cpe: {profile: fast}\n",
        "cpe.profile = 'fast' is invalid: 'fast' is not one of ['theory', 'practical']; use one of: theory, practical",
    ),
    "cpe run_experiments not a list": ("cpe: {run_experiments: E1}\n", "cpe.run_experiments = 'E1' is invalid"),
    "cpe experiments a list": ("cpe: {experiments: [E1]}\n", "cpe.experiments = ['E1'] is invalid"),
    "cpe experiment name": (
        "cpe: {experiments: {E-1: {configs: {a: {family: parallel}}, runs: []}}}\n",
        "config cpe.experiments: the name 'E-1' does not match ^[A-Za-z0-9]+$; rename it",
    ),
    "cpe unknown family": (
        "cpe: {experiments: {E1: {configs: {n4: {family: paralel}}}}}\n",
        "family = 'paralel' is invalid",
    ),
    # -- values the paper modules check
    "node named twice": (_panel("{nodes: [X, Z, Y, X], directed: [[X, Z], [Z, Y]], reward: Y}"), "'X' is listed twice"),
    "cyclic graph": (_panel("{nodes: [X, Z, Y], directed: [[X, Z], [Z, Y], [Y, X]], reward: Y}"), "cycle"),
    "edge to an unknown node": (_panel("{nodes: [X, Z, Y], directed: [[X, Q]], reward: Y}"), "'Q'"),
    "reward non-manipulable": (_panel("frontdoor", "[Z, Y]"), "cannot be non-manipulable"),
    "SCM names an unknown exogenous": ("nonmanip: {panels: {fig5a: {scm: {q: {U_W: 0.1}}}}}\n", "unexpected ['U_W']"),
    "probability above 1": ("nonmanip: {panels: {fig5a: {scm: {q: {U_X: 1.5}}}}}\n", "U_X = 1.5"),
    "cpe delta above 1": ("cpe: {delta: 1.5}\n", "cpe.delta = 1.5 is outside (0, 1); set delta to a confidence level"),
    "cpe delta 0": ("cpe: {delta: 0}\n", "cpe.delta = 0 is outside (0, 1)"),
    "cpe unknown experiment run": (
        "cpe: {run_experiments: [E1, e3]}\n",
        "cpe.run_experiments names 'e3', not in cpe.experiments; use names from: E0, E1, E2, E3, E4, E5",
    ),
    "cpe experiments that do not exist": ("cpe: {run_experiments: [E0, E9]}\n", "cpe.run_experiments names 'E9'"),
    "cpe sample cap below the arms": ("cpe: {horizon: 20}\n", "cpe.horizon = 20 is below the number of arms"),
    "cpe negative epsilon": (
        "cpe: {experiments: {E2: {configs: {eps0.05: {family: rare, params: {r: 8, d: 0.5}, epsilon: -0.1}}}}}\n",
        "epsilon = -0.1 is outside [0, 1)",
    ),
    "cpe run group names an unknown config": (
        "cpe: {experiments: {E1: {runs: [{algorithms: [lucb], configs: [n5]}]}}}\n",
        "names config 'n5'",
    ),
    "cpe ccpe_bglm on a parallel graph": (
        "cpe: {experiments: {E1: {runs: [{algorithms: [ccpe_bglm], configs: [n4]}]}}}\n",
        "it needs a bglm config",
    ),
    "cpe family argument unknown": (
        "cpe: {experiments: {E1: {configs: {n4: {family: parallel, params: {q: 3}}}}}}\n",
        "see the family's arguments",
    ),
    "fairness tau above 1": ("fairness: {taus: [0.1, 1.5]}\n", "must lie in (0, 1]"),
    "fairness horizon beyond the users": ("fairness: {horizon: 6000}\n", "exceeds the 5000 online Adult users"),
    "bounds CPT row outside [0, 1]": (
        "bounds: {scm: {variables: {I1: {p1: [0.3, 0.55, 1.2, 0.8]}}}}\n",
        "P(I1=1 | parents) = 1.2 is outside [0, 1]",
    ),
    "bounds CPT too short": (
        "bounds: {scm: {variables: {X2: {p1: [0.15]}}}}\n",
        "X2 has 1 rows but 1 binary parents need 2",
    ),
    "bounds selection node with children": (
        "bounds: {scm: {variables: {U2: {parents: [S], p1: [0.5, 0.6]}}}}\n",
        "selection node S has children ['U2']",
    ),
    "bounds context unknown": ("bounds: {scm: {context: [U1, U3]}}\n", "scm.context names unknown variable 'U3'"),
    # -- keys that moved: a forwarding address, not "unknown key"
    "spot check moved to studies": (
        "nonmanip:\n  pomis_plus:\n    spot_check: {n_seeds: 3}\n",
        "config key nonmanip.pomis_plus.spot_check has moved: it is now studies.refresh; move it there",
    ),
    "naive study moved to studies": (
        "cpe: {naive_study: {rho: [0.1]}}\n",
        "config key cpe.naive_study has moved: it is now studies.naive_estimand; move it there",
    ),
    "renamed key": ("unknown_graph: {forests: {h: 3}}\n", "it is now unknown_graph.forests.height"),
    "homoglyph paper key": (
        "n\u043enmanip: {horizon: 10}\n",
        "unknown config key 'n\u043enmanip' under <top level> ('n\u043enmanip' holds the non-ASCII letter "
        "'\u043e', U+043E: retype it)",
    ),
    # -- the order of the checks: structure first, and no check walks an alias bomb's billions of values
    "alias bomb under a known key": (
        "experiments:\n  e0: &b0 [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n"
        + "".join(f"  e{i}: &b{i} [{', '.join([f'*b{i - 1}'] * 10)}]\n" for i in range(1, 9)),
        "config experiments holds 1,234,567,900 values once its YAML aliases (*name) are expanded",
    ),
    "alias bomb under unknown keys": (
        "a0: &a0 [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n"
        + "".join(f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]\n" for i in range(1, 9)),
        "unknown config key 'a0', 'a1'",
    ),
    "unknown key before a NaN": ("nonmanip: {horizn: 10, horizon: .nan}\n", "unknown config key 'horizn'"),
    "self-referencing alias": ("experiments: &e {x: *e}\n", "config experiments contains itself"),
}


def _check_config(tmp_path, monkeypatch, capsys, *files: str) -> tuple[int, list[str]]:
    """Run ``causal-bandits check-config FILE...`` in an empty directory: (exit status, stderr lines)."""
    monkeypatch.chdir(tmp_path)
    status = cli.main(["check-config", "--base", str(BASE), *files])
    return status, capsys.readouterr().err.splitlines()


def _assert_one_line(status: int, lines: list[str], expected: str, tmp_path, inputs: set[str]) -> None:
    assert status == 2
    assert len(lines) == 1 and lines[0].startswith("error: "), lines
    assert expected in lines[0], lines[0]
    assert {p.name for p in tmp_path.iterdir()} == inputs  # nothing written


@pytest.mark.parametrize("case", list(OVERLAYS))
def test_bad_overlay_is_one_line(case, tmp_path, monkeypatch, capsys):
    text, expected = OVERLAYS[case]
    (tmp_path / "mine.yaml").write_text(text)
    status, lines = _check_config(tmp_path, monkeypatch, capsys, "mine.yaml")
    _assert_one_line(status, lines, expected.replace("{file}", "mine.yaml"), tmp_path, {"mine.yaml"})


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        (["nosuch.yaml"], "config file nosuch.yaml not found; check the name"),
        (
            ["figures/bounds/figure4.pdf"],
            "figures/bounds/figure4.pdf was given to --configfile but is not a config file",
        ),
        (["results/nonmanip/table1.md"], "put targets before it: snakemake results/nonmanip/table1.md --configfile"),
        (
            ["results/fairness/raw/adult.json"],
            "results/fairness/raw/adult.json was given to --configfile but is not a config file (a workflow output)",
        ),  # exists, and is JSON
        (["README.md"], "README.md was given to --configfile but is not a config file"),  # exists, parses as text
        (["sub"], "sub was given to --configfile but is not a config file"),  # a directory
        (["sub.yaml"], "cannot read config file sub.yaml"),  # a directory named like a file
        (["binary.yaml"], "cannot read config file binary.yaml: not UTF-8 text"),
    ],
)
def test_bad_config_file_names(files, expected, tmp_path, monkeypatch, capsys):
    (tmp_path / "README.md").write_text("# My notes\n\nRun it twice.\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub.yaml").mkdir()
    (tmp_path / "binary.yaml").write_bytes(b"\xff\xfe\x00nonmanip")
    (tmp_path / "results" / "fairness" / "raw").mkdir(parents=True)
    (tmp_path / "results" / "fairness" / "raw" / "adult.json").write_text('{"dataset": "adult", "files": []}')
    inputs = {p.name for p in tmp_path.iterdir()}
    status, lines = _check_config(tmp_path, monkeypatch, capsys, *files)
    _assert_one_line(status, lines, expected, tmp_path, inputs)


def test_good_files_pass(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert cli.main(["check-config", "--base", str(BASE), str(ROOT / "config" / "tiny.yaml")]) == 0
    assert capsys.readouterr().out.startswith("ok: ")


#: Every documented "null means off" (docs/studies.md: a study set to null is not run; budget.cpu_hours: null runs
#: beyond the budget): check-config passes, and the cost estimate counts nothing for a null study.
NULLS = {
    **{f"studies.{name}": f"studies: {{{name}: null}}\n" for name in cb_studies.STUDIES},
    "every study": "studies: {" + ", ".join(f"{name}: null" for name in cb_studies.STUDIES) + "}\n",
    "budget": "budget: {cpu_hours: null}\n",
    "safe arms": "fairness: {fucb: {safe_arm: {email: null, adult_video: null}}}\n",
}


@pytest.mark.parametrize("case", list(NULLS))
def test_documented_nulls_are_off(case, tmp_path, monkeypatch, capsys):
    (tmp_path / "null.yaml").write_text(NULLS[case])
    studies = ROOT / "config" / "studies.yaml"
    status, lines = _check_config(tmp_path, monkeypatch, capsys, str(studies), "null.yaml")
    assert status == 0, lines
    config = cb_config.check(cb_config.load(BASE, studies, tmp_path / "null.yaml"))
    nulled = [name for name in cb_studies.STUDIES if name in NULLS[case]]
    assert not set(nulled) & set(cb_cost.estimate(config).cpu_hours)
    assert set(cb_studies.configured(config)) == set(cb_studies.STUDIES) - set(nulled)


def test_budget_null_on_the_command_line():
    config = _command_line("budget={cpu_hours: null}")
    assert config["budget"]["cpu_hours"] is None
    assert cb_cost.check(config).total > 0


# ---------------------------------------------------------------- --config values (Snakemake's parser)
def _command_line(*entries: str) -> dict:
    """The config Snakemake builds from config/config.yaml and ``--config ENTRY...``, typed as the
    workflow types it (cb_config.command_line_scalars) and checked."""
    from snakemake.cli import (
        parse_config,  # what `snakemake --config` does with the arguments
    )

    overrides = parse_config(list(entries))
    config = cb_config.merge(cb_config.load(BASE), overrides)
    cb_config.command_line_scalars(config, overrides)
    return cb_config.check(config)


def test_nested_config_values_are_yaml_scalars():
    config = _command_line(
        "nonmanip={horizon: 500, n_seeds: 100, panels: {fig5a: {scm: {q: {U_X: 0.25}}}}}",
        "data={raw_dir: 2024}",
        "seeds_per_job=7",
        "cpe={delta: 0.1, run_experiments: [E1]}",
        "bounds={online: {sensitivity_alphas: [2, 4.5]}}",
    )
    assert config["nonmanip"]["horizon"] == 500 and config["nonmanip"]["n_seeds"] == 100
    assert config["nonmanip"]["panels"]["fig5a"]["scm"]["q"]["U_X"] == 0.25
    assert config["data"]["raw_dir"] == "2024"  # where the schema takes text, text stays text
    assert config["bounds"]["online"]["sensitivity_alphas"] == [2, 4.5]
    assert config["seeds_per_job"] == 7 and config["cpe"]["delta"] == 0.1 and config["cpe"]["run_experiments"] == ["E1"]
    assert config["nonmanip"]["algorithms"] == cb_config.load(BASE)["nonmanip"]["algorithms"]  # siblings kept


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        ("nonmanip={horizon: abc}", "nonmanip.horizon = 'abc' is invalid"),
        ("nonmanip={horizon: -1}", "nonmanip.horizon = -1 is invalid"),
        ("nonmanip={horizn: 500}", "unknown config key 'horizn' under nonmanip"),
        ("unknown_graph={delta: 0}", "unknown_graph.delta = 0 is invalid"),
        ("cpe={run_experiments: [E1, e3]}", "cpe.run_experiments names 'e3'"),
        ("seeds_per_job=0", "seeds_per_job = 0 is invalid"),
    ],
)
def test_bad_config_values(entry, expected):
    with pytest.raises(cb_config.ConfigError) as err:
        _command_line(entry)
    assert expected in str(err.value) and "\n" not in str(err.value)


def test_strategy_the_algorithm_does_not_play(monkeypatch):
    """A registered solver that plays only some arm sets, named beside a strategy it does not play."""
    monkeypatch.setitem(
        algorithms.registry("nonmanip"),
        "pomis_only",
        algorithms.Algorithm(
            "pomis_only",
            "causal_bandits.bandits.thompson.ThompsonSampling",
            "TS on POMIS",
            strategies=("POMIS",),
            addition=True,
        ),
    )
    with pytest.raises(cb_config.ConfigError) as err:
        _command_line("nonmanip={algorithms: [ts, pomis_only], strategies: [BF, POMIS]}")
    assert (
        "nonmanip.algorithms names algorithm 'pomis_only', which does not play strategy 'BF' (it plays POMIS); drop"
        in str(err.value)
        and "\n" not in str(err.value)
    )


# ------------------------------------------------------------- through Snakemake (slow: a few only)
@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return copy_workflow(tmp_path_factory.mktemp("bad") / "repo")


WORKFLOW_CASES = {
    "unknown key": ({"nonmanip": {"horizn": 10}}, "unknown config key 'horizn'"),
    "cyclic graph": (
        {
            "nonmanip": {
                "panels": {
                    "mine": {
                        "graph": {**FRONTDOOR, "directed": [["X", "Z"], ["Z", "Y"], ["Y", "X"]]},
                        "non_manipulable": ["Z"],
                        "scm": {"q": {"U_X": 0.1, "U_Y": 0.2, "U_Z": 0.3, "U_XY": 0.4}, "c": {"X": 0, "Y": 0, "Z": 0}},
                    }
                }
            }
        },
        "cycle",
    ),
    "graph name misspelt": ({"nonmanip": {"panels": {"fig5a": {"graph": "frontdor"}}}}, "use one of: frontdoor, fig2a"),
    "unknown experiment run": ({"cpe": {"run_experiments": ["E1", "e3"]}}, "cpe.run_experiments names 'e3'"),
    "over budget": ({"nonmanip": {"horizon": 100000000, "n_seeds": 100}}, "more than budget.cpu_hours = 100"),
    "too many jobs": ({"nonmanip": {"n_seeds": 1000000, "seeds_per_job": 1}}, "more than 100,000 run jobs"),
}


@pytest.mark.workflow
@pytest.mark.parametrize("case", list(WORKFLOW_CASES))
def test_bad_config_stops_the_workflow(workdir, case):
    assert_bad_config_fails_cleanly(workdir, *WORKFLOW_CASES[case])


@pytest.mark.workflow
def test_typed_config_value_on_the_command_line(workdir):
    """A nested --config value is read as YAML (500 an integer), and a bad one is still one line."""
    args = ("-n", "--configfile", "config/quick.yaml", "config/ci.yaml", "--config")
    ok = snakemake(workdir, *args, "nonmanip={horizon: 500}")
    assert ok.returncode == 0, ok.stderr[-2000:]
    bad = snakemake(workdir, *args, "nonmanip={horizon: abc}")
    errors = [line for line in bad.stderr.splitlines() if line.startswith("error:")]
    assert bad.returncode != 0 and len(errors) == 1 and "nonmanip.horizon = 'abc'" in errors[0], bad.stderr[-2000:]
    assert not (workdir / "results").exists()


@pytest.mark.workflow
def test_a_corrupt_raw_file_stops_the_planning_with_its_checksum(workdir, tmp_path):
    """A raw file cut short is found when the workflow plans (not by a job): one line, the last, naming the
    file, then its expected checksum and where to get it."""
    raw_dir = tmp_path / "raw"
    shutil.copytree(SHARED_RAW, raw_dir)
    adult = raw_dir / "adult" / "adult.data.gz"
    adult.chmod(0o644)
    adult.write_bytes(adult.read_bytes()[:1000])
    pinned = cb_config.load(BASE)["fairness"]["raw"]["adult"]
    (workdir / "config" / "bad.yaml").write_text(f"data: {{raw_dir: {raw_dir}}}\n")
    result = snakemake(workdir, "-n", "--configfile", "config/quick.yaml", "config/bad.yaml")
    lines = result.stderr.rstrip().splitlines()
    assert result.returncode != 0 and [line for line in lines if line.startswith("error:")] == lines[-1:], lines
    assert lines[-1].startswith(f"error: {adult}: cannot read it"), lines[-1]
    assert lines[-1].endswith(
        f"expected sha256 {pinned['sha256']} (adult/adult.data); replace it with the file from "
        f"{pinned['url']} (publisher: {pinned['publisher']})"
    ), lines[-1]


def _download_mode(workdir, tmp_path, adult=None):
    """A raw-data folder (a copy of the shared one) without the Adult file, in download mode, the Adult file's address
    a local one that serves nothing (never the network; ``adult`` changes more of its pinned entry): config/bad.yaml.
    Returns the folder."""
    import yaml

    raw_dir = tmp_path / "raw"
    shutil.copytree(SHARED_RAW, raw_dir, copy_function=shutil.copyfile)  # writable: no read-only modes copied
    (raw_dir / "adult" / "adult.data.gz").unlink()
    entry = {"url": f"file://{tmp_path}/server/adult.data", **(adult or {})}
    overlay = {"data": {"raw_dir": str(raw_dir)}, "fairness": {"raw": {"on_missing": "download", "adult": entry}}}
    (workdir / "config" / "bad.yaml").write_text(yaml.safe_dump(overlay))
    return raw_dir


def _run_to_the_error(workdir, target):
    """Run ``target`` of the tiny config with config/bad.yaml as a user does (the local profile): its last line."""
    shutil.rmtree(workdir / "results", ignore_errors=True)
    shutil.rmtree(workdir / "logs", ignore_errors=True)
    result = snakemake(
        workdir, target, "--cores", "1", "--configfile", "config/tiny.yaml", "config/bad.yaml", local_profile=True
    )
    lines = result.stderr.rstrip().splitlines()
    assert result.returncode != 0 and [line for line in lines if line.startswith("error:")] == lines[-1:], lines
    return lines[-1]


#: What is in the Adult file's place in download mode, and how its line starts ({raw}: the raw-data folder).
RAW_PLACES = {
    "missing, its address unreachable": (lambda raw: None, "error: raw file adult/adult.data is missing ("),
    "a directory in its place": (
        lambda raw: (raw / "adult" / "adult.data").mkdir(),
        "error: raw file adult/adult.data: {raw}/adult/adult.data is a directory (or another non-file), not the file",
    ),
    "a file in its folder's place": (
        lambda raw: shutil.rmtree(raw / "adult") or (raw / "adult").write_text("notes\n"),
        "error: raw file adult/adult.data: {raw}/adult is a file where a folder belongs",
    ),
}


@pytest.mark.workflow
@pytest.mark.parametrize("case", list(RAW_PLACES))
def test_download_mode_raw_data_stops_before_any_job(workdir, tmp_path, case):
    """What no download can fix stops the planning; a file whose address cannot be reached stops the run once
    planned, before any job (no download tried): one line, the last, naming the file and where to put it."""
    raw_dir = _download_mode(workdir, tmp_path)
    put, expected = RAW_PLACES[case]
    put(raw_dir)
    line = _run_to_the_error(workdir, "results/fairness/raw/adult.json")
    assert line.startswith(expected.format(raw=raw_dir)), line
    assert f"put the file at {raw_dir}/adult/adult.data" in line or f"put it at {raw_dir}/adult/adult.data" in line
    assert not (workdir / "results").exists() and not (workdir / "logs").exists()  # no job started


@pytest.mark.workflow
def test_raw_rows_that_are_garbage_under_a_matching_checksum_are_named_by_the_first_job_reading_them(workdir, tmp_path):
    """Only a config that pins the checksum of its own file can get there (the pinned ones are the publishers'
    files, which parse): the rows are read by the job that parses them, not at planning; its line is the last."""
    import hashlib

    garbage = b"garbage, row\n" * 50
    raw_dir = _download_mode(workdir, tmp_path, {"sha256": hashlib.sha256(garbage).hexdigest()})
    (raw_dir / "adult" / "adult.data").write_bytes(garbage)
    line = _run_to_the_error(workdir, "data/processed/fairness/adult_users.parquet")
    assert line.startswith(
        f"error: {raw_dir}/adult/adult.data, line 1: 2 comma-separated fields, expected 15 (age, "
    ), line
    assert "replace the file (job log: logs/fairness_adult_users/" in line, line
    assert not (workdir / "data" / "processed" / "fairness" / "adult_users.parquet").exists()


# ---------------------------------------------------------------- archive and verify: the caller's mistakes first
@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["verify", "--budget", "nan"], "--budget nan is not a number of CPU-minutes > 0"),
        (["verify", "--budget", "inf"], "--budget inf is not a number of CPU-minutes > 0"),
        (["archive", "--configfile", "nosuch.yaml"], "config file nosuch.yaml not found"),
        (["archive", "--out", "taken.txt"], "--out taken.txt is a file, not a folder"),
    ],
)
def test_archive_and_verify_refuse_bad_arguments_in_one_line(args, expected, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "taken.txt").write_text("mine\n")
    status = cli.main(args)
    lines = capsys.readouterr().err.splitlines()
    assert status == 2 and len(lines) == 1 and expected in lines[0], lines
    assert {p.name for p in tmp_path.iterdir()} == {"taken.txt"}  # nothing written


def test_archive_names_a_damaged_chunk_in_one_line(tmp_path):
    """The archive hashes every Parquet output's data: a damaged one is named with its fix, not a pyarrow traceback."""
    import pyarrow as pa

    from causal_bandits import store
    from causal_bandits.archive import manifest
    from causal_bandits.errors import DataError

    path = tmp_path / "chunk-0.parquet"
    store.write_table(path, pa.table({"seed": pa.array(range(2000), pa.int32())}), {})
    data = bytearray(path.read_bytes())
    data[len(data) // 3] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(DataError) as err:
        manifest.data_sha256(path)
    assert str(err.value).startswith(f"{path} is damaged or from another run") and "\n" not in str(err.value)
