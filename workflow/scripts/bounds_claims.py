"""Rule bounds_claims: evaluate each claim of the paper on our results."""

from pathlib import Path

from causal_bandits import store
from causal_bandits.claims import document, note_texts
from causal_bandits.logs import logged
from causal_bandits.papers.bounds import claims as bounds_claims

inp = snakemake.input
with logged(snakemake.log[0]) as log:
    results = {
        "exact": store.read_json(inp.exact),
        "offline": store.read_json(inp.summary),
        "estimates": {Path(p).stem.removeprefix("estimates_"): store.read_table(p).to_pandas() for p in inp.estimates},
        "coverage": store.read_table(inp.coverage).to_pandas(),
        "agg": {Path(p).stem: store.read_table(p).to_pandas() for p in inp.agg},
        "config": snakemake.params.bounds,
    }
    rows = [claim.check(results) for claim in bounds_claims.claims()]
    store.write_json(
        snakemake.output[0],
        document("bounds", snakemake.params.bounds, rows, notes=note_texts(bounds_claims.NOTES, rows, results)),
    )
    log.info("%d claims evaluated", len(rows))
