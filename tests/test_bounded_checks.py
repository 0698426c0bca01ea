"""Every check is bounded: the MIS enumeration pays one walk per variable for the pairs (a 1,000-node chain in
about a second), a POMIS family above SET_LIMIT and an SCM above MAX_VARIABLES stop the config check with one
line naming the limit, before anything of that size is made."""

from __future__ import annotations

import argparse
import copy
import itertools
import json
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_bad_values import PAPER
from test_pomis import bandit_problems

from causal_bandits import config as cb_config
from causal_bandits.causal.pomis import brute_force_sets, minimal_intervention_sets
from causal_bandits.commands import pomis as pomis_command
from causal_bandits.errors import ConfigError


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_the_mis_family_is_every_set_inside_the_ancestors_of_y_once_it_is_intervened_on(data):
    G, reward, N = data.draw(bandit_problems(True))
    expected = [X for X in brute_force_sets(G, reward, N) if set(X) <= set(G.do(X).ancestors(reward))]
    assert minimal_intervention_sets(G, reward, N) == expected


def test_pomis_on_a_1000_node_chain_answers_every_mis(tmp_path, capsys):
    """Its speed is benchmarks/pomis_chain.py's to print (no timed assertion here)."""
    nodes = [f"V{i}" for i in range(1000)]
    graph = {"nodes": nodes, "directed": [list(pair) for pair in itertools.pairwise(nodes)], "reward": nodes[-1]}
    path = tmp_path / "chain.json"
    path.write_text(json.dumps(graph))
    assert pomis_command.run(argparse.Namespace(graph=path)) == 0
    out = json.loads(capsys.readouterr().out)
    assert len(out["mis"]) == 1000 and out["pomis"] == [[nodes[-2]]]


def _causes(k: int) -> dict:
    """An experiment whose reward has ``k`` causes, each confounded with it (2^k POMISs), on random tables."""
    causes = [f"X{i}" for i in range(k)]
    return {
        "diagram": {
            "nodes": [*causes, "Y"],
            "directed": [[x, "Y"] for x in causes],
            "bidirected": [[x, "Y"] for x in causes],
            "reward": "Y",
        },
        "scm": {"family": "random_cpt", "seed": 1},
        "strategies": ["POMIS"],
        "algorithms": ["ts"],
        "horizon": 100,
        "n_seeds": 2,
    }


@pytest.mark.parametrize(
    ("k", "expected"),
    [
        (
            12,
            "experiments.big.scm: the diagram has 13 nodes and 12 confounders; exact arm means enumerate 2^25 "
            "configurations, above the limit of 2^24 (MAX_VARIABLES)",
        ),
        (18, "experiments.big.diagram: the POMIS family has more than the limit of 10,000 sets (SET_LIMIT)"),
        (25, "experiments.big.diagram: the POMIS family has more than the limit of 10,000 sets (SET_LIMIT)"),
    ],
)
def test_a_diagram_too_large_to_check_stops_at_a_named_limit(k, expected):
    start = time.perf_counter()
    with pytest.raises(ConfigError) as err:
        cb_config.check(cb_config.merge(copy.deepcopy(PAPER), {"experiments": {"big": _causes(k)}}))
    assert str(err.value).startswith(expected) and "\n" not in str(err.value)
    assert time.perf_counter() - start < 10  # 18 causes allocated 512 GiB, 25 enumerated 2^25 sets


def test_a_diagram_below_the_limits_passes():
    checked = cb_config.check(cb_config.merge(copy.deepcopy(PAPER), {"experiments": {"big": _causes(11)}}))
    assert checked["experiments"]["big"]["horizon"] == 100
