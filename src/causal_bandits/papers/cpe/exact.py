"""Rules cpe_quantities and cpe_theory: the exact complexity quantities (:mod:`causal_bandits.papers.cpe.quantities`)
of every instance and of the E4b two-layer BGLMs, as JSON. Apart from ``quantities``, which pure-exploration run jobs
execute, so that these steps' code is not theirs."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from causal_bandits import store
from causal_bandits.papers.cpe.families import bglm
from causal_bandits.papers.cpe.instance import CPEInstance
from causal_bandits.papers.cpe.quantities import quantities

if TYPE_CHECKING:
    from causal_bandits.stages import Job

log = logging.getLogger(__name__)

#: The columns of the E4b theory curves (rule cpe_theory), from a BGLM instance's quantities summary.
THEORY_COLUMNS = (
    "param_k",
    "n_arms",
    "delta_min",
    "H",
    "m_G",
    "m_eps_G",
    "H_m_G",
    "m_L",
    "m_eps_L",
    "H_m_L",
    "UB",
    "UB_L",
)


def quantities_step(job: Job) -> None:
    """Rule cpe_quantities: one instance's exact complexity quantities (docs/papers/cpe.md#cpe-quantities), as
    JSON."""
    p = job.params
    q = quantities(CPEInstance.from_document(store.read_json(job.input.instance)), p.epsilon, p.delta)
    store.write_json(job.output[0], q.to_document())
    s = q.summary
    log.info(
        "Delta_min = %.6f, H = %.1f, m/m_eps = %d/%d, H_m = %.1f, LB = %.1f",
        s["delta_min"],
        s["H"],
        s["m_G"],
        s["m_eps_G"],
        s["H_m_G"],
        s["LB_thm3"],
    )


def theory_step(job: Job) -> None:
    """Rule cpe_theory: E4b theory curves (H, H_m for q^(G) and q^(L)) of the two-layer BGLM for every k."""
    rows = []
    for k in job.params.k:
        s = quantities(bglm(k), 0.0, job.params.delta, with_burn_in=False, with_arms=False).summary
        rows.append({key: s[key] for key in THEORY_COLUMNS})
        log.info("k = %d: H = %.4g, H_m(G) = %.4g, H_m(L)/H = %.3f", k, s["H"], s["H_m_G"], s["H_m_L"] / s["H"])
    store.write_json(job.output[0], rows)
