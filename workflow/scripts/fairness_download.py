"""Rule fairness_download: fetch a missing raw file from its pinned address, verified before it appears."""

from causal_bandits.data import raw
from causal_bandits.logs import logged

with logged(snakemake.log[0]) as log:
    spec = raw.RawFile.from_config(snakemake.params.entry)
    path = raw.fetch(snakemake.params.raw_dir, spec)
    log.info("downloaded %s from %s (sha256 %s)", path, spec.url, spec.sha256)
