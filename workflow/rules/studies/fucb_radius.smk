# Study `fucb_radius` (causal_bandits/studies/fucb_radius.py): F-UCB on Email over a grid of radius scales, one job
# per (alpha_r, alpha_c) point with every tau of the paper; then the table and the study's claims.
from causal_bandits.studies import fucb_radius as study_fucb_radius

FUCB_RADIUS = config["studies"]["fucb_radius"]
FUCB_RADIUS_POINTS = study_fucb_radius.points(FUCB_RADIUS)
STUDY_TARGETS["fucb_radius"] = [
    *cb_artefacts.paths(study_fucb_radius.artefacts(FAIR)),
    "results/claims/studies/fucb_radius.json",
]


rule fucb_radius_run:
    """F-UCB at every tau with one point's (alpha_r, alpha_c), at the study's horizon and seeds."""
    input:
        instance="results/fairness/instances/email.json",
    output:
        "results/runs/studies/fucb_radius/p{point}.parquet",
    log:
        "logs/studies/fucb_radius/p{point}.log",
    benchmark:
        "benchmarks/out/studies/fucb_radius/p{point}.tsv"
    wildcard_constraints:
        point=r"\d+",
    conda:
        "../../envs/causal_bandits.yaml"
    params:
        alphas=lambda wc: FUCB_RADIUS_POINTS[int(wc.point)],
        seeds=list(range(FUCB_RADIUS["n_seeds"])),
        run={
            **{k: FAIR[k] for k in ("taus", "ucb", "fucb", "fairlinucb")},
            "horizon": FUCB_RADIUS["horizon"],
            "record_points": config["record_points"],
        },
        # F-UCB is built from its registry path, which no import names
        code=script_code("study_fucb_radius_run.py", policy=lambda wc: cb_algorithms.registry("fairness")["fucb"].path),
    script:
        "../../scripts/study_fucb_radius_run.py"


rule fucb_radius_report:
    """Per point: regret (± s.e.) at each tau, uncertified rounds, whether it decreases in tau; the study's claims."""
    input:
        runs=expand("results/runs/studies/fucb_radius/p{point}.parquet", point=range(len(FUCB_RADIUS_POINTS))),
    output:
        csv=report(
            f"{study_fucb_radius.OUT}/table.csv", caption="../../report/study_fucb_radius.rst", category="studies"
        ),
        md=report(f"{study_fucb_radius.OUT}/table.md", caption="../../report/study_fucb_radius.rst", category="studies"),
        claims="results/claims/studies/fucb_radius.json",
    log:
        "logs/studies/fucb_radius/report.log",
    conda:
        "../../envs/causal_bandits.yaml"
    params:
        scale=f"T = {FUCB_RADIUS['horizon']:,}, {FUCB_RADIUS['n_seeds']} seeds per point",
        code=script_code("study_fucb_radius_report.py"),
    script:
        "../../scripts/study_fucb_radius_report.py"
