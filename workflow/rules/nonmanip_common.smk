# nonmanip's globals and input functions (its rules are in nonmanip.smk).
from causal_bandits.papers.nonmanip import POMIS_PLUS
from causal_bandits.papers.nonmanip import robustness as nonmanip_robustness
from causal_bandits.papers.nonmanip import sensitivity as nonmanip_sensitivity
from causal_bandits.papers.nonmanip.runs import chunks as nonmanip_run_chunks
from causal_bandits.papers.nonmanip.runs import pomis_plus_settings

NONMANIP = config["nonmanip"]
NONMANIP_PANELS = list(NONMANIP["panels"])
NONMANIP_GRAPHS = ["frontdoor", "fig2a", "fig3", "fig5d"]
# Beyond the paper: the robustness experiment's instances (Fig. 5d-consistent graphs, random SCMs).
NONMANIP_ROBUST = NONMANIP["robustness"]
NONMANIP_ROBUST_NAMES = nonmanip_robustness.names(NONMANIP_ROBUST, NONMANIP_PANELS)
# The solvers (causal_bandits/papers/nonmanip/algorithms.py): POMIS+ runs only those with a z² version.
NONMANIP_SOLVERS = cb_algorithms.solvers("nonmanip")
NONMANIP_Z2 = [a for a in NONMANIP_SOLVERS if cb_algorithms.registry("nonmanip")[a].z2]
def nonmanip_plays(strategy, algorithm):
    """Whether a configured solver plays a strategy: POMIS+ only with a z² version."""
    return strategy != POMIS_PLUS or algorithm in NONMANIP_Z2


def nonmanip_z2_key(algorithm):
    """The registry key of a solver's z² version (what plays it under POMIS+)."""
    return cb_algorithms.played("nonmanip", algorithm, z2=True).key


def nonmanip_policy(wildcards):
    """The registry entry that plays a run: the solver, or its z² version under POMIS+."""
    return cb_algorithms.played("nonmanip", wildcards.algorithm, z2=wildcards.strategy == POMIS_PLUS)


# Beyond the paper: POMIS and POMIS+ on same-means SCMs, experiments <panel>_sens<k> (nonmanip_sensitivity.smk).
NONMANIP_SENS = NONMANIP["sensitivity"]
nonmanip_sensitivity.check(NONMANIP_SENS, NONMANIP_PANELS)
NONMANIP_SENS_NAMES = (
    nonmanip_sensitivity.names(NONMANIP_PANELS, NONMANIP_SENS["n_points"])
    if POMIS_PLUS in NONMANIP["strategies"]
    else []
)


def nonmanip_chunks(experiment, strategy):
    """Seed chunks of a run (papers/nonmanip/runs.py, chunks; docs/performance.md#job-sizes)."""
    robust = experiment in NONMANIP_ROBUST_NAMES
    return nonmanip_run_chunks(NONMANIP, config["seeds_per_job"], strategy, robust)


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


def nonmanip_job_seeds(wildcards):
    """How many seeds a run job holds (its memory request grows with them)."""
    return len(nonmanip_chunks(wildcards.experiment, wildcards.strategy)[int(wildcards.chunk)])


def nonmanip_run_slice(wildcards):
    """What a run job's results depend on, and its provenance hash's input: the panel's config slice,
    the horizon and the record points."""
    run = nonmanip_run_params(wildcards)
    return {"panel": run["panel"], "horizon": run["horizon"], "record_points": config["record_points"]}


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


def nonmanip_robustness_summaries(wildcards):
    return {
        f"{e}/{s}/{a}": [
            summary_path(run_path("nonmanip")).format(experiment=e, strategy=s, algorithm=a, chunk=k)
            for k in range(len(nonmanip_chunks(e, s)))
        ]
        for e in NONMANIP_ROBUST_NAMES
        for s in NONMANIP["strategies"]
        for a in NONMANIP["algorithms"]
        if nonmanip_plays(s, a)
    }
