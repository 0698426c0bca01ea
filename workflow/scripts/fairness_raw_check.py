"""Rule fairness_raw_check: verify the sha256 of a data set's raw files (read once: the checksum cache the planning
filled, causal_bandits.data.raw.cached_sha256); label stand-ins."""

from pathlib import Path

from causal_bandits import store
from causal_bandits.data import raw
from causal_bandits.logs import logged

p = snakemake.params
with logged(snakemake.log[0]) as log:
    files = []
    for entry, path in zip(p.entries, snakemake.input.files):
        spec = raw.RawFile.from_config(entry)
        if Path(path).is_relative_to(raw.STANDIN_DIR):
            files.append({"file": path, "pinned": spec.path, "provenance": "synthetic-standin"})
            log.warning("%s is missing under %s: using the synthetic stand-in %s", spec.path, p.raw_dir, path)
            continue
        raw.check(path, spec, p.checksums)
        name = raw.recorded_name(path, p.raw_dir)
        files.append({"file": name, "pinned": spec.path, "sha256": spec.sha256, "provenance": "raw"})
        log.info("%s: sha256 %s verified", path, spec.sha256)
    provenance = "synthetic-standin" if any(f["provenance"] != "raw" for f in files) else "raw"
    store.write_json(
        snakemake.output[0], {"dataset": snakemake.wildcards.dataset, "data_provenance": provenance, "files": files}
    )
