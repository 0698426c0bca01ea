# Lu, Meisami & Tewari (NeurIPS-21): no experiments in the paper. Figure 1 from a run of CN-UCB on the
# reconstructed tree; the validation suite V1-V6 (designed for this replication,
# docs/papers/unknown_graph.md#unknown_graph-r-validation): runs -> aggregate -> tables + figures -> claims.

import re

from causal_bandits.papers.unknown_graph import runs as ug_runs
from causal_bandits.papers.unknown_graph.cells import cells as ug_cells
from causal_bandits.papers.unknown_graph.cells import discovery_setting as ug_discovery_setting
from causal_bandits.papers.unknown_graph.cells import discovery_setting_name as ug_discovery_setting_name
from causal_bandits.papers.unknown_graph.cells import discovery_settings as ug_discovery_settings

# The section without its job size (speed only), so that the jobs' params and provenance do not depend on it.
UG = {k: v for k, v in config["unknown_graph"].items() if k != "seeds_per_job"}
UG_CELLS = ug_cells(UG)
# V6 discovery: its (delta, c_B) settings by name, in the table's row order.
UG_DISCOVERY_SETTINGS = [ug_discovery_setting_name(*pair) for pair in ug_discovery_settings(UG["discovery"])]
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
# The artefacts of the tables and figures rules (V1-V6, designed for this replication; declared in artefacts.py).
UG_FIGURES = ["figV1", "figV2", "figV3", "figV4", "figV5", "figV6"]
UG_TABLES = ["table_final_regret", "tableV4", "tableV5", "tableV6_discovery", "tableV6_readings"]
TARGETS["unknown_graph"] = paper_artefact_paths("unknown_graph")

UG_WILDCARDS = {
    "experiment": "|".join(UG_CELLS) or "none",
    "strategy": "default",
    "algorithm": cb_algorithms.pattern(cb_algorithms.registry("unknown_graph")),
    "chunk": r"\d+",
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


rule unknown_graph_fig1_trace:
    """CN-UCB's stages 0-2 on the reconstructed Figure-1 tree, sampled with the paper's B
    (docs/papers/unknown_graph.md#unknown_graph-r-figure1)."""
    output:
        "results/unknown_graph/fig1_trace.json",
    log:
        "logs/unknown_graph_fig1_trace/trace.log",
    group:
        "prep"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.unknown_graph.trace:fig1_trace_step"),
        variant=UG["fig1_variant"],
        delta=UG["delta"],
        c_B=UG["c_B"],
    script:
        STAGE


rule unknown_graph_fig1_instance:
    """Figure 1's instance as data: the tree, its CPTs, the exact mean of every arm, B and the bounds."""
    output:
        **artefact_outputs("unknown_graph", "figure1_trace.json"),
    log:
        "logs/unknown_graph_fig1_instance/instance.log",
    group:
        "prep"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.unknown_graph.run_steps:fig1_instance_step"),
        variant=UG["fig1_variant"],
        delta=UG["delta"],
        c_B=UG["c_B"],
    script:
        STAGE


rule unknown_graph_instances:
    """On request (not part of `all`): every seed's instance of one V1-V4 cell, as its runs draw them."""
    output:
        "results/unknown_graph/instances/{cell}.json",
    log:
        "logs/unknown_graph_instances/{cell}.log",
    wildcard_constraints:
        cell=UG_WILDCARDS["experiment"],
    group:
        "prep"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.unknown_graph.run_steps:instances_step"),
        cell=lambda wc: wc.cell,
        spec=lambda wc: UG_CELLS[wc.cell],
        n_seeds=UG["n_seeds"],
        delta=UG["delta"],
        c_B=UG["c_B"],
    script:
        STAGE


rule unknown_graph_all_instances:
    """Target: every instance the V1-V4 runs sample, one JSON document per cell."""
    input:
        expand("results/unknown_graph/instances/{cell}.json", cell=list(UG_CELLS)),
    group:
        "post"


rule unknown_graph_figure1:
    """Figure 1 panels and the run's trace table."""
    input:
        trace="results/unknown_graph/fig1_trace.json",
    output:
        **artefact_outputs("unknown_graph", "figure1", "figure1_trace.md", "figure1_trace.csv"),
    log:
        "logs/unknown_graph_figure1/figure1.log",
    group:
        "prep"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.unknown_graph.figures:figure1_step"),
    script:
        STAGE


rule unknown_graph_run:
    """One seed chunk of one V1-V4 cell with one algorithm (every seed its own instance)."""
    output:
        trace=run_path("unknown_graph"),
        summary=summary_path(run_path("unknown_graph")),
    log:
        run_path("unknown_graph", "logs"),
    benchmark:
        run_path("unknown_graph", "benchmarks/out")
    wildcard_constraints:
        experiment=UG_WILDCARDS["experiment"],
        strategy=UG_WILDCARDS["strategy"],
        algorithm=UG_WILDCARDS["algorithm"],
        chunk=UG_WILDCARDS["chunk"],
    group:
        "runs"
    conda:
        "../envs/causal_bandits.yaml"
    resources:
        mem_mb=lambda wc, attempt: UG_JOB(wc).memory_mb * attempt,
    params:
        job=lambda wc: UG_JOB(wc).fields(),
        code=run_code("unknown_graph"),
    script:
        "../scripts/run.py"


rule unknown_graph_aggregate:
    """Per-round regret statistics and the per-seed summaries (what CN-UCB found) of one cell."""
    input:
        unpack(lambda wc: run_files("unknown_graph", ug_runs.run_jobs(config), experiment=wc.cell)),
    output:
        agg="results/unknown_graph/agg/{cell}.parquet",
        summaries="results/unknown_graph/agg/{cell}.summaries.parquet",
    log:
        "logs/unknown_graph_aggregate/{cell}.log",
    wildcard_constraints:
        cell=UG_WILDCARDS["experiment"],
    group:
        "post"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.unknown_graph.aggregate:aggregate_step"),
    script:
        STAGE


rule unknown_graph_lower_bounds:
    """V5: one algorithm on every instance of the Thm 4 or Thm 5 family."""
    output:
        "results/unknown_graph/V5/thm{theorem}-{algorithm}.parquet",
    log:
        "logs/unknown_graph_lower_bounds/thm{theorem}-{algorithm}.log",
    benchmark:
        "benchmarks/out/unknown_graph_lower_bounds/thm{theorem}-{algorithm}.tsv"
    wildcard_constraints:
        theorem="4|5",
        algorithm="|".join(UG_LB_ALGORITHMS),
    group:
        "prep"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage(
            "causal_bandits.papers.unknown_graph.run_steps:lower_bounds_step",
            policy=lambda wc: cb_algorithms.registry("unknown_graph")[wc.algorithm].path,
        ),
        section=UG_LB,
        # the algorithm is built from its registry path, which no import names
    script:
        STAGE


rule unknown_graph_discovery:
    """V6: discovery-only runs on tree(h), one regime, one height and one (delta, c_B) setting per job (a
    height-9 setting costs about a minute of CPU; the whole height, eight)."""
    output:
        "results/unknown_graph/V6/parts/sampled-{regime}-h{height}-{setting}.parquet",
    log:
        "logs/unknown_graph_discovery/{regime}-h{height}-{setting}.log",
    benchmark:
        "benchmarks/out/unknown_graph_discovery/{regime}-h{height}-{setting}.tsv"
    wildcard_constraints:
        regime="A|B",
        height=r"\d+",
        setting="|".join(map(re.escape, UG_DISCOVERY_SETTINGS)) or "none",
    group:
        "prep"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.unknown_graph.discovery_checks:discovery_step"),
        discovery=UG["discovery"],
        setting=lambda wc: ug_discovery_setting(UG["discovery"], wc.setting),
    script:
        STAGE


rule unknown_graph_discovery_table:
    """V6: one regime's rows in one table, heights in the config's order, then the (delta, c_B) grid's."""
    input:
        parts=lambda wildcards: expand(
            "results/unknown_graph/V6/parts/sampled-{regime}-h{height}-{setting}.parquet",
            regime=wildcards.regime,
            height=UG["discovery"]["heights"],
            setting=UG_DISCOVERY_SETTINGS,
        ),
    output:
        "results/unknown_graph/V6/sampled-{regime}.parquet",
    log:
        "logs/unknown_graph_discovery_table/{regime}.log",
    wildcard_constraints:
        regime="A|B",
    group:
        "prep"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.unknown_graph.discovery_checks:discovery_table_step"),
        discovery=UG["discovery"],
    script:
        STAGE


rule unknown_graph_readings:
    """V6: exact-test outcomes of the printed and corrected readings
    (docs/papers/unknown_graph.md#unknown_graph-ref-exact)."""
    output:
        "results/unknown_graph/V6/readings.parquet",
    log:
        "logs/unknown_graph_readings/readings.log",
    benchmark:
        "benchmarks/out/unknown_graph_readings/readings.tsv"
    group:
        "prep"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.unknown_graph.discovery_checks:readings_step"),
        section={"discovery": UG["discovery"]},
    script:
        STAGE


rule unknown_graph_tables:
    """R_T per cell, tables V4-V6 (designed for this replication)."""
    input:
        **UG_RESULTS,
    output:
        **artefact_outputs("unknown_graph", *UG_TABLES),
        regret="results/unknown_graph/final_regret.parquet",
    log:
        "logs/unknown_graph_tables/tables.log",
    group:
        "post"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.unknown_graph.tables:tables_step"),
        section=UG_OUTPUTS,
    script:
        STAGE


rule unknown_graph_figures:
    """Figures V1-V6 (designed for this replication, not in the paper)."""
    input:
        **UG_RESULTS,
        regret="results/unknown_graph/final_regret.parquet",
    output:
        **artefact_outputs("unknown_graph", *UG_FIGURES),
    log:
        "logs/unknown_graph_figures/figures.log",
    group:
        "post"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.unknown_graph.figures:figures_step"),
        section=UG_OUTPUTS,
    script:
        STAGE


rule unknown_graph_claims:
    """Each claim of the paper evaluated on our results."""
    input:
        trace="results/unknown_graph/fig1_trace.json",
        regret="results/unknown_graph/final_regret.parquet",
        v4=artefact_file("unknown_graph", "tableV4.csv"),
        v5=artefact_file("unknown_graph", "tableV5.csv"),
        v6=UG_RESULTS["v6"],
        readings=UG_RESULTS["readings"],
    output:
        "results/claims/unknown_graph.json",
    log:
        "logs/unknown_graph_claims/claims.log",
    group:
        "post"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.unknown_graph.claims:claims_step"),
        section={k: UG[k] for k in ("horizon", "n_seeds", "delta")},  # what the claims and scale read
    script:
        STAGE
