"""Bad values get one clear line: NaN and infinities, fractions where an integer is needed, sizes past their
bound, a key given twice in a config file, and the Python API's arguments."""

from __future__ import annotations

import copy
from pathlib import Path

import numpy as np
import pytest

from causal_bandits import algorithms
from causal_bandits import config as cb_config
from causal_bandits.bandits.engine import Streams, check_horizon, seed_array
from causal_bandits.errors import ConfigError

ROOT = Path(__file__).resolve().parents[1]
PAPER = cb_config.load(ROOT / "config" / "config.yaml")


def _check(overlay: dict) -> dict:
    return cb_config.check(cb_config.merge(copy.deepcopy(PAPER), overlay))


@pytest.mark.parametrize(
    ("overlay", "expected"),
    [
        (
            {"unknown_graph": {"delta": float("nan")}},
            "config unknown_graph.delta = nan is invalid: use a finite number",
        ),
        (
            {"unknown_graph": {"lower_bounds": {"epsilon": float("inf")}}},
            "config unknown_graph.lower_bounds.epsilon = inf is invalid: use a finite number",
        ),
        ({"nonmanip": {"horizon": 300.5}}, "nonmanip.horizon = 300.5 is invalid"),
        ({"nonmanip": {"horizon": 10**15}}, "use an integer >= 1 and <= 100000000"),
        ({"nonmanip": {"n_seeds": 10**7}}, "nonmanip.n_seeds = 10000000 is invalid"),
        ({"nonmanip": {"pomis_plus": {"bootstrap": 10**9}}}, "use an integer >= 2 and <= 100000"),
        ({"studies": {"same_means": {"n_points": 10**4}}}, "studies.same_means.n_points = 10000 is invalid"),
    ],
)
def test_non_finite_and_out_of_bound_numbers_are_one_line(overlay, expected):
    with pytest.raises(ConfigError) as err:
        _check(overlay)
    assert expected in str(err.value) and "\n" not in str(err.value)


def test_an_integral_float_becomes_an_integer_before_the_workflow_plans():
    checked = _check({"nonmanip": {"horizon": 300.0, "n_seeds": 2.0}, "unknown_graph": {"delta": 0.25}})
    assert checked["nonmanip"]["horizon"] == 300 and type(checked["nonmanip"]["horizon"]) is int
    assert type(checked["nonmanip"]["n_seeds"]) is int
    assert checked["unknown_graph"]["delta"] == 0.25  # a number key keeps its float


def test_a_key_given_twice_in_a_config_file_names_its_line(tmp_path):
    path = tmp_path / "twice.yaml"
    path.write_text("experiments:\n  mine: {horizon: 5}\n  mine: {horizon: 6}\n")
    with pytest.raises(ConfigError) as err:
        cb_config.read(path)
    assert str(err.value).startswith(f"{path}:3:3: not valid YAML (duplicate key 'mine' (first at line 2))")
    assert "keep one of the two" in str(err.value)
    path.write_text("base: &b {x: 1}\nmerged:\n  <<: *b\n  x: 2\n")  # a merge key's values may be overridden
    assert cb_config.read(path)["merged"] == {"x": 2}


def test_the_api_refuses_nonsense_with_the_argument_named():
    for bad, kind in ((0, ValueError), (-5, ValueError), (100.5, TypeError), (True, TypeError)):
        with pytest.raises(kind, match="horizon"):
            check_horizon(bad)
    assert check_horizon(np.int64(7)) == 7
    assert Streams.for_experiment("mine", 5).seeds.tolist() == [0, 1, 2, 3, 4]
    assert Streams.for_experiment("mine", [3, 1]).seeds.tolist() == [3, 1]
    for bad, kind in ((0, ValueError), ([0.5, 1.0], TypeError), ([], TypeError), ([-1], ValueError)):
        with pytest.raises(kind, match="seeds"):
            seed_array(bad)


def test_a_registry_finds_an_algorithm_by_its_label_or_suggests_the_key():
    registry = algorithms.registry("nonmanip")
    assert registry["TS"].key == "ts" and registry["kl-ucb"].key == "kl_ucb"
    with pytest.raises(KeyError, match=r"did you mean 'ts'\?"):
        registry["tss"]
    with pytest.raises(KeyError, match="nonmanip registers no algorithm 'thompson'; its keys: ts, kl_ucb"):
        registry["thompson"]


#: The size keys and the upper bound each schema gives them, far above paper scale (10,000-5,000,000 rounds,
#: 1,000 seeds, B = 500, 25 points) and far below what a 2-core machine could finish or hold in memory.
SIZE_LIMITS = {
    "horizon": 10**8,
    "n_seeds": 10**6,
    "seeds_per_job": 10**6,
    "bootstrap": 10**5,
    "n_points": 1000,
    "record_points": 10**5,
}


def _size_keys(node, path=()):
    """(dotted path, schema) of every integer property named in SIZE_LIMITS anywhere in a schema."""
    if isinstance(node, dict):
        for key, sub in node.get("properties", {}).items():
            if key in SIZE_LIMITS and isinstance(sub, dict) and sub.get("type") == "integer":
                yield ".".join((*path, key)), sub
        for key, value in node.items():
            yield from _size_keys(value, (*path, key) if key not in ("properties", "additionalProperties") else path)
    elif isinstance(node, list):
        for value in node:
            yield from _size_keys(value, path)


def test_every_size_key_has_its_bound_in_the_schema_and_says_so():
    found = dict(_size_keys(cb_config.load_schema()))
    assert {"nonmanip.horizon", "cpe.n_seeds", "nonmanip.pomis_plus.bootstrap", "record_points"} <= set(found)
    assert len(found) >= 30
    for where, schema in found.items():
        limit = SIZE_LIMITS[where.rsplit(".", 1)[-1]]
        assert schema.get("maximum") == limit, where
        assert f"At most {limit:,}." in schema.get("description", ""), where
