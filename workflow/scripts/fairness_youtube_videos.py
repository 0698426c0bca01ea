"""Rule fairness_youtube_videos: the video pool (seeded sample, binarised features, video types)."""

import numpy as np
import pyarrow as pa

from causal_bandits import store
from causal_bandits.data.youtube import read_crawl
from causal_bandits.logs import logged
from causal_bandits.papers.fairness import adult_video as av

cfg = snakemake.params.adult_video
with logged(snakemake.log[0]) as log:
    manifest = store.read_json(snakemake.input.manifest)
    crawl = read_crawl(list(snakemake.input.files), snakemake.params.max_skipped)
    pool, medians = av.select_videos(crawl.videos, cfg["n_videos"], cfg["seed"], cfg["arm_features"], cfg["video_rule"])
    types = np.unique(pool["arm_id"])
    if types.size < 2 ** len(cfg["arm_features"]):
        log.warning(
            "only %d of %d video types occur in the pool; the arms are the present types",
            types.size,
            2 ** len(cfg["arm_features"]),
        )
    meta = {
        **store.provenance(cfg),
        **{f"median_{k}": v for k, v in medians.items()},
        **{f"crawl_{k}": v for k, v in crawl.summary().items()},
        "data_provenance": manifest["data_provenance"],
        "sources": ",".join(f["file"] for f in manifest["files"]),
        "n_valid": len(crawl.videos),
        "n_videos": len(pool),
        "n_types": int(types.size),
    }
    store.write_table(snakemake.output[0], pa.Table.from_pandas(pool, preserve_index=False), meta)
    log.info("crawl %s; pool of %d videos, %d types, medians %s", crawl.summary(), len(pool), types.size, medians)
