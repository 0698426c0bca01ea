"""Rule fairness_adult_users: binarised Adult users, the sample and its graph / online split."""

import pyarrow as pa

from causal_bandits import store
from causal_bandits.data.adult import read_adult
from causal_bandits.logs import logged
from causal_bandits.papers.fairness import adult_video as av

cfg = snakemake.params.adult_video
with logged(snakemake.log[0]) as log:
    manifest = store.read_json(snakemake.input.manifest)
    adult = read_adult(snakemake.input.files[0])
    users, thresholds = av.binarize_users(adult, cfg["age_rule"])
    sample = av.sample_users(users, cfg["n_sample"], cfg["n_graph"], cfg["seed"])
    meta = {
        **store.provenance(cfg),
        **{f"threshold_{k}": v for k, v in thresholds.items()},
        "data_provenance": manifest["data_provenance"],
        "source": manifest["files"][0]["file"],
        "n_records": len(adult),
        "n_male": int((adult["sex"] == "Male").sum()),
        "n_female": int((adult["sex"] == "Female").sum()),
    }
    store.write_table(snakemake.output[0], pa.Table.from_pandas(sample, preserve_index=False), meta)
    log.info(
        "%d Adult records (%s), age median %.0f; %d sampled: %d graph, %d online",
        len(adult),
        manifest["data_provenance"],
        thresholds["age_median"],
        len(sample),
        cfg["n_graph"],
        len(sample) - cfg["n_graph"],
    )
