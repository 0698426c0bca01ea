"""Run jobs import only what they use: no pandas, pgmpy, seaborn or networkx where a job does not need
them, from the imports to the tables written (start-up time: every run job logs its own, from process start to the
first round; this pins the modules)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

HEAVY = ("pandas", "pgmpy", "seaborn", "matplotlib", "networkx", "scipy.optimize", "snakemake")

# A job's imports, as its workflow script and run module make them (the policy class on demand).
JOBS = {
    "nonmanip ts": ("causal_bandits.papers.nonmanip.runs", "causal_bandits.bandits.thompson.ThompsonSampling"),
    "nonmanip kl_ucb": ("causal_bandits.papers.nonmanip.runs", "causal_bandits.bandits.klucb.KLUCB"),
    "nonmanip z2_ts": ("causal_bandits.papers.nonmanip.runs", "causal_bandits.bandits.z2_thompson.Z2ThompsonSampling"),
    "nonmanip z2_kl_ucb": ("causal_bandits.papers.nonmanip.runs", "causal_bandits.bandits.z2_klucb.Z2KLUCB"),
    "bounds LinUCB": ("causal_bandits.papers.bounds.runs", "causal_bandits.bandits.linucb.LinUCB"),
    "fairness F-UCB": ("causal_bandits.papers.fairness.runs", "causal_bandits.bandits.fucb.FUCB"),
    "cpe CCPE-General": ("causal_bandits.papers.cpe.runs", "causal_bandits.bandits.ccpe_general.CCPEGeneral"),
    "cpe CCPE-BGLM": ("causal_bandits.papers.cpe.runs", "causal_bandits.bandits.ccpe_bglm.CCPEBGLM"),
    "cpe LUCB": ("causal_bandits.papers.cpe.runs", "causal_bandits.bandits.lucb.LUCB"),
    # an own experiment's run job: nonmanip's run module, keyed by causal_bandits.experiments
    "experiments ts": ("causal_bandits.experiments", "causal_bandits.bandits.thompson.ThompsonSampling"),
}


@pytest.mark.parametrize("job", sorted(JOBS))
def test_run_jobs_import_no_heavy_library_they_do_not_use(job):
    module, policy = JOBS[job]
    code = (
        f"import sys, json, {module} as m, causal_bandits.logs, causal_bandits.store\n"
        f"from causal_bandits.runs import policy_class\npolicy_class({policy!r})\n"
        "import numpy as np, tempfile, types\n"  # a run's tables written, as every run job ends
        "run = types.SimpleNamespace(seeds=np.arange(3), rounds=np.arange(1, 3),"
        " trace={'optimal': np.ones((3, 2), bool)}, summary={'final_regret': np.zeros(3)})\n"
        "out = tempfile.mkdtemp()\ncausal_bandits.store.write_run(out + '/t.parquet', out + '/s.parquet', run, {})\n"
        f"print(json.dumps(sorted({{n.split('.')[0] if n.split('.')[0] != 'scipy' else n for n in sys.modules}})))"
    )
    loaded = set(
        json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
    )
    unwanted = {h for h in HEAVY if h in loaded}
    assert not unwanted, f"{job} imports {sorted(unwanted)}"
