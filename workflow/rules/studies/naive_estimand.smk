# Study `naive_estimand` (causal_bandits/studies/naive_estimand.py): where ignoring confounding gives a wrong answer
# on cpe's E3, computed exactly over a (ρ, ρ_Y) grid -> the table and the study's claims.
from causal_bandits.studies import naive_estimand as study_naive_estimand

NAIVE_ESTIMAND = config["studies"]["naive_estimand"]
STUDY_TARGETS["naive_estimand"] = [
    *cb_artefacts.paths(study_naive_estimand.artefacts(config["cpe"])),
    "results/claims/studies/naive_estimand.json",
]


rule naive_estimand_report:
    """E3's naive estimand against the true means over the (ρ, ρ_Y) grid: best arms, regret, naive margin."""
    output:
        csv=report(
            f"{study_naive_estimand.OUT}/table.csv",
            caption="../../report/study_naive_estimand.rst",
            category="studies",
        ),
        md=report(
            f"{study_naive_estimand.OUT}/table.md", caption="../../report/study_naive_estimand.rst", category="studies"
        ),
        claims="results/claims/studies/naive_estimand.json",
    log:
        "logs/studies/naive_estimand/report.log",
    group:
        "post"
    conda:
        "../../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.studies.naive_estimand:report_step"),
        section=NAIVE_ESTIMAND,
    script:
        STAGE
