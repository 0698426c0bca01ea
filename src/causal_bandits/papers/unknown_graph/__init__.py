"""Lu, Meisami & Tewari (NeurIPS 2021), "Causal Bandits with Unknown Graph Structure" (CN-UCB).

The paper has no experiments; this package holds its instances as data (:mod:`.instance`,
:mod:`.families`) and the environment that simulates them (:mod:`.environment`, which serves
discovery batches as blocks of rounds to the one engine). The algorithms live outside it: the
discovery stage in the subpackage :mod:`causal_bandits.cn_ucb_discovery`, the bandit
policies in :mod:`causal_bandits.bandits.cn_ucb` and :mod:`causal_bandits.bandits.ucb1`. The
workflow side: :mod:`.config`, :mod:`.runs`, :mod:`.trace` (Figure 1), :mod:`.discovery_checks`
(V6), :mod:`.tables`, :mod:`.figures`, :mod:`.claims`. This module stays light: run jobs import it.
"""

PAPER = "unknown_graph"
TITLE = "Lu, Meisami & Tewari (NeurIPS-21): causal bandits with unknown graph structure (CN-UCB)"
