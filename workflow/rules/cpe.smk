# Combinatorial pure exploration of causal bandits (ICLR 2023): designed experiments E0-E5 (the paper has none).
# instances (+ exact quantities) -> runs (stopping times, on the one engine) -> aggregate -> tables, figures, claims.

from causal_bandits.papers.cpe import design as cpe_design
from causal_bandits.papers.cpe import rule_inputs as cpe_inputs
from causal_bandits.papers.cpe import runs as cpe_runs

CPE = config["cpe"]
CPE_EXPERIMENTS = cpe_design.experiments_run(CPE)
CPE_JOBS = cpe_inputs.jobs(CPE)
CPE_KEYS = sorted({(j.experiment, j.config) for j in CPE_JOBS})
CPE_JOB = run_job(cpe_runs.describe)
TARGETS["cpe"] = paper_artefact_paths("cpe")
# The artefacts of the tables and figures rules (declared in artefacts.py; a figure of an experiment not run: none).
CPE_TABLES = [a.key for a in paper_artefacts("cpe") if not a.is_figure]
CPE_FIGURES = [a.key for a in paper_artefacts("cpe") if a.is_figure and not a.absent]

CPE_WILDCARDS = {
    "experiment": "|".join(sorted({cpe_design.run_key(e, c) for e, c in CPE_KEYS})) or "none",
    "strategy": "|".join(sorted({j.strategy for j in CPE_JOBS if j.budget is None})) or "none",
    "algorithm": cb_algorithms.pattern(sorted({j.algorithm for j in CPE_JOBS if j.budget is None})) or "none",
    "chunk": r"\d+",
}
# The fixed-budget algorithm's runs: every budget of one config and chunk in one job (rule cpe_run_budgets).
CPE_BUDGETS = {
    "strategies": cpe_design.budget_strategies(CPE),
    "experiment": "|".join(sorted({j.key for j in CPE_JOBS if j.budget is not None})) or "none",
}
# What the tables, figures and claims read.
CPE_AGG = {
    "stopping": expand("results/cpe/agg/{exp}.parquet", exp=CPE_EXPERIMENTS),
    "budget": expand("results/cpe/agg/{exp}.budget.parquet", exp=CPE_EXPERIMENTS),
    "quantities": [f"results/cpe/quantities/{e}/{c}.json" for e, c in CPE_KEYS],
}


rule cpe_instance:
    """One config's instance document: SCM, actions, admissible sequences, exact means (closed form)."""
    output:
        "results/cpe/instances/{exp}/{config}.json",
    log:
        "logs/cpe_instance/{exp}/{config}.log",
    wildcard_constraints:
        exp=r"[A-Za-z0-9]+",
        config=r"[A-Za-z0-9.]+",
    group:
        "prep"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.cpe.families:instance_step"),
        spec=lambda wc: CPE["experiments"][wc.exp]["configs"][wc.config],
    script:
        STAGE


rule cpe_quantities:
    """One instance's exact complexity quantities (docs/papers/cpe.md#cpe-quantities): per-arm table and summary."""
    input:
        instance="results/cpe/instances/{exp}/{config}.json",
    output:
        "results/cpe/quantities/{exp}/{config}.json",
    log:
        "logs/cpe_quantities/{exp}/{config}.log",
    wildcard_constraints:
        exp=r"[A-Za-z0-9]+",
        config=r"[A-Za-z0-9.]+",
    group:
        "prep"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.cpe.exact:quantities_step"),
        epsilon=lambda wc: cpe_design.epsilon(CPE, wc.exp, wc.config),
        delta=CPE["delta"],
    script:
        STAGE


rule cpe_theory:
    """E4b: H, H_m (q^(G)) and H_m (q^(L)) of the two-layer BGLM for every k (pure computation)."""
    output:
        "results/cpe/theory_e4b.json",
    log:
        "logs/cpe_theory/e4b.log",
    group:
        "prep"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.cpe.exact:theory_step"),
        k=CPE["theory_k"],
        delta=CPE["delta"],
    script:
        STAGE


rule cpe_run:
    """One seed chunk of one (config, strategy, algorithm): its seeds vectorised, each stopping on its own."""
    input:
        instance=lambda wc: "results/cpe/instances/{}/{}.json".format(*wc.experiment.split("-", 1)),
    output:
        trace=run_path("cpe"),
        summary=summary_path(run_path("cpe")),
    log:
        run_path("cpe", "logs"),
    benchmark:
        run_path("cpe", "benchmarks/out")
    wildcard_constraints:
        experiment=CPE_WILDCARDS["experiment"],
        strategy=CPE_WILDCARDS["strategy"],
        algorithm=CPE_WILDCARDS["algorithm"],
        chunk=CPE_WILDCARDS["chunk"],
    group:
        "runs"
    conda:
        "../envs/causal_bandits.yaml"
    resources:
        mem_mb=lambda wc, attempt: CPE_JOB(wc).memory_mb * attempt,
    params:
        job=lambda wc: CPE_JOB(wc).fields(),
        code=run_code("cpe"),
    script:
        "../scripts/run.py"


rule cpe_run_budgets:
    """One seed chunk of the fixed-budget parallel bandit on one config, at every budget: a batch of runs in one
    process (causal_bandits.runs.RunBatch), each written as if alone."""
    input:
        instance=lambda wc: "results/cpe/instances/{}/{}.json".format(*wc.experiment.split("-", 1)),
    output:
        trace=expand(run_path("cpe"), strategy=CPE_BUDGETS["strategies"], allow_missing=True),
        summary=expand(summary_path(run_path("cpe")), strategy=CPE_BUDGETS["strategies"], allow_missing=True),
    log:
        run_path("cpe", "logs", strategy="budgets"),
    benchmark:
        run_path("cpe", "benchmarks/out", strategy="budgets")
    wildcard_constraints:
        experiment=CPE_BUDGETS["experiment"],
        algorithm=cpe_design.BUDGETED,
        chunk=CPE_WILDCARDS["chunk"],
    group:
        "runs"
    conda:
        "../envs/causal_bandits.yaml"
    resources:
        mem_mb=lambda wc, attempt: CPE_JOB(wc).memory_mb * attempt,
    params:
        job=lambda wc: CPE_JOB(wc).fields(),
        code=run_code("cpe"),
    script:
        "../scripts/run.py"


rule cpe_aggregate:
    """Per (config, strategy, algorithm): stopping times, censoring, correctness (Wilson), CI coverage;
    error against budget and T_delta."""
    input:
        unpack(lambda wc: cpe_inputs.experiment_inputs(config, wc.exp)),
    output:
        stopping="results/cpe/agg/{exp}.parquet",
        budget="results/cpe/agg/{exp}.budget.parquet",
    log:
        "logs/cpe_aggregate/{exp}.log",
    wildcard_constraints:
        exp=r"[A-Za-z0-9]+",
    group:
        "post"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.cpe.results:aggregate_step"),
        delta=CPE["delta"],
        spec=lambda wc: CPE["experiments"][wc.exp],
    script:
        STAGE


rule cpe_tables:
    """Tables 1-4 [designed]: instance quantities, PAC correctness, lower bound (E5), log-log slopes."""
    input:
        **CPE_AGG,
        theory="results/cpe/theory_e4b.json",
    output:
        **artefact_outputs("cpe", *CPE_TABLES),
    log:
        "logs/cpe_tables/tables.log",
    group:
        "post"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.cpe.results:tables_step"),
        delta=CPE["delta"],
        experiments={e: CPE["experiments"][e] for e in CPE_EXPERIMENTS},
    script:
        STAGE


rule cpe_figures:
    """Figures 0-6 [designed]: samples against |A|, gap, confounding, BGLM size and the lower bound;
    CI coverage; error against budget; with the theory's terms beside the measurements."""
    input:
        **CPE_AGG,
        theory="results/cpe/theory_e4b.json",
    output:
        **artefact_outputs("cpe", *CPE_FIGURES),
    log:
        "logs/cpe_figures/figures.log",
    group:
        "post"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.cpe.figures:figures_step"),
        delta=CPE["delta"],
        experiments={e: CPE["experiments"][e] for e in CPE_EXPERIMENTS},
        scale=f"sample cap {CPE['horizon']:,}, {CPE['n_seeds']:,} seeds per setting",
    script:
        STAGE


rule cpe_claims:
    """Each claim (docs/papers/cpe.md#cpe-results: the theorems' and the designed predictions) evaluated on our
    results."""
    input:
        **CPE_AGG,
        theory="results/cpe/theory_e4b.json",
    output:
        "results/claims/cpe.json",
    log:
        "logs/cpe_claims/claims.log",
    group:
        "post"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.cpe.claims:claims_step"),
        algorithms={e: sorted({j.algorithm for j in CPE_JOBS if j.experiment == e}) for e in CPE_EXPERIMENTS},
        scale={"horizon": CPE["horizon"], "n_seeds": CPE["n_seeds"]},
    script:
        STAGE
