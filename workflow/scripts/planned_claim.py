"""Rule planned_claim: one claim judged on its planned runs alone (causal_bandits.planned_runs.write_claim)."""

from pathlib import Path

from causal_bandits import planned_runs
from causal_bandits.logs import logged

with logged(snakemake.log[0]) as log:
    key, out = snakemake.params.key, Path(snakemake.output[0]).parents[1]
    found = [Path(p) for p in snakemake.input.runs]
    planned_runs.write_claim(snakemake.config, key, Path("results"), out, found=found)
    log.info("%s judged on its planned seeds (%d run files)", key, len(found))
