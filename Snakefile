# Replication pipeline for five causal-bandit papers. See README.md.
#   snakemake --cores 16                                   # paper scale (config/config.yaml)
#   snakemake --cores 2 --configfile config/quick.yaml     # smoke run
configfile: "config/config.yaml"


include: "workflow/rules/common.smk"
include: "workflow/rules/nonmanip.smk"
include: "workflow/rules/report.smk"


rule all:
    default_target: True
    input:
        all_targets(),
