# Lee & Bareinboim (AAAI-19): arm sets -> instances -> (POMIS+ catalogues) -> runs -> aggregate ->
# Table 1, Figure 5, claims.
from causal_bandits.papers.nonmanip import POMIS_PLUS
from causal_bandits.papers.nonmanip import runs as nonmanip_runs

NONMANIP = config["nonmanip"]
NONMANIP_PANELS = list(NONMANIP["panels"])
NONMANIP_GRAPHS = ["frontdoor", "fig2a", "fig3", "fig5d"]
# The solvers (causal_bandits/papers/nonmanip/algorithms.py): POMIS+ runs only those with a z² version.
NONMANIP_SOLVERS = cb_algorithms.solvers("nonmanip")
NONMANIP_Z2 = [a for a in NONMANIP_SOLVERS if cb_algorithms.registry("nonmanip")[a].z2]
NONMANIP_JOB = run_job(nonmanip_runs.describe)
TARGETS["nonmanip"] = paper_artefact_paths("nonmanip")

# Rule-level, not global: other papers use wildcards of the same names with other values.
NONMANIP_WILDCARDS = {
    "graph": "|".join(NONMANIP_GRAPHS),
    "experiment": "|".join(NONMANIP_PANELS),
    "strategy": "BF|MIS|POMIS",  # arm sets played by TS / kl-UCB; POMIS+ has its own run rule
    "algorithm": cb_algorithms.pattern(NONMANIP_SOLVERS),
    "chunk": r"\d+",
}


rule nonmanip_arm_sets:
    """POMIS / MIS / BF sets, projections, MUCT and IB of every (graph, N) case
    (docs/papers/nonmanip.md#nonmanip-numbers-structural)."""
    output:
        "results/nonmanip/arm_sets/{graph}.json",
    log:
        "logs/nonmanip_arm_sets/{graph}.log",
    wildcard_constraints:
        graph=NONMANIP_WILDCARDS["graph"],
    group:
        "prep"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.nonmanip.documents:arm_sets_step"),
    script:
        STAGE


rule nonmanip_instance:
    """A Figure 5 panel's arms (canonical order) with exact means from the SCM (pgmpy)."""
    output:
        "results/nonmanip/instances/{experiment}.json",
    log:
        "logs/nonmanip_instance/{experiment}.log",
    wildcard_constraints:
        experiment=NONMANIP_WILDCARDS["experiment"],
    group:
        "prep"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.nonmanip.documents:instance_step"),
        panel=lambda wc: NONMANIP["panels"][wc.experiment],
    script:
        STAGE


rule nonmanip_catalogue:
    """POMIS+ expression catalogue of a panel (AAAI-19 Alg. 3 l. 2-4), validated on the panel's exact SCM."""
    input:
        instance="results/nonmanip/instances/{experiment}.json",
    output:
        "results/nonmanip/catalogue/{experiment}.json",
    log:
        "logs/nonmanip_catalogue/{experiment}.log",
    wildcard_constraints:
        experiment=NONMANIP_WILDCARDS["experiment"],
    group:
        "prep"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.nonmanip.catalogue:catalogue_step"),
    script:
        STAGE


rule nonmanip_catalogue_listing:
    """Every panel's catalogue for the reader: formulas, sources, free indices, instances per arm."""
    input:
        catalogues=expand("results/nonmanip/catalogue/{experiment}.json", experiment=NONMANIP_PANELS),
    output:
        **artefact_outputs("nonmanip", "catalogue"),
    log:
        "logs/nonmanip_catalogue_listing/catalogue.log",
    group:
        "prep"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.nonmanip.tables:catalogue_listing_step"),
    script:
        STAGE


rule nonmanip_run:
    """One seed chunk of one (panel, arm set, algorithm): all its seeds vectorised."""
    input:
        instance="results/nonmanip/instances/{experiment}.json",
    output:
        trace=run_path("nonmanip"),
        summary=summary_path(run_path("nonmanip")),
    log:
        run_path("nonmanip", "logs"),
    benchmark:
        run_path("nonmanip", "benchmarks/out")
    wildcard_constraints:
        experiment=NONMANIP_WILDCARDS["experiment"],
        strategy=NONMANIP_WILDCARDS["strategy"],
        algorithm=NONMANIP_WILDCARDS["algorithm"],
        chunk=NONMANIP_WILDCARDS["chunk"],
    group:
        "runs"
    conda:
        "../envs/causal_bandits.yaml"
    resources:
        mem_mb=lambda wc, attempt: NONMANIP_JOB(wc).memory_mb * attempt,
    params:
        job=lambda wc: NONMANIP_JOB(wc).fields(),
        code=run_code("nonmanip", nonmanip_runs.policy),
    script:
        "../scripts/run.py"


# One seed chunk of POMIS+ on a panel: the POMIS arms with z2-TS / z2-KL-UCB and the panel's catalogue.
use rule nonmanip_run as nonmanip_run_pomisplus with:
    input:
        instance="results/nonmanip/instances/{experiment}.json",
        catalogue="results/nonmanip/catalogue/{experiment}.json",
    wildcard_constraints:
        experiment=NONMANIP_WILDCARDS["experiment"],
        strategy=POMIS_PLUS,
        algorithm=cb_algorithms.pattern(NONMANIP_Z2) or "^$",
        chunk=NONMANIP_WILDCARDS["chunk"],


rule nonmanip_efficiency:
    """The efficiency of a panel's z² estimators on its SCM (delta method), for Table 1's note."""
    input:
        instance="results/nonmanip/instances/{experiment}.json",
    output:
        "results/nonmanip/efficiency/{experiment}.json",
    log:
        "logs/nonmanip_efficiency/{experiment}.log",
    wildcard_constraints:
        experiment=NONMANIP_WILDCARDS["experiment"],
    group:
        "prep"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.nonmanip.efficiency:efficiency_step"),
    script:
        STAGE


rule nonmanip_aggregate:
    """Mean regret, 95 % CI and optimal-arm probability per round; bitwise identity of runs."""
    input:
        unpack(lambda wc: run_files("nonmanip", nonmanip_runs.run_jobs(config), experiment=wc.experiment)),
        instance="results/nonmanip/instances/{experiment}.json",
    output:
        agg="results/nonmanip/agg/{experiment}.parquet",
        identical="results/nonmanip/agg/{experiment}.identical.json",
    log:
        "logs/nonmanip_aggregate/{experiment}.log",
    wildcard_constraints:
        experiment=NONMANIP_WILDCARDS["experiment"],
    group:
        "post"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.nonmanip.aggregate:aggregate_step"),
    script:
        STAGE


rule nonmanip_table1:
    """Table 1: mean cumulative regret at T, ours beside the paper's, and the POMIS+ reduction row."""
    input:
        agg=expand("results/nonmanip/agg/{experiment}.parquet", experiment=NONMANIP_PANELS),
        instances=expand("results/nonmanip/instances/{experiment}.json", experiment=NONMANIP_PANELS),
        catalogues=expand("results/nonmanip/catalogue/{experiment}.json", experiment=NONMANIP_PANELS),
        efficiency=expand("results/nonmanip/efficiency/{experiment}.json", experiment=NONMANIP_PANELS),
    output:
        **artefact_outputs("nonmanip", "table1"),
    log:
        "logs/nonmanip_table1/table1.log",
    group:
        "post"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.nonmanip.tables:table1_step"),
        pomis_plus=NONMANIP["pomis_plus"],
    script:
        STAGE


rule nonmanip_figure5:
    """Figure 5: cumulative regret per panel (a-c) and the Fig. 5d graph (d)."""
    input:
        agg=expand("results/nonmanip/agg/{experiment}.parquet", experiment=NONMANIP_PANELS),
        instances=expand("results/nonmanip/instances/{experiment}.json", experiment=NONMANIP_PANELS),
    output:
        **artefact_outputs("nonmanip", "figure5", "figure5_optimal_arm"),
    log:
        "logs/nonmanip_figure5/figure5.log",
    group:
        "post"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.nonmanip.figures:figure5_step"),
    script:
        STAGE


rule nonmanip_diagrams:
    """Figures 1-4: the paper's causal diagrams, MUCT/IB and projections, computed."""
    output:
        **artefact_outputs("nonmanip", "figure1", "figure2", "figure3", "figure4"),
    log:
        "logs/nonmanip_diagrams/diagrams.log",
    group:
        "prep"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.nonmanip.figures:diagrams_step"),
    script:
        STAGE


rule nonmanip_claims:
    """Each claim of the paper evaluated on our results."""
    input:
        arm_sets=expand("results/nonmanip/arm_sets/{graph}.json", graph=NONMANIP_GRAPHS),
        instances=expand("results/nonmanip/instances/{experiment}.json", experiment=NONMANIP_PANELS),
        agg=expand("results/nonmanip/agg/{experiment}.parquet", experiment=NONMANIP_PANELS),
        identical=expand("results/nonmanip/agg/{experiment}.identical.json", experiment=NONMANIP_PANELS),
        catalogues=expand("results/nonmanip/catalogue/{experiment}.json", experiment=NONMANIP_PANELS),
        table1=artefact_file("nonmanip", "table1.csv"),
    output:
        "results/claims/nonmanip.json",
    log:
        "logs/nonmanip_claims/claims.log",
    group:
        "post"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.nonmanip.claims:claims_step"),
        # what the claims read: the scale line and the POMIS+ settings their notes name
        section={k: NONMANIP[k] for k in ("horizon", "n_seeds", "pomis_plus")},
    script:
        STAGE
