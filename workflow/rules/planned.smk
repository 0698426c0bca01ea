# Seeds planned before the run (causal_bandits.seed_plans; preregistration/seed_plans.yaml): when the config sets
# `planned_runs: true` (config/config.yaml; quick.yaml and tiny.yaml set it false), one job per claim the plan runs
# and the config covers runs its planned seeds as its paper's own run jobs into results/planned/<paper>/<claim>/ and
# judges the claim on them alone; planned_summary sets each beside the main run's verdict for the report. No job
# here writes a file of the paper-scale runs. `python -m causal_bandits.planned_runs` does the same outside the
# workflow (causal_bandits.planned_runs).
from causal_bandits import planned_runs as cb_planned
from causal_bandits import seed_plans as cb_seed_plans

try:
    PLANNED = cb_planned.planned(config)
except CausalBanditsError as err:  # a plan edited after it was computed: one line, nothing planned
    sys.exit(f"error: {err}")
# The report reads it when the run has planned claims (rules/report.smk).
PLANNED_SUMMARY = ["results/planned/claims.json"] if PLANNED else []


rule planned_claim:
    """One claim's planned seeds: its paper's run jobs on fresh seeds, and its verdict on them alone."""
    input:
        lambda wc: cb_planned.inputs(config, f"{wc.paper}/{wc.claim}"),
    output:
        claim="results/planned/{paper}/{claim}.json",
        runs=directory("results/planned/{paper}/{claim}"),
    log:
        "logs/planned/{paper}/{claim}.log",
    wildcard_constraints:
        paper="|".join(cb_planned.papers_of(PLANNED)) or "^$",
        claim="[^/]+",
    conda:
        "../envs/causal_bandits.yaml"
    params:
        key=lambda wc: f"{wc.paper}/{wc.claim}",
        plan=cb_seed_plans.recorded()["fingerprint"],
        section=lambda wc: config[wc.paper],
        code=script_code("planned_claim.py", "causal_bandits.planned_runs"),
    script:
        "../scripts/planned_claim.py"


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
    conda:
        "../envs/causal_bandits.yaml"
    params:
        plan=cb_seed_plans.recorded()["fingerprint"],
        code=script_code("planned_summary.py", "causal_bandits.planned_runs"),
    script:
        "../scripts/planned_summary.py"
