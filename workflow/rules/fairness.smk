# Huang, Zhang & Wu (AAAI-22): raw data -> preprocessing -> graph -> instances -> runs -> tables,
# figures, claims. Raw files are pinned in config (fairness.raw); see causal_bandits.data.raw.

import os
import re

from causal_bandits.data.raw import STANDIN_DIR, check_downloads
from causal_bandits.papers.fairness import rule_inputs as fair_inputs
from causal_bandits.papers.fairness import runs as fair_runs
from causal_bandits.papers.fairness.runs import ALGORITHM_PATTERN as FAIR_ALGORITHM_PATTERN
from causal_bandits.papers.fairness.runs import EXPERIMENTS as FAIR_EXPERIMENTS
from causal_bandits.papers.fairness.runs import STRATEGY as FAIR_STRATEGY
from causal_bandits.papers.fairness.runs import algorithm_key as fair_algorithm_key

FAIR = config["fairness"]
FAIR_RAW_DIR = config["data"]["raw_dir"]
RAW_SHA256_CACHE = ".snakemake/causal_bandits/raw_sha256.json"
FAIR_STANDIN = FAIR["raw"]["on_missing"] == "standin"
# Each raw file located once; one that is present but not the pinned one stops the planning with one line (its
# checksum is read once per size and modification time: raw.cached_sha256); missing ones are downloaded or stood in for.
try:
    FAIR_RAW = fair_inputs.raw_sources(config, RAW_SHA256_CACHE)
except CausalBanditsError as err:
    sys.exit(f"error: {err}")
FAIR_MISSING = [name for name, source in FAIR_RAW.items() if not source.found]
FAIR_JOB = run_job(fair_runs.describe)
FAIR_ALGORITHMS = {e: fair_runs.algorithms(e, FAIR) for e in FAIR_EXPERIMENTS}
TARGETS["fairness"] = paper_artefact_paths("fairness")
# Wildcard constraints are rule-level here: global ones would leak into other papers' rules.
FAIR_EXPERIMENT_PATTERN = "|".join(FAIR_EXPERIMENTS)


if FAIR_MISSING and not FAIR_STANDIN:

    rule fairness_download:
        """Fetch a missing raw file from its pinned address; it appears only once its sha256 matched."""
        output:
            os.path.join(FAIR_RAW_DIR, "{rawfile}"),
        log:
            "logs/fairness_download/{rawfile}.log",
        wildcard_constraints:
            rawfile="|".join(re.escape(p) for p in FAIR_MISSING),
        conda:
            "../envs/causal_bandits.yaml"
        # The function alone, not its code digest: a verified raw file is never fetched again for a code edit.
        params:
            call="causal_bandits.data.raw:download_step",
            raw_dir=FAIR_RAW_DIR,
            entry=lambda wc: FAIR_RAW[wc.rawfile].entry,
        script:
            STAGE

    # A raw file this run is to download from an address it cannot reach (no network, a host not found) stops the run
    # once it is planned, before any job starts, with that file's one line (a dry run starts no download: no check).
    onstart:
        downloads = [j for j in workflow.dag.needrun_jobs() if j.rule.name == "fairness_download"]
        try:
            check_downloads(FAIR_RAW_DIR, [FAIR_RAW[j.wildcards.rawfile].spec for j in downloads])
        except CausalBanditsError as err:
            sys.exit(f"error: {err}")


if FAIR_STANDIN:

    rule fairness_standin:
        """Our labelled synthetic stand-in (docs/papers/fairness.md#fairness-a24-standin) for a raw file that is missing
        (never under raw_dir)."""
        output:
            f"{STANDIN_DIR}/{{rawfile}}",
        log:
            "logs/fairness_standin/{rawfile}.log",
        wildcard_constraints:
            rawfile="|".join(map(re.escape, FAIR_RAW)),
        group:
            "prep"
        conda:
            "../envs/causal_bandits.yaml"
        params:
            **stage("causal_bandits.papers.fairness.standin:standin_step"),
            kind=lambda wc: FAIR_RAW[wc.rawfile].dataset,
            seed=FAIR["adult_video"]["seed"],
        script:
            STAGE


rule fairness_raw_check:
    """Locate a data set's raw files and verify their sha256 (stand-ins are labelled, not verified)."""
    input:
        files=lambda wc: [s.path for s in fair_inputs.dataset_files(FAIR_RAW, wc.dataset)],
    output:
        "results/fairness/raw/{dataset}.json",
    log:
        "logs/fairness_raw_check/{dataset}.log",
    wildcard_constraints:
        dataset="|".join(fair_inputs.raw_entries(FAIR)),
    group:
        "prep"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.data.raw:check_step"),
        entries=lambda wc: [s.entry for s in fair_inputs.dataset_files(FAIR_RAW, wc.dataset)],
        raw_dir=FAIR_RAW_DIR,
        checksums=RAW_SHA256_CACHE,
    script:
        STAGE


rule fairness_adult_users:
    """Binarised Adult users, the 10,000-row sample and its graph / online split
    (docs/papers/fairness.md#fairness-adult-video)."""
    input:
        manifest="results/fairness/raw/adult.json",
        files=[s.path for s in fair_inputs.dataset_files(FAIR_RAW, "adult")],
    output:
        "data/processed/fairness/adult_users.parquet",
    log:
        "logs/fairness_adult_users/adult_users.log",
    group:
        "prep"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.fairness.adult_video:users_step"),
        adult_video=FAIR["adult_video"],
    script:
        STAGE


rule fairness_youtube_videos:
    """The video pool: a seeded sample of valid crawl records, binarised, with video types (arms)."""
    input:
        manifest="results/fairness/raw/youtube.json",
        files=[s.path for s in fair_inputs.dataset_files(FAIR_RAW, "youtube")],
    output:
        "data/processed/fairness/youtube_videos.parquet",
    log:
        "logs/fairness_youtube_videos/youtube_videos.log",
    group:
        "prep"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.fairness.adult_video:videos_step"),
        adult_video=FAIR["adult_video"],
        max_skipped=FAIR["raw"]["youtube_max_skipped_fraction"],
    script:
        STAGE


rule fairness_offline_table:
    """The offline Adult-Video table: each graph user with a random video and a simulated reward."""
    input:
        users="data/processed/fairness/adult_users.parquet",
        videos="data/processed/fairness/youtube_videos.parquet",
    output:
        "data/processed/fairness/adult_video_offline.parquet",
    log:
        "logs/fairness_offline_table/offline.log",
    group:
        "prep"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.fairness.adult_video:offline_step"),
        adult_video=FAIR["adult_video"],
    script:
        STAGE


rule fairness_adult_graph:
    """Figure 3's graph: PC-stable (pgmpy) with tiers on the offline table; Pa(R) vs the paper's."""
    input:
        offline="data/processed/fairness/adult_video_offline.parquet",
    output:
        "results/fairness/adult_video_graph.json",
    log:
        "logs/fairness_adult_graph/graph.log",
    benchmark:
        "benchmarks/out/fairness_adult_graph/graph.tsv"
    group:
        "prep"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.fairness.adult_video:graph_step"),
        adult_video=FAIR["adult_video"],
    script:
        STAGE


rule fairness_email_instance:
    """The Email SCM (pgmpy): exact arm means, counterfactual means (twin network), W, cell models."""
    output:
        instance="results/fairness/instances/email.json",
        truth="results/fairness/email_truth.parquet",
    log:
        "logs/fairness_email_instance/email.log",
    group:
        "prep"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.fairness.email:instance_step"),
        email=FAIR["email"],
        dsep_criterion=FAIR["dsep_criterion"],
    script:
        STAGE


rule fairness_adult_video_instance:
    """The Adult-Video instance: arms, exact means, counterfactual truth on the learned graph, W."""
    input:
        users="data/processed/fairness/adult_users.parquet",
        videos="data/processed/fairness/youtube_videos.parquet",
        offline="data/processed/fairness/adult_video_offline.parquet",
        graph="results/fairness/adult_video_graph.json",
    output:
        "results/fairness/instances/adult_video.json",
    log:
        "logs/fairness_adult_video_instance/adult_video.log",
    group:
        "prep"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.fairness.adult_video:instance_step"),
        adult_video=FAIR["adult_video"],
        dsep_criterion=FAIR["dsep_criterion"],
    script:
        STAGE


rule fairness_email_tables:
    """Tables 4 and 5 re-emitted from the pgmpy network (the paper's inputs, for verification)."""
    output:
        **artefact_outputs("fairness", "table4", "table5"),
    log:
        "logs/fairness_email_tables/tables45.log",
    group:
        "prep"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.fairness.tables:email_tables_step"),
        email=FAIR["email"],
    script:
        STAGE


rule fairness_run:
    """One seed chunk of one algorithm on one experiment, all its seeds vectorised."""
    input:
        instance="results/fairness/instances/{experiment}.json",
    output:
        trace=run_path("fairness"),
        summary=summary_path(run_path("fairness")),
    log:
        run_path("fairness", "logs"),
    benchmark:
        run_path("fairness", "benchmarks/out")
    wildcard_constraints:
        experiment=FAIR_EXPERIMENT_PATTERN,
        strategy=FAIR_STRATEGY,
        algorithm=FAIR_ALGORITHM_PATTERN,
        chunk=r"\d+",
    group:
        "runs"
    conda:
        "../envs/causal_bandits.yaml"
    resources:
        mem_mb=lambda wc, attempt: FAIR_JOB(wc).memory_mb * attempt,
    params:
        job=lambda wc: FAIR_JOB(wc).fields(),
        code=run_code("fairness", lambda wc: cb_algorithms.registry("fairness")[fair_algorithm_key(wc.algorithm)].path),
    script:
        "../scripts/run.py"


rule fairness_aggregate:
    """Regret curves (mean, sd over seeds), per-seed regrets (at T and at the early round of Fig. 2(b)'s remark) and
    per-seed unfair-decision counts at every tau."""
    input:
        unpack(lambda wc: fair_inputs.experiment_runs(config, wc.experiment)),
    output:
        curves="results/fairness/curves/{experiment}.parquet",
        summary="results/fairness/summary/{experiment}.parquet",
    log:
        "logs/fairness_aggregate/{experiment}.log",
    wildcard_constraints:
        experiment=FAIR_EXPERIMENT_PATTERN,
    group:
        "post"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.fairness.aggregate:aggregate_step"),
        taus=FAIR["taus"],
        horizon=FAIR["horizon"],
        algorithms=lambda wc: FAIR_ALGORITHMS[wc.experiment],
    script:
        STAGE


rule fairness_tables:
    """Tables 1 (Email) and 2 (Adult-Video): ours beside the paper's numbers."""
    input:
        email="results/fairness/summary/email.parquet",
        adult="results/fairness/summary/adult_video.parquet",
        adult_instance="results/fairness/instances/adult_video.json",
    output:
        **artefact_outputs("fairness", "table1", "table2"),
    log:
        "logs/fairness_tables/tables.log",
    group:
        "post"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.fairness.tables:tables_step"),
        fairness=FAIR,
    script:
        STAGE


rule fairness_diagrams:
    """Figures 1 and 2(a): the schematic graph and the Email graph (W and S computed)."""
    input:
        instance="results/fairness/instances/email.json",
    output:
        **artefact_outputs("fairness", "figure1", "figure2a"),
    log:
        "logs/fairness_diagrams/diagrams.log",
    group:
        "prep"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.fairness.figures:diagrams_step"),
    script:
        STAGE


rule fairness_figure2b:
    """Figure 2(b): cumulative regret of UCB, C-UCB, D-UCB and F-UCB on Email."""
    input:
        curves="results/fairness/curves/email.parquet",
    output:
        **artefact_outputs("fairness", "figure2b"),
    log:
        "logs/fairness_figure2b/figure2b.log",
    group:
        "post"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.fairness.figures:figure2b_step"),
        tau=FAIR["figure2b_tau"],
        scale=f"T = {FAIR['horizon']}, {FAIR['n_seeds']} seeds",
    script:
        STAGE


rule fairness_figure3:
    """Figure 3: the learned Adult-Video graph."""
    input:
        graph="results/fairness/adult_video_graph.json",
        instance="results/fairness/instances/adult_video.json",
    output:
        **artefact_outputs("fairness", "figure3"),
    log:
        "logs/fairness_figure3/figure3.log",
    group:
        "prep"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.fairness.figures:figure3_step"),
    script:
        STAGE


rule fairness_claims:
    """Each claim of the paper evaluated on our results."""
    input:
        email="results/fairness/instances/email.json",
        adult="results/fairness/instances/adult_video.json",
        graph="results/fairness/adult_video_graph.json",
        summaries=expand("results/fairness/summary/{experiment}.parquet", experiment=FAIR_EXPERIMENTS),
        users="data/processed/fairness/adult_users.parquet",
        videos="data/processed/fairness/youtube_videos.parquet",
        table4=artefact_file("fairness", "table4.csv"),
    output:
        "results/claims/fairness.json",
    log:
        "logs/fairness_claims/claims.log",
    group:
        "post"
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.papers.fairness.claims:claims_step"),
        fairness=FAIR,
    script:
        STAGE
