"""Rule unknown_graph_claims: evaluate each claim of the paper on our results."""

import pandas as pd

from causal_bandits import csv_tables, store
from causal_bandits.claims import document, note_texts
from causal_bandits.logs import logged
from causal_bandits.papers.unknown_graph import claims as ug_claims

inp, section = snakemake.input, snakemake.params.section
with logged(snakemake.log[0]) as log:
    results = {
        "fig1": store.read_json(inp.trace),
        "regret": store.read_table(inp.regret).to_pandas(),
        "V4": csv_tables.read_csv(inp.v4),
        "V5": csv_tables.read_csv(inp.v5),
        "V6": pd.concat([store.read_table(p).to_pandas() for p in inp.v6], ignore_index=True),
        "readings": store.read_table(inp.readings).to_pandas(),
        "config": section,
    }
    rows = [claim.check(results) for claim in ug_claims.claims()]
    store.write_json(
        snakemake.output[0], document("unknown_graph", section, rows, notes=note_texts(ug_claims.NOTES, rows, results))
    )
    log.info("%d claims evaluated", len(rows))
