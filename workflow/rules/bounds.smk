# Huang & Wu: data -> exact truth, offline estimates, coverage -> Tables 1-2, Figures 2-3
#             -> runs (Figure 4, alpha sensitivity, appendix) -> aggregate -> Figure 4 -> claims.

import re

from causal_bandits.papers.bounds import rule_inputs as bounds_inputs
from causal_bandits.papers.bounds import runs as bounds_runs
from causal_bandits.papers.bounds.runs import setting_name as bounds_setting

BOUNDS = config["bounds"]
BOUNDS_ONLINE = BOUNDS["online"]
BOUNDS_SCALE = f"T = {BOUNDS['horizon']:,}, {BOUNDS['n_seeds']} runs"
BOUNDS_MAIN = bounds_setting(BOUNDS_ONLINE["alpha"])
# The run settings (each alpha, the appendix) and their algorithms.
BOUNDS_SETTINGS = bounds_runs.settings(BOUNDS)
BOUNDS_STRATEGIES = [bounds_runs.coordinates(s)[1] for s in BOUNDS_SETTINGS]
BOUNDS_ALGORITHMS = [*bounds_runs.FIGURE4, *bounds_runs.APPENDIX]
BOUNDS_VARIANTS = ["conditional", "paper_marginal"]
BOUNDS_JOB = run_job(bounds_runs.describe)
BOUNDS_WILDCARDS = {
    "variant": "|".join(BOUNDS_VARIANTS),
    "setting": "|".join(map(re.escape, BOUNDS_SETTINGS)),
}
TARGETS["bounds"] = paper_artefact_paths("bounds")


rule bounds_data:
    """30,000 rows of the Figure 2 SCM (Table 2) and the selected offline table (S = 1)."""
    output:
        full="data/generated/bounds/full.parquet",
        selected="data/generated/bounds/selected.parquet",
    log:
        "logs/bounds_data/data.log",
    group:
        "prep"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.bounds.offline:data_step"),
        scm=BOUNDS["scm"],
        n_rows=BOUNDS["offline"]["n_rows"],
        seed=BOUNDS["offline"]["seed"],
    script:
        STAGE


rule bounds_exact:
    """Ground truth by enumeration (pgmpy): mu per cell, P(c), optimal arms, population bounds."""
    output:
        "results/bounds/exact.json",
    log:
        "logs/bounds_exact/exact.log",
    group:
        "prep"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.bounds.offline:exact_step"),
        scm=BOUNDS["scm"],
        adjust=BOUNDS["offline"]["biased_adjust"],
        n_rows=BOUNDS["offline"]["n_rows"],
    script:
        STAGE


rule bounds_offline:
    """BCE bounds (Algorithm 1), CP and Biased on the offline table, both Table 1 variants."""
    input:
        full="data/generated/bounds/full.parquet",
        selected="data/generated/bounds/selected.parquet",
        exact="results/bounds/exact.json",
    output:
        conditional="results/bounds/offline/estimates_conditional.parquet",
        paper_marginal="results/bounds/offline/estimates_paper_marginal.parquet",
        summary="results/bounds/offline/summary.json",
    log:
        "logs/bounds_offline/offline.log",
    group:
        "prep"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.bounds.offline:offline_step"),
        scm=BOUNDS["scm"],
        offline=BOUNDS["offline"],
    script:
        STAGE


rule bounds_coverage:
    """The BCE bounds and the truth on fresh offline datasets: how often every cell is covered."""
    output:
        "results/bounds/offline/coverage.parquet",
    log:
        "logs/bounds_coverage/coverage.log",
    benchmark:
        "benchmarks/out/bounds_coverage/coverage.tsv"
    group:
        "prep"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.bounds.offline:coverage_step"),
        scm=BOUNDS["scm"],
        offline=BOUNDS["offline"],
    script:
        STAGE


rule bounds_table1:
    """Table 1 (one estimand variant) with the paper's values beside ours."""
    input:
        estimates="results/bounds/offline/estimates_{variant}.parquet",
        exact="results/bounds/exact.json",
    output:
        **artefact_outputs("bounds", "table1_{variant}"),
    log:
        "logs/bounds_table1/{variant}.log",
    wildcard_constraints:
        variant=BOUNDS_WILDCARDS["variant"],
    group:
        "prep"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.bounds.tables:table1_step"),
    script:
        STAGE


rule bounds_table2:
    """Table 2: the CPT the data are drawn from, with the generated rows' frequencies."""
    input:
        full="data/generated/bounds/full.parquet",
    output:
        **artefact_outputs("bounds", "table2"),
    log:
        "logs/bounds_table2/table2.log",
    group:
        "prep"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.bounds.tables:table2_step"),
        scm=BOUNDS["scm"],
    script:
        STAGE


rule bounds_figure2:
    """Figure 2: the causal graph, drawn from the SCM config."""
    output:
        **artefact_outputs("bounds", "figure2"),
    log:
        "logs/bounds_figure2/figure2.log",
    group:
        "prep"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.bounds.figures:figure2_step"),
        scm=BOUNDS["scm"],
    script:
        STAGE


rule bounds_figure3:
    """Figure 3: BCE intervals, CP, Biased and the truth per Table 1 index (one variant)."""
    input:
        estimates="results/bounds/offline/estimates_{variant}.parquet",
    output:
        **artefact_outputs("bounds", "figure3_{variant}"),
    log:
        "logs/bounds_figure3/{variant}.log",
    wildcard_constraints:
        variant=BOUNDS_WILDCARDS["variant"],
    group:
        "prep"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.bounds.figures:figure3_step"),
    script:
        STAGE


rule bounds_run:
    """One seed chunk of one algorithm in one setting (an alpha, or the appendix): seeds vectorised."""
    input:
        **bounds_inputs.run_inputs(BOUNDS),
    output:
        trace=run_path("bounds"),
        summary=summary_path(run_path("bounds")),
    log:
        run_path("bounds", "logs"),
    benchmark:
        run_path("bounds", "benchmarks/out")
    wildcard_constraints:
        experiment="online|appendix",
        strategy="|".join(map(re.escape, BOUNDS_STRATEGIES)),
        algorithm=cb_algorithms.pattern(BOUNDS_ALGORITHMS),
        chunk=r"\d+",
    group:
        "runs"
    conda:
        "../envs/causal_bandits.yaml"
    resources:
        mem_mb=lambda wc, attempt: BOUNDS_JOB(wc).memory_mb * attempt,
    params:
        job=lambda wc: BOUNDS_JOB(wc).fields(),
        code=run_code("bounds"),
    script:
        "../scripts/run.py"


rule bounds_aggregate:
    """Mean cumulative regret, sd and 95 % CI per recorded round, per algorithm of a setting."""
    input:
        unpack(lambda wc: bounds_inputs.setting_runs(config, wc.setting)),
    output:
        "results/bounds/agg/{setting}.parquet",
    log:
        "logs/bounds_aggregate/{setting}.log",
    wildcard_constraints:
        setting=BOUNDS_WILDCARDS["setting"],
    group:
        "post"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.bounds.aggregate:aggregate_step"),
    script:
        STAGE


rule bounds_figure4:
    """Figure 4 (mean cumulative regret, +-1 SE band) and the final regrets as a table."""
    input:
        agg=f"results/bounds/agg/{BOUNDS_MAIN}.parquet",
    output:
        **artefact_outputs("bounds", "figure4", "figure4_final"),
    log:
        "logs/bounds_figure4/figure4.log",
    group:
        "post"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.bounds.figures:figure4_step"),
        online=BOUNDS_ONLINE,
        scale=BOUNDS_SCALE,
    script:
        STAGE


rule bounds_figure4_alpha:
    """Addition: Figure 4 for each alpha of online.sensitivity_alphas."""
    input:
        agg=[f"results/bounds/agg/{bounds_setting(a)}.parquet" for a in BOUNDS_ONLINE["sensitivity_alphas"]],
    output:
        **artefact_outputs("bounds", "figure4_alpha"),
    log:
        "logs/bounds_figure4_alpha/figure4_alpha.log",
    group:
        "post"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.bounds.figures:figure4_alpha_step"),
        online=BOUNDS_ONLINE,
        scale=BOUNDS_SCALE,
    script:
        STAGE


rule bounds_figure_appendix:
    """Addition: UCB-PCB and OAM-PCB (appendices) against their non-causal counterparts."""
    input:
        appendix="results/bounds/agg/appendix.parquet",
        main=f"results/bounds/agg/{BOUNDS_MAIN}.parquet",
    output:
        **artefact_outputs("bounds", "figure_appendix"),
    log:
        "logs/bounds_figure_appendix/figure_appendix.log",
    group:
        "post"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.bounds.figures:figure_appendix_step"),
        online=BOUNDS_ONLINE,
        scale=BOUNDS_SCALE,
    script:
        STAGE


rule bounds_claims:
    """Each claim of the paper evaluated on our results."""
    input:
        exact="results/bounds/exact.json",
        summary="results/bounds/offline/summary.json",
        estimates=expand("results/bounds/offline/estimates_{variant}.parquet", variant=BOUNDS_VARIANTS),
        coverage="results/bounds/offline/coverage.parquet",
        agg=expand("results/bounds/agg/{setting}.parquet", setting=list(BOUNDS_SETTINGS)),
    output:
        "results/claims/bounds.json",
    log:
        "logs/bounds_claims/claims.log",
    group:
        "post"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.bounds.claims:claims_step"),
        # what the claims read: the scale line and the online alphas (the main one and the sensitivity ones)
        bounds={
            "horizon": BOUNDS["horizon"],
            "n_seeds": BOUNDS["n_seeds"],
            "online": {k: BOUNDS["online"][k] for k in ("alpha", "sensitivity_alphas")},
        },
    script:
        STAGE
