# Replication pipeline for five causal-bandit papers. See README.md.
#   snakemake --cores 16                                   # paper scale (config/config.yaml)
#   snakemake --cores 2 --configfile config/quick.yaml     # smoke run
configfile: "config/config.yaml"


include: "workflow/rules/common.smk"


# One rule file per paper (workflow/rules/<paper>.smk), for the papers the config has a section for.
for paper in PAPERS:

    include: f"workflow/rules/{paper}.smk"


include: "workflow/rules/report.smk"


rule all:
    default_target: True
    input:
        lambda wildcards: all_targets(),
