# fairness's globals and input functions (its rules are in fairness.smk).
import os
import re

from causal_bandits.data.raw import RawFile, locate, present
from causal_bandits.papers.fairness import runs as fair_runs
from causal_bandits.papers.fairness.runs import ALGORITHM_PATTERN as FAIR_ALGORITHM_PATTERN
from causal_bandits.papers.fairness.runs import EXPERIMENTS as FAIR_EXPERIMENTS
from causal_bandits.papers.fairness.runs import STRATEGY as FAIR_STRATEGY
from causal_bandits.papers.fairness.runs import algorithm_key as fair_algorithm_key
from causal_bandits.papers.fairness.runs import algorithms as fair_algorithms

FAIR = config["fairness"]
FAIR_RAW_DIR = config["data"]["raw_dir"]
RAW_SHA256_CACHE = ".snakemake/causal_bandits/raw_sha256.json"
FAIR_RAW = {
    "adult": [RawFile.from_config(FAIR["raw"]["adult"])],
    "youtube": [RawFile.from_config(e) for e in FAIR["raw"]["youtube"]],
}
FAIR_STANDIN = FAIR["raw"]["on_missing"] == "standin"
# A raw file that is present but not the pinned one stops the planning with one line (its checksum is read once
# per size and modification time: raw.cached_sha256); missing ones are downloaded or stood in for.
try:
    FAIR_MISSING = present(FAIR_RAW_DIR, [s for specs in FAIR_RAW.values() for s in specs], RAW_SHA256_CACHE)
except CausalBanditsError as err:
    sys.exit(f"error: {err}")
FAIR_CHUNKS = fair_runs.chunks(config)
FAIR_JOB = run_job(fair_runs.describe)
FAIR_ALGORITHMS = {e: fair_algorithms(e, FAIR) for e in FAIR_EXPERIMENTS}
TARGETS["fairness"] = paper_artefact_paths("fairness")


def fair_source(spec):
    """Where a pinned raw file comes from: the raw-data directory, a stand-in, or a download."""
    found = locate(FAIR_RAW_DIR, spec)
    if found is not None:
        return str(found)
    if FAIR_STANDIN:
        return f"data/standin/{spec.path}"
    return os.path.join(FAIR_RAW_DIR, spec.path)


def fair_raw_files(dataset):
    return [fair_source(s) for s in FAIR_RAW[dataset]]


def fair_run_files(wildcards):
    """Trace files of every algorithm of an experiment, by algorithm, and all their summaries."""
    files = {
        a: expand(
            run_path("fairness"),
            experiment=wildcards.experiment,
            strategy=FAIR_STRATEGY,
            algorithm=a,
            chunk=range(len(FAIR_CHUNKS)),
        )
        for a in FAIR_ALGORITHMS[wildcards.experiment]
    }
    return {**files, "summaries": [summary_path(f) for paths in files.values() for f in paths]}


# Wildcard constraints are rule-level here: global ones would leak into other papers' rules.
FAIR_EXPERIMENT_PATTERN = "|".join(FAIR_EXPERIMENTS)
