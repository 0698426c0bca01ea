"""The instances of the study ``robustness`` (:mod:`causal_bandits.studies.robustness`): how far Lee & Bareinboim's
(AAAI-19) conclusions depend on what they did not publish.

The paper publishes neither its SCM parameters nor the graph of Fig. 5d (docs/papers/nonmanip.md#nonmanip-robustness).
The study reruns every strategy (BF, MIS, POMIS, POMIS+) with each named solver on

* (a) graphs: diagrams consistent with everything the paper states about Fig. 5d
  (:func:`~causal_bandits.studies.consistent_graphs.consistent_graphs`), a seeded sample
  when more fit than ``graphs.sample``, each with a random SCM of our ``random_cpt`` family
  (docs/papers/nonmanip.md#nonmanip-robustness);
* (b) SCMs: for each Figure 5 panel, ``scms_per_panel`` random ``random_cpt`` SCMs on its graph (a
  mapping gives each panel its own count, e.g. all of the cheap panels and a few of Fig. 5d's);

and counts how often each ordering of the paper holds (:func:`causal_bandits.studies.robustness_outputs.orderings`).
The instances are listed by :func:`instances` (``g07``: graph 7 of the seeded order, ``fig5b-s03``: SCM 3 of
panel fig5b; ids looked up there, never parsed); their instance documents have the form of the panels'
(:func:`causal_bandits.papers.nonmanip.experiments.instance_document`), so the paper's catalogue and run code
serve both.

Growing the experiment reruns nothing already run: random draws come from keyed generators
(``nonmanip``, ``robustness``, index, purpose), the graphs run in one seeded order of all that fit
(graph k is the same whatever ``graphs.sample``), and an instance's jobs see only the config it
depends on (:func:`instance_config`), never the counts. Raising ``graphs.sample`` or
``scms_per_panel`` adds instances and keeps the files of those already run.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from causal_bandits import store
from causal_bandits.causal.pomis import pomis
from causal_bandits.causal.z2id import catalogue
from causal_bandits.errors import ConfigError
from causal_bandits.papers.nonmanip import experiments
from causal_bandits.papers.nonmanip.catalogue import write_with_catalogue
from causal_bandits.papers.nonmanip.graphs import panel_diagram
from causal_bandits.rng import generator
from causal_bandits.scm.confounded_cpt import ConfoundedCPT
from causal_bandits.scm.diagram import CausalDiagram
from causal_bandits.studies.consistent_graphs import FIG5D_FACTS, consistent_graphs

if TYPE_CHECKING:
    from causal_bandits.stages import Job


log = logging.getLogger(__name__)

#: The expected number of expressions (the paper's "24 expressions" for Fig. 5c, §5).
PAPER_EXPRESSIONS = 24
#: The group of the graph instances in tables and paths (the SCM instances' group is their panel).
GRAPHS = "graphs"


class Instance(NamedTuple):
    """One instance of the study: its ``id`` (path segment and stream key), its ``family`` (:data:`GRAPHS` or the
    panel whose graph it keeps) and its ``key`` within the family (its index, which keys its random draws)."""

    id: str
    family: str
    key: int


def scms_of(section: Mapping[str, Any], panel: str) -> int:
    """Random SCMs run for ``panel``: ``scms_per_panel`` itself, or its entry for the panel when it is
    a mapping (panels it leaves out run none)."""
    count = section["scms_per_panel"]
    return count.get(panel, 0) if isinstance(count, Mapping) else count


def instances(section: Mapping[str, Any], panels: list[str]) -> dict[str, Instance]:
    """The study's instances by id, graphs first."""
    graphs = [Instance(f"g{i:02d}", GRAPHS, i) for i in range(section["graphs"]["sample"])]
    scms = [Instance(f"{p}-s{k:02d}", p, k) for p in panels for k in range(scms_of(section, p))]
    return {inst.id: inst for inst in graphs + scms}


def graphs_document(limits: Mapping[str, Any]) -> dict[str, Any]:
    """Every graph consistent with the paper's Fig. 5d facts, in the seeded order the experiment runs
    them (its sample is the first ``graphs.sample``: :func:`graphs_run`), and how many there are by
    size. Independent of ``graphs.sample`` and of the expression counting (:func:`graph_counts`), so
    that raising the one or changing the other keeps the graphs already run. ``limits``: the
    ``robustness.graphs`` section."""
    graphs = consistent_graphs(max_directed=limits["max_directed"], max_bidirected=limits["max_bidirected"])
    size = np.array([len(G.directed) + len(G.bidirected) for G in graphs])
    order = generator("nonmanip", "robustness", 0, "graph-order").permutation(len(graphs)).tolist()
    return {
        "facts": {
            **FIG5D_FACTS,
            "max_directed": limits["max_directed"],
            "max_bidirected": limits["max_bidirected"],
            "changing_projection": list(FIG5D_FACTS["N"]),
        },
        "n_fitting": len(graphs),
        "by_edges": {int(e): int((size == e).sum()) for e in np.unique(size)},
        "order": [{"index": int(i), "n_edges": int(size[i]), "graph": graphs[i].to_dict()} for i in order],
    }


def graph_counts(graphs: Mapping[str, Any], up_to_edges: int) -> dict[str, Any]:
    """What the report says of the fitting graphs: :func:`graphs_document` less the graphs
    themselves, and how many of those with at most ``up_to_edges`` edges in all give the paper's 24
    expressions (the ``n_expressions`` of each, by graph index)."""
    small = [e for e in graphs["order"] if e["n_edges"] <= up_to_edges]
    counts = {e["index"]: _n_expressions(CausalDiagram.from_dict(e["graph"])) for e in small}
    return {
        **{k: v for k, v in graphs.items() if k != "order"},
        "expressions_counted_up_to_edges": up_to_edges,
        "n_counted": len(small),
        "n_counted_with_paper_expressions": sum(n == PAPER_EXPRESSIONS for n in counts.values()),
        "n_expressions": {str(i): n for i, n in counts.items()},
    }


def graphs_run(graphs: Mapping[str, Any], robustness: Mapping[str, Any]) -> int:
    """How many graphs the experiment runs: the first ``graphs.sample`` of the seeded order."""
    return min(robustness["graphs"]["sample"], graphs["n_fitting"])


def instance_config(inst: Instance, section: Mapping[str, Any], panels: Mapping[str, Any]) -> dict[str, Any]:
    """The config an instance's jobs depend on (their params, and the provenance of its runs): the graph limits for
    a graph, the panel's graph and N for an SCM; never the instance counts."""
    if inst.family == GRAPHS:
        return {"graphs": {k: section["graphs"][k] for k in ("max_directed", "max_bidirected")}}
    panel = panels[inst.family]
    return {"panel": {k: panel[k] for k in ("title", "graph", "non_manipulable") if k in panel}}


def _n_expressions(G: CausalDiagram) -> int:
    facts = FIG5D_FACTS
    return len(catalogue(G, facts["reward"], pomis(G, facts["reward"], facts["N"])))


def instance_panel(inst: Instance, config: Mapping[str, Any], graphs: Mapping[str, Any] | None) -> dict[str, Any]:
    """The panel-like description (graph, N, SCM) of instance ``inst``, for
    :func:`~causal_bandits.papers.nonmanip.experiments.instance_document`; ``config`` is its
    :func:`instance_config`, ``graphs`` the :func:`graphs_document` (for graphs)."""
    if inst.family == GRAPHS:
        if graphs is None or inst.key >= len(graphs["order"]):
            have = 0 if graphs is None else len(graphs["order"])
            raise ConfigError(
                f"robustness graph {inst.key} does not exist: only {have} graphs fit; lower "
                f"studies.robustness.graphs.sample to at most {have}"
            )
        entry = graphs["order"][inst.key]
        diagram = CausalDiagram.from_dict(entry["graph"])
        title = f"Fig. 5d-consistent graph {inst.key} ({entry['n_edges']} edges, {_n_expressions(diagram)} expressions)"
        graph = {**entry["graph"], "reward": FIG5D_FACTS["reward"]}
        N, purpose = list(FIG5D_FACTS["N"]), "scm/graphs"
    else:
        settings = config["panel"]
        diagram, reward = panel_diagram(settings)
        graph = {**diagram.to_dict(), "reward": reward}
        N = list(settings.get("non_manipulable", ()))
        title = f"{settings.get('title', inst.family)}, random SCM {inst.key}"
        purpose = f"scm/{inst.family}"
    model = ConfoundedCPT.random(diagram, generator("nonmanip", "robustness", inst.key, purpose))
    return {"title": title, "graph": graph, "non_manipulable": N, "scm": model.to_dict()}


def graphs_step(job: Job) -> None:
    """Rule robustness_graphs: the graphs consistent with the paper's Fig. 5d facts (:func:`graphs_document`)."""
    doc = graphs_document(job.params.graphs)
    store.write_json(job.output[0], doc)
    log.info("%d graphs fit the paper's Fig. 5d facts (by edges: %s)", doc["n_fitting"], doc["by_edges"])


def graph_counts_step(job: Job) -> None:
    """Rule robustness_graph_counts: how many fitting graphs give the paper's 24 expressions (:func:`graph_counts`)."""
    doc = graph_counts(store.read_json(job.input.graphs), job.params.up_to_edges)
    store.write_json(job.output[0], doc)
    log.info(
        "of the %d fitting graphs with at most %d edges, %d give 24 expressions",
        doc["n_counted"],
        doc["expressions_counted_up_to_edges"],
        doc["n_counted_with_paper_expressions"],
    )


def instance_step(job: Job) -> None:
    """Rule robustness_instance: one instance (graph, N, random SCM: :func:`instance_panel`) with exact arm means,
    and its POMIS+ catalogue."""
    out, p = job.output, job.params
    inst = Instance(*p.instance)
    graphs = store.read_json(job.input.graphs[0]) if job.input.graphs else None
    doc = experiments.instance_document(inst.id, instance_panel(inst, p.config, graphs))
    found = write_with_catalogue(out.instance, out.catalogue, doc)
    log.info(
        "%s: mu* = %.6f (%s); arms %s; %d expressions",
        inst.id,
        doc["mu_star"],
        ", ".join(doc["optimal_arms"]),
        {k: len(v) for k, v in doc["arm_lists"].items()},
        found["n_expressions"],
    )
