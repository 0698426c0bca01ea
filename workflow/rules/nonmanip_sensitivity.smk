# Beyond the paper: POMIS+ on same-means SCMs (papers/nonmanip/sensitivity.py). Per panel: the family
# (direction, points, efficiencies) -> an instance per point (<panel>_sens<k>) -> POMIS and POMIS+ runs
# with each solver (the nonmanip_run / nonmanip_run_pomisplus rules, main horizon, seeds and POMIS+
# settings) -> one figure per panel, the table and the findings the claims quote.


include: "nonmanip_sensitivity_common.smk"


rule nonmanip_sensitivity_family:
    """The same-means family of a panel: the direction swept and every point's SCM and efficiencies (delta method)."""
    input:
        script_code("nonmanip_sensitivity_family.py"),
    output:
        "results/nonmanip/sensitivity/{panel}.json",
    log:
        "logs/nonmanip_sensitivity_family/{panel}.log",
    benchmark:
        "benchmarks/out/nonmanip/sensitivity_family_{panel}.tsv"
    wildcard_constraints:
        panel=NONMANIP_WILDCARDS["panel"],
    conda:
        "../envs/causal_bandits.yaml"
    params:
        panel=lambda wc: NONMANIP["panels"][wc.panel],
        sensitivity=lambda wc: nonmanip_sensitivity.settings(NONMANIP_SENS, wc.panel),
    script:
        "../scripts/nonmanip_sensitivity_family.py"


rule nonmanip_sensitivity_instance:
    """A same-means point's instance (the panel's arms, exact means checked against the canonical SCM's)."""
    input:
        family=lambda wc: f"results/nonmanip/sensitivity/{nonmanip_sensitivity.point_of(wc.experiment)[0]}.json",
        code=script_code("nonmanip_sensitivity_instance.py"),
    output:
        "results/nonmanip/instances/{experiment}.json",
    log:
        "logs/nonmanip_sensitivity_instance/{experiment}.log",
    wildcard_constraints:
        experiment="|".join(NONMANIP_SENS_NAMES) or "^$",
    conda:
        "../envs/causal_bandits.yaml"
    params:
        panel=lambda wc: NONMANIP["panels"][nonmanip_sensitivity.point_of(wc.experiment)[0]],
    script:
        "../scripts/nonmanip_sensitivity_instance.py"


rule nonmanip_sensitivity_report:
    """The sweep's figure per panel (POMIS+ and POMIS regret against efficiency, the paper's cells), its table and
    the findings (efficiency interval where both POMIS+ cells are within Table 1's tolerance)."""
    input:
        unpack(nonmanip_sensitivity_summaries),
        families=expand("results/nonmanip/sensitivity/{panel}.json", panel=NONMANIP_PANELS),
        code=script_code("nonmanip_sensitivity_report.py"),
    output:
        figures=report(
            expand("figures/nonmanip/sensitivity_{panel}.{ext}", panel=NONMANIP_PANELS, ext=("pdf", "png")),
            caption="../report/nonmanip_sensitivity.rst",
            category="nonmanip",
        ),
        md=report("figures/nonmanip/sensitivity.md", caption="../report/nonmanip_sensitivity.rst", category="nonmanip"),
        table="results/nonmanip/sensitivity/table.csv",
        findings="results/nonmanip/sensitivity/findings.json",
    log:
        "logs/nonmanip_sensitivity_report/report.log",
    conda:
        "../envs/causal_bandits.yaml"
    params:
        titles={p: NONMANIP["panels"][p].get("title", p) for p in NONMANIP_PANELS},
        horizon=NONMANIP["horizon"],
    script:
        "../scripts/nonmanip_sensitivity_report.py"
