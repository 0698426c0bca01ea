# The cross-paper replication report: one verdict per claim, numbers side by side, each claim beside
# the table or figure it is about (REPORT.html shows the PNGs beside it in figures/).
REPORT_ARTEFACTS = {
    **{paper: paper_artefacts(paper) for paper in PAPERS},
    **{study: cb_studies.module(study).artefacts(config[cb_studies.study(study).paper]) for study in STUDIES},
}


rule report:
    """figures/REPORT.md and figures/REPORT.html from every paper's evaluated claims and its final
    tables and figures, and those of the studies this run makes."""
    input:
        claims=[f"results/claims/{paper}.json" for paper in PAPERS],
        studies=[f"results/claims/studies/{study}.json" for study in STUDIES],
        artefacts=[path for found in REPORT_ARTEFACTS.values() for path in cb_artefacts.paths(found)],
        templates=[
            "src/causal_bandits/report/templates/report.html.j2",
            "src/causal_bandits/report/templates/report.css",
            "src/causal_bandits/report/templates/small-screen.css",
        ],
        # own experiments' summaries (no verdicts), when the config has an experiments: section
        experiments=[f"results/experiments/{name}/summary.json" for name in config.get("experiments") or {}],
        # the claims judged on seeds planned before the run (rules/planned.smk), when the config runs them
        planned=[f"{cb_planned.OUT}/claims.json"] if cb_planned.planned(config) else [],
        # the pure_exploration: section's summaries (no verdicts), when the config has one
        pure_exploration=[
            f"results/pure_exploration/{name}/summary.json" for name in config.get("pure_exploration") or {}
        ],
    output:
        md=report("figures/REPORT.md", caption="../report/report.rst", category="report"),
        html=report("figures/REPORT.html", caption="../report/report.rst", category="report"),
    log:
        "logs/report/report.log",
    conda:
        "../envs/causal_bandits.yaml"
    params:
        **stage("causal_bandits.report:report_step", *(f"causal_bandits.papers.{paper}.artefacts" for paper in PAPERS)),
        artefacts={paper: [a.to_dict() for a in found] for paper, found in REPORT_ARTEFACTS.items()},
    script:
        STAGE
