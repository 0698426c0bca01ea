# Study `refresh` (causal_bandits/studies/refresh.py): POMIS+ under the other bootstrap refresh schedule on the main
# run's first seeds of every Figure 5 panel -> the paired table and the study's claims.
from causal_bandits.papers.nonmanip import POMIS_PLUS
from causal_bandits.papers.nonmanip import runs as nonmanip_runs
from causal_bandits.studies import rule_inputs as study_inputs
from causal_bandits.studies import refresh as study_refresh

REFRESH = config["studies"]["refresh"]
REFRESH_JOB = run_job(study_refresh.describe)
STUDY_TARGETS["refresh"] = [
    *cb_artefacts.paths(study_refresh.artefacts(config["nonmanip"])),
    "results/claims/studies/refresh.json",
]


rule refresh_run:
    """One seed chunk of POMIS+ on a panel under the study's refresh schedule (the main run's settings otherwise)."""
    input:
        instance="results/nonmanip/instances/{experiment}.json",
        catalogue="results/nonmanip/catalogue/{experiment}.json",
    output:
        trace=study_run_path("refresh"),
        summary=summary_path(study_run_path("refresh")),
    log:
        study_run_path("refresh", "logs"),
    benchmark:
        study_run_path("refresh", "benchmarks/out")
    wildcard_constraints:
        experiment="|".join(config["nonmanip"]["panels"]),
        point=REFRESH["schedule"],
        strategy=POMIS_PLUS,
        algorithm=cb_algorithms.pattern(REFRESH["algorithms"]),
        chunk=r"\d+",
    group:
        "runs"
    conda:
        "../../envs/causal_bandits.yaml"
    resources:
        mem_mb=lambda wc, attempt: REFRESH_JOB(wc).memory_mb * attempt,
    params:
        job=lambda wc: REFRESH_JOB(wc).fields(),
        code=run_code("nonmanip", nonmanip_runs.policy),
    script:
        "../../scripts/run.py"


rule refresh_report:
    """The study's paired table (main run and study on the same seeds) and its claims."""
    input:
        **study_inputs.refresh_summaries(config),
    output:
        md=report(f"{study_refresh.OUT}/table.md", caption="../../report/study_refresh.rst", category="studies"),
        csv=report(f"{study_refresh.OUT}/table.csv", caption="../../report/study_refresh.rst", category="studies"),
        claims="results/claims/studies/refresh.json",
    log:
        "logs/studies/refresh/report.log",
    group:
        "post"
    conda:
        "../../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.studies.refresh:report_step"),
        section=REFRESH,
        main_refresh=config["nonmanip"]["pomis_plus"]["refresh"],
        horizon=config["nonmanip"]["horizon"],
        titles=nonmanip_runs.panel_titles(config),
    script:
        STAGE
