# Lee & Bareinboim (AAAI-19): arm sets -> instances -> runs -> aggregate -> Table 1, Figure 5, claims.
NONMANIP = config["nonmanip"]
NONMANIP_PANELS = list(NONMANIP["panels"])
NONMANIP_GRAPHS = ["frontdoor", "fig2a", "fig3", "fig5d"]
NONMANIP_CHUNKS = chunk_seeds(NONMANIP["n_seeds"], config["seeds_per_job"])
TARGETS["nonmanip"] = [
    *(f"figures/nonmanip/figure{i}.{ext}" for i in range(1, 6) for ext in ("pdf", "png")),
    "figures/nonmanip/figure5_optimal_arm.pdf",
    "figures/nonmanip/table1.csv",
    "figures/nonmanip/table1.md",
]

# Rule-level, not global: other papers use wildcards of the same names with other values.
NONMANIP_WILDCARDS = {
    "graph": "|".join(NONMANIP_GRAPHS),
    "experiment": "|".join(NONMANIP_PANELS),  # an experiment is a Figure 5 panel
    "strategy": "BF|MIS|POMIS",
    "algorithm": "TS|KLUCB",
    "chunk": r"\d+",
}


rule nonmanip_arm_sets:
    """POMIS / MIS / BF sets, projections, MUCT and IB of every (graph, N) case (SPEC §4.1)."""
    wildcard_constraints:
        graph=NONMANIP_WILDCARDS["graph"],
    input:
        script_code("nonmanip_arm_sets.py"),
    output:
        "results/nonmanip/arm_sets/{graph}.json",
    log:
        "logs/nonmanip_arm_sets/{graph}.log",
    script:
        "../scripts/nonmanip_arm_sets.py"


rule nonmanip_instance:
    """A Figure 5 panel's arms (canonical order) with exact means from the SCM (pgmpy)."""
    wildcard_constraints:
        experiment=NONMANIP_WILDCARDS["experiment"],
    input:
        script_code("nonmanip_instance.py"),
    output:
        "results/nonmanip/instances/{experiment}.json",
    params:
        panel=lambda wc: NONMANIP["panels"][wc.experiment],
    log:
        "logs/nonmanip_instance/{experiment}.log",
    script:
        "../scripts/nonmanip_instance.py"


rule nonmanip_run:
    """One seed chunk of one (panel, arm set, algorithm): all its seeds vectorised."""
    wildcard_constraints:
        experiment=NONMANIP_WILDCARDS["experiment"],
        strategy=NONMANIP_WILDCARDS["strategy"],
        algorithm=NONMANIP_WILDCARDS["algorithm"],
        chunk=NONMANIP_WILDCARDS["chunk"],
    input:
        instance="results/nonmanip/instances/{experiment}.json",
        code=run_sources("nonmanip"),
    output:
        trace=run_path("nonmanip"),
        summary=summary_path(run_path("nonmanip")),
    params:
        seeds=lambda wc: [NONMANIP_CHUNKS[int(wc.chunk)].start, NONMANIP_CHUNKS[int(wc.chunk)].stop],
        horizon=NONMANIP["horizon"],
        record_points=config["record_points"],
        panel=lambda wc: NONMANIP["panels"][wc.experiment],
    resources:
        mem_mb=lambda wc: 500 + config["seeds_per_job"] * 4,
    log:
        run_path("nonmanip", "logs"),
    benchmark:
        run_path("nonmanip", "benchmarks/out")
    script:
        "../scripts/nonmanip_run.py"


def nonmanip_run_files(wildcards):
    return {
        f"{s}/{a}": expand(
            run_path("nonmanip"),
            experiment=wildcards.experiment,
            strategy=s,
            algorithm=a,
            chunk=range(len(NONMANIP_CHUNKS)),
        )
        for s in NONMANIP["strategies"]
        for a in NONMANIP["algorithms"]
    }


rule nonmanip_aggregate:
    """Mean regret, 95 % CI and optimal-arm probability per round; bitwise identity of runs."""
    wildcard_constraints:
        experiment=NONMANIP_WILDCARDS["experiment"],
    input:
        unpack(nonmanip_run_files),
        instance="results/nonmanip/instances/{experiment}.json",
        code=script_code("nonmanip_aggregate.py"),
    output:
        agg="results/nonmanip/agg/{experiment}.parquet",
        identical="results/nonmanip/agg/{experiment}.identical.json",
    log:
        "logs/nonmanip_aggregate/{experiment}.log",
    script:
        "../scripts/nonmanip_aggregate.py"


rule nonmanip_table1:
    """Table 1: mean cumulative regret at T, ours beside the paper's."""
    input:
        agg=expand("results/nonmanip/agg/{experiment}.parquet", experiment=NONMANIP_PANELS),
        instances=expand("results/nonmanip/instances/{experiment}.json", experiment=NONMANIP_PANELS),
        code=script_code("nonmanip_table1.py"),
    output:
        csv=report("figures/nonmanip/table1.csv", caption="../report/nonmanip_table1.rst", category="nonmanip"),
        md=report("figures/nonmanip/table1.md", caption="../report/nonmanip_table1.rst", category="nonmanip"),
    log:
        "logs/nonmanip_table1/table1.log",
    script:
        "../scripts/nonmanip_table1.py"


rule nonmanip_figure5:
    """Figure 5: cumulative regret per panel (a-c) and the Fig. 5d graph (d)."""
    input:
        agg=expand("results/nonmanip/agg/{experiment}.parquet", experiment=NONMANIP_PANELS),
        instances=expand("results/nonmanip/instances/{experiment}.json", experiment=NONMANIP_PANELS),
        code=script_code("nonmanip_figure5.py"),
    output:
        pdf=report("figures/nonmanip/figure5.pdf", caption="../report/nonmanip_figure5.rst", category="nonmanip"),
        png=report("figures/nonmanip/figure5.png", caption="../report/nonmanip_figure5.rst", category="nonmanip"),
        oap=report("figures/nonmanip/figure5_optimal_arm.pdf", caption="../report/nonmanip_figure5_optimal_arm.rst",
                   category="nonmanip"),
        oap_png=report("figures/nonmanip/figure5_optimal_arm.png", caption="../report/nonmanip_figure5_optimal_arm.rst",
                       category="nonmanip"),
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


rule nonmanip_claims:
    """Each claim of the paper evaluated on our results."""
    input:
        arm_sets=expand("results/nonmanip/arm_sets/{graph}.json", graph=NONMANIP_GRAPHS),
        instances=expand("results/nonmanip/instances/{experiment}.json", experiment=NONMANIP_PANELS),
        agg=expand("results/nonmanip/agg/{experiment}.parquet", experiment=NONMANIP_PANELS),
        identical=expand("results/nonmanip/agg/{experiment}.identical.json", experiment=NONMANIP_PANELS),
        table1="figures/nonmanip/table1.csv",
        code=script_code("nonmanip_claims.py"),
    output:
        "results/claims/nonmanip.json",
    params:
        section=NONMANIP,
    log:
        "logs/nonmanip_claims/claims.log",
    script:
        "../scripts/nonmanip_claims.py"
