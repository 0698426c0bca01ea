"""Algorithm parameters declared with types and bounds (causal_bandits.algorithm_params): each value a config or the
Python API gives is checked against its entry's declaration before any job, in one line naming the key, the value,
the expected type and the fix; names get "did you mean"; a paper's section says where params belong."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import pytest
import yaml

from causal_bandits import algorithm_params, algorithms
from causal_bandits import config as cb_config
from causal_bandits.errors import ArgumentError, ConfigError

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = yaml.safe_load((ROOT / "examples" / "own_experiment.yaml").read_text())["experiments"]["my_study"]
#: ε-greedy (examples/add_an_algorithm/epsilon_greedy.py) registered with typed parameters: a number in [0, 1]
#: declared by a schema, and an integer and a flag declared by their defaults.
ENTRY = algorithms.Algorithm(
    "eps",
    "epsilon_greedy.EpsilonGreedy",
    "ε-greedy",
    addition=True,
    params={"epsilon": {"type": "number", "minimum": 0, "maximum": 1, "default": 0.1}, "warm": 1, "greedy": False},
)


@pytest.fixture
def registered(monkeypatch):
    """nonmanip's registry with ENTRY added, its class importable."""
    monkeypatch.syspath_prepend(str(ROOT / "examples" / "add_an_algorithm"))
    real = algorithms.registry
    entries = algorithms.Registry({**real("nonmanip"), "eps": ENTRY})
    entries.paper = "nonmanip"
    monkeypatch.setattr(algorithms, "registry", lambda paper: entries if paper == "nonmanip" else real(paper))
    yield
    sys.modules.pop("epsilon_greedy", None)


def checked_config(*algorithm_items, section=None):
    """check-config's checks of the base config with one own experiment naming ``algorithm_items``."""
    experiment = {**copy.deepcopy(EXAMPLE), "algorithms": list(algorithm_items), "strategies": ["BF"], "arms": {}}
    config = cb_config.load(ROOT / "config" / "config.yaml")
    config["experiments"] = {"mine": experiment}
    config["data"]["raw_dir"] = str(ROOT.parent / "shared" / "data" / "raw")
    if section:
        config = cb_config.merge(config, section)
    return cb_config.check(config)


def one_line(*items, section=None) -> str:
    with pytest.raises(ConfigError) as err:
        checked_config(*items, section=section)
    assert "\n" not in str(err.value)
    return str(err.value)


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"epsilon": "big"}, "experiments.mine.algorithms.1.params.epsilon = 'big' is not a number"),
        ({"epsilon": True}, "experiments.mine.algorithms.1.params.epsilon = true is true/false, not a number"),
        ({"epsilon": 1.5}, "experiments.mine.algorithms.1.params.epsilon = 1.5 is above its maximum 1"),
        ({"warm": True}, "experiments.mine.algorithms.1.params.warm = true is true/false, not a number"),
        ({"warm": 2.5}, "experiments.mine.algorithms.1.params.warm = 2.5 is not an integer"),
        ({"greedy": 1}, "experiments.mine.algorithms.1.params.greedy = 1 is not true or false"),
        ({"greedy": "T"}, "experiments.mine.algorithms.1.params.greedy = 'T' is not true or false"),
    ],
)
def test_a_value_of_the_wrong_type_or_out_of_bounds_is_refused_before_any_job(registered, params, expected):
    message = one_line("ts", {"key": "eps", "params": params})
    assert message.startswith(expected) and "algorithm 'eps' takes" in message and "write e.g." in message


def test_negative_numbers_are_numbers_and_values_reach_the_class(registered):
    from causal_bandits.experiments import algorithms as experiment_algorithms

    ENTRY_NEGATIVE = {"key": "eps", "params": {"warm": -3, "epsilon": 1}}
    config = checked_config("ts", ENTRY_NEGATIVE)
    found = experiment_algorithms.variants("mine", config["experiments"]["mine"])
    assert list(found) == ["ts", "eps-epsilon-1.0-warm--3"]  # a number parameter holds a float: 1 and 1.0 are one
    assert (
        found["eps-epsilon-1.0-warm--3"].display("nonmanip")
        == "ε-greedy (epsilon=1.0, warm=-3, addition, not in the paper)"
    )
    assert experiment_algorithms.arguments("mine", config["experiments"]["mine"]) == {
        "eps-epsilon-1.0-warm--3": {"epsilon": 1.0, "warm": -3}
    }


def test_a_label_shows_the_values_so_it_cannot_go_stale(registered):
    one = algorithms.variant("nonmanip", {"key": "eps", "params": {"epsilon": 0.2}, "label": "Mine"}, where="x")
    other = algorithms.variant("nonmanip", {"key": "eps", "params": {"epsilon": 0.3}, "label": "Mine"}, where="x")
    assert one.display("nonmanip") == "Mine (epsilon=0.2, addition, not in the paper)"
    assert other.display("nonmanip") == "Mine (epsilon=0.3, addition, not in the paper)"


def test_names_get_did_you_mean(registered):
    assert "has no parameter 'epsilom'; did you mean 'epsilon'? it takes epsilon, warm, greedy" in one_line(
        {"key": "eps", "params": {"epsilom": 0.2}}
    )
    assert "names 'epz', which is not a registered algorithm of nonmanip; did you mean 'eps'?" in one_line("epz")
    assert "did you mean 'ts'?" in one_line("ts", section={"nonmanip": {"algorithms": ["ts", "tss"]}})
    assert "did you mean 'horizon'?" in one_line("ts", section={"experiments": {"mine": {"horizn": 5}}})


def test_params_in_a_papers_section_say_where_they_belong(registered):
    item = {"key": "eps", "params": {"epsilon": 0.2}}
    message = one_line("ts", section={"nonmanip": {"algorithms": ["ts", item]}})
    assert (
        message.startswith("config nonmanip.algorithms.1 = ") and "under an own experiment of experiments:" in message
    )
    message = one_line("ts", section={"nonmanip": {"params": {"epsilon": 0.2}}})
    assert (
        "unknown config key 'params' under nonmanip" in message
        and "belong to an algorithm of an own experiment" in message
    )


def test_a_declaration_without_a_type_is_refused_when_the_registry_loads():
    with pytest.raises(ConfigError, match=r"declares parameter 'horizon' with default None, which gives no type"):
        algorithms.Algorithm("m", "x.M", "M", params={"horizon": None})
    with pytest.raises(ConfigError, match=r"declares parameter 'h' as .*: a schema has a type"):
        algorithms.Algorithm("m", "x.M", "M", params={"h": {"type": "int"}})
    assert algorithm_params.declared("m", "h", {"type": "integer", "minimum": 1}).expected == (
        "an integer >= 1 or T (the run's horizon)"
    )


def test_the_python_api_takes_the_same_parameters_checked_the_same_way(registered):
    import causal_bandits as cb

    arms = cb.arms_for(
        {"nodes": ["X", "Y"], "directed": [["X", "Y"]], "reward": "Y"}, {"family": "random_cpt", "seed": 0}, "BF"
    )
    assert arms.policy("eps", epsilon=0.25).epsilon == 0.25
    assert arms.policy("eps").epsilon == 0.1  # the class's default
    with pytest.raises(ArgumentError, match=r"^policy\(...\)\.params\.epsilon = 'big' is not a number"):
        arms.policy("eps", epsilon="big")
    with pytest.raises(ArgumentError, match=r"has no parameter 'epsilom'; did you mean 'epsilon'\?"):
        arms.policy("eps", epsilom=0.2)
    with pytest.raises(ArgumentError, match=r"z² settings of POMIS\+ need"):
        arms.policy("ts", bootstrap=100)
