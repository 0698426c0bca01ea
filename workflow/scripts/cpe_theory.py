"""Rule cpe_theory: E4b theory curves (H, H_m for q^(G) and q^(L)) of the two-layer BGLM for every k."""

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.cpe.families import bglm
from causal_bandits.papers.cpe.quantities import quantities

with logged(snakemake.log[0]) as log:
    rows = []
    for k in snakemake.params.k:
        s = quantities(bglm(k), 0.0, snakemake.params.delta, with_burn_in=False, with_arms=False).summary
        rows.append(
            {
                key: s[key]
                for key in (
                    "param_k",
                    "n_arms",
                    "delta_min",
                    "H",
                    "m_G",
                    "m_eps_G",
                    "H_m_G",
                    "m_L",
                    "m_eps_L",
                    "H_m_L",
                    "UB",
                    "UB_L",
                )
            }
        )
        log.info("k = %d: H = %.4g, H_m(G) = %.4g, H_m(L)/H = %.3f", k, s["H"], s["H_m_G"], s["H_m_L"] / s["H"])
    store.write_json(snakemake.output[0], rows)
