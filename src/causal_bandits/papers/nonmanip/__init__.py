"""Lee & Bareinboim (AAAI-19), "Structural Causal Bandits with Non-Manipulable Variables".

The paper's experiments (§5, Figure 5, Table 1) compare bandit solvers (TS, kl-UCB) played on
three arm sets of an SCM-MAB: all interventions (BF), minimal intervention sets (MIS) and
possibly-optimal MISs (POMIS, Theorem 4: computed on the latent projection onto V \\ N), and
POMIS+: the POMIS arms played by z²-TS / z²-KL-UCB, which also estimate each arm from the other
arms' data through the expressions z²ID finds (Algorithms 1-3). The package: :mod:`.graphs` (the
paper's diagrams), :mod:`.experiments` (config checks, arm sets, instances), :mod:`.catalogue`
(the POMIS+ expression catalogues, validated), :mod:`.runs` (the solvers on the engine),
:mod:`.tables` (Table 1), :mod:`.figures`, :mod:`.claims`. This module stays light: run jobs
import it.
"""

PAPER = "nonmanip"
TITLE = "Lee & Bareinboim (AAAI-19): structural causal bandits with non-manipulable variables"
#: File-safe key of the POMIS+ strategy in configs and run paths (its label is "POMIS+").
POMIS_PLUS = "POMISplus"
#: Keys of ``pomis_plus`` that are not settings of a run's solver: the size of its jobs.
NOT_SETTINGS = ("seeds_per_job", "panel_seeds_per_job")
