"""Rule unknown_graph_figures: figures V1-V6 (designed for this replication, not in the paper)."""

import math
from pathlib import Path

import pandas as pd

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.unknown_graph import figures
from causal_bandits.papers.unknown_graph.cells import cells

inp, out, section = snakemake.input, snakemake.output, snakemake.params.section
with logged(snakemake.log[0]):
    specs = cells(section)
    runs_scale = f"T = {section['horizon']:,}, {section['n_seeds']} seeds per cell and algorithm"
    aggs = {Path(p).stem: store.read_table(p).to_pandas() for p in inp.agg}
    summaries = {
        Path(p).name.removesuffix(".summaries.parquet"): store.read_table(p).to_pandas() for p in inp.summaries
    }
    regret = store.read_table(inp.regret).to_pandas()
    if any(specs[c]["family"] == "tree" for c in aggs):
        figures.figV1(
            aggs,
            summaries,
            specs,
            out.figV1_pdf,
            out.figV1_png,
            scale=runs_scale,
        )
    figures.figV2(regret, out.figV2_pdf, out.figV2_png, scale=runs_scale)
    figures.figV3(regret, out.figV3_pdf, out.figV3_png, scale=runs_scale)
    figures.figV4(regret, specs, out.figV4_pdf, out.figV4_png, scale=runs_scale)
    cfg = section["lower_bounds"]
    lb = pd.concat([store.read_table(p).to_pandas() for p in inp.v5], ignore_index=True)
    figures.figV5(
        lb,
        math.sqrt(cfg["n"] * cfg["K"] * cfg["horizon"]) / 8,
        out.figV5_pdf,
        out.figV5_png,
        scale=f"T = {cfg['horizon']:,}, {cfg['n_seeds']} seeds per instance",
    )
    v6 = pd.concat([store.read_table(p).to_pandas() for p in inp.v6], ignore_index=True)
    figures.figV6(
        v6,
        out.figV6_pdf,
        out.figV6_png,
        scale=f"discovery only (stages 0-2, no horizon), {section['discovery']['n_seeds']} seeds per setting",
    )
