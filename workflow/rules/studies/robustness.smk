# Study `robustness` (causal_bandits/studies/robustness.py): the graphs consistent with the paper's Fig. 5d facts ->
# an instance per sampled graph and per random SCM of each panel, with its POMIS+ catalogue -> every strategy with
# each solver -> the orderings per instance -> figure, table and the study's claims.
from causal_bandits.papers.nonmanip import runs as nonmanip_runs
from causal_bandits.studies import rule_inputs as study_inputs
from causal_bandits.studies import robustness as study_robustness
from causal_bandits.studies import robustness_instances as study_robustness_instances
from causal_bandits.studies import robustness_outputs as study_robustness_outputs

ROBUSTNESS = config["studies"]["robustness"]
ROBUSTNESS_JOB = run_job(study_robustness.describe)
ROBUSTNESS_INSTANCES = study_robustness_instances.instances(ROBUSTNESS, list(config["nonmanip"]["panels"]))
ROBUSTNESS_DIR = "results/studies/robustness"
STUDY_TARGETS["robustness"] = [
    *cb_artefacts.paths(study_robustness.artefacts(config["nonmanip"])),
    "results/claims/studies/robustness.json",
]


rule robustness_graphs:
    """Every graph consistent with the paper's Fig. 5d facts, in the seeded order the study samples first."""
    output:
        f"{ROBUSTNESS_DIR}/graphs.json",
    log:
        "logs/studies/robustness/graphs.log",
    benchmark:
        "benchmarks/out/studies/robustness/graphs.tsv"
    group:
        "prep"
    conda:
        "../../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.studies.robustness_instances:graphs_step"),
        # only the limits: raising the sample or the expression counting reruns no instance
        graphs={k: ROBUSTNESS["graphs"][k] for k in ("max_directed", "max_bidirected")},
    script:
        STAGE


rule robustness_graph_counts:
    """How many of the fitting graphs give the paper's 24 expressions (for the study's claims)."""
    input:
        graphs=f"{ROBUSTNESS_DIR}/graphs.json",
    output:
        f"{ROBUSTNESS_DIR}/graph_counts.json",
    log:
        "logs/studies/robustness/graph_counts.log",
    benchmark:
        "benchmarks/out/studies/robustness/graph_counts.tsv"
    group:
        "post"
    conda:
        "../../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.studies.robustness_instances:graph_counts_step"),
        up_to_edges=ROBUSTNESS["graphs"]["count_expressions_up_to_edges"],
    script:
        STAGE


rule robustness_instance:
    """An instance (graph, N, random SCM) with its arms and exact means, and its POMIS+ expression catalogue."""
    input:
        graphs=lambda wc: (
            [f"{ROBUSTNESS_DIR}/graphs.json"] if ROBUSTNESS_INSTANCES[wc.instance].family == "graphs" else []
        ),
    output:
        instance=f"{ROBUSTNESS_DIR}/{{instance}}/instance.json",
        catalogue=f"{ROBUSTNESS_DIR}/{{instance}}/catalogue.json",
    log:
        "logs/studies/robustness/instance_{instance}.log",
    wildcard_constraints:
        instance="|".join(ROBUSTNESS_INSTANCES) or "^$",
    group:
        "prep"
    conda:
        "../../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.studies.robustness_instances:instance_step"),
        instance=lambda wc: list(ROBUSTNESS_INSTANCES[wc.instance]),
        config=lambda wc: study_robustness_instances.instance_config(
            ROBUSTNESS_INSTANCES[wc.instance], ROBUSTNESS, config["nonmanip"]["panels"]
        ),
    script:
        STAGE


rule robustness_run:
    """One seed chunk of one strategy with one solver on one instance."""
    input:
        instance=f"{ROBUSTNESS_DIR}/{{experiment}}/instance.json",
        catalogue=f"{ROBUSTNESS_DIR}/{{experiment}}/catalogue.json",
    output:
        trace=study_run_path("robustness"),
        summary=summary_path(study_run_path("robustness")),
    log:
        study_run_path("robustness", "logs"),
    benchmark:
        study_run_path("robustness", "benchmarks/out")
    wildcard_constraints:
        point="|".join(dict.fromkeys(i.family for i in ROBUSTNESS_INSTANCES.values())) or "^$",
        experiment="|".join(ROBUSTNESS_INSTANCES) or "^$",
        strategy="|".join(ROBUSTNESS["strategies"]),
        algorithm=cb_algorithms.pattern(ROBUSTNESS["algorithms"]),
        chunk=r"\d+",
    group:
        "runs"
    conda:
        "../../envs/causal_bandits.yaml"
    resources:
        mem_mb=lambda wc, attempt: ROBUSTNESS_JOB(wc).memory_mb * attempt,
    params:
        job=lambda wc: ROBUSTNESS_JOB(wc).fields(),
        code=run_code("nonmanip", nonmanip_runs.policy),
    script:
        "../../scripts/run.py"


rule robustness_report:
    """The orderings per instance and solver, the figure (regret ratios), the table (how often each ordering holds)
    and the study's claims."""
    input:
        **study_inputs.summaries("robustness", config),
        instances=expand(f"{ROBUSTNESS_DIR}/{{instance}}/instance.json", instance=ROBUSTNESS_INSTANCES),
        graphs=[f"{ROBUSTNESS_DIR}/graph_counts.json"] if ROBUSTNESS["graphs"]["sample"] else [],
    output:
        pdf=report(
            f"{study_robustness_outputs.OUT}/figure.pdf",
            caption="../../report/study_robustness.rst",
            category="studies",
        ),
        png=report(
            f"{study_robustness_outputs.OUT}/figure.png",
            caption="../../report/study_robustness.rst",
            category="studies",
        ),
        md=report(
            f"{study_robustness_outputs.OUT}/table.md", caption="../../report/study_robustness.rst", category="studies"
        ),
        orderings=report(
            f"{study_robustness_outputs.OUT}/orderings.csv",
            caption="../../report/study_robustness.rst",
            category="studies",
        ),
        claims="results/claims/studies/robustness.json",
    log:
        "logs/studies/robustness/report.log",
    group:
        "post"
    conda:
        "../../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.studies.robustness_outputs:report_step"),
        titles=nonmanip_runs.panel_titles(config),
        section=ROBUSTNESS,
        families={i.id: i.family for i in ROBUSTNESS_INSTANCES.values()},
    script:
        STAGE
