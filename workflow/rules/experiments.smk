# Researchers' own experiments (the config's experiments: section), apart from the papers: own run
# store (results/runs/experiments/<name>/...), own table and figure (figures/experiments/<name>/),
# a summary in the report without verdicts. Included by the Snakefile only when the config has the
# section. The instance, catalogue, run and aggregate stages are nonmanip's (Lee & Bareinboim,
# AAAI-19), parameterised: streams keyed ("experiments", name, seed, purpose).

from causal_bandits.experiments import algorithms as cb_experiment_algorithms
from causal_bandits.experiments import config as cb_experiments_config
from causal_bandits.experiments import rule_inputs as cb_experiments_inputs
from causal_bandits.experiments import runs as cb_experiments_runs

EXPERIMENTS = config["experiments"]  # checked with the whole config (common.smk: causal_bandits.config.check)
EXPERIMENTS_JOB = run_job(cb_experiments_runs.describe)
TARGETS["experiments"] = [path for name in EXPERIMENTS for path in cb_experiments_inputs.figures(name)]

EXPERIMENTS_WILDCARDS = {
    "experiment": "|".join(EXPERIMENTS) or "^$",
    "strategy": "|".join(sorted({s for e in EXPERIMENTS.values() for s in cb_experiments_config.strategies(e)}))
    or "^$",
    "algorithm": cb_algorithms.pattern(
        sorted({a for n, e in EXPERIMENTS.items() for a in cb_experiment_algorithms.variants(n, e)})
    )
    or "^$",
    "chunk": r"\d+",
}


rule experiments_instance:
    """An own experiment's arms (canonical order) with exact means, and its BF / MIS / POMIS and explicit arm lists."""
    input:
        lambda wc: cb_experiments_inputs.instance_inputs(config, wc.experiment),
    output:
        "results/experiments/{experiment}/instance.json",
    log:
        "logs/experiments_instance/{experiment}.log",
    wildcard_constraints:
        experiment=EXPERIMENTS_WILDCARDS["experiment"],
    group:
        "prep"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.experiments.documents:instance_step"),
        experiment=lambda wc: {
            k: v for k, v in EXPERIMENTS[wc.experiment].items() if k in ("title", "diagram", "scm", "arms")
        },
    script:
        STAGE


rule experiments_catalogue:
    """POMIS+ expression catalogue of an own experiment (nonmanip's catalogue stage)."""
    input:
        instance="results/experiments/{experiment}/instance.json",
    output:
        "results/experiments/{experiment}/catalogue.json",
    log:
        "logs/experiments_catalogue/{experiment}.log",
    wildcard_constraints:
        experiment=EXPERIMENTS_WILDCARDS["experiment"],
    group:
        "prep"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.nonmanip.catalogue:catalogue_step"),
    script:
        STAGE


rule experiments_run:
    """One seed chunk of one (own experiment, strategy, algorithm): nonmanip's run job, own streams and paths."""
    input:
        unpack(lambda wc: cb_experiments_inputs.run_inputs(wc.experiment, wc.strategy)),
    output:
        trace=run_path("experiments"),
        summary=summary_path(run_path("experiments")),
    log:
        run_path("experiments", "logs"),
    benchmark:
        run_path("experiments", "benchmarks/out")
    wildcard_constraints:
        experiment=EXPERIMENTS_WILDCARDS["experiment"],
        strategy=EXPERIMENTS_WILDCARDS["strategy"],
        algorithm=EXPERIMENTS_WILDCARDS["algorithm"],
        chunk=EXPERIMENTS_WILDCARDS["chunk"],
    group:
        "runs"
    conda:
        "../envs/causal_bandits.yaml"
    resources:
        mem_mb=lambda wc, attempt: EXPERIMENTS_JOB(wc).memory_mb * attempt,
    params:
        job=lambda wc: EXPERIMENTS_JOB(wc).fields(),
        code=run_code(
            "nonmanip",
            lambda wc: cb_algorithms.registry("nonmanip")[
                cb_experiment_algorithms.played_key(cb_algorithms.key_of(wc.algorithm), wc.strategy)
            ].path,
        ),
    script:
        "../scripts/run.py"


rule experiments_aggregate:
    """Mean regret, 95 % CI and optimal-arm probability per round of every (strategy, algorithm) (nonmanip's stage)."""
    input:
        unpack(lambda wc: run_files("experiments", cb_experiments_runs.run_jobs(config), experiment=wc.experiment)),
        instance="results/experiments/{experiment}/instance.json",
    output:
        agg="results/experiments/{experiment}/agg.parquet",
        identical="results/experiments/{experiment}/identical.json",
    log:
        "logs/experiments_aggregate/{experiment}.log",
    wildcard_constraints:
        experiment=EXPERIMENTS_WILDCARDS["experiment"],
    group:
        "post"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.nonmanip.aggregate:aggregate_step"),
    script:
        STAGE


rule experiments_summary:
    """An own experiment's table and regret figure, and its summary for the report (no verdicts)."""
    input:
        agg="results/experiments/{experiment}/agg.parquet",
        instance="results/experiments/{experiment}/instance.json",
    output:
        csv=report(
            "figures/experiments/{experiment}/table.csv", caption="../report/experiments.rst", category="experiments"
        ),
        md=report(
            "figures/experiments/{experiment}/table.md", caption="../report/experiments.rst", category="experiments"
        ),
        pdf=report(
            "figures/experiments/{experiment}/regret.pdf", caption="../report/experiments.rst", category="experiments"
        ),
        png=report(
            "figures/experiments/{experiment}/regret.png", caption="../report/experiments.rst", category="experiments"
        ),
        summary="results/experiments/{experiment}/summary.json",
    log:
        "logs/experiments_summary/{experiment}.log",
    wildcard_constraints:
        experiment=EXPERIMENTS_WILDCARDS["experiment"],
    group:
        "post"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.experiments.summary:summary_step"),
        horizon=lambda wc: EXPERIMENTS[wc.experiment]["horizon"],
        skipped=lambda wc: cb_experiments_config.skipped_pairs(wc.experiment, EXPERIMENTS[wc.experiment]),
        labels=lambda wc: cb_experiment_algorithms.labels(wc.experiment, EXPERIMENTS[wc.experiment]),
        arguments=lambda wc: cb_experiment_algorithms.arguments(wc.experiment, EXPERIMENTS[wc.experiment]),
    script:
        STAGE
