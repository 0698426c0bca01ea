"""An own experiment's diagram, SCM and arms, as the nonmanip instance document.

The diagram is the ``pomis`` command's graph object (``nodes``, ``directed``, ``bidirected``,
``reward``, ``non_manipulable``; :mod:`causal_bandits.commands.pomis`), inline or in a JSON file.
The SCM is one of

* ``xor_bernoulli`` — ``q`` and ``c`` of :class:`~causal_bandits.scm.xor_bernoulli.XorBernoulliSCM`
  (as the nonmanip panels give them);
* ``cpt`` — explicit tables ``p_u`` and ``p1`` of :class:`~causal_bandits.scm.confounded_cpt.ConfoundedCPT`,
  every size and probability checked (:meth:`~causal_bandits.scm.confounded_cpt.ConfoundedCPT.from_tables`);
* ``random_cpt`` — the seeded random family of :meth:`~causal_bandits.scm.confounded_cpt.ConfoundedCPT.random`,
  drawn from the stream ("experiments", name, seed, "scm").

:func:`instance_document` hands the experiment to the nonmanip instance stage (every arm with its
exact mean, the BF / MIS / POMIS lists of Lee & Bareinboim, AAAI-19) and adds the explicit arm lists.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from causal_bandits.errors import ArgumentError, ConfigError
from causal_bandits.experiments import KEY
from causal_bandits.papers.nonmanip import scms
from causal_bandits.papers.nonmanip.experiments import instance_document as nonmanip_instance
from causal_bandits.rng import generator
from causal_bandits.scm.confounded_cpt import ConfoundedCPT
from causal_bandits.scm.diagram import CausalDiagram
from causal_bandits.scm.graph_file import diagram, read_graph
from causal_bandits.scm.xor_bernoulli import XorBernoulliSCM


def graph(entry: str | Mapping[str, Any]) -> dict[str, Any]:
    """The graph object of an experiment's ``diagram``: the mapping itself, or the JSON file it names
    (read and checked as the ``pomis`` command reads it)."""
    if isinstance(entry, str):
        return read_graph(Path(entry))
    return dict(entry)


#: The SCM families of an experiment's ``scm`` entry and the keys each needs.
FAMILIES = {"xor_bernoulli": ("q", "c"), "cpt": ("p_u", "p1"), "random_cpt": ("seed",)}


def scm_model(name: str, G: CausalDiagram, spec: Mapping[str, Any]) -> XorBernoulliSCM | ConfoundedCPT:
    """The SCM of experiment ``name``'s ``scm`` entry on diagram ``G`` (family default: xor_bernoulli)."""
    family = spec.get("family", "xor_bernoulli")
    where = f"{KEY}.{name}.scm"
    if family not in FAMILIES:
        raise ArgumentError(f"{where}.family = {family!r} is not an SCM family; use one of {', '.join(FAMILIES)}")
    needs = FAMILIES[family]
    for key in needs:
        if key not in spec:
            raise ConfigError(f"{where} (family {family}) has no {key!r}; add it (needs {', '.join(needs)})")
    extra = sorted(set(spec) - {"family", *needs})
    if extra:
        raise ConfigError(f"{where}: {extra[0]!r} is not a key of family {family}; its keys are {', '.join(needs)}")
    if family == "cpt":
        return ConfoundedCPT.from_tables(G, spec["p_u"], spec["p1"], where)
    if family == "random_cpt":
        return ConfoundedCPT.random(G, generator(KEY, name, int(spec["seed"]), "scm"))
    return XorBernoulliSCM(G, spec["q"], spec["c"])


def panel(name: str, experiment: Mapping[str, Any], model: XorBernoulliSCM | ConfoundedCPT | None = None) -> dict:
    """The experiment as a nonmanip panel (inline graph with its reward, non-manipulable variables, SCM)."""

    data = graph(experiment["diagram"])
    G = diagram(data)
    if model is None:
        model = scm_model(name, G, experiment["scm"])
    elif model.diagram != G:
        raise ArgumentError(
            f"the SCM given for {name!r} is built on another diagram (nodes {list(model.diagram.nodes)}); "
            "build it on the diagram given"
        )
    return {
        "title": experiment.get("title", name),
        "graph": {**G.to_dict(), "reward": data["reward"]},
        "non_manipulable": list(data.get("non_manipulable", ())),
        "scm": scms.spec(model),
    }


def arm_ids(instance: Mapping[str, Any], arms: Sequence[Mapping[str, int]], where: str = "arms") -> list[int]:
    """Ids in the instance's full arm list of explicit assignments (``{}`` is the observational arm)."""
    index = {tuple(sorted(a["values"].items())): a["arm_id"] for a in instance["arms"]}
    ids = []
    for i, arm in enumerate(arms):
        key = tuple(sorted((v, int(x)) for v, x in arm.items()))
        if key not in index:
            manipulable = sorted(set(instance["graph"]["nodes"]) - {instance["reward"], *instance["N"]})
            raise ConfigError(
                f"{where}[{i}] = {dict(arm)} is not an intervention on this diagram; set only "
                f"manipulable nodes {manipulable} to 0 or 1"
            )
        ids.append(index[key])
    return ids


def with_arm_lists(
    instance: Mapping[str, Any], lists: Mapping[str, Sequence[Mapping[str, int]]], where: str = "arms"
) -> dict[str, Any]:
    """A copy of ``instance`` with explicit arm lists added to its ``arm_lists`` under their names."""
    doc = copy.deepcopy(dict(instance))
    for key, arms in lists.items():
        doc["arm_lists"][key] = arm_ids(doc, arms, f"{where}.{key}")
    return doc


def instance_document(name: str, experiment: Mapping[str, Any]) -> dict[str, Any]:
    """Experiment ``name``'s instance: the nonmanip instance document of its panel plus its explicit arm lists."""

    doc = nonmanip_instance(name, panel(name, experiment))
    return with_arm_lists(doc, experiment.get("arms", {}), f"{KEY}.{name}.arms")
