"""Rule nonmanip_claims: evaluate each claim of the paper on our results."""

from pathlib import Path

from causal_bandits import algorithms, csv_tables, store
from causal_bandits.claims import document, note_texts
from causal_bandits.logs import logged
from causal_bandits.papers.nonmanip import PAPER, claims

inp = snakemake.input
with logged(snakemake.log[0]) as log:
    results = {
        "arm_sets": {Path(p).stem: store.read_json(p) for p in inp.arm_sets},
        "instances": {Path(p).stem: store.read_json(p) for p in inp.instances},
        "catalogues": {Path(p).stem: store.read_json(p) for p in inp.catalogues},
        "agg": {Path(p).stem: store.read_table(p).to_pandas() for p in inp.agg},
        "identical_runs": {Path(p).name.split(".")[0]: store.read_json(p) for p in inp.identical},
        "table1": algorithms.keyed(PAPER, csv_tables.read_csv(inp.table1)),  # the CSV prints labels
        "section": snakemake.params.section,
    }
    rows = [claim.check(results) for claim in claims.claims(results["instances"])]
    store.write_json(
        snakemake.output[0],
        document("nonmanip", snakemake.params.section, rows, notes=note_texts(claims.NOTES, rows, results)),
    )
    log.info("%d claims evaluated", len(rows))
