# The cross-paper replication report: one verdict per claim, numbers side by side.


rule report:
    """figures/REPORT.md (and an HTML twin) from every paper's evaluated claims."""
    input:
        claims=[f"results/claims/{paper}.json" for paper in PAPERS],
        code=script_code("report.py"),
    output:
        md="figures/REPORT.md",
        html=report("figures/REPORT.html", caption="../report/report.rst", category="report"),
    log:
        "logs/report/report.log",
    script:
        "../scripts/report.py"
