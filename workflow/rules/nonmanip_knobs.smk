# Beyond the paper: POMIS+ under the knobs the paper leaves open (papers/nonmanip/knobs.py). The variants
# POMISplus_nmin<n> and POMISplus_<no_expression> run with nonmanip_run_pomisplus (main horizon, seeds and
# settings but the one knob) -> one figure (regret at T against n_min per panel), the table and the findings
# the claims quote.


include: "nonmanip_knobs_common.smk"


rule nonmanip_knobs_report:
    """The knob study's figure, table and findings (which n_min values put each POMIS+ cell within Table 1's
    tolerance, what the Beta switch does to z2-KL-UCB)."""
    input:
        unpack(nonmanip_knobs_summaries),
        code=script_code("nonmanip_knobs_report.py"),
    output:
        pdf=report("figures/nonmanip/knobs.pdf", caption="../report/nonmanip_knobs.rst", category="nonmanip"),
        png=report("figures/nonmanip/knobs.png", caption="../report/nonmanip_knobs.rst", category="nonmanip"),
        md=report("figures/nonmanip/knobs.md", caption="../report/nonmanip_knobs.rst", category="nonmanip"),
        table="results/nonmanip/knobs/table.csv",
        findings="results/nonmanip/knobs/findings.json",
    log:
        "logs/nonmanip_knobs_report/report.log",
    conda:
        "../envs/causal_bandits.yaml"
    params:
        titles={p: NONMANIP["panels"][p].get("title", p) for p in NONMANIP_PANELS},
        horizon=NONMANIP["horizon"],
        pomis_plus={k: NONMANIP["pomis_plus"].get(k) for k in ("n_min", "no_expression", "knobs")},
    script:
        "../scripts/nonmanip_knobs_report.py"
