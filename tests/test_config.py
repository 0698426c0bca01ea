"""Config validation: defaults filled in, every violation one line naming the key."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from causal_bandits import config as cb_config
from causal_bandits import studies
from causal_bandits.errors import ConfigError

ROOT = Path(__file__).resolve().parents[1]
PAPER = cb_config.load(ROOT / "config" / "config.yaml")


def test_paper_and_quick_configs_are_valid():
    cb_config.validate(copy.deepcopy(PAPER))
    quick = cb_config.validate(cb_config.load(ROOT / "config" / "config.yaml", ROOT / "config" / "quick.yaml"))
    assert quick["nonmanip"]["horizon"] < PAPER["nonmanip"]["horizon"]
    assert PAPER["nonmanip"]["horizon"] == 10_000 and PAPER["nonmanip"]["n_seeds"] == 1_000


def test_load_merges_and_orders_keys_as_snakemake_does():
    """Snakemake's own merge (snakemake.utils.update_config) run its way: the --configfile overlays first, the
    workflow's configfile into them, the overlays again. A rebuild from the loaded config (verify) lists what it
    lists in config order (the cpe claims) as the run did only when the order is Snakemake's too."""
    from snakemake.utils import update_config

    base, overlays = ROOT / "config" / "config.yaml", [ROOT / "config" / f for f in ("tiny.yaml", "ci.yaml")]
    snake: dict = {}
    for path in overlays:
        update_config(snake, cb_config.read(path))
    cli = copy.deepcopy(snake)
    update_config(snake, cb_config.read(base))
    update_config(snake, cli)
    loaded = cb_config.load(base, *overlays)
    assert loaded == snake and repr(loaded) == repr(snake)  # same keys and values, and in the same order
    assert list(loaded["cpe"]["experiments"])[:3] == ["E0", "E2", "E1"]  # tiny.yaml's order, not the base's


def test_the_paper_config_runs_no_study_and_the_overlay_runs_them_all():
    assert cb_config.validate(copy.deepcopy(PAPER))["studies"] == {}
    overlay = cb_config.check(cb_config.load(ROOT / "config" / "config.yaml", ROOT / "config" / "studies.yaml"))
    assert list(overlay["studies"]) == list(studies.STUDIES)
    assert overlay["studies"]["refresh"] == {
        "schedule": "every_round",
        "n_seeds": 30,
        "seeds_per_job": 5,
        "algorithms": ["ts", "kl_ucb"],
    }
    # the overlay writes out each study's chosen size, which is its schema's defaults: one source of the sizes
    defaults = cb_config.validate({**copy.deepcopy(PAPER), "studies": {name: {} for name in studies.STUDIES}})
    assert defaults["studies"] == overlay["studies"]
    assert studies.configured({"studies": {"refresh": None, "knobs": {}}}) == ["knobs"]


def test_defaults_are_filled_in():
    cfg = copy.deepcopy(PAPER)
    del cfg["record_points"], cfg["nonmanip"]["algorithms"]
    cb_config.validate(cfg)
    assert cfg["record_points"] == 200
    assert cfg["nonmanip"]["algorithms"] == ["ts", "kl_ucb"]


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (lambda c: c.__setitem__("sedes_per_job", 3), "unknown config key 'sedes_per_job'"),
        (lambda c: c["nonmanip"].__setitem__("algorithms", ["ts", "UCB"]), "nonmanip.algorithms.1"),
        (lambda c: c["nonmanip"].__setitem__("horizon", 0), "nonmanip.horizon = 0"),
        (lambda c: c["unknown_graph"].__setitem__("seeds_per_job", 0), "unknown_graph.seeds_per_job = 0"),
        (
            lambda c: c.__setitem__("studies", {"refresh": {"seeds_per_job": 0}}),
            "studies.refresh.seeds_per_job = 0",
        ),
        (lambda c: c["nonmanip"].__setitem__("horizon", "long"), "nonmanip.horizon = 'long'"),
        (lambda c: c["nonmanip"]["panels"]["fig5a"].__setitem__("graph", "fig9"), "panels.fig5a.graph"),
        (lambda c: c["nonmanip"].pop("panels"), "'panels' is a required property"),
        (lambda c: c["nonmanip"]["pomis_plus"].__setitem__("bootstrap", 1), "nonmanip.pomis_plus.bootstrap = 1"),
        (
            lambda c: c["nonmanip"]["pomis_plus"].__setitem__("refresh", "weekly"),
            "nonmanip.pomis_plus.refresh = 'weekly'",
        ),
        (
            lambda c: c.__setitem__("studies", {"refresh": {"schedule": "weekly"}}),
            "studies.refresh.schedule = 'weekly'",
        ),
        (lambda c: c.__setitem__("studies", {"refresh": {"n_seeds": 0}}), "studies.refresh.n_seeds = 0"),
        (lambda c: c.__setitem__("studies", {"sweep": {}}), "unknown config key 'sweep' under studies"),
        (lambda c: c["nonmanip"].__setitem__("strategies", ["POMIS+"]), "nonmanip.strategies.0"),
        (
            lambda c: c.__setitem__("studies", {"robustness": {"scms_per_panel": -1}}),
            "studies.robustness.scms_per_panel = -1",
        ),
        (
            lambda c: c.__setitem__("studies", {"robustness": {"scms_per_panel": {"fig5a": -2}}}),
            "studies.robustness.scms_per_panel",
        ),
        (lambda c: c["unknown_graph"].__setitem__("delta", 1.5), "unknown_graph.delta = 1.5 is invalid"),
        (
            lambda c: c["unknown_graph"].__setitem__("reading", {"weight_update": "reset"}),
            "unknown_graph.reading.weight_update",
        ),
    ],
)
def test_violations_are_one_line(edit, expected):
    cfg = copy.deepcopy(PAPER)
    edit(cfg)
    with pytest.raises(ConfigError) as err:
        cb_config.validate(cfg)
    assert expected in str(err.value)
    assert "\n" not in str(err.value)


def test_missing_config_file_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError, match="not found"):
        cb_config.load(tmp_path / "nope.yaml")


@pytest.mark.parametrize("block", cb_config.OPTIONAL_BLOCKS)
@pytest.mark.parametrize("value", ["", " {}"])
def test_a_block_of_experiments_with_no_value_is_none_for_check_config_and_snakemake(tmp_path, block, value):
    """``experiments:`` alone (null) or ``{}``: check-config (its own merge) and the workflow (Snakemake's merge, whose
    config keeps the null) both take it as no experiments, the same config."""
    overlay = tmp_path / "none.yaml"
    overlay.write_text(f"{block}:{value}\n")
    loaded = cb_config.load(ROOT / "config" / "config.yaml", overlay)
    assert loaded[block] == ({} if value else None)  # the null is kept, as Snakemake keeps it
    snakemakes = {**copy.deepcopy(PAPER), block: None if not value else {}}
    checked = cb_config.check(loaded)
    assert checked.get(block, {}) == {} and cb_config.check(snakemakes) == checked


def test_merge_is_recursive():
    assert cb_config.merge({"a": {"b": 1, "c": 2}, "d": 1}, {"a": {"b": 3}}) == {"a": {"b": 3, "c": 2}, "d": 1}


def test_registered_algorithms_and_their_strategies_are_checked(monkeypatch):
    from causal_bandits import algorithms

    extra = algorithms.Algorithm(
        "x", "causal_bandits.bandits.thompson.ThompsonSampling", "X", strategies=("POMIS",), addition=True
    )
    entries = {**algorithms.registry("nonmanip"), "x": extra}
    monkeypatch.setattr(algorithms, "registry", lambda paper: entries)
    algorithms.check("nonmanip", ["ts", "x"], ["POMIS"], where="nonmanip.algorithms")
    with pytest.raises(
        ConfigError,
        match=r"^nonmanip.algorithms names algorithm 'x', which does not play strategy "
        r"'MIS' \(it plays POMIS\)",
    ):
        algorithms.check("nonmanip", ["ts", "x"], ["POMIS", "MIS"], where="nonmanip.algorithms")
    valid = algorithms.solvers("nonmanip")  # whatever else a researcher registered: read, not listed here
    assert "x" in valid and "z2_ts" not in valid
    with pytest.raises(ConfigError) as err:
        algorithms.check("nonmanip", ["z2_ts"], where="nonmanip.algorithms")
    assert "'z2_ts', which is not registered for nonmanip" in str(err.value)
    assert f"use one of {', '.join(valid)}, or register it" in str(err.value)
    paper_own = [k for k in valid if not entries[k].addition]
    assert algorithms.own("nonmanip") == paper_own and "x" not in paper_own and {"ts", "kl_ucb"} <= set(paper_own)
    assert extra.display == "X (addition, not in the paper)"


@pytest.mark.parametrize("key", ["EPSGREEDY", "EpsGreedy", "eps-greedy", "2eps", "_eps", "eps greedy"])
def test_a_registry_key_not_in_lower_snake_case_is_refused_in_one_line(key):
    """A researcher's registry line with a key in another style (examples/add_an_algorithm/registry_line.txt
    written with the key changed) stops with one line naming the key and the rule."""
    from causal_bandits import algorithms

    line = (ROOT / "examples" / "add_an_algorithm" / "registry_line.txt").read_text().strip().rstrip(",")
    assert '"eps_greedy"' in line
    with pytest.raises(ConfigError) as err:
        eval(line.replace('"eps_greedy"', repr(key)), {"Algorithm": algorithms.Algorithm})
    message = str(err.value)
    assert "\n" not in message and repr(key) in message and "lower snake_case" in message
    assert "^[a-z][a-z0-9_]*$" in message
    assert eval(line, {"Algorithm": algorithms.Algorithm}).key == "eps_greedy"  # the example's own key passes


def test_a_z2_key_not_in_lower_snake_case_is_refused():
    from causal_bandits import algorithms

    with pytest.raises(ConfigError, match=r"^algorithm z2 'z2TS' is not lower snake_case"):
        algorithms.Algorithm("ts", "causal_bandits.bandits.thompson.ThompsonSampling", "TS", z2="z2TS")


def test_pomis_plus_job_sizes_name_panels():
    """A per-panel POMIS+ job size must name a panel: a typo is a one-line error naming the keys and the panels."""
    from causal_bandits.papers.nonmanip.config import check_config

    section = copy.deepcopy(PAPER["nonmanip"])
    section["pomis_plus"]["panel_seeds_per_job"] = {"fig5a": 1000, "fig5e": 10}
    cb_config.validate({**copy.deepcopy(PAPER), "nonmanip": section})  # the schema takes any panel-like key
    with pytest.raises(ConfigError, match=r"^nonmanip.pomis_plus.panel_seeds_per_job names \['fig5e'\], which are not"):
        check_config(section)
