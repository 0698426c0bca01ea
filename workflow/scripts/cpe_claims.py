"""Rule cpe_claims: evaluate each claim (SPEC §4) on our results."""
from pathlib import Path

import pyarrow.parquet as pq

from causal_bandits import store
from causal_bandits.claims import document
from causal_bandits.logs import logged
from causal_bandits.papers.cpe import claims, design

inp, p = snakemake.input, snakemake.params
with logged(snakemake.log[0]) as log:
    results = {
        "stopping": {Path(x).name.removesuffix(".parquet"): pq.read_table(x).to_pandas() for x in inp.stopping},
        "budgets": {Path(x).name.removesuffix(".budget.parquet"): pq.read_table(x).to_pandas() for x in inp.budget},
        "quantities": {(Path(x).parent.name, Path(x).name.removesuffix(".json")): store.read_json(x)
                       for x in inp.quantities},
        "theory": store.read_json(inp.theory),
    }
    run = {e: {j.algorithm for j in design.jobs(p.section) if j.experiment == e} for e in p.experiments}
    rows = [claim.check(results) for claim in claims.claims(run)]
    store.write_json(snakemake.output[0], document("cpe", p.section, rows, scale=f"sample cap {p.section['horizon']:,}, {p.section['n_seeds']:,} seeds per setting"))
    log.info("%d claims evaluated", len(rows))
