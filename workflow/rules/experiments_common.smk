# experiments's globals and input functions (its rules are in experiments.smk).
from causal_bandits.experiments import algorithms as cb_experiment_algorithms
from causal_bandits.experiments import config as cb_experiments_config
from causal_bandits.experiments import runs as cb_experiments_runs
from causal_bandits.papers.nonmanip import POMIS_PLUS

EXPERIMENTS = config["experiments"]  # checked with the whole config (common.smk: causal_bandits.config.check)

EXPERIMENTS_WILDCARDS = {
    "experiment": "|".join(EXPERIMENTS) or "^$",
    "strategy": "|".join(sorted({s for e in EXPERIMENTS.values() for s in cb_experiments_config.strategies(e)}))
    or "^$",
    "algorithm": "|".join(sorted({a for e in EXPERIMENTS.values() for a in e["algorithms"]})) or "^$",
    "chunk": r"\d+",
}


def experiments_chunks(name):
    return cb_experiments_runs.chunks(config, name)


def experiments_figures(name):
    return [f"figures/experiments/{name}/{f}" for f in ("table.csv", "table.md", "regret.pdf", "regret.png")]


TARGETS["experiments"] = [path for name in EXPERIMENTS for path in experiments_figures(name)]


def experiments_instance_inputs(wildcards):
    """The diagram's JSON file when the experiment names one."""
    diagram = EXPERIMENTS[wildcards.experiment]["diagram"]
    return [diagram] if isinstance(diagram, str) else []


def experiments_run_inputs(wildcards):
    """The instance, and POMIS+'s catalogue."""
    out = {"instance": f"results/experiments/{wildcards.experiment}/instance.json"}
    if wildcards.strategy == POMIS_PLUS:
        out["catalogue"] = f"results/experiments/{wildcards.experiment}/catalogue.json"
    return out


EXPERIMENTS_JOB = run_job(cb_experiments_runs.describe)


def experiments_run_files(wildcards):
    experiment = EXPERIMENTS[wildcards.experiment]
    return {
        f"{s}/{a}": expand(
            run_path("experiments"),
            experiment=wildcards.experiment,
            strategy=s,
            algorithm=a,
            chunk=range(len(experiments_chunks(wildcards.experiment))),
        )
        for s in cb_experiments_config.strategies(experiment)
        for a in experiment["algorithms"]
        if cb_experiment_algorithms.supports(a, s)  # POMIS+ runs the solvers with a z² version, as the paper does
    }
