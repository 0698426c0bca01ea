"""Rule fairness_adult_graph: the Adult-Video graph learned by PC-stable with tiers (Figure 3)."""

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.fairness import adult_video as av

cfg = snakemake.params.adult_video
with logged(snakemake.log[0]) as log:
    offline = store.read_table(snakemake.input.offline).to_pandas()
    doc = av.graph_document(offline, cfg["arm_features"], cfg)
    doc["data_provenance"] = store.read_metadata(snakemake.input.offline)["data_provenance"]
    store.write_json(snakemake.output[0], doc)
    log.info("learned edges %s; Pa(R) = %s (paper: %s)", doc["edges"], doc["pa_R"], doc["paper_pa_R"])
