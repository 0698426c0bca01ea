# Lee & Bareinboim (AAAI-19): arm sets -> instances -> (POMIS+ catalogues) -> runs -> aggregate ->
# Table 1, Figure 5, claims.
from causal_bandits.papers.nonmanip import POMIS_PLUS
from causal_bandits.papers.nonmanip import robustness as nonmanip_robustness
from causal_bandits.papers.nonmanip import sensitivity as nonmanip_sensitivity
from causal_bandits.papers.nonmanip.runs import pomis_plus_settings, spot_check

NONMANIP = config["nonmanip"]
NONMANIP_PANELS = list(NONMANIP["panels"])
NONMANIP_GRAPHS = ["frontdoor", "fig2a", "fig3", "fig5d"]
NONMANIP_CHUNKS = chunk_seeds(NONMANIP["n_seeds"], config["seeds_per_job"])
# Beyond the paper: the robustness experiment's instances (Fig. 5d-consistent graphs, random SCMs).
NONMANIP_ROBUST = NONMANIP["robustness"]
NONMANIP_ROBUST_NAMES = nonmanip_robustness.names(NONMANIP_ROBUST, NONMANIP_PANELS)
NONMANIP_ROBUST_CHUNKS = chunk_seeds(NONMANIP_ROBUST["n_seeds"], config["seeds_per_job"])
# The refresh spot check (docs/papers/nonmanip.md#nonmanip-numbers-spot-check): POMIS+ with the other bootstrap refresh
# schedule on the first seeds of every panel, strategy POMISplus_<refresh>; None when off.
NONMANIP_SPOT = spot_check(NONMANIP)
NONMANIP_SPOT_CHUNKS = chunk_seeds(NONMANIP_SPOT[1], config["seeds_per_job"]) if NONMANIP_SPOT else []
NONMANIP_POMIS_PLUS = [POMIS_PLUS, *([NONMANIP_SPOT[0]] if NONMANIP_SPOT else [])]
# The solvers (causal_bandits/papers/nonmanip/algorithms.py): POMIS+ runs only those with a z² version.
NONMANIP_SOLVERS = cb_algorithms.solvers("nonmanip")
NONMANIP_Z2 = [a for a in NONMANIP_SOLVERS if cb_algorithms.registry("nonmanip")[a].z2]


def nonmanip_plays(strategy, algorithm):
    """Whether a configured solver plays a strategy: POMIS+ (and its spot check) only with a z² version."""
    return algorithm in NONMANIP_Z2 or strategy not in NONMANIP_POMIS_PLUS


def nonmanip_policy(wildcards):
    """The registry entry that plays a run: the solver, or its z² version under POMIS+."""
    return cb_algorithms.played("nonmanip", wildcards.algorithm, z2=wildcards.strategy in NONMANIP_POMIS_PLUS)


# Beyond the paper: POMIS and POMIS+ on same-means SCMs, experiments <panel>_sens<k> (nonmanip_sensitivity.smk).
NONMANIP_SENS = NONMANIP["sensitivity"]
nonmanip_sensitivity.check(NONMANIP_SENS, NONMANIP_PANELS)
NONMANIP_SENS_NAMES = (
    nonmanip_sensitivity.names(NONMANIP_PANELS, NONMANIP_SENS["n_points"])
    if POMIS_PLUS in NONMANIP["strategies"]
    else []
)


def nonmanip_chunks(experiment, strategy):
    """Seed chunks of a run: a Figure 5 panel's, the spot check's (its first seeds) or a robustness instance's."""
    if experiment in NONMANIP_ROBUST_NAMES:
        return NONMANIP_ROBUST_CHUNKS
    return NONMANIP_SPOT_CHUNKS if NONMANIP_SPOT and strategy == NONMANIP_SPOT[0] else NONMANIP_CHUNKS


def nonmanip_instance_config(experiment):
    """The config slice an experiment's jobs depend on: a panel's section, or what a robustness
    instance depends on (never the instance counts: growing the experiment reruns nothing)."""
    if experiment in NONMANIP_ROBUST_NAMES:
        return nonmanip_robustness.instance_config(experiment, NONMANIP_ROBUST, NONMANIP["panels"])
    if experiment in NONMANIP_SENS_NAMES:
        panel = nonmanip_sensitivity.point_of(experiment)[0]
        return {**NONMANIP["panels"][panel], "sensitivity": nonmanip_sensitivity.settings(NONMANIP_SENS, panel)}
    return NONMANIP["panels"][experiment]


def nonmanip_run_params(wildcards):
    """Seeds, horizon and the config slice (provenance) of a run job."""
    robust = wildcards.experiment in NONMANIP_ROBUST_NAMES
    chunk = nonmanip_chunks(wildcards.experiment, wildcards.strategy)[int(wildcards.chunk)]
    return {
        "seeds": [chunk.start, chunk.stop],
        "horizon": NONMANIP_ROBUST["horizon"] if robust else NONMANIP["horizon"],
        "panel": nonmanip_instance_config(wildcards.experiment),
    }


TARGETS["nonmanip"] = [
    *(f"figures/nonmanip/figure{i}.{ext}" for i in range(1, 6) for ext in ("pdf", "png")),
    "figures/nonmanip/figure5_optimal_arm.pdf",
    "figures/nonmanip/table1.csv",
    "figures/nonmanip/table1.md",
    "figures/nonmanip/catalogue.md",
]
if NONMANIP_ROBUST_NAMES:
    TARGETS["nonmanip"] += [
        "figures/nonmanip/robustness.pdf",
        "figures/nonmanip/robustness.png",
        "figures/nonmanip/robustness.md",
    ]

# Rule-level, not global: other papers use wildcards of the same names with other values.
NONMANIP_WILDCARDS = {
    "graph": "|".join(NONMANIP_GRAPHS),
    "panel": "|".join(NONMANIP_PANELS),
    "experiment": "|".join(NONMANIP_PANELS + NONMANIP_ROBUST_NAMES + NONMANIP_SENS_NAMES),  # panels, robustness, sweep
    "robust": "|".join(NONMANIP_ROBUST_NAMES) or "^$",
    "strategy": "BF|MIS|POMIS",  # arm sets played by TS / kl-UCB; POMIS+ has its own run rule
    "algorithm": cb_algorithms.pattern(NONMANIP_SOLVERS),
    "chunk": r"\d+",
}


rule nonmanip_arm_sets:
    """POMIS / MIS / BF sets, projections, MUCT and IB of every (graph, N) case
    (docs/papers/nonmanip.md#nonmanip-numbers-structural)."""
    input:
        script_code("nonmanip_arm_sets.py"),
    output:
        "results/nonmanip/arm_sets/{graph}.json",
    log:
        "logs/nonmanip_arm_sets/{graph}.log",
    wildcard_constraints:
        graph=NONMANIP_WILDCARDS["graph"],
    script:
        "../scripts/nonmanip_arm_sets.py"


rule nonmanip_instance:
    """A Figure 5 panel's arms (canonical order) with exact means from the SCM (pgmpy)."""
    input:
        script_code("nonmanip_instance.py"),
    output:
        "results/nonmanip/instances/{panel}.json",
    log:
        "logs/nonmanip_instance/{panel}.log",
    wildcard_constraints:
        panel=NONMANIP_WILDCARDS["panel"],
    params:
        panel=lambda wc: NONMANIP["panels"][wc.panel],
    script:
        "../scripts/nonmanip_instance.py"


rule nonmanip_catalogue:
    """POMIS+ expression catalogue of a panel (AAAI-19 Alg. 3 l. 2-4), validated on the panel's exact SCM."""
    input:
        instance="results/nonmanip/instances/{panel}.json",
        code=script_code("nonmanip_catalogue.py"),
    output:
        "results/nonmanip/catalogue/{panel}.json",
    log:
        "logs/nonmanip_catalogue/{panel}.log",
    wildcard_constraints:
        panel=NONMANIP_WILDCARDS["experiment"],
    script:
        "../scripts/nonmanip_catalogue.py"


rule nonmanip_catalogue_listing:
    """Every panel's catalogue for the reader: formulas, sources, free indices, instances per arm."""
    input:
        catalogues=expand("results/nonmanip/catalogue/{panel}.json", panel=NONMANIP_PANELS),
        code=script_code("nonmanip_catalogue_listing.py"),
    output:
        report("figures/nonmanip/catalogue.md", caption="../report/nonmanip_catalogue.rst", category="nonmanip"),
    log:
        "logs/nonmanip_catalogue_listing/catalogue.log",
    script:
        "../scripts/nonmanip_catalogue_listing.py"


rule nonmanip_run:
    """One seed chunk of one (panel, arm set, algorithm): all its seeds vectorised."""
    input:
        instance="results/nonmanip/instances/{experiment}.json",
        code=run_sources("nonmanip", nonmanip_policy),
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
    resources:
        mem_mb=lambda wc: 500 + config["seeds_per_job"] * 4,
    params:
        seeds=lambda wc: nonmanip_run_params(wc)["seeds"],
        horizon=lambda wc: nonmanip_run_params(wc)["horizon"],
        record_points=config["record_points"],
        panel=lambda wc: nonmanip_run_params(wc)["panel"],
        policy=lambda wc: nonmanip_policy(wc).path,
    script:
        "../scripts/nonmanip_run.py"


rule nonmanip_run_pomisplus:
    """One seed chunk of POMIS+ on a panel: the POMIS arms with z2-TS / z2-KL-UCB and the panel's catalogue;
    also the refresh spot check (strategy POMISplus_<refresh>: the spot check's refresh schedule)."""
    input:
        instance="results/nonmanip/instances/{experiment}.json",
        catalogue="results/nonmanip/catalogue/{experiment}.json",
        code=run_sources("nonmanip", nonmanip_policy),
    output:
        trace=run_path("nonmanip"),
        summary=summary_path(run_path("nonmanip")),
    log:
        run_path("nonmanip", "logs"),
    benchmark:
        run_path("nonmanip", "benchmarks/out")
    wildcard_constraints:
        experiment=NONMANIP_WILDCARDS["experiment"],
        strategy="|".join(NONMANIP_POMIS_PLUS),
        algorithm=cb_algorithms.pattern(NONMANIP_Z2) or "^$",
        chunk=NONMANIP_WILDCARDS["chunk"],
    resources:
        # the bootstrap keeps B replicates of every seed's data as leaf counts (int32)
        mem_mb=lambda wc: 500 + config["seeds_per_job"] * (4 + NONMANIP["pomis_plus"]["bootstrap"] // 100),
    params:
        seeds=lambda wc: nonmanip_run_params(wc)["seeds"],
        horizon=lambda wc: nonmanip_run_params(wc)["horizon"],
        record_points=config["record_points"],
        panel=lambda wc: nonmanip_run_params(wc)["panel"],
        policy=lambda wc: nonmanip_policy(wc).path,
        pomis_plus=lambda wc: pomis_plus_settings(NONMANIP["pomis_plus"], wc.strategy),
    script:
        "../scripts/nonmanip_run.py"


def nonmanip_run_files(wildcards):
    return {
        f"{s}/{a}": expand(
            run_path("nonmanip"),
            experiment=wildcards.panel,
            strategy=s,
            algorithm=a,
            chunk=range(len(NONMANIP_CHUNKS)),
        )
        for s in NONMANIP["strategies"]
        for a in NONMANIP["algorithms"]
        if nonmanip_plays(s, a)
    }


rule nonmanip_aggregate:
    """Mean regret, 95 % CI and optimal-arm probability per round; bitwise identity of runs."""
    input:
        unpack(nonmanip_run_files),
        instance="results/nonmanip/instances/{panel}.json",
        code=script_code("nonmanip_aggregate.py"),
    output:
        agg="results/nonmanip/agg/{panel}.parquet",
        identical="results/nonmanip/agg/{panel}.identical.json",
    log:
        "logs/nonmanip_aggregate/{panel}.log",
    wildcard_constraints:
        panel=NONMANIP_WILDCARDS["panel"],
    script:
        "../scripts/nonmanip_aggregate.py"


def nonmanip_spot_check_summaries(wildcards):
    """Per-seed summaries the spot check pairs: its runs and the main POMIS+ chunks that hold its seeds."""
    if not NONMANIP_SPOT:
        return {}
    strategy, n = NONMANIP_SPOT
    main = [k for k, chunk in enumerate(NONMANIP_CHUNKS) if chunk.start < n]
    return {
        f"spot/{p}/{s}/{a}": [
            summary_path(run_path("nonmanip")).format(experiment=p, strategy=s, algorithm=a, chunk=k) for k in chunks
        ]
        for p in NONMANIP_PANELS
        for a in NONMANIP["algorithms"]
        if a in NONMANIP_Z2
        for s, chunks in ((POMIS_PLUS, main), (strategy, range(len(NONMANIP_SPOT_CHUNKS))))
    }


rule nonmanip_table1:
    """Table 1: mean cumulative regret at T, ours beside the paper's, the POMIS+ reduction row and the refresh
    spot check (paired on the same seeds)."""
    input:
        unpack(nonmanip_spot_check_summaries),
        agg=expand("results/nonmanip/agg/{panel}.parquet", panel=NONMANIP_PANELS),
        instances=expand("results/nonmanip/instances/{panel}.json", panel=NONMANIP_PANELS),
        catalogues=expand("results/nonmanip/catalogue/{panel}.json", panel=NONMANIP_PANELS),
        efficiency=expand("results/nonmanip/sensitivity/{panel}.json", panel=NONMANIP_PANELS),
        code=script_code("nonmanip_table1.py"),
    output:
        csv=report("figures/nonmanip/table1.csv", caption="../report/nonmanip_table1.rst", category="nonmanip"),
        md=report("figures/nonmanip/table1.md", caption="../report/nonmanip_table1.rst", category="nonmanip"),
    log:
        "logs/nonmanip_table1/table1.log",
    params:
        pomis_plus=NONMANIP["pomis_plus"],
        horizon=NONMANIP["horizon"],
    script:
        "../scripts/nonmanip_table1.py"


rule nonmanip_figure5:
    """Figure 5: cumulative regret per panel (a-c) and the Fig. 5d graph (d)."""
    input:
        agg=expand("results/nonmanip/agg/{panel}.parquet", panel=NONMANIP_PANELS),
        instances=expand("results/nonmanip/instances/{panel}.json", panel=NONMANIP_PANELS),
        code=script_code("nonmanip_figure5.py"),
    output:
        pdf=report("figures/nonmanip/figure5.pdf", caption="../report/nonmanip_figure5.rst", category="nonmanip"),
        png=report("figures/nonmanip/figure5.png", caption="../report/nonmanip_figure5.rst", category="nonmanip"),
        oap=report(
            "figures/nonmanip/figure5_optimal_arm.pdf",
            caption="../report/nonmanip_figure5_optimal_arm.rst",
            category="nonmanip",
        ),
        oap_png=report(
            "figures/nonmanip/figure5_optimal_arm.png",
            caption="../report/nonmanip_figure5_optimal_arm.rst",
            category="nonmanip",
        ),
    log:
        "logs/nonmanip_figure5/figure5.log",
    script:
        "../scripts/nonmanip_figure5.py"


rule nonmanip_diagrams:
    """Figures 1-4: the paper's causal diagrams, MUCT/IB and projections, computed."""
    input:
        script_code("nonmanip_diagrams.py"),
    output:
        report(
            expand("figures/nonmanip/figure{i}.{ext}", i=range(1, 5), ext=("pdf", "png")),
            caption="../report/nonmanip_diagrams.rst",
            category="nonmanip",
        ),
    log:
        "logs/nonmanip_diagrams/diagrams.log",
    script:
        "../scripts/nonmanip_diagrams.py"


rule nonmanip_robustness_graphs:
    """Beyond the paper: every graph consistent with the paper's Fig. 5d facts, and the seeded sample run."""
    input:
        script_code("nonmanip_robustness_graphs.py"),
    output:
        "results/nonmanip/robustness/graphs.json",
    log:
        "logs/nonmanip_robustness_graphs/graphs.log",
    benchmark:
        "benchmarks/out/nonmanip/robustness_graphs.tsv"
    params:
        # only the limits: the document lists every graph in the seeded order the sample takes first,
        # and the expression counts the report quotes have a rule of their own (changing how far they
        # count reruns no instance)
        graphs={k: NONMANIP_ROBUST["graphs"][k] for k in ("max_directed", "max_bidirected")},
    script:
        "../scripts/nonmanip_robustness_graphs.py"


rule nonmanip_robustness_graph_counts:
    """Beyond the paper: how many of the fitting graphs give the paper's 24 expressions (for the report)."""
    input:
        graphs="results/nonmanip/robustness/graphs.json",
        code=script_code("nonmanip_robustness_graph_counts.py"),
    output:
        "results/nonmanip/robustness/graph_counts.json",
    log:
        "logs/nonmanip_robustness_graph_counts/graph_counts.log",
    benchmark:
        "benchmarks/out/nonmanip/robustness_graph_counts.tsv"
    params:
        up_to_edges=NONMANIP_ROBUST["graphs"]["count_expressions_up_to_edges"],
    script:
        "../scripts/nonmanip_robustness_graph_counts.py"


rule nonmanip_robustness_instance:
    """Beyond the paper: a robustness instance (graph, N, random SCM) with its arms and exact means."""
    input:
        graphs=lambda wc: ["results/nonmanip/robustness/graphs.json"] if wc.experiment.startswith("rob_g") else [],
        code=script_code("nonmanip_robustness_instance.py"),
    output:
        "results/nonmanip/instances/{experiment}.json",
    log:
        "logs/nonmanip_robustness_instance/{experiment}.log",
    wildcard_constraints:
        experiment=NONMANIP_WILDCARDS["robust"],
    params:
        config=lambda wc: nonmanip_instance_config(wc.experiment),
    script:
        "../scripts/nonmanip_robustness_instance.py"


def nonmanip_robustness_summaries(wildcards):
    return {
        f"{e}/{s}/{a}": [
            summary_path(run_path("nonmanip")).format(experiment=e, strategy=s, algorithm=a, chunk=k)
            for k in range(len(NONMANIP_ROBUST_CHUNKS))
        ]
        for e in NONMANIP_ROBUST_NAMES
        for s in NONMANIP["strategies"]
        for a in NONMANIP["algorithms"]
        if nonmanip_plays(s, a)
    }


rule nonmanip_robustness_orderings:
    """Beyond the paper: for every robustness instance and solver, whether each of the paper's orderings holds."""
    input:
        unpack(nonmanip_robustness_summaries),
        instances=expand("results/nonmanip/instances/{experiment}.json", experiment=NONMANIP_ROBUST_NAMES),
        code=script_code("nonmanip_robustness_orderings.py"),
    output:
        "results/nonmanip/robustness/orderings.csv",
    log:
        "logs/nonmanip_robustness_orderings/orderings.log",
    script:
        "../scripts/nonmanip_robustness_orderings.py"


rule nonmanip_robustness_report:
    """Beyond the paper: the robustness figure (regret ratios) and table (how often each ordering holds)."""
    input:
        orderings="results/nonmanip/robustness/orderings.csv",
        graphs=["results/nonmanip/robustness/graph_counts.json"] if NONMANIP_ROBUST["graphs"]["sample"] else [],
        code=script_code("nonmanip_robustness_report.py"),
    output:
        pdf=report("figures/nonmanip/robustness.pdf", caption="../report/nonmanip_robustness.rst", category="nonmanip"),
        png=report("figures/nonmanip/robustness.png", caption="../report/nonmanip_robustness.rst", category="nonmanip"),
        md=report("figures/nonmanip/robustness.md", caption="../report/nonmanip_robustness.rst", category="nonmanip"),
    log:
        "logs/nonmanip_robustness_report/report.log",
    params:
        titles={p: NONMANIP["panels"][p].get("title", p) for p in NONMANIP_PANELS},
        robustness=NONMANIP_ROBUST,
    script:
        "../scripts/nonmanip_robustness_report.py"


rule nonmanip_claims:
    """Each claim of the paper evaluated on our results."""
    input:
        arm_sets=expand("results/nonmanip/arm_sets/{graph}.json", graph=NONMANIP_GRAPHS),
        instances=expand("results/nonmanip/instances/{panel}.json", panel=NONMANIP_PANELS),
        agg=expand("results/nonmanip/agg/{panel}.parquet", panel=NONMANIP_PANELS),
        identical=expand("results/nonmanip/agg/{panel}.identical.json", panel=NONMANIP_PANELS),
        catalogues=expand("results/nonmanip/catalogue/{panel}.json", panel=NONMANIP_PANELS),
        table1="figures/nonmanip/table1.csv",
        robustness=["results/nonmanip/robustness/orderings.csv"] if NONMANIP_ROBUST_NAMES else [],
        robustness_graphs=(
            ["results/nonmanip/robustness/graph_counts.json"] if NONMANIP_ROBUST["graphs"]["sample"] else []
        ),
        sensitivity=["results/nonmanip/sensitivity/findings.json"] if NONMANIP_SENS_NAMES else [],
        code=script_code("nonmanip_claims.py"),
    output:
        "results/claims/nonmanip.json",
    log:
        "logs/nonmanip_claims/claims.log",
    params:
        section=NONMANIP,
    script:
        "../scripts/nonmanip_claims.py"


include: "nonmanip_sensitivity.smk"
