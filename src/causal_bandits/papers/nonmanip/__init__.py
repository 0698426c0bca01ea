"""Lee & Bareinboim (AAAI-19), "Structural Causal Bandits with Non-Manipulable Variables".

The paper's experiments (§5, Figure 5, Table 1) compare bandit solvers (TS, kl-UCB) played on
three arm sets of an SCM-MAB: all interventions (BF), minimal intervention sets (MIS) and
possibly-optimal MISs (POMIS, Theorem 4: computed on the latent projection onto V \\ N). The
package: :mod:`.graphs` (the paper's diagrams), :mod:`.experiments` (config checks, arm sets,
instances), :mod:`.runs` (the solvers on the engine), :mod:`.tables` (Table 1), :mod:`.figures`,
:mod:`.claims`. This module stays light: run jobs import it.
The POMIS+ strategy (z²-solvers, Algorithms 1-3) is not implemented yet; its claims are listed
and reported as not evaluated.
"""

PAPER = "nonmanip"
TITLE = "Lee & Bareinboim (AAAI-19): structural causal bandits with non-manipulable variables"
