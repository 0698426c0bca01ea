# Pure exploration on researchers' own graphs (the config's pure_exploration: section), apart from the papers:
# cpe's algorithms (CCPE-BGLM, CCPE-General, LUCB, the naive ablation; ICLR 2023) on an own binary SCM, each run
# job one seed chunk of one algorithm (results/runs/pure_exploration/<name>/practical/<algorithm>/), then the
# paper-style Table 2 (figures/pure_exploration/<name>/table.{csv,md}). Included by the Snakefile only when the
# config has the section. Streams keyed ("pure_exploration", name, seed, purpose), as cb.pure_exploration's.

from causal_bandits.experiments import pure_exploration as cb_pure_exploration
from causal_bandits.experiments import pure_exploration_keys as cb_pure_exploration_keys

PURE_EXPLORATION = config["pure_exploration"]  # checked with the whole config (common.smk)
PURE_EXPLORATION_JOB = run_job(cb_pure_exploration.describe)
TARGETS["pure_exploration"] = [p for name in PURE_EXPLORATION for p in cb_pure_exploration.outputs(name)]
PURE_EXPLORATION_NAMES = "|".join(PURE_EXPLORATION) or "^$"


rule pure_exploration_instance:
    """An own graph's cpe instance: arms, exact means, admissible sequences (and a BGLM's constants)."""
    output:
        f"{cb_pure_exploration.RESULTS}/{{experiment}}/instance.json",
    log:
        "logs/pure_exploration_instance/{experiment}.log",
    wildcard_constraints:
        experiment=PURE_EXPLORATION_NAMES,
    group:
        "prep"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.experiments.documents:pure_exploration_instance_step"),
        experiment=lambda wc: {k: PURE_EXPLORATION[wc.experiment].get(k) for k in ("scm", "bglm", "max_intervened")},
    script:
        STAGE


rule pure_exploration_run:
    """One seed chunk of one algorithm on an own graph: until each seed stops or reaches max_samples."""
    input:
        instance=f"{cb_pure_exploration.RESULTS}/{{experiment}}/instance.json",
    output:
        trace=run_path("pure_exploration"),
        summary=summary_path(run_path("pure_exploration")),
    log:
        run_path("pure_exploration", "logs"),
    benchmark:
        run_path("pure_exploration", "benchmarks/out")
    wildcard_constraints:
        experiment=PURE_EXPLORATION_NAMES,
        strategy=cb_pure_exploration_keys.STRATEGY,
        algorithm=cb_algorithms.pattern(cb_pure_exploration_keys.ALGORITHMS),
        chunk=r"\d+",
    group:
        "runs"
    conda:
        "../envs/causal_bandits.yaml"
    resources:
        mem_mb=lambda wc, attempt: PURE_EXPLORATION_JOB(wc).memory_mb * attempt,
    params:
        job=lambda wc: PURE_EXPLORATION_JOB(wc).fields(),
        code=script_code(
            "run.py",
            "causal_bandits.experiments.cpe",
            policy=lambda wc: cb_algorithms.registry("cpe")[wc.algorithm].path,
        ),
    script:
        "../scripts/run.py"


rule pure_exploration_table:
    """An own graph's Table 2: correctness (Wilson 95 %), censoring and samples to stop per algorithm, and its
    summary for the report (no verdicts)."""
    input:
        unpack(
            lambda wc: run_files(
                "pure_exploration",
                cb_pure_exploration.run_jobs(config),
                key="{algorithm}",
                experiment=wc.experiment,
            )
        ),
        instance=f"{cb_pure_exploration.RESULTS}/{{experiment}}/instance.json",
    output:
        csv=f"{cb_pure_exploration.FIGURES}/{{experiment}}/table.csv",
        md=f"{cb_pure_exploration.FIGURES}/{{experiment}}/table.md",
        summary=f"{cb_pure_exploration.RESULTS}/{{experiment}}/summary.json",
    log:
        "logs/pure_exploration_table/{experiment}.log",
    wildcard_constraints:
        experiment=PURE_EXPLORATION_NAMES,
    group:
        "post"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.experiments.pure_exploration_table:table_step"),
        title=lambda wc: PURE_EXPLORATION[wc.experiment].get("title", wc.experiment),
        experiment=lambda wc: {k: PURE_EXPLORATION[wc.experiment][k] for k in cb_pure_exploration.SUMMARY_KEYS},
        skipped=lambda wc: cb_pure_exploration.skipped(
            PURE_EXPLORATION[wc.experiment]["algorithms"], PURE_EXPLORATION[wc.experiment].get("bglm")
        ),
    script:
        STAGE
