"""The compiled batch-last evaluation of a POMIS+ catalogue (causal/compiled_program.py) gives numpy's bits."""

import numpy as np
import pytest

from causal_bandits.causal import compiled_program
from causal_bandits.causal.estimators import pomis_plus_estimators
from causal_bandits.papers.nonmanip.graphs import GRAPHS

PANELS = [("frontdoor", ("Z",)), ("fig2a", ("A",)), ("fig5d", ("A", "C"))]


def _data(program, batch, seed=3):
    """Leaf counts (int32, as the bootstrap's replicates) with empty cells, and sample sizes shared along the last batch
    axis (as a seed's replicates share its sizes), some of them 0 (0/0: undefined estimates)."""
    rng = np.random.default_rng(seed)
    counts = rng.integers(0, 30, (program.n_leaf_cells, *batch)).astype(np.int32)
    counts[rng.random(counts.shape) < 0.2] = 0
    totals = rng.integers(30, 300, (len(program.layout.arms), *batch[:-1], 1)).astype(float)
    totals[: len(program.layout.arms) // 4] = 0
    return counts, totals


@pytest.mark.parametrize(("graph", "N"), PANELS)
@pytest.mark.parametrize("batch", [(1, 37), (6, 11), (23,)])
def test_every_factor_is_numpys_bit_for_bit(graph, N, batch):
    """Every factor of the programme (leaves, products, divisions), not only the estimates, equals numpy's evaluation
    of the same step bit for bit, nan where undefined: for one seed's replicates, several seeds' and a flat batch."""
    program = pomis_plus_estimators(GRAPHS[graph], "Y", N).program
    counts, totals = _data(program, batch)
    every = range(len(program._steps))
    ref = program._evaluate_steps(counts, totals, every, True, program._batch_first_steps())
    got = program._compiled_steps().run(counts, totals, every)
    for i in every:
        np.testing.assert_array_equal(got[i], ref[i], err_msg=f"step {i}: {program._steps[i]}")


def test_a_plan_computes_its_steps_and_keeps_what_is_asked():
    """A subset of the expressions computes the steps they need, with the same values as the whole programme."""
    est = pomis_plus_estimators(GRAPHS["fig5d"], "Y", ("A", "C"))
    counts, totals = _data(est.program, (2, 9))
    whole = est.values_last(counts, totals)
    for entry in (0, 5, len(est.entries) - 1):
        part = est.values_last(counts, totals, (entry,))
        ids = est.instances_of([entry])
        np.testing.assert_array_equal(part[ids], whole[ids])
        assert np.isnan(np.delete(part, ids, axis=0)).all()


def test_values_of_are_the_entries_rows_of_values_last():
    """values_of gives the instances of the entries asked for, in entry order, with values_last's numbers bit for bit
    (nan and inf included); no entry gives no rows."""
    est = pomis_plus_estimators(GRAPHS["fig5d"], "Y", ("A", "C"))
    counts, totals = _data(est.program, (1, 37))
    entries = (len(est.entries) - 1, 0, 5)
    ids, values = est.values_of(counts, totals, entries)
    np.testing.assert_array_equal(ids, np.concatenate([est.instances_of([e]) for e in entries]))
    np.testing.assert_array_equal(values, est.values_last(counts, totals, entries)[ids])
    assert np.isnan(values).any()  # the data leave some estimates undefined: those are compared too
    none, empty = est.values_of(counts, totals, ())
    assert none.size == 0 and empty.shape == (0, 1, 37)


@pytest.mark.parametrize(("graph", "N"), PANELS)
@pytest.mark.parametrize("shared", [True, False])
def test_values_of_compute_only_the_cells_they_need_with_numpys_bits(graph, N, shared):
    """values_of, whose steps compute only the cells its instances need (CompiledSteps.demand), equals numpy's
    batch-last evaluation of the whole programme at those instances' cells bit for bit (nan and inf included), with
    sample sizes shared along the replicates (passed once per seed) or given for every batch position; a single
    entry's selection computes fewer cells than the programme has."""
    est = pomis_plus_estimators(GRAPHS[graph], "Y", N)
    program = est.program
    counts, totals = _data(program, (3, 29))
    if not shared:
        totals = totals * (1 + np.arange(29) % 2)  # sizes that differ along the replicates too
    every = range(len(program._steps))
    factors = program._evaluate_steps(counts, totals, every, True, program._batch_first_steps())
    expected = np.full((est.n_instances, 3, 29), np.nan)
    for e, (ids, at) in enumerate(est._value_at):
        expected[ids] = factors[program._roots[e]].reshape(-1, 3, 29)[at]
    last = len(est.entries) - 1
    for entries in [(0,), (last, 0), tuple(range(len(est.entries)))]:
        ids, values = est.values_of(counts, totals, entries)
        np.testing.assert_array_equal(values, expected[ids])
    selection = est._selections[(0,)][1]
    assert selection.workspace is not None and selection.workspace[1][0].size < program._compiled_steps().n_rows


def test_orders_numpy_does_not_use_are_refused_and_those_steps_run_in_numpy(monkeypatch):
    """Offered only the reverse of each product's alphabetical order of its summed variables, the check refuses it
    where numpy adds in another order (so the random trials tell orders apart), those steps run in numpy, and the
    values stay numpy's."""

    def reversed_only(self, i):
        ways = original(self, i)
        return [(tuple(reversed(ways[0][0])), compiled_program.ONE_BY_ONE)]

    original = compiled_program.CompiledSteps._additions
    monkeypatch.setattr(compiled_program.CompiledSteps, "_additions", reversed_only)
    program = pomis_plus_estimators(GRAPHS["fig5d"], "Y", ("A", "C")).program
    steps = program._compiled_steps()
    in_numpy = np.flatnonzero(steps.kind == compiled_program.NUMPY)
    assert in_numpy.size >= 5  # numpy sums most products of two or more summed variables in the other order
    assert (steps.kind == compiled_program.PRODUCT).any()  # and some in this one
    counts, totals = _data(program, (1, 50), seed=8)
    every = range(len(program._steps))
    ref = program._evaluate_steps(counts, totals, every, True, program._batch_first_steps())
    got = steps.run(counts, totals, every)
    for i in every:
        np.testing.assert_array_equal(got[i], ref[i])


def test_a_programme_that_differs_from_numpy_is_evaluated_on_numpys_path(monkeypatch):
    """Should the whole compiled programme differ from numpy's (another build), the evaluation warns and runs on
    numpy's own batch-last path: the same numbers, never others."""
    est = pomis_plus_estimators(GRAPHS["fig5d"], "Y", ("A", "C"))
    counts, totals = _data(est.program, (2, 9))
    expected = est.values_last(counts, totals)
    fresh = pomis_plus_estimators(GRAPHS["fig5d"], "Y", ("A", "C"))
    monkeypatch.setattr(compiled_program.CompiledSteps, "run", lambda self, *args: [np.zeros(1)] * 10**4)
    with pytest.warns(RuntimeWarning, match="evaluating with numpy"):
        got = fresh.values_last(counts, totals)
    assert not fresh.program._compiled_steps().agrees
    np.testing.assert_array_equal(got, expected)


def test_building_and_checking_a_catalogue_loads_no_numba():
    """A job that builds a catalogue and evaluates it batch-first (nonmanip's catalogue, efficiency, Table 1, the
    report) imports neither the compiled passes nor numba: 40-50 MB and 0.1-0.2 CPU-s of start-up it does not use."""
    import subprocess
    import sys

    code = (
        "import sys, numpy as np\n"
        "from causal_bandits.causal.estimators import pomis_plus_estimators\n"
        "from causal_bandits.papers.nonmanip.graphs import GRAPHS\n"
        "est = pomis_plus_estimators(GRAPHS['fig5d'], 'Y', ('A', 'C'))\n"
        "p = est.program\n"
        "p.evaluate_leaves(np.ones((3, p.n_leaf_cells)), np.ones((3, len(p.layout.arms))))\n"
        "print(sorted(m for m in sys.modules if m.startswith(('numba', 'causal_bandits.causal.compiled'))))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]", done.stdout + done.stderr
