"""Rule cpe_quantities: one instance's exact complexity quantities (docs/papers/cpe.md#cpe-quantities), as JSON."""

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.cpe.instance import CPEInstance
from causal_bandits.papers.cpe.quantities import quantities

p = snakemake.params
with logged(snakemake.log[0]) as log:
    q = quantities(CPEInstance.from_document(store.read_json(snakemake.input.instance)), p.epsilon, p.delta)
    store.write_json(snakemake.output[0], q.to_document())
    s = q.summary
    log.info(
        "Delta_min = %.6f, H = %.1f, m/m_eps = %d/%d, H_m = %.1f, LB = %.1f",
        s["delta_min"],
        s["H"],
        s["m_G"],
        s["m_eps_G"],
        s["H_m_G"],
        s["LB_thm3"],
    )
