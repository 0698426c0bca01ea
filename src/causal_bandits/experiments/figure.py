"""An own experiment's regret figure: mean cumulative regret per round with its 95 % band, one line per
(strategy, algorithm), in the colours and line styles of the nonmanip Figure 5 (Lee & Bareinboim, AAAI-19)."""

from __future__ import annotations

import os
from collections.abc import Mapping

import pandas as pd

from causal_bandits.papers.nonmanip.figures import LABELS, LINESTYLES, palette
from causal_bandits.plots import new_figure, paper_style, save_figure
from causal_bandits.plots.regret import regret_panel


def figure(
    agg: pd.DataFrame, title: str, *paths: str | os.PathLike[str], labels: Mapping[str, str] | None = None
) -> None:
    """Mean cumulative regret per round with its 95 % interval, one line per (strategy, algorithm); ``labels``
    names the experiment's algorithms by id (those with parameter values), beside the registry's labels."""
    with paper_style():
        fig = new_figure((4.0, 3.0))
        ax = fig.add_subplot()
        regret_panel(
            ax,
            agg,
            palette=palette(agg["strategy"].unique()),
            styles=LINESTYLES,
            labels={**LABELS, **(labels or {})},
            title=title,
        )
        ax.legend(frameon=False)
    save_figure(fig, *paths)
