# The studies' input functions (their rules are in workflow/rules/studies/<study>.smk; Snakemake's linter keeps
# functions out of rule files). Each reads its study's globals, defined in its rule file.
from causal_bandits.studies import runs as study_runs


def refresh_summaries(wildcards):
    """Per-seed summaries the study pairs: its runs, and the main POMIS+ chunks that hold its seeds."""
    n = REFRESH["n_seeds"]
    main = [k for k, chunk in enumerate(nonmanip_chunks(NONMANIP_PANELS[0], POMIS_PLUS)) if chunk.start < n]
    paths = {"main": (run_path("nonmanip"), main), "study": (study_run_path("refresh"), range(len(REFRESH_CHUNKS)))}
    return {
        f"{run}/{panel}/{algorithm}": [
            summary_path(path).format(
                point=REFRESH["schedule"], experiment=panel, strategy=POMIS_PLUS, algorithm=algorithm, chunk=k
            )
            for k in chunks
        ]
        for panel in NONMANIP_PANELS
        for algorithm in REFRESH["algorithms"]
        for run, (path, chunks) in paths.items()
    }


def knobs_summaries(wildcards):
    """Per-seed summaries of every point (the main run's chunks that hold the study's seeds included)."""
    n = KNOBS["n_seeds"]
    main = [k for k, chunk in enumerate(nonmanip_chunks(NONMANIP_PANELS[0], POMIS_PLUS)) if chunk.start < n]
    path = summary_path(study_run_path("knobs"))
    out = {
        f"{study_knobs.MAIN}/{panel}/{a}": [
            summary_path(run_path("nonmanip")).format(experiment=panel, strategy=POMIS_PLUS, algorithm=a, chunk=k)
            for k in main
        ]
        for panel in NONMANIP_PANELS
        for a in KNOBS["algorithms"]
    }
    for point, spec in KNOBS_POINTS.items():
        for panel in NONMANIP_PANELS:
            for a in KNOBS["algorithms"]:
                if study_knobs.plays(spec, a):
                    out[f"{point}/{panel}/{a}"] = [
                        path.format(point=point, experiment=panel, strategy=POMIS_PLUS, algorithm=a, chunk=k)
                        for k in range(len(KNOBS_CHUNKS))
                    ]
    return out


def same_means_summaries(wildcards):
    path = summary_path(study_run_path("same_means"))
    return {
        f"{point}/{panel}/{s}/{a}": [
            path.format(point=point, experiment=panel, strategy=s, algorithm=a, chunk=k)
            for k in range(len(SAME_MEANS_CHUNKS))
        ]
        for panel in NONMANIP_PANELS
        for point in SAME_MEANS_POINTS
        for s in study_same_means.STRATEGIES
        for a in SAME_MEANS["algorithms"]
    }


def robustness_summaries(wildcards):
    path = summary_path(study_run_path("robustness"))
    return {
        f"{i.id}/{s}/{a}": [
            path.format(point=i.family, experiment=i.id, strategy=s, algorithm=a, chunk=k)
            for k in range(len(ROBUSTNESS_CHUNKS))
        ]
        for i in ROBUSTNESS_INSTANCES.values()
        for s in ROBUSTNESS["strategies"]
        for a in ROBUSTNESS["algorithms"]
        if study_robustness.plays(s, a)
    }
