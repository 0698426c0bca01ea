# cpe's globals and input functions (its rules are in cpe.smk).
from causal_bandits.papers.cpe import design as cpe_design
from causal_bandits.papers.cpe import runs as cpe_runs

CPE = config["cpe"]
CPE_EXPERIMENTS = cpe_design.experiments_run(CPE)
CPE_JOBS = [j for j in cpe_design.jobs(CPE) if j.experiment in CPE_EXPERIMENTS]
CPE_KEYS = sorted({(j.experiment, j.config) for j in CPE_JOBS})
TARGETS["cpe"] = paper_artefact_paths("cpe")

CPE_WILDCARDS = {
    "experiment": "|".join(sorted({cpe_design.run_key(e, c) for e, c in CPE_KEYS})) or "none",
    "strategy": "|".join(sorted({j.strategy for j in CPE_JOBS})) or "none",
    "algorithm": cb_algorithms.pattern(sorted({j.algorithm for j in CPE_JOBS})) or "none",
    "chunk": r"\d+",
}


def cpe_chunks(job):
    return cpe_runs.chunks(config, job)


CPE_JOB = run_job(cpe_runs.describe)


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


CPE_AGG = {
    "stopping": expand("results/cpe/agg/{exp}.parquet", exp=CPE_EXPERIMENTS),
    "budget": expand("results/cpe/agg/{exp}.budget.parquet", exp=CPE_EXPERIMENTS),
    "quantities": [f"results/cpe/quantities/{e}/{c}.json" for e, c in CPE_KEYS],
}
