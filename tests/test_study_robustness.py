"""The robustness experiment (beyond the paper): instances, orderings, table, claims."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from causal_bandits import config as cb_config
from causal_bandits.causal import z2id
from causal_bandits.causal.pomis import pomis
from causal_bandits.claims import NOT_EVALUATED, NOT_SPECIFIED
from causal_bandits.errors import ConfigError
from causal_bandits.papers.nonmanip import catalogue, experiments
from causal_bandits.scm.diagram import CausalDiagram
from causal_bandits.studies import robustness_instances
from causal_bandits.studies import robustness_outputs as outputs
from causal_bandits.studies.robustness_instances import Instance

CONFIG = cb_config.validate(cb_config.load(Path(__file__).resolve().parents[1] / "config" / "config.yaml"))
PANELS = CONFIG["nonmanip"]["panels"]
SMALL = {
    "horizon": 100,
    "n_seeds": 4,
    "scms_per_panel": 1,
    "graphs": {"max_directed": 7, "max_bidirected": 2, "sample": 2, "count_expressions_up_to_edges": 8},
}


@pytest.fixture(scope="module")
def graphs():
    return robustness_instances.graphs_document(SMALL["graphs"])


@pytest.fixture(scope="module")
def counts(graphs):
    return robustness_instances.graph_counts(graphs, SMALL["graphs"]["count_expressions_up_to_edges"])


def test_instances_list_graphs_then_panel_scms():
    found = robustness_instances.instances(SMALL, ["fig5a", "fig5b"])
    assert list(found) == ["g00", "g01", "fig5a-s00", "fig5b-s00"]
    assert found["g01"] == Instance("g01", "graphs", 1) and found["fig5b-s00"] == Instance("fig5b-s00", "fig5b", 0)
    # A count per panel (panels left out run none): the cheap panels in full, a few SCMs of another.
    per_panel = {**SMALL, "scms_per_panel": {"fig5a": 2, "fig5c": 1}, "graphs": {**SMALL["graphs"], "sample": 0}}
    assert list(robustness_instances.instances(per_panel, ["fig5a", "fig5b", "fig5c"])) == [
        "fig5a-s00",
        "fig5a-s01",
        "fig5c-s00",
    ]


def test_graphs_document_lists_every_fitting_graph_in_a_seeded_order(graphs):
    assert graphs["n_fitting"] == sum(graphs["by_edges"].values()) == len(graphs["order"])
    assert sorted(e["index"] for e in graphs["order"]) == list(range(graphs["n_fitting"]))
    assert [e["index"] for e in graphs["order"]] != sorted(e["index"] for e in graphs["order"])
    assert all(e["n_edges"] <= 9 for e in graphs["order"])
    assert robustness_instances.graphs_document(SMALL["graphs"]) == graphs  # seeded
    # How far expressions are counted is the report's business: the graphs (and so every graph
    # instance, which reads them) do not depend on it.
    assert robustness_instances.graphs_document({**SMALL["graphs"], "count_expressions_up_to_edges": 0}) == graphs
    assert robustness_instances.graphs_run(graphs, SMALL) == 2
    assert robustness_instances.graphs_run(graphs, {"graphs": {"sample": 10**6}}) == graphs["n_fitting"]


def test_graph_counts_summarise_the_graphs_and_count_expressions_of_the_small_ones(graphs, counts):
    assert {k: v for k, v in counts.items() if k in graphs} == {k: v for k, v in graphs.items() if k != "order"}
    small = [e for e in graphs["order"] if e["n_edges"] <= 8]
    assert counts["n_counted"] == len(small) == len(counts["n_expressions"]) > 0
    assert 0 <= counts["n_counted_with_paper_expressions"] <= counts["n_counted"]
    assert counts["n_counted_with_paper_expressions"] == sum(n == 24 for n in counts["n_expressions"].values())
    entry = small[0]  # one count checked against the catalogue itself
    G = CausalDiagram.from_dict(entry["graph"])
    assert counts["n_expressions"][str(entry["index"])] == len(z2id.catalogue(G, "Y", pomis(G, "Y", ["A", "C"])))
    assert robustness_instances.graph_counts(graphs, 0)["n_counted"] == 0


def test_growing_the_experiment_changes_nothing_an_instance_depends_on(graphs):
    """Raising graphs.sample or scms_per_panel adds instances and leaves the others' inputs and params
    alone: the graphs document, the instance config slices, hence the instance documents."""
    grown = {**SMALL, "scms_per_panel": 3, "graphs": {**SMALL["graphs"], "sample": 4}}
    assert robustness_instances.graphs_document(grown["graphs"]) == graphs
    small, big = robustness_instances.instances(SMALL, ["fig5b"]), robustness_instances.instances(grown, ["fig5b"])
    assert set(small) < set(big)
    for inst in small.values():
        assert robustness_instances.instance_config(inst, grown, PANELS) == robustness_instances.instance_config(
            inst, SMALL, PANELS
        )
    assert robustness_instances.instance_config(small["g00"], SMALL, PANELS) == {
        "graphs": {"max_directed": 7, "max_bidirected": 2}
    }
    assert set(robustness_instances.instance_config(small["fig5b-s00"], SMALL, PANELS)["panel"]) == {
        "title",
        "graph",
        "non_manipulable",
    }


@pytest.mark.parametrize("inst", [Instance("g01", "graphs", 1), Instance("fig5b-s00", "fig5b", 0)])
def test_instances_are_random_scms_with_exact_means_and_a_valid_catalogue(graphs, inst):
    config = robustness_instances.instance_config(inst, SMALL, PANELS)
    panel = robustness_instances.instance_panel(inst, config, graphs)
    assert panel == robustness_instances.instance_panel(inst, config, graphs)  # keyed draws
    doc = experiments.instance_document(inst.id, panel)
    assert doc["scm"]["family"] == "random_cpt"
    assert len(doc["arm_lists"]["POMIS"]) == (15 if inst.family == "graphs" else 5)
    cat = catalogue.catalogue_document(doc)  # every expression exact on the random SCM
    assert cat["max_error"] < 1e-9 and cat["n_expressions"] > 0


def test_a_graph_beyond_those_that_fit_is_a_config_error(graphs):
    n = graphs["n_fitting"]
    with pytest.raises(
        ConfigError, match=f"only {n} graphs fit; lower studies.robustness.graphs.sample to at most {n}"
    ):
        first = Instance("g00", "graphs", 0)
        robustness_instances.instance_panel(
            Instance(f"g{n}", "graphs", n), robustness_instances.instance_config(first, SMALL, PANELS), graphs
        )


def _finals():
    rng = np.random.default_rng(0)
    rows = []
    for experiment, plus_shift in (("fig5b-s00", -10.0), ("fig5b-s01", 3.0)):
        base = rng.normal(100, 5, 50)
        for strategy, shift in (("POMISplus", plus_shift), ("POMIS", 0.0), ("MIS", 0.0), ("BF", 40.0)):
            for seed, value in enumerate(base + shift + rng.normal(0, 0.5, 50) * (strategy != "MIS")):
                rows.append(
                    {
                        "experiment": experiment,
                        "family": "fig5b",
                        "strategy": strategy,
                        "algorithm": "ts",
                        "seed": seed,
                        "final_regret": value,
                    }
                )
    return pd.DataFrame(rows)


def test_orderings_hold_are_contradicted_or_tie_by_arm_lists():
    instances = {e: {"identical": {"MIS": "POMIS"}} for e in ("fig5b-s00", "fig5b-s01")}
    table = outputs.orderings(_finals(), instances).set_index(["experiment", "ordering"])
    assert table.loc[("fig5b-s00", "POMIS+ < POMIS"), "holds"]
    assert not table.loc[("fig5b-s01", "POMIS+ < POMIS"), "holds"]
    assert table.loc[("fig5b-s01", "POMIS+ < POMIS"), "contradicted"]  # 3 above with tiny noise
    assert table.loc[("fig5b-s00", "POMIS ≤ MIS"), "holds"]  # same arm list
    assert table.loc[("fig5b-s00", "POMIS ≤ MIS"), "identical_arms"]
    shares = outputs.shares(table.reset_index())
    row = shares[shares.ordering == "POMIS+ < POMIS"].iloc[0]
    assert (row.instances, row.holds, row.contradicted) == (2, 1, 1)
    md = outputs.markdown(shares, None, {"fig5b": "Fig. 2a"}, "scale")
    assert "| random SCMs of Fig. 2a | TS | POMIS+ < POMIS | 1/2 | 1/2 |" in md and "not in the paper" in md


def test_robustness_claims_report_shares_beyond_the_paper(counts):
    instances = {e: {"identical": {"MIS": "POMIS"}} for e in ("fig5b-s00", "fig5b-s01")}
    results = {"robustness": outputs.orderings(_finals(), instances), "robustness_graphs": counts}
    found = {c.id: c.check(results) for c in outputs.claims({})}
    assert found["robustness-POMISplus-lt-POMIS"]["status"] == NOT_SPECIFIED
    assert "holds 1/2, contradicted 1" in found["robustness-POMISplus-lt-POMIS"]["ours"]
    assert str(counts["n_fitting"]) in found["robustness-graphs"]["ours"]
    empty = {c.id: c.check({}) for c in outputs.claims({})}
    assert all(v["status"] == NOT_EVALUATED for v in empty.values())


def test_config_checks():
    config = cb_config.load(Path(__file__).resolve().parents[1] / "config" / "config.yaml")
    config["studies"] = {"robustness": {"scms_per_panel": {"fig5a": 3}}}
    cb_config.check(config)
    config["studies"] = {"robustness": {"scms_per_panel": {"fig5a": 3, "fig5x": 1}}}
    with pytest.raises(ConfigError, match=r"scms_per_panel names \['fig5x'\], which are not panels; use panel names"):
        cb_config.check(config)
