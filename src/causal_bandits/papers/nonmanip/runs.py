"""The run stage of Lee & Bareinboim (AAAI-19): one seed chunk of one (panel, strategy, solver).

The job reads the panel's instance document (the diagram, the SCM and the arm lists written by the
instance stage), plays the strategy's arms with the solver, and stores the run. Arms are reported
by their index in the panel's full (brute-force) arm list, so runs of different arm sets compare.
Run jobs take exact means from the instance and never import pgmpy.

Strategies BF, MIS and POMIS play their arm sets with TS or kl-UCB. POMIS+ (file-safe key
``POMISplus``) is not a further arm set: it plays the POMIS arms with the z² version of the solver
(AAAI-19 §5: "only POMIS+ employs z²-TS and z²-KL-UCB"), which also learns from the values of every
variable in each pull through the panel's expression catalogue (the catalogue stage). Run paths
keep the solver's name (``POMISplus/ts``), so Table 1 and Figure 5 pair POMIS+ with its solver as
the paper does; a job's description (:func:`describe`, made at planning time) carries the policy class
of the registry entry that plays (strategy, solver) (:func:`causal_bandits.algorithms.played`), so the
job itself never reads the registry: a new entry reruns no other algorithm's runs.

Random streams are keyed by (paper, panel, seed, purpose), never by strategy or by who runs the job, so seed s of
a study that reruns POMIS+ with another setting (causal_bandits.studies) sees the environment noise, solver
draws and bootstrap draws of seed s of the main run: only the changed setting differs, and the two pair.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, cast

import numpy as np

from causal_bandits import algorithms, runs, store
from causal_bandits.bandits.engine import Environment, linear_grid
from causal_bandits.bandits.environments import InterventionArms
from causal_bandits.bandits.recorders import RegretTrace
from causal_bandits.bandits.z2_settings import Z2Settings
from causal_bandits.errors import CausalBanditsError
from causal_bandits.papers.nonmanip import NOT_SETTINGS, POMIS_PLUS, scms
from causal_bandits.scm.diagram import CausalDiagram

PAPER = "nonmanip"
#: The seeds of a POMIS+ job and the bootstrap's B in the run that measured its peak (the paper's config,
#: config/config.yaml: pomis_plus.seeds_per_job and bootstrap): its bootstrap replicates (leaf counts) grow with both.
MEASURED_SEEDS, MEASURED_BOOTSTRAP = 200, 500
log = logging.getLogger(__name__)


#: The z² versions whose statistics ``no_expression`` switches: z²-TS draws an arm with no expression from
#: Beta(α+1, β+1) already (its reduction to TS), so the switch would change nothing there.
NO_EXPRESSION_SOLVERS = ("z2_kl_ucb",)
#: ``no_expression`` of the runs made before the switch existed (its default); a run with it leaves the key out of
#: its settings, so those runs keep their provenance (and are not rerun).
NO_EXPRESSION_DEFAULT = Z2Settings().no_expression


def chunks(section: Mapping[str, Any], seeds_per_job: int, strategy: str, panel: str) -> runs.Chunks:
    """Seed chunks of a run of ``strategy`` on the Figure 5 panel ``panel`` (the workflow's run jobs;
    ``benchmarks/wall_time.py`` sizes them the same way): the section's seeds in chunks of the panel's
    ``pomis_plus.panel_seeds_per_job``, else ``pomis_plus.seeds_per_job``, under POMIS+, or of the section's
    ``seeds_per_job`` for BF, MIS and POMIS; each size defaults to the top-level ``seeds_per_job``. Speed only: a
    seed's streams do not depend on its chunk."""
    if strategy == POMIS_PLUS:
        sizes = section["pomis_plus"]
        size = sizes.get("panel_seeds_per_job", {}).get(panel, sizes.get("seeds_per_job", seeds_per_job))
    else:
        size = section.get("seeds_per_job", seeds_per_job)
    return runs.chunk_seeds(section["n_seeds"], size)


def pomis_plus_settings(
    pomis_plus: Mapping[str, Any], z2: str, changes: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The z² settings of a POMIS+ run of z² version ``z2``: the config's ``pomis_plus`` section without
    ``NOT_SETTINGS``, with ``changes`` (a study's). ``no_expression`` is kept only where it applies
    (:data:`NO_EXPRESSION_SOLVERS`) and differs from :data:`NO_EXPRESSION_DEFAULT`."""
    settings = {k: v for k, v in pomis_plus.items() if k not in NOT_SETTINGS} | dict(changes or {})
    no_expression = settings.pop("no_expression", NO_EXPRESSION_DEFAULT)
    if z2 in NO_EXPRESSION_SOLVERS and no_expression != NO_EXPRESSION_DEFAULT:
        settings["no_expression"] = no_expression
    return settings


def environment(instance: Mapping[str, Any], strategy: str) -> tuple[InterventionArms, np.ndarray]:
    """The strategy's arms as an environment (exact means from the instance), and their ids; POMIS+
    plays the POMIS arms and observes every variable of each pull."""
    model = scms.scm(CausalDiagram.from_dict(instance["graph"]), instance["scm"])
    plus = strategy == POMIS_PLUS
    ids = np.asarray(instance["arm_lists"]["POMIS" if plus else strategy], dtype=np.int64)
    arms = tuple(instance["arms"][i]["values"] for i in ids)
    means = np.array([instance["arms"][i]["mu"] for i in ids])
    return InterventionArms(model, instance["reward"], arms, means, observe=plus), ids


def solver(
    path: str,
    instance: Mapping[str, Any],
    strategy: str,
    catalogue: Mapping[str, Any] | None = None,
    pomis_plus: Mapping[str, Any] | None = None,
    params: Mapping[str, Any] | None = None,
):
    """A fresh solver: the policy class at dotted ``path`` built with the keyword arguments ``params`` (an
    algorithm's parameter values, :class:`causal_bandits.algorithms.Variant`); under POMIS+ (``path`` is then a
    z² version, :func:`causal_bandits.algorithms.played`) built from the instance's expression ``catalogue`` with
    the ``pomis_plus`` settings too (:class:`~causal_bandits.bandits.z2_settings.Z2Settings`, built here once)."""
    cls = runs.policy_class(path)
    if strategy == POMIS_PLUS:
        nodes = CausalDiagram.from_dict(instance["graph"]).nodes
        return cls.from_catalogue(catalogue, nodes, Z2Settings(**(pomis_plus or {}), **(params or {})))
    return cls(**(params or {}))


def run_jobs(config: Mapping[str, Any]) -> Iterator[dict[str, str]]:
    """The wildcards of every run job of the paper: each panel, strategy and solver that plays it (POMIS+
    only with a z² version), each chunk."""
    section = config["nonmanip"]
    for panel in section["panels"]:
        for strategy in section["strategies"]:
            for algorithm in section["algorithms"]:
                if strategy != POMIS_PLUS or algorithms.registry(PAPER)[algorithm].z2:
                    for k in range(len(chunks(section, config["seeds_per_job"], strategy, panel))):
                        yield {"experiment": panel, "strategy": strategy, "algorithm": algorithm, "chunk": str(k)}


def panel_science(
    config: Mapping[str, Any], panel: str, *, instance: Mapping[str, Any] | None = None, horizon: int | None = None
) -> dict[str, Any]:
    """What a run on the Figure 5 panel ``panel`` depends on, the main run's and a study's rerun of it alike: the
    panel's config slice, the section's horizon and the record points (under POMIS+ also the z² settings,
    :func:`solver_job`). A study on instances of its own passes the ``instance``'s config slice and its
    ``horizon`` instead."""
    section = config["nonmanip"]
    return {
        "panel": section["panels"][panel] if instance is None else instance,
        "horizon": section["horizon"] if horizon is None else horizon,
        "record_points": config["record_points"],
    }


def panel_titles(config: Mapping[str, Any]) -> dict[str, str]:
    """Each Figure 5 panel's title (its key where it has none), in config order: what the report steps of the paper
    and of the studies that rerun it print."""
    return {name: panel.get("title", name) for name, panel in config["nonmanip"]["panels"].items()}


def policy(wildcards: Any) -> str:
    """The dotted path of the policy class a run job plays (Snakemake ``wildcards``: the solver, or its z² version
    under POMIS+): what the run rules' ``code`` digests, the paper's and its studies' alike."""
    return algorithms.played(PAPER, wildcards.algorithm, z2=wildcards.strategy == POMIS_PLUS).path


def describe(config: Mapping[str, Any], wildcards: Mapping[str, str]) -> runs.RunJob:
    """A run job of the paper (rule ``nonmanip_run``): chunk ``{chunk}`` of the strategy's seed chunks, with what
    a run on its panel depends on (:func:`panel_science`)."""
    seed_chunks = chunks(config["nonmanip"], config["seeds_per_job"], wildcards["strategy"], wildcards["experiment"])
    return solver_job(config, wildcards, seed_chunks, panel_science(config, wildcards["experiment"]))


def state_growth(settings: Mapping[str, Any], n_seeds: int) -> float:
    """How much more bootstrap state a POMIS+ job of ``n_seeds`` seeds under the z² ``settings`` holds than the job
    its kind's peak was measured on (``MEASURED_SEEDS`` seeds, ``MEASURED_BOOTSTRAP`` replicates): it grows with
    both."""
    return n_seeds / MEASURED_SEEDS * settings["bootstrap"] / MEASURED_BOOTSTRAP


def solver_job(
    config: Mapping[str, Any],
    wildcards: Mapping[str, str],
    seed_chunks: Sequence[range],
    science: Mapping[str, Any],
    *,
    changes: Mapping[str, Any] | None = None,
    experiment: str | None = None,
) -> runs.RunJob:
    """A run job of one solver on a Figure 5-like instance, the paper's or a study's rerun of it
    (:mod:`causal_bandits.studies`): chunk ``{chunk}`` of ``seed_chunks``, the registry entry that plays
    (strategy, solver) (:func:`causal_bandits.algorithms.played`), and under POMIS+ the main run's z²
    settings with a study's ``changes`` (:func:`pomis_plus_settings`) added to ``science``. Coordinates from
    the wildcards; ``experiment`` keys the streams where a study instance has streams of its own."""
    strategy, algorithm = wildcards["strategy"], wildcards["algorithm"]
    entry = algorithms.played(PAPER, algorithm, z2=strategy == POMIS_PLUS)
    seeds = seed_chunks[int(wildcards["chunk"])]
    base, growth = None, 1.0
    if strategy == POMIS_PLUS:
        settings = config["nonmanip"]["pomis_plus"]
        science = {**science, "pomis_plus": pomis_plus_settings(settings, entry.key, changes)}
        # the process without the replicates: the same panel and solver under POMIS
        base = runs.measured_peak(PAPER, {**wildcards, "strategy": "POMIS"})
        growth = state_growth(settings, len(seeds))
    memory_mb = runs.memory_request(runs.measured_peak(PAPER, wildcards), base_mb=base, growth=growth)
    return runs.RunJob(
        paper=PAPER,
        experiment=experiment or wildcards["experiment"],
        strategy=strategy,
        algorithm=algorithm,
        seeds=seeds,
        science=science,
        horizon=int(science["horizon"]),
        runner=PAPER,
        policy=entry.key,
        memory_mb=memory_mb,
    )


def simulation(job: runs.RunJob, inputs: Mapping[str, str]) -> runs.Simulation:
    """What a run job of this runner simulates (the paper's, a study's, or a researcher's own experiment,
    :mod:`causal_bandits.experiments`): the strategy's arms of the ``instance`` document played by the registry
    entry ``job.policy`` (``algorithm``'s z² version under POMIS+, built from the ``catalogue`` document with the
    job's ``pomis_plus`` settings: bootstrap, refresh, n_min, ...) with the job's ``params``, the regret recorded at
    the job's ``record_points``, arms reported by their id in the full arm list. A job with ``params`` records the
    values its class received in the run files' metadata (key ``params``, JSON); a job without has no such key, so
    the papers' run files keep their bytes."""
    instance = store.read_json(inputs["instance"])
    if instance["experiment"] != job.experiment:
        raise CausalBanditsError(
            f"{inputs['instance']} is the instance of experiment {instance['experiment']!r}, not of "
            f"{job.experiment!r}: it is from another run; remove it (rm {inputs['instance']}) and rerun"
        )
    env, ids = environment(instance, job.strategy)
    catalogue = None
    if job.strategy == POMIS_PLUS:
        catalogue = store.read_json(inputs["catalogue"])
        n = catalogue["n_expressions"]
        log.info(
            "POMIS+ with %d catalogue expressions, settings %s%s",
            n,
            job.science["pomis_plus"],
            "" if n else ": z2ID found none, so this run plays exactly POMIS",
        )
    return runs.Simulation(
        solver(
            algorithms.registry(PAPER)[job.policy].path,
            instance,
            job.strategy,
            catalogue,
            job.science.get("pomis_plus"),
            job.science.get("params"),
        ),
        cast(Environment, env),  # context-free: pull() gets the None its contexts() returns
        [RegretTrace(linear_grid(job.horizon, job.science["record_points"]))],
        arm_ids=ids,
        metadata={"params": json.dumps(job.science["params"], sort_keys=True)} if "params" in job.science else {},
    )
