"""Lee & Bareinboim (AAAI-19): the SCM families of the experiments, built from instance documents.

* ``xor_bernoulli`` — our reconstruction of the paper's SCMs (docs/papers/nonmanip.md#nonmanip-r-scm-parameters [R]; the
  Figure 5 panels):
  :class:`~causal_bandits.scm.xor_bernoulli.XorBernoulliSCM` with parameters ``q`` and ``c``;
* ``random_cpt`` — our generator for robustness runs (docs/papers/nonmanip.md#nonmanip-r-scm-parameters): one confounder
  per bidirected edge and a random table per variable, :class:`~causal_bandits.scm.confounded_cpt.ConfoundedCPT`.

Both sample every variable from uniforms of the environment stream; :func:`exact_model` gives the
exact experimental distributions of either (by enumeration) for validating expressions.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from causal_bandits.scm.confounded_cpt import ConfoundedCPT
from causal_bandits.scm.diagram import CausalDiagram
from causal_bandits.scm.xor_bernoulli import XorBernoulliSCM


def scm(diagram: CausalDiagram, spec: Mapping[str, Any]) -> XorBernoulliSCM | ConfoundedCPT:
    """The SCM of an instance's ``scm`` entry (``family`` defaults to xor_bernoulli, as in configs)."""
    if spec.get("family", "xor_bernoulli") == "random_cpt":
        return ConfoundedCPT.from_dict(diagram, spec)
    return XorBernoulliSCM(diagram, spec["q"], spec["c"])


def spec(model: XorBernoulliSCM | ConfoundedCPT) -> dict[str, Any]:
    """The ``scm`` entry of an instance document for ``model``."""
    if isinstance(model, ConfoundedCPT):
        return model.to_dict()
    return {"family": "xor_bernoulli", "q": dict(model.q), "c": dict(model.c)}


def exact_model(diagram: CausalDiagram, entry: Mapping[str, Any]) -> ConfoundedCPT:
    """The same SCM as a :class:`ConfoundedCPT`, whose ``joint`` enumerates P(V | do(x)) exactly."""
    model = scm(diagram, entry)
    return model if isinstance(model, ConfoundedCPT) else ConfoundedCPT.from_xor_bernoulli(model)
