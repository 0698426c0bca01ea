"""Coverage of Lu, Meisami & Tewari's paper (unknown_graph): it reports no experiment, so its checkable
statements are Figure 1's example, its lemmas and theorems (:mod:`causal_bandits.coverage`)."""

from causal_bandits.coverage import Entry

COVERAGE = (
    Entry("Figure 1, §3", "CN-UCB's steps on the example tree", claims=(r"^fig1-trace$",)),
    Entry("Lemma 1", "X_R found w.p. ≥ 1 − δ within K B (2 + d) log2 n + B rounds", claims=(r"^lemma1$",)),
    Entry("Alg. 3", "Find Sub-tree as printed finds X_R", claims=(r"^alg3-printed$",)),
    Entry("§5, Alg. 7/8", "Alg. 2 never outputs a wrong clique", claims=(r"^alg78-printed$",)),
    Entry("Alg. 2, Alg. 5", "the order of chain components", claims=(r"^component-order$",)),
    Entry("Theorem 3", "Alg. 2's clique holds X_R (general graphs)", claims=(r"^thm3-cliques$",)),
    Entry(
        "Theorem 3 (regret)",
        "on general graphs CN-UCB's regret is polylogarithmic in n plus sqrt(ω(G_R) K T), below UCB's sqrt(nKT)",
        why="a bound up to unstated constants, with no n from which the advantage must show; V4 (figV4_general, "
        "table_final_regret) gives R_T at T = 10^6 over 20 seeds on path_power(n, k) without a verdict, and its data "
        "are mixed: CN-UCB's interval lies below UCB's at n = 64 and 128 for every k and at n = 32, k = 1, the two "
        "overlap at n = 32, k = 2 and 3, and at n = 32, k = 3 UCB's mean is the lower (5,738 against 6,553)",
    ),
    Entry(
        "Claim 1",
        "single-node interventions on X tell whether X is an ancestor of X_R and orient the subtree X roots",
        claims=(r"^fig1-trace$", r"^lemma1$"),
    ),
    Entry(
        "Lemmas 2-4 (App.)",
        "divergence decomposition, Pinsker's inequality, a bounded variable's means under two measures",
        why="textbook inequalities the proof of Theorems 4-5 cites, with no quantity of a run; the bound they prove "
        "is the claim thm45",
    ),
    Entry("Theorem 1", "CN-UCB beats UCB for large n and small d (trees)", claims=(r"^thm1-regime-",)),
    Entry("Theorems 4-5", "the minimax lower bound sqrt(nKT)/8", claims=(r"^thm45$",)),
    Entry(
        "Theorem 1 (rate)",
        "regret grows as (log n)² in n (plus sqrt(KT))",
        why="a rate up to unstated constants: V2 (figV2_regret_vs_n) plots R_T against n with the log² n reference "
        "for n = 15..1,023, but seven points over two decades of n cannot tell log² n from other slow growth "
        "without a fitted constant, which would judge our own curve",
    ),
    Entry("Theorem 2", "CN-UCB beats UCB for large n and small d (forests, V3)", claims=(r"^thm2-forests$",)),
    Entry(
        "Theorem 2 (rate)",
        "CN-UCB's regret on causal forests, polylogarithmic in n plus sqrt(KT)",
        why="as for Theorem 1's rate, a bound with unstated constants; V3 (figV3_forests) shows the regret over 1-8 "
        "components, and the ordering against UCB is the claim thm2-forests",
    ),
)

#: Every numbered table, figure, theorem, lemma, proposition, corollary and claim of the paper's text
#: (:func:`causal_bandits.coverage.unlisted`: an entry's part names each).
STATEMENTS = (
    "Figure 1",
    "Claim 1",
    "Lemma 1",
    "Lemma 2",
    "Lemma 3",
    "Lemma 4",
    "Theorem 1",
    "Theorem 2",
    "Theorem 3",
    "Theorem 4",
    "Theorem 5",
)
