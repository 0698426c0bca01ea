"""Coverage of Lee & Bareinboim's paper (nonmanip): its tables, figures and checkable statements
(:mod:`causal_bandits.coverage`)."""

from causal_bandits.coverage import Entry

COVERAGE = (
    Entry("Figures 1-4 (§3-4)", "the POMIS of each example graph and non-manipulable set", claims=(r"^pomis-",)),
    Entry("§4-5", "the number of arms of BF, MIS and POMIS", claims=(r"^arms-",)),
    Entry("§1, §4 Eqs. 1-4, §5", "the z²-functionals each POMIS+ arm estimates", claims=(r"^expressions-",)),
    Entry("Footnote 4", "strategies with the same arms give identical runs", claims=(r"^identical-",)),
    Entry(
        "Figure 5 (a)-(c), Table 1",
        "regret at T of every strategy and solver",
        claims=(r"^table1-",),
    ),
    Entry("Figure 5, Table 1", "POMIS ≤ MIS ≤ BF; TS below KL-UCB", claims=(r"^order-", r"^ts-below-klucb-")),
    Entry("§5", "POMIS+ below POMIS and its reduction of regret", claims=(r"^pomis-plus-below-pomis-", r"^reduction-")),
    Entry(
        "Figure 5 (d)",
        "the graph of the third experiment",
        why="the paper draws it without every edge legible; our reconstruction [R] is studied for robustness "
        "(docs/papers/nonmanip.md#nonmanip-robustness), so its arm sets are not the paper's",
    ),
    Entry(
        "Figure 5, probability of the optimal arm",
        "the curves of the optimal arm's share",
        why="the paper prints the curves without numbers; our figure5_optimal_arm shows ours without a verdict",
    ),
    Entry(
        "Theorems 4-5, Propositions 1-3, Lemma 3",
        "POMIS+'s soundness and the z²-identification results",
        why="graph-theoretic and identification statements, checked exactly by unit tests "
        "(tests/test_pomis.py, tests/test_z2id.py) on the papers' and random graphs, not by a run",
    ),
)

#: Every numbered table, figure, theorem, lemma, proposition, corollary and claim of the paper's text
#: (:func:`causal_bandits.coverage.unlisted`: an entry's part names each).
STATEMENTS = (
    "Table 1",
    "Figure 1",
    "Figure 2",
    "Figure 3",
    "Figure 4",
    "Figure 5",
    "Theorem 4",
    "Theorem 5",
    "Proposition 1",
    "Proposition 2",
    "Proposition 3",
    "Lemma 3",
)
