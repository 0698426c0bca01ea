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
    Entry("Theorem 7 (App. D)", "OAM-PCB's regret is at most OAM's", claims=(r"^oam_pcb-vs-oam$",)),
    Entry("Theorem 8 (App. F)", "UCB-PCB's regret is at most UCB's", claims=(r"^ucb_pcb-vs-ucb$",)),
    Entry(
        "Theorems 5-6, 10 (regret bounds)",
        "upper bounds on the regret of LinUCB-PCB and OAM-PCB in terms of the bounds' widths",
        why="the bounds hold up to unstated constants and for all instances; one instance and 100 runs cannot test "
        "an inequality with unknown constants",
    ),
)
