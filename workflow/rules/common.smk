# Config validation, target lists and helpers. No rules with side effects here.
import sys

import importlib

from causal_bandits import config as cb_config
from causal_bandits.bandits import source_files
from causal_bandits.errors import CausalBanditsError
from causal_bandits.runs import chunk_seeds

# Papers in pipeline order; a paper runs when the config has a section for it.
PAPERS = [p for p in cb_config.PAPERS if p in config]

try:
    cb_config.validate(config)
    for paper in PAPERS:  # semantic checks a schema cannot express (graphs, SCM parameters)
        importlib.import_module(f"causal_bandits.papers.{paper}").check_config(config[paper])
except CausalBanditsError as err:
    sys.exit(f"error: {err}")

# Each paper's rule file adds its final outputs here; the report reads results/claims/<paper>.json.
TARGETS = {}


def lib(*modules):
    """Library source files (paths under src/) that a rule's numbers depend on."""
    return [f"src/causal_bandits/{m}" for m in modules]


def algorithm_sources(wildcards):
    """The algorithm's own module(s): editing klucb.py reruns only kl-UCB runs."""
    return [f"src/{path}" for path in source_files(wildcards.algorithm)]




def all_targets():
    return [t for paper in PAPERS for t in TARGETS[paper]] + ["figures/REPORT.md", "figures/REPORT.html"]
