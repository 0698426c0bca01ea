"""Beyond the paper: how far Lee & Bareinboim's (AAAI-19) conclusions depend on what they did not publish.

The paper publishes neither its SCM parameters nor the graph of Fig. 5d (issue 8 item 5). The
robustness experiment reruns every strategy (BF, MIS, POMIS, POMIS+) with both solvers on

* (a) graphs: diagrams consistent with everything the paper states about Fig. 5d
  (:func:`~causal_bandits.papers.nonmanip.consistent_graphs.consistent_graphs`), a seeded sample
  when more fit than ``graphs.sample``, each with a random SCM of the SPEC's ``random_cpt`` family;
* (b) SCMs: for each Figure 5 panel, ``scms_per_panel`` random ``random_cpt`` SCMs on its graph;

and counts how often each ordering of the paper holds
(:func:`causal_bandits.papers.nonmanip.tables.robustness_orderings`). Experiments are named
``rob_g07`` (graph 7 of the sample) and ``rob_fig5b_s03`` (SCM 3 of panel fig5b); their instance
documents have the form of the panels' (:func:`causal_bandits.papers.nonmanip.experiments.
instance_document`), so the catalogue and run stages serve both. Random draws come from keyed
generators (``nonmanip``, ``robustness``, index, purpose): adding instances never changes others.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from causal_bandits.causal.pomis import pomis
from causal_bandits.causal.z2id import catalogue
from causal_bandits.errors import ConfigError
from causal_bandits.papers.nonmanip.config import panel_diagram
from causal_bandits.papers.nonmanip.consistent_graphs import FIG5D_FACTS, consistent_graphs
from causal_bandits.rng import generator
from causal_bandits.scm.confounded_cpt import ConfoundedCPT
from causal_bandits.scm.diagram import CausalDiagram

GRAPH_NAME = re.compile(r"^rob_g(\d+)$")
SCM_NAME = re.compile(r"^rob_(.+)_s(\d+)$")
#: The expected number of expressions (the paper's "24 expressions" for Fig. 5c, §5).
PAPER_EXPRESSIONS = 24


def names(robustness: Mapping[str, Any], panels: Sequence[str]) -> list[str]:
    """The experiment names of the robustness instances, graphs first."""
    graphs = [f"rob_g{i:02d}" for i in range(robustness["graphs"]["sample"])]
    return graphs + [f"rob_{p}_s{k:02d}" for p in panels for k in range(robustness["scms_per_panel"])]


def graphs_document(robustness: Mapping[str, Any]) -> dict[str, Any]:
    """Every graph consistent with the paper's Fig. 5d facts, how many there are by size and how many
    give the paper's 24 expressions, and the seeded sample the experiment runs."""
    limits = robustness["graphs"]
    graphs = consistent_graphs(max_directed=limits["max_directed"], max_bidirected=limits["max_bidirected"])
    size = np.array([len(G.directed) + len(G.bidirected) for G in graphs])
    rng = generator("nonmanip", "robustness", 0, "graph-sample")
    k = min(limits["sample"], len(graphs))
    sample = sorted(rng.choice(len(graphs), size=k, replace=False).tolist()) if k < len(graphs) else list(range(k))
    small = [i for i in range(len(graphs)) if size[i] <= limits["count_expressions_up_to_edges"]]
    expressions = {i: _n_expressions(graphs[i]) for i in sorted(set(sample) | set(small))}
    return {
        "facts": {**FIG5D_FACTS, "max_directed": limits["max_directed"], "max_bidirected": limits["max_bidirected"],
                  "changing_projection": list(FIG5D_FACTS["N"])},
        "n_fitting": len(graphs),
        "by_edges": {int(e): int((size == e).sum()) for e in np.unique(size)},
        "expressions_counted_up_to_edges": limits["count_expressions_up_to_edges"],
        "n_counted": len(small),
        "n_counted_with_paper_expressions": sum(expressions[i] == PAPER_EXPRESSIONS for i in small),
        "sampled": len(graphs) > k,
        "sample": [{"index": int(i), "n_edges": int(size[i]), "n_expressions": expressions[i],
                    "graph": graphs[i].to_dict()} for i in sample],
    }


def _n_expressions(G: CausalDiagram) -> int:
    facts = FIG5D_FACTS
    return len(catalogue(G, facts["reward"], pomis(G, facts["reward"], facts["N"])))


def instance_panel(name: str, panels: Mapping[str, Mapping[str, Any]], graphs: Mapping[str, Any] | None) -> dict[str, Any]:
    """The panel-like description (graph, N, SCM) of robustness experiment ``name``, for
    :func:`~causal_bandits.papers.nonmanip.experiments.instance_document`."""
    if m := GRAPH_NAME.match(name):
        i = int(m.group(1))
        if graphs is None or i >= len(graphs["sample"]):
            have = 0 if graphs is None else len(graphs["sample"])
            raise ConfigError(f"robustness graph {i} does not exist: only {have} graphs are sampled; lower "
                              f"nonmanip.robustness.graphs.sample to at most {have}")
        entry = graphs["sample"][i]
        diagram = CausalDiagram.from_dict(entry["graph"])
        title = f"Fig. 5d-consistent graph {i} ({entry['n_edges']} edges, {entry['n_expressions']} expressions)"
        graph = {**entry["graph"], "reward": FIG5D_FACTS["reward"]}
        N, key, purpose = list(FIG5D_FACTS["N"]), i, "scm/graphs"
    elif m := SCM_NAME.match(name):
        panel, key = m.group(1), int(m.group(2))
        diagram, reward = panel_diagram(panels[panel])
        graph = {**diagram.to_dict(), "reward": reward}
        N = list(panels[panel].get("non_manipulable", ()))
        title = f"{panels[panel].get('title', panel)}, random SCM {key}"
        purpose = f"scm/{panel}"
    else:
        raise ConfigError(f"{name!r} is not a robustness experiment name (rob_gNN or rob_<panel>_sNN)")
    model = ConfoundedCPT.random(diagram, generator("nonmanip", "robustness", key, purpose))
    return {"title": title, "graph": graph, "non_manipulable": N, "scm": model.to_dict()}


def family(name: str) -> str:
    """The group an experiment belongs to in the tables: ``graphs`` or the panel of its SCMs."""
    return "graphs" if GRAPH_NAME.match(name) else SCM_NAME.match(name).group(1)
