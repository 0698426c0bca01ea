"""Coverage of Huang, Zhang & Wu's paper (fairness): its tables, figures and checkable statements
(:mod:`causal_bandits.coverage`)."""

from causal_bandits.coverage import Entry

COVERAGE = (
    Entry("Figure 1", "the graph classes and the soft intervention (schematic)", why="a drawing; no quantity"),
    Entry("Figure 2 (a)", "the Email graph and its d-separation set", claims=(r"^email-dsep$", r"^email-best-arm$")),
    Entry(
        "Figure 2 (b)",
        "regret curves: UCB > C-UCB > D-UCB, F-UCB below D-UCB early",
        claims=(r"^fig2b-",),
    ),
    Entry("Tables 4-5 (App. E.1)", "the Email features' domains and CPTs", claims=(r"^email-table4-domains$",)),
    Entry("Table 1", "F-UCB regret per τ, falling with τ", claims=(r"^table1-fucb-regret-",)),
    Entry("Table 1", "unfair decisions of UCB, C-UCB, D-UCB and F-UCB per τ", claims=(r"^table1-unfair-",)),
    Entry(
        "Figure 3", "the learned Adult-Video graph: the parents of R", claims=(r"^fig3-parents-of-R$", r"^adult-dsep$")
    ),
    Entry("App. E.2", "the Adult and YouTube data sets' sizes", claims=(r"^adult-", r"^youtube-video-types$")),
    Entry(
        "Table 2",
        "F-UCB regret and unfair decisions per τ on Adult-Video",
        claims=(r"^table2-fucb-regret-", r"^table2-unfair-"),
    ),
    Entry("§4.2 text", "Fair-LinUCB's regret (≈ 250) slightly below F-UCB's", claims=(r"^table2-fairlinucb-",)),
    Entry(
        "Table 3",
        "the notation of the paper",
        why="a table of symbols, not a result",
    ),
    Entry(
        "Theorems 1-3, Corollary 1",
        "regret bounds of D-UCB and F-UCB and F-UCB's fairness guarantee",
        why="bounds with unstated constants over all instances; the fairness guarantee is checked exactly by the "
        "auditor only through its certificate (Table 1/2 counts), whose radius floor makes it vacuous at small τ "
        "(docs/papers/fairness.md#fairness-certificate)",
    ),
    Entry(
        "Propositions 1-2",
        "identification and bounds of the counterfactual discrepancy",
        why="exact identities, checked by unit tests, not by a run: the discrepancy against its closed form "
        "(tests/test_fairness_email.py) and the bounded case on a hand example (tests/test_fairness_bandits.py)",
    ),
)

#: Every numbered table, figure, theorem, lemma, proposition, corollary and claim of the paper's text
#: (:func:`causal_bandits.coverage.unlisted`: an entry's part names each).
STATEMENTS = (
    "Table 1",
    "Table 2",
    "Table 3",
    "Table 4",
    "Table 5",
    "Figure 1",
    "Figure 2",
    "Figure 3",
    "Theorem 1",
    "Theorem 2",
    "Theorem 3",
    "Corollary 1",
    "Proposition 1",
    "Proposition 2",
)
