"""Table 1's rule on a cell a study reruns: the claim's own verdict at a study's setting.

A study's table gives a POMIS+ cell's mean regret with the half-width 1.96 sd / √n
(:func:`causal_bandits.papers.nonmanip.tables.ci95_halfwidth`); the paper claim on that cell judges the 95 %
t-interval of the mean against the band paper · (1 ± :data:`~causal_bandits.papers.nonmanip.claims.TABLE1_REL_TOL`)
(:func:`causal_bandits.claims.in_band`). :func:`judge` applies that rule to a study's row, so a finding record says
what the claim's rule would say at the study's setting (:class:`causal_bandits.studies.Located`).
"""

from __future__ import annotations

import math
from typing import Any

from causal_bandits.claims import in_band, interval_text, mean_interval
from causal_bandits.papers.nonmanip.claims import TABLE1_REL_TOL


def judge(row: Any, paper: float) -> dict[str, str]:
    """The claim's verdict (``status``) on a study table's ``row`` (its ``mean_cr_T`` over ``n_seeds`` seeds with
    the table's ``ci95_halfwidth``) against the paper's cell ``paper``, and our value with its t-interval
    (``ours``)."""
    mean, n = float(row.mean_cr_T), int(row.n_seeds)
    interval = mean_interval(mean, float(row.ci95_halfwidth) * math.sqrt(n) / 1.96, n)
    status, _ = in_band(mean, interval, (paper * (1 - TABLE1_REL_TOL), paper * (1 + TABLE1_REL_TOL)), n)
    return {"status": status, "ours": interval_text(mean, interval)}
