# nonmanip's globals and input functions (its rules are in nonmanip.smk).
from causal_bandits.papers.nonmanip import POMIS_PLUS
from causal_bandits.papers.nonmanip import robustness as nonmanip_robustness
from causal_bandits.papers.nonmanip import sensitivity as nonmanip_sensitivity
from causal_bandits.papers.nonmanip.runs import chunks as nonmanip_run_chunks
from causal_bandits.papers.nonmanip.runs import pomis_plus_settings, pomis_plus_variants, spot_check

NONMANIP = config["nonmanip"]
NONMANIP_PANELS = list(NONMANIP["panels"])
NONMANIP_GRAPHS = ["frontdoor", "fig2a", "fig3", "fig5d"]
# Beyond the paper: the robustness experiment's instances (Fig. 5d-consistent graphs, random SCMs).
NONMANIP_ROBUST = NONMANIP["robustness"]
NONMANIP_ROBUST_NAMES = nonmanip_robustness.names(NONMANIP_ROBUST, NONMANIP_PANELS)
# POMIS+ variants, each a strategy of its own (papers/nonmanip/runs.py): the refresh spot check
# (docs/papers/nonmanip.md#nonmanip-numbers-spot-check, POMISplus_<refresh>, the first seeds) and the knob study
# (docs/papers/nonmanip.md#nonmanip-knobs, POMISplus_nmin<n> and POMISplus_<no_expression>, the main seeds).
NONMANIP_VARIANTS = pomis_plus_variants(NONMANIP)
NONMANIP_SPOT = spot_check(NONMANIP)  # (strategy, seeds) of the spot check; None when off
NONMANIP_POMIS_PLUS = [POMIS_PLUS, *NONMANIP_VARIANTS]
# The solvers (causal_bandits/papers/nonmanip/algorithms.py): POMIS+ runs only those with a z² version.
NONMANIP_SOLVERS = cb_algorithms.solvers("nonmanip")
NONMANIP_Z2 = [a for a in NONMANIP_SOLVERS if cb_algorithms.registry("nonmanip")[a].z2]
# Whether the knob study runs (nonmanip_knobs.smk): POMIS+ with a configured z² solver (the main value of each
# knob is the main run).
NONMANIP_KNOBS = (
    bool(NONMANIP["pomis_plus"].get("knobs"))
    and POMIS_PLUS in NONMANIP["strategies"]
    and any(a in NONMANIP_Z2 for a in NONMANIP["algorithms"])
)


def nonmanip_plays(strategy, algorithm):
    """Whether a configured solver plays a strategy: POMIS+ (and its variants) only with a z² version, a
    variant only with the z² versions its change applies to."""
    if strategy not in NONMANIP_POMIS_PLUS:
        return True
    variant = NONMANIP_VARIANTS.get(strategy)
    solvers = variant.solvers if variant else None
    return algorithm in NONMANIP_Z2 and (solvers is None or nonmanip_z2_key(algorithm) in solvers)


def nonmanip_z2_key(algorithm):
    """The registry key of a solver's z² version (what plays it under POMIS+)."""
    return cb_algorithms.played("nonmanip", algorithm, z2=True).key


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
    """Seed chunks of a run (papers/nonmanip/runs.py, chunks; docs/performance.md#job-sizes)."""
    robust = experiment in NONMANIP_ROBUST_NAMES
    return nonmanip_run_chunks(NONMANIP, config["seeds_per_job"], strategy, robust, NONMANIP_VARIANTS)


NONMANIP_SPOT_CHUNKS = nonmanip_chunks(NONMANIP_PANELS[0], NONMANIP_SPOT[0]) if NONMANIP_SPOT else []


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


def nonmanip_spot_check_summaries(wildcards):
    """Per-seed summaries the spot check pairs: its runs and the main POMIS+ chunks that hold its seeds."""
    if not NONMANIP_SPOT:
        return {}
    strategy, n = NONMANIP_SPOT
    main = [k for k, chunk in enumerate(nonmanip_chunks(NONMANIP_PANELS[0], POMIS_PLUS)) if chunk.start < n]
    return {
        f"spot/{p}/{s}/{a}": [
            summary_path(run_path("nonmanip")).format(experiment=p, strategy=s, algorithm=a, chunk=k) for k in chunks
        ]
        for p in NONMANIP_PANELS
        for a in NONMANIP["algorithms"]
        if a in NONMANIP_Z2
        for s, chunks in ((POMIS_PLUS, main), (strategy, range(len(NONMANIP_SPOT_CHUNKS))))
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
