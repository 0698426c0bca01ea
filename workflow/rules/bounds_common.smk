# bounds's globals and input functions (its rules are in bounds.smk).
import re

from causal_bandits.papers.bounds import runs as bounds_runs
from causal_bandits.papers.bounds.runs import APPENDIX as BOUNDS_APPENDIX
from causal_bandits.papers.bounds.runs import FIGURE4 as BOUNDS_FIGURE4
from causal_bandits.papers.bounds.runs import coordinates as bounds_coordinates
from causal_bandits.papers.bounds.runs import setting_name as bounds_setting

BOUNDS = config["bounds"]
BOUNDS_ONLINE = BOUNDS["online"]
BOUNDS_SCALE = f"T = {BOUNDS['horizon']:,}, {BOUNDS['n_seeds']} runs"
BOUNDS_CHUNKS = bounds_runs.chunks(config)
BOUNDS_MAIN = bounds_setting(BOUNDS_ONLINE["alpha"])
BOUNDS_ALPHAS = {bounds_setting(a): a for a in [BOUNDS_ONLINE["alpha"], *BOUNDS_ONLINE["sensitivity_alphas"]]}
BOUNDS_SETTINGS = {**{s: list(BOUNDS_FIGURE4) for s in BOUNDS_ALPHAS}, "appendix": list(BOUNDS_APPENDIX)}
BOUNDS_STRATEGIES = [bounds_coordinates(s)[1] for s in BOUNDS_SETTINGS]
BOUNDS_ALGORITHMS = [*BOUNDS_FIGURE4, *BOUNDS_APPENDIX]
BOUNDS_VARIANTS = ["conditional", "paper_marginal"]
TARGETS["bounds"] = paper_artefact_paths("bounds")


BOUNDS_JOB = run_job(bounds_runs.describe)
BOUNDS_WILDCARDS = {
    "variant": "|".join(BOUNDS_VARIANTS),
    "setting": "|".join(map(re.escape, BOUNDS_SETTINGS)),
}


def bounds_run_inputs(wildcards):
    inputs = {
        "exact": "results/bounds/exact.json",
        "estimates": "results/bounds/offline/estimates_conditional.parquet",
        "summary": "results/bounds/offline/summary.json",
    }
    if BOUNDS_ONLINE["context_source"] == "offline_rows":
        inputs["full"] = "data/generated/bounds/full.parquet"
    return inputs


def bounds_run_files(wildcards):
    experiment, strategy = bounds_coordinates(wildcards.setting)
    return {
        algorithm: expand(
            run_path("bounds"),
            experiment=experiment,
            strategy=strategy,
            algorithm=algorithm,
            chunk=range(len(BOUNDS_CHUNKS)),
        )
        for algorithm in BOUNDS_SETTINGS[wildcards.setting]
    }
