"""Rule fairness_adult_video_instance: arms, exact means, counterfactual truth and W of Adult-Video."""

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.fairness import adult_video as av

p, inp = snakemake.params, snakemake.input
with logged(snakemake.log[0]) as log:
    graph = store.read_json(inp.graph)
    doc = av.instance_document(
        store.read_table(inp.users).to_pandas(),
        store.read_table(inp.videos).to_pandas(),
        store.read_table(inp.offline).to_pandas(),
        graph,
        p.adult_video,
        provenance=graph["data_provenance"],
        dsep_criterion=p.dsep_criterion,
    )
    store.write_json(snakemake.output[0], doc)
    log.info(
        "%d arms, %d online users, W = %s (enforced: %s), cf mode %s, max |delta_true| = %.4f (%s)",
        len(doc["arms"]),
        len(doc["users"]["row_id"]),
        doc["dsep"]["W"],
        doc["dsep"]["enforced_paper_W"],
        doc["cf_mode_used"],
        max(abs(d) for row in doc["delta_true"] for d in row),
        doc["data_provenance"],
    )
