# Combinatorial pure exploration of causal bandits (ICLR 2023): designed experiments E0-E5 (the paper has none).
# instances (+ exact quantities) -> runs (stopping times, on the one engine) -> aggregate -> tables, figures, claims.
from causal_bandits.papers.cpe import design as cpe_design

CPE = config["cpe"]
CPE_EXPERIMENTS = cpe_design.experiments_run(CPE)
CPE_JOBS = [j for j in cpe_design.jobs(CPE) if j.experiment in CPE_EXPERIMENTS]
CPE_KEYS = sorted({(j.experiment, j.config) for j in CPE_JOBS})
CPE_FIGURES = {"E0": 0, "E1": 1, "E2": 2, "E3": 3, "E4": 4, "E5": 5}
TARGETS["cpe"] = [
    *(
        f"figures/cpe/table{i}_{name}.{ext}"
        for i, name in ((1, "instances"), (2, "pac"), (3, "lower_bound"), (4, "slopes"))
        for ext in ("csv", "md")
    ),
    *(
        f"figures/cpe/figure{CPE_FIGURES[e]}.{ext}"
        for e in CPE_EXPERIMENTS
        if e in CPE_FIGURES
        for ext in ("pdf", "png")
    ),
    *(f"figures/cpe/figure6.{ext}" for ext in ("pdf", "png")),
]

CPE_WILDCARDS = {
    "experiment": "|".join(sorted({cpe_design.run_key(e, c) for e, c in CPE_KEYS})) or "none",
    "strategy": "|".join(sorted({j.strategy for j in CPE_JOBS})) or "none",
    "algorithm": cb_algorithms.pattern(sorted({j.algorithm for j in CPE_JOBS})) or "none",
    "chunk": r"\d+",
}


def cpe_chunks(job):
    return chunk_seeds(job.n_seeds, config["seeds_per_job"])


def cpe_job(wc):
    return cpe_design.job(CPE, wc.experiment, wc.strategy, wc.algorithm)


rule cpe_instance:
    """One config's instance document: SCM, actions, admissible sequences, exact means (closed form)."""
    input:
        script_code("cpe_instance.py"),
    output:
        "results/cpe/instances/{exp}/{config}.json",
    log:
        "logs/cpe_instance/{exp}/{config}.log",
    wildcard_constraints:
        exp=r"[A-Za-z0-9]+",
        config=r"[A-Za-z0-9.]+",
    params:
        spec=lambda wc: CPE["experiments"][wc.exp]["configs"][wc.config],
    script:
        "../scripts/cpe_instance.py"


rule cpe_quantities:
    """One instance's exact complexity quantities (docs/papers/cpe.md#cpe-quantities): per-arm table and summary."""
    input:
        instance="results/cpe/instances/{exp}/{config}.json",
        code=script_code("cpe_quantities.py"),
    output:
        "results/cpe/quantities/{exp}/{config}.json",
    log:
        "logs/cpe_quantities/{exp}/{config}.log",
    wildcard_constraints:
        exp=r"[A-Za-z0-9]+",
        config=r"[A-Za-z0-9.]+",
    params:
        epsilon=lambda wc: cpe_design.epsilon(CPE, wc.exp, wc.config),
        delta=CPE["delta"],
    script:
        "../scripts/cpe_quantities.py"


rule cpe_theory:
    """E4b: H, H_m (q^(G)) and H_m (q^(L)) of the two-layer BGLM for every k (pure computation)."""
    input:
        script_code("cpe_theory.py"),
    output:
        "results/cpe/theory_e4b.json",
    log:
        "logs/cpe_theory/e4b.log",
    params:
        k=CPE["theory_k"],
        delta=CPE["delta"],
    script:
        "../scripts/cpe_theory.py"


rule cpe_run:
    """One seed chunk of one (config, strategy, algorithm): its seeds vectorised, each stopping on its own."""
    input:
        instance=lambda wc: "results/cpe/instances/{}/{}.json".format(*wc.experiment.split("-", 1)),
        code=run_sources("cpe"),
    output:
        trace=run_path("cpe"),
        summary=summary_path(run_path("cpe")),
    log:
        run_path("cpe", "logs"),
    benchmark:
        run_path("cpe", "benchmarks/out")
    wildcard_constraints:
        experiment=CPE_WILDCARDS["experiment"],
        strategy=CPE_WILDCARDS["strategy"],
        algorithm=CPE_WILDCARDS["algorithm"],
        chunk=CPE_WILDCARDS["chunk"],
    resources:
        mem_mb=lambda wc: 1000 + config["seeds_per_job"] * 20,
    params:
        job=lambda wc: cpe_job(wc).__dict__,
        seeds=lambda wc: [cpe_chunks(cpe_job(wc))[int(wc.chunk)].start, cpe_chunks(cpe_job(wc))[int(wc.chunk)].stop],
        epsilon=lambda wc: cpe_design.epsilon(CPE, *wc.experiment.split("-", 1)),
        delta=CPE["delta"],
        horizon=CPE["horizon"],
        checkpoint_first=CPE["checkpoint_first"],
    script:
        "../scripts/cpe_run.py"


def cpe_experiment_inputs(wildcards):
    jobs = [j for j in CPE_JOBS if j.experiment == wildcards.exp]
    runs = [
        summary_path(run_path("cpe")).format(experiment=j.key, strategy=j.strategy, algorithm=j.algorithm, chunk=k)
        for j in jobs
        for k in range(len(cpe_chunks(j)))
    ]
    configs = sorted({j.config for j in jobs})
    return {
        "runs": runs,
        "instances": [f"results/cpe/instances/{wildcards.exp}/{c}.json" for c in configs],
        "quantities": [f"results/cpe/quantities/{wildcards.exp}/{c}.json" for c in configs],
    }


rule cpe_aggregate:
    """Per (config, strategy, algorithm): stopping times, censoring, correctness (Wilson), CI coverage;
    error against budget and T_delta."""
    input:
        unpack(cpe_experiment_inputs),
        code=script_code("cpe_aggregate.py"),
    output:
        stopping="results/cpe/agg/{exp}.parquet",
        budget="results/cpe/agg/{exp}.budget.parquet",
    log:
        "logs/cpe_aggregate/{exp}.log",
    wildcard_constraints:
        exp=r"[A-Za-z0-9]+",
    params:
        delta=CPE["delta"],
        spec=lambda wc: CPE["experiments"][wc.exp],
    script:
        "../scripts/cpe_aggregate.py"


CPE_AGG = {
    "stopping": expand("results/cpe/agg/{exp}.parquet", exp=CPE_EXPERIMENTS),
    "budget": expand("results/cpe/agg/{exp}.budget.parquet", exp=CPE_EXPERIMENTS),
    "quantities": [f"results/cpe/quantities/{e}/{c}.json" for e, c in CPE_KEYS],
}


rule cpe_tables:
    """Tables 1-4 [designed]: instance quantities, PAC correctness, lower bound (E5), log-log slopes."""
    input:
        **CPE_AGG,
        theory="results/cpe/theory_e4b.json",
        code=script_code("cpe_tables.py"),
    output:
        report(
            expand("figures/cpe/table{name}.csv", name=["1_instances", "2_pac", "3_lower_bound", "4_slopes"]),
            caption="../report/cpe_tables.rst",
            category="cpe",
        ),
        report(
            expand("figures/cpe/table{name}.md", name=["1_instances", "2_pac", "3_lower_bound", "4_slopes"]),
            caption="../report/cpe_tables.rst",
            category="cpe",
        ),
    log:
        "logs/cpe_tables/tables.log",
    params:
        delta=CPE["delta"],
        experiments={e: CPE["experiments"][e] for e in CPE_EXPERIMENTS},
    script:
        "../scripts/cpe_tables.py"


rule cpe_figures:
    """Figures 0-6 [designed]: samples against |A|, gap, confounding, BGLM size and the lower bound;
    CI coverage; error against budget; with the theory's terms beside the measurements."""
    input:
        **CPE_AGG,
        theory="results/cpe/theory_e4b.json",
        code=script_code("cpe_figures.py"),
    output:
        report(
            [t for t in TARGETS["cpe"] if "/figure" in t and t.endswith(".pdf")],
            caption="../report/cpe_figures.rst",
            category="cpe",
        ),
        report(
            [t for t in TARGETS["cpe"] if "/figure" in t and t.endswith(".png")],
            caption="../report/cpe_figures.rst",
            category="cpe",
        ),
    log:
        "logs/cpe_figures/figures.log",
    params:
        delta=CPE["delta"],
        experiments={e: CPE["experiments"][e] for e in CPE_EXPERIMENTS},
        scale=f"sample cap {CPE['horizon']:,}, {CPE['n_seeds']:,} seeds per setting",
    script:
        "../scripts/cpe_figures.py"


rule cpe_claims:
    """Each claim (docs/papers/cpe.md#cpe-results: the theorems' and the designed predictions) evaluated on our
    results."""
    input:
        **CPE_AGG,
        theory="results/cpe/theory_e4b.json",
        code=script_code("cpe_claims.py"),
    output:
        "results/claims/cpe.json",
    log:
        "logs/cpe_claims/claims.log",
    params:
        section=CPE,
        experiments=CPE_EXPERIMENTS,
    script:
        "../scripts/cpe_claims.py"
