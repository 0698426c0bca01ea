"""Rule report: figures/REPORT.md and REPORT.html from every paper's evaluated claims and its tables and
figures, and the studies' (read from the working directory)."""

import os

from causal_bandits import report, store
from causal_bandits.artefacts import Artefact
from causal_bandits.logs import logged

with logged(snakemake.log[0]):
    papers = [store.read_json(p) for p in snakemake.input.claims]
    artefacts = {paper: [Artefact.from_dict(a) for a in found] for paper, found in snakemake.params.artefacts.items()}
    experiments = [store.read_json(p) for p in snakemake.input.experiments]
    pure_exploration = [store.read_json(p) for p in snakemake.input.pure_exploration]
    studies = [store.read_json(p) for p in snakemake.input.studies]
    md, html = report.render(
        papers,
        artefacts,
        page_dir=os.path.dirname(snakemake.output.html),
        experiments=experiments,
        studies=studies,
        pure_exploration=pure_exploration,
    )
    store.write_atomic(snakemake.output.md, lambda tmp: tmp.write_text(md))
    store.write_atomic(snakemake.output.html, lambda tmp: tmp.write_text(html))
