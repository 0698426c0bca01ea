# nonmanip's globals and input functions (its rules are in nonmanip.smk; Snakemake's linter keeps functions
# out of rule files).
from causal_bandits.papers.nonmanip import POMIS_PLUS
from causal_bandits.papers.nonmanip import runs as nonmanip_runs

NONMANIP = config["nonmanip"]
NONMANIP_PANELS = list(NONMANIP["panels"])
NONMANIP_GRAPHS = ["frontdoor", "fig2a", "fig3", "fig5d"]
# The solvers (causal_bandits/papers/nonmanip/algorithms.py): POMIS+ runs only those with a z² version.
NONMANIP_SOLVERS = cb_algorithms.solvers("nonmanip")
NONMANIP_Z2 = [a for a in NONMANIP_SOLVERS if cb_algorithms.registry("nonmanip")[a].z2]


def nonmanip_plays(strategy, algorithm):
    """Whether a configured solver plays a strategy: POMIS+ only with a z² version."""
    return strategy != POMIS_PLUS or algorithm in NONMANIP_Z2


def nonmanip_policy(wildcards):
    """The policy class (dotted path) of the registry entry that plays a run: the solver, or its z² version under
    POMIS+."""
    return cb_algorithms.played("nonmanip", wildcards.algorithm, z2=wildcards.strategy == POMIS_PLUS).path


def nonmanip_chunks(panel, strategy):
    """Seed chunks of a run (papers/nonmanip/runs.py, chunks; docs/performance.md#job-sizes)."""
    return nonmanip_runs.chunks(NONMANIP, config["seeds_per_job"], strategy)


NONMANIP_JOB = run_job(nonmanip_runs.describe)


TARGETS["nonmanip"] = paper_artefact_paths("nonmanip")

# Rule-level, not global: other papers use wildcards of the same names with other values.
NONMANIP_WILDCARDS = {
    "graph": "|".join(NONMANIP_GRAPHS),
    "panel": "|".join(NONMANIP_PANELS),
    "strategy": "BF|MIS|POMIS",  # arm sets played by TS / kl-UCB; POMIS+ has its own run rule
    "algorithm": cb_algorithms.pattern(NONMANIP_SOLVERS),
    "chunk": r"\d+",
}


def nonmanip_run_files(wildcards):
    return {
        f"{s}/{a}": expand(
            run_path("nonmanip"),
            experiment=wildcards.panel,
            strategy=s,
            algorithm=a,
            chunk=range(len(nonmanip_chunks(wildcards.panel, s))),
        )
        for s in NONMANIP["strategies"]
        for a in NONMANIP["algorithms"]
        if nonmanip_plays(s, a)
    }
