"""Rule fairness_claims: evaluate each claim of the paper on our results."""

from pathlib import Path

import pandas as pd

from causal_bandits import csv_tables, store
from causal_bandits.claims import document, note_texts
from causal_bandits.logs import logged
from causal_bandits.papers.fairness import claims as fairness

inp = snakemake.input
with logged(snakemake.log[0]) as log:
    users_meta = store.read_metadata(inp.users)
    videos_meta = store.read_metadata(inp.videos)
    results = {
        "config": snakemake.params.fairness,
        "email": store.read_json(inp.email),
        "adult_video": store.read_json(inp.adult),
        "graph": store.read_json(inp.graph),
        "summary": {Path(p).stem: store.read_table(p).to_pandas() for p in inp.summaries},
        "table4": csv_tables.read_csv(inp.table4),
        "users_meta": {
            "data_provenance": users_meta["data_provenance"],
            "n_records": int(users_meta["n_records"]),
            "n_male": int(users_meta["n_male"]),
            "n_female": int(users_meta["n_female"]),
        },
        "videos_meta": {k: int(videos_meta[k]) for k in ("n_valid", "n_videos", "n_types")},
    }
    rows = [claim.check(results) for claim in fairness.claims()]
    notes = note_texts(fairness.NOTES, rows, results)
    doc = document("fairness", snakemake.params.fairness, rows, notices=fairness.notices(results), notes=notes)
    store.write_json(snakemake.output[0], doc)
    log.info("%d claims evaluated: %s", len(rows), pd.Series([r["status"] for r in rows]).value_counts().to_dict())
