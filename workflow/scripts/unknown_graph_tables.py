"""Rule unknown_graph_tables: R_T per cell and tables V4-V6 (designed for this replication)."""

import math
from pathlib import Path

import pandas as pd
import pyarrow as pa

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.unknown_graph import tables
from causal_bandits.papers.unknown_graph.cells import cells
from causal_bandits.papers.unknown_graph.runs import instance

inp, out, section = snakemake.input, snakemake.output, snakemake.params.section


def write(name, frame, title, note=tables.NOT_IN_PAPER):
    store.write_atomic(out[f"{name}_csv"], lambda p: frame.to_csv(p, index=False))
    store.write_atomic(out[f"{name}_md"], lambda p: Path(p).write_text(tables.markdown(frame, title, note)))


with logged(snakemake.log[0]):
    specs = cells(section)
    summaries = {
        Path(p).name.removesuffix(".summaries.parquet"): store.read_table(p).to_pandas() for p in inp.summaries
    }
    sizes = {c: instance(c, specs[c], 0).n for c in summaries}
    regret = tables.final_regret(summaries, specs, sizes)
    store.write_table(out.regret, pa.Table.from_pandas(regret, preserve_index=False), {})
    write("table_final_regret", regret, f"R_T at T = {section['horizon']:,} per cell and algorithm")
    write(
        "tableV4",
        tables.clique_success(regret, summaries),
        "V4: X_R in C0, |C0| and discovery rounds against Thm 3's T1 (corrected and literal Alg. 7/8)",
    )
    lb = pd.concat([store.read_table(p).to_pandas() for p in inp.v5], ignore_index=True)
    cfg = section["lower_bounds"]
    write(
        "tableV5",
        tables.lower_bounds(lb, math.sqrt(cfg["n"] * cfg["K"] * cfg["horizon"]) / 8),
        f"V5: lower-bound families, n = {cfg['n']}, K = {cfg['K']}, T = {cfg['horizon']:,}",
    )
    write(
        "tableV6_discovery",
        pd.concat([store.read_table(p).to_pandas() for p in inp.v6], ignore_index=True),
        "V6: discovery reliability on tree(h) (sampled, no stage 3)",
    )
    write(
        "tableV6_readings",
        store.read_table(inp.readings).to_pandas(),
        "V6: exact-test outcomes of the printed and corrected readings of the pseudo-code",
    )
