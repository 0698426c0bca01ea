# Study `fucb_radius` (causal_bandits/studies/fucb_radius.py): F-UCB on Email over a grid of radius scales, one run
# job per (alpha_r, alpha_c) point, tau and seed chunk; then the table and the study's claims.
from causal_bandits.studies import rule_inputs as study_inputs
from causal_bandits.studies import fucb_radius as study_fucb_radius

FUCB_RADIUS = config["studies"]["fucb_radius"]
FUCB_RADIUS_JOB = run_job(study_fucb_radius.describe)
STUDY_TARGETS["fucb_radius"] = [
    *cb_artefacts.paths(study_fucb_radius.artefacts(config["fairness"])),
    "results/claims/studies/fucb_radius.json",
]


rule fucb_radius_run:
    """One seed chunk of F-UCB at one tau with one point's (alpha_r, alpha_c), at the study's horizon."""
    input:
        instance="results/fairness/instances/{experiment}.json",
    output:
        trace=study_run_path("fucb_radius"),
        summary=summary_path(study_run_path("fucb_radius")),
    log:
        study_run_path("fucb_radius", "logs"),
    benchmark:
        study_run_path("fucb_radius", "benchmarks/out")
    wildcard_constraints:
        point=r"p\d+",
        experiment="email",
        strategy="default",
        algorithm=r"fucb_tau[0-9.]+",
        chunk=r"\d+",
    group:
        "runs"
    conda:
        "../../envs/causal_bandits.yaml"
    resources:
        mem_mb=lambda wc, attempt: FUCB_RADIUS_JOB(wc).memory_mb * attempt,
    params:
        job=lambda wc: FUCB_RADIUS_JOB(wc).fields(),
        # F-UCB is built from its registry path, which no import names
        code=run_code("fairness", lambda wc: cb_algorithms.registry("fairness")["fucb"].path),
    script:
        "../../scripts/run.py"


rule fucb_radius_report:
    """Per point: regret (± s.e.) at each tau, uncertified rounds, whether it decreases in tau; the study's claims."""
    input:
        **study_inputs.summaries("fucb_radius", config),
    output:
        csv=report(
            f"{study_fucb_radius.OUT}/table.csv", caption="../../report/study_fucb_radius.rst", category="studies"
        ),
        md=report(f"{study_fucb_radius.OUT}/table.md", caption="../../report/study_fucb_radius.rst", category="studies"),
        claims="results/claims/studies/fucb_radius.json",
    log:
        "logs/studies/fucb_radius/report.log",
    group:
        "post"
    conda:
        "../../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.studies.fucb_radius:report_step"),
        section=FUCB_RADIUS,
        main=study_fucb_radius.main_scales(config["fairness"]),
        scale=f"T = {FUCB_RADIUS['horizon']:,}, {FUCB_RADIUS['n_seeds']} seeds per point",
    script:
        STAGE
