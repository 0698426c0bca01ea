# Beyond the paper: where ignoring confounding gives a wrong answer on E3 (papers/cpe/naive_study.py), computed
# exactly over a (ρ, ρ_Y) grid; the naive-estimand claim row quotes the same computation.

TARGETS["cpe"] += [f"figures/cpe/naive_study.{ext}" for ext in ("csv", "md")]


rule cpe_naive_study:
    """E3's naive estimand against the true means over the (ρ, ρ_Y) grid: best arms, regret, naive margin."""
    input:
        code=script_code("cpe_naive_study.py"),
    output:
        csv=report("figures/cpe/naive_study.csv", caption="../report/cpe_naive_study.rst", category="cpe"),
        md=report("figures/cpe/naive_study.md", caption="../report/cpe_naive_study.rst", category="cpe"),
    log:
        "logs/cpe_naive_study/study.log",
    conda:
        "../envs/causal_bandits.yaml"
    params:
        study=CPE["naive_study"],
    script:
        "../scripts/cpe_naive_study.py"
