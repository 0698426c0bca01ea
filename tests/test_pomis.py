"""MUCT / IB / MIS / POMIS (NeurIPS-18, AAAI-19) on the paper's graphs and random ADMGs; the CLI command."""

import argparse
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_diagram import admgs

from causal_bandits.causal import pomis as pomis_module
from causal_bandits.causal.pomis import (
    TooManySets,
    brute_force_sets,
    interventional_border,
    minimal_intervention_sets,
    muct,
    n_arms,
    pomis,
    pomis_brute_force,
)
from causal_bandits.commands import pomis as pomis_command
from causal_bandits.errors import CausalBanditsError, DiagramError
from causal_bandits.papers.nonmanip.graphs import CASES, GRAPHS, REWARD
from causal_bandits.scm.diagram import CausalDiagram

Y = REWARD
CASE_IDS = [f"{c['graph']}-N={''.join(c['N']) or '0'}" for c in CASES]


def naive_filter(G, N):
    """{X ∈ ℙ_{G,Y} : X ∩ N = ∅} — what AAAI-19 shows is *not* ℙ^N_{G,Y}."""
    return [X for X in pomis(G, Y) if not set(X) & set(N)]


# ----------------------------------------------------------------------------- paper facts (§4.1)
@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_spec_cases(case):
    G, N = GRAPHS[case["graph"]], case["N"]
    found = pomis(G, Y, N)
    assert found == case["pomis"]
    assert pomis_brute_force(G, Y, N) == found
    families = (brute_force_sets(G, Y, N), minimal_intervention_sets(G, Y, N), found)
    assert tuple(map(n_arms, families)) == case["arms"]


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_proposition_1(case):
    G, N = GRAPHS[case["graph"]], case["N"]
    assert set(naive_filter(G, N)) <= set(pomis(G, Y, N))


@pytest.mark.parametrize(("graph", "N"), [("frontdoor", ("Z",)), ("fig2a", ("A",))])
def test_naive_filtering_is_not_projection(graph, N):
    G = GRAPHS[graph]
    assert naive_filter(G, N) == [()]
    assert pomis(G, Y, N) != [()]


@pytest.mark.parametrize(
    ("intervened", "territory", "border"),
    [("", "ABCY", ""), ("A", "BCY", "A"), ("B", "Y", "AC"), ("AC", "Y", "AC")],  # Fig. 2 (a)-(d)
)
def test_fig2_muct_and_ib(intervened, territory, border):
    G = GRAPHS["fig2a"].do(list(intervened))
    assert muct(G, Y) == tuple(territory)
    assert interventional_border(G, Y) == tuple(border)


def test_frontdoor_mis_and_bf_order():
    G = GRAPHS["frontdoor"]
    assert minimal_intervention_sets(G, Y) == [(), ("X",), ("Z",)]
    assert brute_force_sets(G, Y) == [(), ("X",), ("Z",), ("X", "Z")]
    assert n_arms([(), ("X",), ("X", "Z")]) == 7


@pytest.mark.parametrize(
    ("reward", "N", "named"),
    [("Q", (), "'Q'"), ("Y", ("Y",), "the reward 'Y' cannot be non-manipulable"), ("Y", ("Q",), "'Q'")],
)
def test_bad_reward_or_non_manipulable(reward, N, named):
    G = GRAPHS["frontdoor"]
    for function in (pomis, pomis_brute_force, minimal_intervention_sets, brute_force_sets):
        with pytest.raises(DiagramError, match=named):
            function(G, reward, N)


# ------------------------------------------------------------------------ random ADMGs (property)
@st.composite
def bandit_problems(draw: st.DrawFn, with_n: bool):
    G = draw(admgs())
    reward = draw(st.sampled_from(G.nodes))
    others = [v for v in G.nodes if v != reward]
    N = draw(st.sets(st.sampled_from(others), min_size=1)) if with_n and others else set()
    return G, reward, tuple(sorted(N))


@pytest.mark.parametrize("with_n", [False, True], ids=["N=0", "N"])
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_pomis_recursion_equals_brute_force(with_n, data):
    G, reward, N = data.draw(bandit_problems(with_n))
    found = pomis(G, reward, N)
    assert found == pomis_brute_force(G, reward, N)
    assert set(found) <= set(minimal_intervention_sets(G, reward, N))
    assert {X for X in pomis(G, reward) if not set(X) & set(N)} <= set(found)  # Proposition 1


# -------------------------------------------------------------------------------- the command
def run_command(tmp_path, content, **options) -> int:
    path = tmp_path / "graph.json"
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return pomis_command.run(argparse.Namespace(graph=path, **options))


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_command_prints_spec_sets(case, tmp_path, capsys):
    G = GRAPHS[case["graph"]]
    assert run_command(tmp_path, {**G.to_dict(), "reward": Y, "non_manipulable": list(case["N"])}) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1
    out = json.loads(lines[0])
    assert out["pomis"] == [list(X) for X in case["pomis"]]
    assert out["mis"] == [list(X) for X in minimal_intervention_sets(G, Y, case["N"])]
    assert n_arms(out["mis"]) == case["arms"][1]


def test_command_parser_and_defaults(tmp_path, capsys):
    parser = argparse.ArgumentParser(prog="causal_bandits")
    pomis_command.add_parser(parser.add_subparsers(dest="command"))
    path = tmp_path / "g.json"
    path.write_text(json.dumps({"nodes": ["X", "Z", "Y"], "directed": [["X", "Z"], ["Z", "Y"]], "reward": "Y"}))
    args = parser.parse_args(["pomis", str(path)])
    assert args.func(args) == 0
    assert json.loads(capsys.readouterr().out) == {"mis": [[], ["X"], ["Z"]], "pomis": [["Z"]]}


@pytest.mark.parametrize(
    ("content", "named"),
    [
        ("{not json", "not valid JSON"),
        ([1, 2], "JSON object"),
        ({"reward": "Y"}, '"nodes"'),
        ({"nodes": ["Y"]}, '"reward"'),
        ({"nodes": "XY", "reward": "Y"}, '"nodes" must be a list'),
        ({"nodes": ["Y"], "reward": 1}, '"reward" must be'),
        ({"nodes": ["X", "Y"], "reward": "Y", "non_manipulable": "X"}, '"non_manipulable" must be'),
        ({"nodes": ["Y"], "reward": "Y", "colour": "red"}, "'colour'"),
        ({"nodes": ["X", "Y"], "directed": [["X", "Q"]], "reward": "Y"}, "'Q'"),
        ({"nodes": ["X", "Y"], "reward": "Y", "non_manipulable": ["Y"]}, "cannot be non-manipulable"),
    ],
)
def test_command_rejects_malformed_files(content, named, tmp_path):
    with pytest.raises(DiagramError, match=named) as err:
        run_command(tmp_path, content)
    assert "\n" not in str(err.value)


def test_command_missing_file(tmp_path):
    with pytest.raises(DiagramError, match="cannot read"):
        pomis_command.run(argparse.Namespace(graph=tmp_path / "absent.json"))


# ------------------------------------------------------------------- exponential POMIS families
def confounded_causes(k):
    """X_i → Y and X_i ↔ Y for k causes: every subset of the causes is a POMIS (2^k of them)."""
    xs = [f"X{i:02d}" for i in range(k)]
    return CausalDiagram([*xs, "Y"], [(x, "Y") for x in xs], [(x, "Y") for x in xs])


def test_confounded_causes_give_every_subset():
    assert pomis(confounded_causes(4), "Y") == brute_force_sets(confounded_causes(4), "Y")


def test_pomis_work_is_polynomial_per_set(monkeypatch):
    """Algorithm 1 recurses only below a border it has just found: at most |V| territory
    computations per POMIS, however large the family."""
    calls = []
    territory = pomis_module._Masks.territory
    monkeypatch.setattr(pomis_module._Masks, "territory", lambda self, *a: calls.append(1) or territory(self, *a))
    found = pomis(confounded_causes(10), "Y")
    assert len(found) == 1024
    assert len(calls) <= 11 * len(found)


@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_pomis_work_is_bounded_per_set_on_random_diagrams(data):
    G, reward, N = data.draw(bandit_problems(with_n=False))
    calls = []
    territory = pomis_module._Masks.territory
    pomis_module._Masks.territory = lambda self, *a: calls.append(1) or territory(self, *a)
    try:
        found = pomis(G, reward, N)
    finally:
        pomis_module._Masks.territory = territory
    assert len(calls) <= len(G.nodes) * len(found)


def test_pomis_limit_stops_early():
    seen = []
    with pytest.raises(TooManySets, match="the POMIS family has more than the limit of 1,000 sets"):
        pomis(confounded_causes(40), "Y", limit=1_000, progress=seen.append)
    assert seen[-1] == 1_000  # the 1,001st set stopped it, 2^40 were never tried
    assert len(pomis(confounded_causes(10), "Y", limit=1_024)) == 1024


def test_command_limit_and_its_option(tmp_path, capsys):
    graph = {**confounded_causes(11).to_dict(), "reward": "Y"}
    with pytest.raises(
        CausalBanditsError,
        match=r"POMIS family has more than the limit of 1,000 sets; rerun with "
        r"a larger --limit",
    ) as err:
        run_command(tmp_path, graph, limit=1_000, pomis_only=True)
    assert "\n" not in str(err.value)
    assert run_command(tmp_path, graph, limit=2_048, pomis_only=True) == 0
    assert len(json.loads(capsys.readouterr().out)["pomis"]) == 2048
    with pytest.raises(CausalBanditsError, match="must be a positive number"):
        run_command(tmp_path, graph, limit=0)


def test_command_progress_after_a_second(monkeypatch, capsys):
    clock = iter([0.0, 0.5, 1.2, 1.5, 2.4, 3.0])
    monkeypatch.setattr(pomis_command.time, "monotonic", lambda: next(clock))
    progress = pomis_command._Progress("POMISs", 10_000, 0.0)
    for count in (1, 2, 3, 4):
        progress(count)
    progress.finish(4)  # the last line, however long since the one before: progress runs to the end
    lines = capsys.readouterr().err.splitlines()
    assert lines == [
        "pomis: 2 POMISs so far after 1 s (stops above 10,000; --limit)",
        "pomis: 4 POMISs so far after 2 s (stops above 10,000; --limit)",
        "pomis: 4 POMISs in all after 3.0 s",
    ]
