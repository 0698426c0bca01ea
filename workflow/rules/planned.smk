# Seeds planned before the run (causal_bandits.seed_plans; preregistration/seed_plans.yaml): when the config sets
# `planned_runs: true` (config/config.yaml; quick.yaml and tiny.yaml set it false), each claim the plan runs and the
# config covers has its planned seeds run as its paper's own run jobs (planned_run: one seed chunk each, through the
# run script every paper's run rule uses) into results/planned/<paper>/<claim>/, and is judged on them alone
# (planned_claim); planned_summary sets each beside the main run's verdict for the report. No job here writes a file
# of the paper-scale runs. `python -m causal_bandits.planned_runs` does the same outside the workflow.
import re

from causal_bandits import seed_plans as cb_seed_plans

try:
    PLANNED = cb_planned.planned(config)
except CausalBanditsError as err:  # a plan edited after it was computed: one line, nothing planned
    sys.exit(f"error: {err}")
# Every planned run job, by its trace path without .parquet: (claim, RunJob, instance file or None).
PLANNED_JOBS = cb_planned.planned_jobs(config)


rule planned_run:
    """One seed chunk of a claim's planned seeds: its paper's run job with the planned seeds."""
    input:
        # the instance file its paper's run job reads, when it reads one (unknown_graph's seeds draw their own)
        unpack(lambda wc: cb_planned.run_inputs(PLANNED_JOBS[f"results/planned/{wc.run}"])),
    output:
        trace="results/planned/{run}.parquet",
        summary="results/planned/{run}.summary.parquet",
    log:
        "logs/planned/{run}.log",
    wildcard_constraints:
        run="|".join(re.escape(path.removeprefix("results/planned/")) for path in PLANNED_JOBS) or "^$",
    group:
        "runs"
    conda:
        "../envs/causal_bandits.yaml"
    resources:
        mem_mb=lambda wc, attempt: PLANNED_JOBS[f"results/planned/{wc.run}"][1].memory_mb * attempt,
    params:
        job=lambda wc: PLANNED_JOBS[f"results/planned/{wc.run}"][1].fields(),
        code=lambda wc: script_code(
            "run.py", *cb_planned.code_modules(PLANNED_JOBS[f"results/planned/{wc.run}"][1].paper)
        )(wc),
    script:
        "../scripts/run.py"


rule planned_claim:
    """One claim judged on its planned seeds alone (Lemma 1's discovery rows are computed here)."""
    input:
        runs=lambda wc: [str(p) for p in cb_planned.summaries(config, f"{wc.paper}/{wc.claim}")],
        finished=lambda wc: cb_planned.inputs(config, f"{wc.paper}/{wc.claim}"),
    output:
        "results/planned/{paper}/{claim}.json",
    log:
        "logs/planned/{paper}/{claim}.log",
    wildcard_constraints:
        paper="|".join(cb_planned.papers_of(PLANNED)) or "^$",
        claim="[^/]+",
    group:
        "post"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.planned_runs:claim_step"),
        key=lambda wc: f"{wc.paper}/{wc.claim}",
        plan=cb_seed_plans.recorded()["fingerprint"],
        section=lambda wc: config[wc.paper],
    script:
        STAGE


rule planned_summary:
    """Every planned claim's verdict on its planned seeds beside the main run's, and the plan's reason or cost for
    each claim it does not run: results/planned/claims.json and figures/planned/table.md."""
    input:
        claims=[f"results/planned/{key}.json" for key in PLANNED],
        main=[f"results/claims/{paper}.json" for paper in PAPERS],
    output:
        summary="results/planned/claims.json",
        table=report("figures/planned/table.md", caption="../report/planned.rst", category="report"),
    log:
        "logs/planned/summary.log",
    group:
        "post"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.planned_runs:summary_step"),
        plan=cb_seed_plans.recorded()["fingerprint"],
    script:
        STAGE
