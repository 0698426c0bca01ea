# Study `knobs` (causal_bandits/studies/knobs.py): POMIS+ rerun on the main run's first seeds of every Figure 5 panel
# with one z² setting the paper leaves open changed (a point per value) -> figure, table and the study's claims.
from causal_bandits.papers.nonmanip import POMIS_PLUS
from causal_bandits.papers.nonmanip import runs as nonmanip_runs
from causal_bandits.studies import rule_inputs as study_inputs
from causal_bandits.studies import knobs as study_knobs

KNOBS = config["studies"]["knobs"]
KNOBS_JOB = run_job(study_knobs.describe)
KNOBS_POINTS = study_knobs.runs_of(KNOBS, config["nonmanip"]["pomis_plus"])
STUDY_TARGETS["knobs"] = [
    *cb_artefacts.paths(study_knobs.artefacts(config["nonmanip"])),
    "results/claims/studies/knobs.json",
]


rule knobs_run:
    """One seed chunk of POMIS+ on a panel with one z² setting changed (the point's); the main run's otherwise."""
    input:
        instance="results/nonmanip/instances/{experiment}.json",
        catalogue="results/nonmanip/catalogue/{experiment}.json",
    output:
        trace=study_run_path("knobs"),
        summary=summary_path(study_run_path("knobs")),
    log:
        study_run_path("knobs", "logs"),
    benchmark:
        study_run_path("knobs", "benchmarks/out")
    wildcard_constraints:
        point="|".join(KNOBS_POINTS) or "^$",
        experiment="|".join(config["nonmanip"]["panels"]),
        strategy=POMIS_PLUS,
        algorithm=cb_algorithms.pattern(KNOBS["algorithms"]),
        chunk=r"\d+",
    group:
        "runs"
    conda:
        "../../envs/causal_bandits.yaml"
    resources:
        mem_mb=lambda wc, attempt: KNOBS_JOB(wc).memory_mb * attempt,
    params:
        job=lambda wc: KNOBS_JOB(wc).fields(),
        code=run_code("nonmanip", nonmanip_runs.policy),
    script:
        "../../scripts/run.py"


rule knobs_report:
    """The knob study's figure, table and claims (which n_min values put each POMIS+ cell within Table 1's
    tolerance, what the Beta switch does to z2-KL-UCB)."""
    input:
        **study_inputs.knobs_summaries(config),
    output:
        pdf=report(f"{study_knobs.OUT}/figure.pdf", caption="../../report/study_knobs.rst", category="studies"),
        png=report(f"{study_knobs.OUT}/figure.png", caption="../../report/study_knobs.rst", category="studies"),
        md=report(f"{study_knobs.OUT}/table.md", caption="../../report/study_knobs.rst", category="studies"),
        csv=report(f"{study_knobs.OUT}/table.csv", caption="../../report/study_knobs.rst", category="studies"),
        claims="results/claims/studies/knobs.json",
    log:
        "logs/studies/knobs/report.log",
    group:
        "post"
    conda:
        "../../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.studies.knobs:report_step"),
        section=KNOBS,
        pomis_plus=config["nonmanip"]["pomis_plus"],
        horizon=config["nonmanip"]["horizon"],
        titles=nonmanip_runs.panel_titles(config),
    script:
        STAGE
