# unknown_graph's globals and input functions (its rules are in unknown_graph.smk).
from causal_bandits.papers.unknown_graph.cells import ALGORITHMS_OF as UG_ALGORITHMS_OF
from causal_bandits.papers.unknown_graph import runs as ug_runs
from causal_bandits.papers.unknown_graph.cells import cells as ug_cells

# The section without its job size (speed only), so that the jobs' params and provenance do not depend on it.
UG = {k: v for k, v in config["unknown_graph"].items() if k != "seeds_per_job"}
UG_CELLS = ug_cells(UG)
UG_CHUNKS = ug_runs.chunks(config)
# The slices the expensive rules get as params (so an edit elsewhere in the section reruns none of them).
# V1-V4 runs: their jobs (papers/unknown_graph/runs.py, describe).
UG_JOB = run_job(ug_runs.describe)
# V5 runs: the lower-bound instances and what the policies read.
UG_LB = {k: UG[k] for k in ("lower_bounds", "delta", "c_B", "reading", "ucb_c", "ucb_arms")}
UG_LB_ALGORITHMS = ["cn_ucb", "ucb", "oracle"]
# Tables and figures: the cells (trees, forests, general) and what their scale lines print.
UG_OUTPUTS = {k: UG[k] for k in ("horizon", "n_seeds", "trees", "forests", "general", "lower_bounds")} | {
    "discovery": {"n_seeds": UG["discovery"]["n_seeds"]}
}
UG_FIGURES = [
    "figure1",
    "figV1_regret_curves_trees",
    "figV2_regret_vs_n",
    "figV3_forests",
    "figV4_general",
    "figV5_lower_bounds",
    "figV6_discovery",
]
UG_TABLES = [
    "figure1_trace",
    "table_final_regret",
    "tableV4_clique_success",
    "tableV5_lower_bounds",
    "tableV6_discovery",
    "tableV6_readings",
]
TARGETS["unknown_graph"] = paper_artefact_paths("unknown_graph")

UG_WILDCARDS = {
    "experiment": "|".join(UG_CELLS) or "none",
    "strategy": "default",
    "algorithm": cb_algorithms.pattern(cb_algorithms.registry("unknown_graph")),
    "chunk": r"\d+",
}


def ug_cell_runs(wildcards):
    algorithms = UG_ALGORITHMS_OF[UG_CELLS[wildcards.cell]["experiment"]]
    return {
        f"default/{a}": expand(
            run_path("unknown_graph"),
            experiment=wildcards.cell,
            strategy="default",
            algorithm=a,
            chunk=range(len(UG_CHUNKS)),
        )
        for a in algorithms
    }


UG_RESULTS = {
    "agg": expand("results/unknown_graph/agg/{cell}.parquet", cell=list(UG_CELLS)),
    "summaries": expand("results/unknown_graph/agg/{cell}.summaries.parquet", cell=list(UG_CELLS)),
    "v5": expand(
        "results/unknown_graph/V5/thm{theorem}-{algorithm}.parquet", theorem=(4, 5), algorithm=UG_LB_ALGORITHMS
    ),
    "v6": expand("results/unknown_graph/V6/sampled-{regime}.parquet", regime=UG["discovery"]["regimes"]),
    "readings": "results/unknown_graph/V6/readings.parquet",
}
