"""Coverage of Huang & Wu's paper (bounds): its tables, figures and checkable statements
(:mod:`causal_bandits.coverage`)."""

from causal_bandits.coverage import Entry

COVERAGE = (
    Entry("§Experiments", "about 15,000 of the 30,000 generated rows survive selection", claims=(r"^selected-rows$",)),
    Entry("Figure 1", "the causal diagrams of the setting (schematic)", why="a drawing; no quantity to compare"),
    Entry("Figure 2", "FindRSI returns D = {I1} on the example graph", claims=(r"^findrsi$",)),
    Entry(
        "Lemma 1 / Theorem 4",
        "W is a valid substitute when (Y, C ⊥ W, S | X) holds in the cut graph",
        why="on Figure 2 the condition as printed rejects W = {I1} (I1 ← C1 → Y) while the paper reports D = {{I1}}; "
        "our reading replaces it by a conditional form that accepts {I1} "
        "(docs/papers/bounds.md#bounds-a-findrsi-condition), "
        "so the printed condition has no run to judge, only the exact fact that it rejects {I1}",
    ),
    Entry("Eq. 11", "the c-component set D = {Y, U1, U2}", claims=(r"^cfactor-set$",)),
    Entry(
        "Theorems 1-2",
        "generalised adjustment (Correa, Tian & Bareinboim 2018) and c-component factorisation (Tian & Pearl 2002)",
        why="identification results the paper cites from earlier work, exact identities with no number of this paper "
        "to compare; what they give on Figure 2 is the claim cfactor-set (Eq. 11)",
    ),
    Entry("Theorem 3", "RC*'s bounds contain the causal quantity", claims=(r"^bce-covers", r"^bce-coverage-rate$")),
    Entry(
        "Lemma 6 (App.)",
        "LinUCB-PCB never pulls an arm whose upper causal bound lies below the best arm's reward",
        why="a property of the index min(UCB, U), checked exactly by unit tests (tests/test_bounds_online.py: arms "
        "the upper bounds exclude are never pulled, by LinUCB-PCB and by UCB-PCB), not by a run",
    ),
    Entry(
        "Lemmas 2-5, 7-10 (App.)",
        "the regret proofs' steps: confidence ellipsoids and determinant bounds cited from Abbasi-Yadkori et al. and "
        "Lattimore & Szepesvári, OAM-PCB's exploitation and exploration regret, UCB-PCB's pull counts",
        why="steps of the proofs of Theorems 5-8, up to unstated constants; their conclusions are Theorems 7-8's "
        "claims and Theorems 5-6's entry",
    ),
    Entry(
        "Figure 3",
        "BCE bounds contain the truth; CP and Biased deviate from it",
        claims=(r"^bce-covers", r"^bce-coverage-rate$", r"^cp-deviates$", r"^biased-deviates$"),
    ),
    Entry("Table 1 (App. H)", "Truth, Biased, BCE bounds and CP per row", claims=(r"^table1-",)),
    Entry(
        "Table 1",
        "Biased above Truth; CP outside [lb, ub] in the u1 = 1 rows",
        claims=(r"^biased-above-truth$", r"^cp-outside-bounds$"),
    ),
    Entry(
        "Figure 4",
        "LinUCB-PCB has the lowest regret; the warm-started LinUCBs above LinUCB",
        claims=(
            r"^linucb_pcb-lowest$",
            r"^linucb_biased-above-linucb$",
            r"^linucb_cp-above-linucb$",
            r"^alpha-sensitivity$",
        ),
    ),
    Entry("Table 2", "the features of the online experiment", why="a definition of the instance, not a result"),
    Entry(
        "Theorem 7 (App. D; Theorem 22 in App. E)", "OAM-PCB's regret is at most OAM's", claims=(r"^oam_pcb-vs-oam$",)
    ),
    Entry("Theorem 8 (App. F)", "UCB-PCB's regret is at most UCB's", claims=(r"^ucb_pcb-vs-ucb$",)),
    Entry(
        "Theorems 5-6, 10 (regret bounds)",
        "upper bounds on the regret of LinUCB-PCB and OAM-PCB in terms of the bounds' widths",
        why="the bounds hold up to unstated constants and for all instances; one instance and 100 runs cannot test "
        "an inequality with unknown constants",
    ),
)

#: Every numbered table, figure, theorem, lemma, proposition, corollary and claim of the paper's text
#: (:func:`causal_bandits.coverage.unlisted`: an entry's part names each).
STATEMENTS = (
    "Table 1",
    "Table 2",
    "Figure 1",
    "Figure 2",
    "Figure 3",
    "Figure 4",
    "Theorem 1",
    "Theorem 2",
    "Theorem 3",
    "Theorem 4",
    "Theorem 5",
    "Theorem 6",
    "Theorem 7",
    "Theorem 8",
    "Theorem 10",
    "Theorem 22",
    "Lemma 1",
    "Lemma 2",
    "Lemma 3",
    "Lemma 4",
    "Lemma 5",
    "Lemma 6",
    "Lemma 7",
    "Lemma 8",
    "Lemma 9",
    "Lemma 10",
)
