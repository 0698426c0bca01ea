"""Rule pure_exploration_instance: an own graph's cpe instance (arms, exact means, admissible sequences), as JSON."""

from causal_bandits import store
from causal_bandits.experiments import cpe
from causal_bandits.logs import logged

with logged(snakemake.log[0]) as log:
    name, p = snakemake.wildcards.experiment, snakemake.params.experiment
    inst = cpe.instance(p["scm"], max_intervened=p["max_intervened"], bglm=p["bglm"], name=name)
    store.write_json(snakemake.output[0], inst.to_document())
    log.info("%s: %d arms, best mean %.4f", name, inst.n_arms, inst.mu.max())
