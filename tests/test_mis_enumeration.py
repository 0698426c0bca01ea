"""MIS enumeration within An(Y) (NeurIPS-18 characterisation, downward closed) and the command's limit."""

import argparse
import json

import pytest
from hypothesis import given, settings
from test_diagram import admgs
from test_pomis import bandit_problems

from causal_bandits import cli
from causal_bandits.causal.pomis import TooManySets, brute_force_sets, minimal_intervention_sets, pomis
from causal_bandits.commands import pomis as pomis_command
from causal_bandits.scm.diagram import CausalDiagram


def mis_by_definition(G, Y, N):
    """Reference: every X ⊆ V \\ {Y} \\ N with X ⊆ an(Y) in G_{bar X} (all subsets)."""
    return [X for X in brute_force_sets(G, Y, N) if set(X) <= G.do(X).ancestors(Y) - {Y}]


@settings(max_examples=200, deadline=None)
@given(problem=bandit_problems(with_n=True), plain=admgs())
def test_enumeration_equals_the_definition(problem, plain):
    G, Y, N = problem
    assert minimal_intervention_sets(G, Y, N) == mis_by_definition(G, Y, N)
    Y0 = plain.nodes[-1]
    assert minimal_intervention_sets(plain, Y0) == mis_by_definition(plain, Y0, ())


def wide(n):
    """n independent causes of Y: 2^n MISs (every subset)."""
    causes = [f"X{i:02d}" for i in range(n)]
    return CausalDiagram([*causes, "Y"], [(c, "Y") for c in causes])


def test_limit_stops_the_enumeration():
    with pytest.raises(TooManySets, match="the MIS family has more than the limit of 1,000 sets"):
        minimal_intervention_sets(wide(12), "Y", limit=1_000)
    seen = []
    with pytest.raises(TooManySets):
        minimal_intervention_sets(wide(40), "Y", limit=1_000, progress=seen.append)
    assert seen[-1] == 1_001  # stopped at the first set over the limit, not after 2^40
    assert len(minimal_intervention_sets(wide(12), "Y", limit=4_096)) == 4096


def test_non_ancestors_are_never_enumerated():
    """20 nodes, Y with three ancestors: the family has 2^3 sets whatever hangs off elsewhere."""
    others = [f"Z{i:02d}" for i in range(16)]
    G = CausalDiagram(
        ["A", "B", "C", "Y", *others],
        [("A", "Y"), ("B", "Y"), ("C", "Y")] + [(others[i], others[i + 1]) for i in range(15)] + [("Y", "Z00")],
    )
    assert len(minimal_intervention_sets(G, "Y")) == 8


def write(tmp_path, G, **extra):
    path = tmp_path / "g.json"
    path.write_text(json.dumps({**G.to_dict(), "reward": "Y", **extra}))
    return str(path)


def test_command_offers_pomis_only(tmp_path, capsys):
    path = write(tmp_path, wide(15))
    assert cli.main(["pomis", path]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "more than the limit of 10,000 sets" in err and "--pomis-only" in err
    assert cli.main(["pomis", "--pomis-only", path]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == {"pomis": [list(X) for X in pomis(wide(15), "Y")]}


def test_command_default_output_unchanged(tmp_path, capsys):
    G = CausalDiagram(["X", "Z", "Y"], [("X", "Z"), ("Z", "Y")], [("X", "Y")])
    assert pomis_command.run(argparse.Namespace(graph=write(tmp_path, G))) == 0
    assert json.loads(capsys.readouterr().out) == {"mis": [[], ["X"], ["Z"]], "pomis": [[], ["Z"]]}
