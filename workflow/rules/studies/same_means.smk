# Study `same_means` (causal_bandits/studies/same_means.py): per Figure 5 panel, the same-means family (direction,
# points, efficiencies) -> an instance and a catalogue per point -> POMIS and POMIS+ runs with each solver (the main
# run's horizon and POMIS+ settings) -> a figure per panel, the table and the study's claims.
from causal_bandits.papers.nonmanip import runs as nonmanip_runs
from causal_bandits.studies import rule_inputs as study_inputs
from causal_bandits.studies import same_means as study_same_means
from causal_bandits.studies import same_means_outputs as study_same_means_outputs

SAME_MEANS = config["studies"]["same_means"]
SAME_MEANS_JOB = run_job(study_same_means.describe)
SAME_MEANS_DIR = "results/studies/same_means/{experiment}"
STUDY_TARGETS["same_means"] = [
    *cb_artefacts.paths(study_same_means.artefacts(config["nonmanip"])),
    "results/claims/studies/same_means.json",
]


rule same_means_family:
    """The same-means family of a panel: the direction swept and every point's SCM and efficiencies (delta method)."""
    output:
        f"{SAME_MEANS_DIR}/family.json",
    log:
        "logs/studies/same_means/family_{experiment}.log",
    benchmark:
        "benchmarks/out/studies/same_means/family_{experiment}.tsv"
    wildcard_constraints:
        experiment="|".join(config["nonmanip"]["panels"]),
    group:
        "prep"
    conda:
        "../../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.studies.same_means_family:family_step"),
        panel=lambda wc: config["nonmanip"]["panels"][wc.experiment],
        sweep=lambda wc: study_same_means.settings(SAME_MEANS, wc.experiment),
    script:
        STAGE


rule same_means_instance:
    """A point's instance (the panel's arms, exact means checked against the canonical SCM's) and its POMIS+
    expression catalogue."""
    input:
        family=f"{SAME_MEANS_DIR}/family.json",
    output:
        instance=f"{SAME_MEANS_DIR}/{{point}}/instance.json",
        catalogue=f"{SAME_MEANS_DIR}/{{point}}/catalogue.json",
    log:
        "logs/studies/same_means/instance_{experiment}_{point}.log",
    wildcard_constraints:
        experiment="|".join(config["nonmanip"]["panels"]),
        point=r"\d+",
    group:
        "prep"
    conda:
        "../../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.studies.same_means_family:instance_step"),
        panel=lambda wc: config["nonmanip"]["panels"][wc.experiment],
    script:
        STAGE


rule same_means_run:
    """One seed chunk of POMIS or POMIS+ with one solver on one same-means point."""
    input:
        instance="results/studies/same_means/{experiment}/{point}/instance.json",
        catalogue="results/studies/same_means/{experiment}/{point}/catalogue.json",
    output:
        trace=study_run_path("same_means"),
        summary=summary_path(study_run_path("same_means")),
    log:
        study_run_path("same_means", "logs"),
    benchmark:
        study_run_path("same_means", "benchmarks/out")
    wildcard_constraints:
        point=r"\d+",
        experiment="|".join(config["nonmanip"]["panels"]),
        strategy="|".join(study_same_means.STRATEGIES),
        algorithm=cb_algorithms.pattern(SAME_MEANS["algorithms"]),
        chunk=r"\d+",
    group:
        "runs"
    conda:
        "../../envs/causal_bandits.yaml"
    resources:
        mem_mb=lambda wc, attempt: SAME_MEANS_JOB(wc).memory_mb * attempt,
    params:
        job=lambda wc: SAME_MEANS_JOB(wc).fields(),
        code=run_code("nonmanip", nonmanip_runs.policy),
    script:
        "../../scripts/run.py"


rule same_means_report:
    """The sweep's figure per panel (POMIS+ and POMIS regret against efficiency, the paper's cells), its table and
    the study's claims (efficiency interval where both POMIS+ cells are within Table 1's tolerance)."""
    input:
        **study_inputs.summaries("same_means", config),
        families=expand(f"{SAME_MEANS_DIR}/family.json", experiment=list(config["nonmanip"]["panels"])),
    output:
        figures=report(
            expand(
                f"{study_same_means_outputs.OUT}/{{experiment}}.{{ext}}",
                experiment=list(config["nonmanip"]["panels"]),
                ext=("pdf", "png"),
            ),
            caption="../../report/study_same_means.rst",
            category="studies",
        ),
        md=report(
            f"{study_same_means_outputs.OUT}/table.md", caption="../../report/study_same_means.rst", category="studies"
        ),
        table=report(
            f"{study_same_means_outputs.OUT}/table.csv",
            caption="../../report/study_same_means.rst",
            category="studies",
        ),
        claims="results/claims/studies/same_means.json",
    log:
        "logs/studies/same_means/report.log",
    group:
        "post"
    conda:
        "../../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.studies.same_means_outputs:report_step"),
        titles=nonmanip_runs.panel_titles(config),
        horizon=config["nonmanip"]["horizon"],
        section=SAME_MEANS,
    script:
        STAGE
