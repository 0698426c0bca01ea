"""Rule planned_claim: one claim's planned seeds run and the claim judged on them alone
(causal_bandits.planned_runs.write_claim)."""

from pathlib import Path

from causal_bandits import planned_runs
from causal_bandits.logs import logged

with logged(snakemake.log[0]) as log:
    key = snakemake.params.key
    planned_runs.write_claim(snakemake.config, key, Path("results"), Path(snakemake.output.claim).parents[1])
    log.info("%s judged on its planned seeds", key)
