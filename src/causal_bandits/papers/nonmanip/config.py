"""Lee & Bareinboim (AAAI-19): the config checks a schema cannot make (diagrams, SCM parameters, the
registered algorithms), run when the workflow parses the config and by ``causal-bandits check-config``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from causal_bandits import algorithms
from causal_bandits.causal.pomis import pomis
from causal_bandits.errors import CausalBanditsError
from causal_bandits.papers.nonmanip import POMIS_PLUS
from causal_bandits.papers.nonmanip.graphs import panel_diagram
from causal_bandits.scm.xor_bernoulli import XorBernoulliSCM


def check_config(section: Mapping[str, Any]) -> None:
    """Semantic checks the schema cannot make; raises a one-line CausalBanditsError."""
    # POMIS+ is no arm set of its own: it runs the solvers that declare a z² version (the rest skip it).
    algorithms.check(
        "nonmanip",
        section.get("algorithms", ()),
        [s for s in section.get("strategies", ()) if s != POMIS_PLUS],
        where="nonmanip.algorithms",
    )
    for name, panel in section["panels"].items():
        try:
            diagram, reward = panel_diagram(panel)
            pomis(diagram, reward, panel.get("non_manipulable", ()))
            XorBernoulliSCM(diagram, panel["scm"]["q"], panel["scm"]["c"])
        except CausalBanditsError as err:
            raise type(err)(f"nonmanip panel {name!r}: {err}") from err
