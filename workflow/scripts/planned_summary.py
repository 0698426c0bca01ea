"""Rule planned_summary: the planned claims beside the main run's verdicts
(causal_bandits.planned_runs.write_summary)."""

from pathlib import Path

from causal_bandits import planned_runs
from causal_bandits.logs import logged

with logged(snakemake.log[0]):
    output = snakemake.output
    planned_runs.write_summary(
        [Path(p) for p in snakemake.input.claims],
        [Path(p) for p in snakemake.input.main],
        Path(output.summary).parent,
        Path(output.table).parent,
    )
