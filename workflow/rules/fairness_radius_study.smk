# Beyond the paper: F-UCB on Email over a grid of radius scales (papers/fairness/radius_study.py): one job per
# (alpha_r, alpha_c) point, all taus; then the table and the finding the claim under Table 1's trend quotes.
from causal_bandits.papers.fairness import radius_study as fair_radius

FAIR_RADIUS = FAIR["radius_study"]
FAIR_RADIUS_POINTS = fair_radius.points(FAIR_RADIUS)
TARGETS["fairness"] += [f"figures/fairness/radius_study.{ext}" for ext in ("csv", "md")]


rule fairness_radius_run:
    """F-UCB at every tau with one point's (alpha_r, alpha_c), at the study's horizon and seeds."""
    input:
        instance="results/fairness/instances/email.json",
        code=script_code("fairness_radius_run.py"),
    output:
        "results/fairness/radius/p{point}.parquet",
    log:
        "logs/fairness_radius_run/p{point}.log",
    benchmark:
        "benchmarks/out/fairness/radius_p{point}.tsv"
    wildcard_constraints:
        point=r"\d+",
    conda:
        "../envs/causal_bandits.yaml"
    params:
        alphas=lambda wc: FAIR_RADIUS_POINTS[int(wc.point)],
        seeds=list(range(FAIR_RADIUS["n_seeds"])),
        run={
            **{k: FAIR[k] for k in ("taus", "ucb", "fucb", "fairlinucb")},
            "horizon": FAIR_RADIUS["horizon"],
            "record_points": config["record_points"],
        },
    script:
        "../scripts/fairness_radius_run.py"


rule fairness_radius_table:
    """Per point: regret (± s.e.) at each tau, uncertified rounds, whether it decreases in tau; the finding."""
    input:
        runs=expand("results/fairness/radius/p{point}.parquet", point=range(len(FAIR_RADIUS_POINTS))),
        code=script_code("fairness_radius_table.py"),
    output:
        csv=report(
            "figures/fairness/radius_study.csv", caption="../report/fairness_radius_study.rst", category="fairness"
        ),
        md=report(
            "figures/fairness/radius_study.md", caption="../report/fairness_radius_study.rst", category="fairness"
        ),
        findings="results/fairness/radius/findings.json",
    log:
        "logs/fairness_radius_table/table.log",
    conda:
        "../envs/causal_bandits.yaml"
    params:
        scale=f"T = {FAIR_RADIUS['horizon']:,}, {FAIR_RADIUS['n_seeds']} seeds per point",
    script:
        "../scripts/fairness_radius_table.py"
