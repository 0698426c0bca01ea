# Config validation, target lists and helpers. No rules with side effects here.
import sys

from causal_bandits import config as cb_config
from causal_bandits.bandits import source_files
from causal_bandits.errors import CausalBanditsError
from causal_bandits.papers import nonmanip as nonmanip_paper
from causal_bandits.runs import chunk_seeds

try:
    cb_config.validate(config)
    nonmanip_paper.check_config(config["nonmanip"])
except CausalBanditsError as err:
    sys.exit(f"error: {err}")


def lib(*modules):
    """Library source files (paths under src/) that a rule's numbers depend on."""
    return [f"src/causal_bandits/{m}" for m in modules]


def algorithm_sources(wildcards):
    """The algorithm's own module(s): editing klucb.py reruns only kl-UCB runs."""
    return [f"src/{path}" for path in source_files(wildcards.algorithm)]


NONMANIP = config["nonmanip"]
NONMANIP_PANELS = list(NONMANIP["panels"])
NONMANIP_GRAPHS = ["frontdoor", "fig2a", "fig3", "fig5d"]
NONMANIP_CHUNKS = chunk_seeds(NONMANIP["n_simulations"], config["seeds_per_job"])


def nonmanip_targets():
    figures = [f"figures/nonmanip/figure{i}.{ext}" for i in range(1, 6) for ext in ("pdf", "png")]
    tables = ["figures/nonmanip/table1.csv", "figures/nonmanip/table1.md"]
    return figures + tables + ["figures/nonmanip/figure5_optimal_arm.pdf"]


def all_targets():
    return nonmanip_targets() + ["figures/REPORT.md", "figures/REPORT.html"]
