"""The report's sections of a researcher's own results, apart from the papers and without verdicts (an own
experiment makes no paper's claim): the ``experiments:`` block's regret studies
(:func:`causal_bandits.experiments.summary.document`) and the ``pure_exploration:`` block's runs of cpe's
algorithms (:func:`causal_bandits.experiments.pure_exploration_summary.document`). Each summary becomes an
:class:`Entry` (its heading, one line of scale, its table in Markdown, the files it links), each block's entries
one :class:`Section`; REPORT.md (:mod:`.md`) and REPORT.html (:mod:`.page`) print every section the same way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from causal_bandits.experiments import pure_exploration_summary, summary


@dataclass(frozen=True)
class Entry:
    """One own experiment as the report prints it: ``files`` are (label, path) pairs, ``figure`` a PNG or None."""

    name: str
    title: str
    scale: str
    table: str
    files: tuple[tuple[str, str], ...]
    figure: str | None = None


@dataclass(frozen=True)
class Section:
    """One config block's experiments: its anchor, heading, what its runs are and its entries."""

    anchor: str
    heading: str
    block: str
    what: str
    entries: tuple[Entry, ...]

    @property
    def intro(self) -> str:
        """The section's first line (Markdown; REPORT.html's template says the same)."""
        return f"{self.what} of this run's `{self.block}:` config section, not of any paper: numbers only, no verdicts."


def experiment(e: Mapping[str, Any]) -> Entry:
    """An ``experiments:`` block's experiment: horizon, seeds, the best arm's mean and arms, table and figure."""
    best = ", ".join(e["optimal_arms"])
    scale = f"T = {e['horizon']:,}, {e['n_seeds']} seeds; best arm mean {e['mu_star']:.4f} ({best})."
    files = (("Table", e["table"]), ("figure", e["figure"]))
    return Entry(e["experiment"], e["title"], scale, summary.markdown(summary.table(e["rows"])), files, e["figure"])


def pure_exploration(e: Mapping[str, Any]) -> Entry:
    """A ``pure_exploration:`` block's experiment: δ, ε, the cap, the runs, the exact best arm and its mean, and per
    algorithm the arms recommended and the correct rate with its Wilson interval."""
    scale = (
        f"δ = {e['delta']}, ε = {e['epsilon']}, at most {e['max_samples']:,} samples, {e['n_seeds']} runs per "
        f"algorithm; best arm {e['best_arm']}, mean {e['best_mean']:.4f}."
    )
    table = summary.markdown(pure_exploration_summary.table(e["rows"]))
    return Entry(e["experiment"], e["title"], scale, table, (("Table", e["table"]),))


def sections(experiments: Sequence[Mapping[str, Any]] = (), pure: Sequence[Mapping[str, Any]] = ()) -> list[Section]:
    """The own results' sections, each only when its block has experiments."""
    found = [
        Section("experiments", "Own experiments", "experiments", "Studies", tuple(map(experiment, experiments))),
        Section(
            "pure-exploration",
            "Own pure exploration",
            "pure_exploration",
            "The ICLR 2023 paper's pure-exploration algorithms on the graphs",
            tuple(map(pure_exploration, pure)),
        ),
    ]
    return [s for s in found if s.entries]
