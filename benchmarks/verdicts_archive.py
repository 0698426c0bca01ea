"""Verdicts of the archived paper-scale run under the claim rules of this checkout, beside the archived ones.

The archive (archive/paper-scale) keeps the claims' inputs (its intermediates and its tables), so this copies them
into a scratch folder with this checkout's code (:func:`causal_bandits.archive.rebuild.scratch_copy`) and lets
Snakemake run only the claims jobs and the cheap jobs between them and the archived files (the cpe aggregates, the
unknown_graph tables, the fairness data summaries; about a CPU-minute): the real rule code, no copy of it. It prints
the tallies before and after, then one line per claim whose verdict moved: paper, claim, archived verdict, verdict
now, and the new note or reason.

    .venv/bin/python benchmarks/verdicts_archive.py [--archive archive/paper-scale] [--scratch DIR] [--raw DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

from causal_bandits.archive import manifest, provenance
from causal_bandits.archive.rebuild import scratch_copy
from causal_bandits.papers import PAPERS

ROOT = Path(__file__).resolve().parents[1]
#: The jobs this may run: the claims and the cheap derived jobs they need that the archive does not keep.
ALLOWED = (
    *(f"{paper}_claims" for paper in PAPERS),
    "cpe_aggregate",
    "unknown_graph_tables",
    "fairness_adult_users",
    "fairness_youtube_videos",
    "fairness_raw_check",
)

#: Run in the scratch copy: record every rule that is neither registered nor amended there.
SCRATCH_AMEND = """
from causal_bandits import preregistration as p
from causal_bandits.preregistration.register import register
for paper in __import__("causal_bandits.papers").papers.PAPERS:
    for key in p.paper_rules(paper):
        print(register(f"{paper}/{key}", "scratch", "re-judged", "archived"))
"""


def rejudge(archive: Path, scratch: Path, raw: Path) -> Path:
    """The claims documents of ``archive``'s inputs judged by this checkout's rules, in ``scratch``/results/claims."""
    record = manifest.read(archive)
    config = provenance.merged_config(ROOT, record["provenance"]["config"]["files"])
    kept = [
        str(p.relative_to(archive))
        for folder in ("results", "figures")
        for p in (archive / folder).rglob("*")
        if p.is_file() and p.suffix in (".parquet", ".json", ".csv") and "claims" not in p.parts
    ]
    scratch_copy(ROOT, ROOT, archive, config, scratch, kept)
    (scratch / "verify.yaml").write_text(
        json.dumps({**config, "data": {**config.get("data", {}), "raw_dir": str(raw)}})
    )
    targets = [f"results/claims/{paper}.json" for paper in PAPERS]
    command = [sys.executable, "-m", "snakemake", "--cores", "1", "--workflow-profile", "none", *targets]
    command += ["--rerun-triggers", "mtime", "--allowed-rules", *ALLOWED, "--configfile", "verify.yaml"]
    env = {**os.environ, "PYTHONPATH": str(scratch / "src")}
    with open(scratch / "rejudge.log", "w") as log:
        # the changed rules recorded in the scratch copy only, so that the workflow judges by them (an amendment
        # states the verdicts this prints)
        subprocess.run([sys.executable, "-c", SCRATCH_AMEND], cwd=scratch, env=env, stdout=log, check=True)
        if subprocess.run(command, cwd=scratch, env=env, stdout=log, stderr=subprocess.STDOUT).returncode:
            sys.exit(f"error: Snakemake stopped while judging: see {scratch / 'rejudge.log'}")
    return scratch / "results" / "claims"


def compare(before: Path, after: Path) -> list[str]:
    """The tallies of ``before`` and ``after`` (folders of claims documents), then each verdict that moved."""
    tallies: list[Counter[str]] = [Counter(), Counter()]
    moved = []
    for paper in PAPERS:
        docs = [{r["id"]: r for r in json.loads((d / f"{paper}.json").read_text())["claims"]} for d in (before, after)]
        for tally, doc in zip(tallies, docs):
            tally.update(r["status"] for r in doc.values())
        for cid, row in docs[1].items():
            old = docs[0].get(cid, {}).get("status", "absent")
            if old != row["status"]:
                moved.append(f"{paper} | {cid} | {old} → {row['status']} | {row.get('reason') or row['note']}")
    return [f"{name}: {dict(t.most_common())}" for name, t in zip(("archived", "now"), tallies)] + moved


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    args.add_argument("--archive", type=Path, default=ROOT / "archive" / "paper-scale")
    args.add_argument("--scratch", type=Path, help="an empty folder to judge in (default: a temporary one, kept)")
    args.add_argument("--raw", type=Path, default=ROOT.parent / "shared" / "data" / "raw", help="the raw data")
    found = args.parse_args()
    scratch = found.scratch or Path(tempfile.mkdtemp(prefix="causal-bandits-verdicts-"))
    after = rejudge(found.archive.resolve(), scratch.resolve(), found.raw.resolve())
    print("\n".join(compare(found.archive / "results" / "claims", after)))


if __name__ == "__main__":
    main()
