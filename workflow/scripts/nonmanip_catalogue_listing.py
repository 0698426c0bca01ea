"""Rule nonmanip_catalogue_listing: every panel's POMIS+ catalogue as Markdown for the reader."""

from pathlib import Path

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.nonmanip.tables import catalogue_markdown

with logged(snakemake.log[0]):
    docs = {Path(p).stem: store.read_json(p) for p in snakemake.input.catalogues}
    text = catalogue_markdown(docs)
    store.write_atomic(snakemake.output[0], lambda tmp: tmp.write_text(text))
