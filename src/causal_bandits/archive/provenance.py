"""Where a run came from: its code, config, lock file, commit, Python and platform.

The code is fingerprinted file by file, not by the commit alone: the archive is committed after the
run, so the checkout that verifies it is always a later commit, and what matters is whether the code
the jobs ran is the same. That code is every file under ``workflow`` (by its sha256; a rule file's without its
rules' ``group:`` directives) but its profiles, and every library module a job of the workflow executes
(:func:`job_modules`), by the digest the workflow reruns jobs by (:func:`causal_bandits.sources.file_digest`: a
comment or a docstring does not change it); a module no job executes, such as this one, can change without touching
the archive. The profiles (``workflow/profiles``) and the rules' job groups say how jobs are scheduled (cores, a
cluster's memory and time requests, which jobs travel together), never what they compute: no profile sets config
(tested), and ``verify`` rebuilds with none, so a cluster's requests can follow new measurements, and rules their
groups, without touching the archive. The config is hashed as merged
(later files over earlier ones, as Snakemake merges them) without ``data.raw_dir``, which says where the
raw files are, not what they are (their checksums are part of the config).
"""

from __future__ import annotations

import hashlib
import platform
import re
import subprocess
import sys
from collections.abc import Iterable, Mapping, Sequence
from importlib.metadata import version
from pathlib import Path
from typing import Any

from causal_bandits import algorithms, papers, sources, store
from causal_bandits import config as cb_config

#: The folder of the workflow's rules, scripts and profiles (all of it but the profiles is code the run ran).
WORKFLOW = "workflow"
#: The workflow's profiles: how jobs are scheduled, not what they compute (module docstring).
PROFILES = "workflow/profiles"
#: The pinned versions of every package the pipeline installs.
LOCK = "requirements.lock"
#: The module that pins every job's CPU kernels (the Snakefile imports it: no job's import closure holds it).
KERNELS = "src/causal_bandits/kernels.py"
#: The workflow's own config file; a run's config files are merged over it.
BASE = "config/config.yaml"
#: A rule's ``group:`` directive in a rule file, its name on the same line or (snakefmt's layout) the next.
GROUP = re.compile(rb'^[ \t]+group:(?:[ \t]*\n[ \t]+| )"[^"\n]*",?[ \t]*\n', re.M)


def file_sha256(path: Path) -> str:
    """sha256 of a file's bytes, read in 1 MiB blocks."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def output_sha256(path: Path) -> str:
    """sha256 of an output: a file's bytes (:func:`file_sha256`), or for a folder (a rule's ``directory()``
    output) of each file's path under it and sha256, one line each in path order."""
    if not path.is_dir():
        return file_sha256(path)
    files = sorted(f for f in path.rglob("*") if f.is_file())
    lines = "".join(f"{f.relative_to(path).as_posix()}\t{file_sha256(f)}\n" for f in files)
    return hashlib.sha256(lines.encode()).hexdigest()


def rules_sha256(path: Path) -> str:
    """sha256 of a rule file's bytes without its rules' ``group:`` directives (the sha256 of its bytes if it has
    none): a job's group says which jobs a cluster job bundles, not what the job computes."""
    return hashlib.sha256(GROUP.sub(b"", path.read_bytes())).hexdigest()


def job_modules() -> list[str]:
    """Every library file a job of the workflow executes (paths relative to the repository): the closure of
    what the workflow's scripts import and of the modules jobs load by name, each paper's run module, its
    algorithms' policy classes and its artefacts (as the rules' ``code`` parameters find them)."""
    scripts = sorted((sources.ROOT.parent / WORKFLOW / "scripts").glob("*.py"))
    loaded = [
        module
        for key in papers.PAPERS
        for module in (
            papers.paper(key).runs,
            f"causal_bandits.papers.{key}.artefacts",
            *(a.path.rpartition(".")[0] for a in algorithms.registry(key).values()),
        )
    ]
    found = sources.module_files(*loaded, *(m for script in scripts for m in sources.script_modules(script)))
    return [f"src/{path}" for path in found]


def code_files(workdir: Path, modules: Iterable[str]) -> dict[str, str | None]:
    """sha256 of every file under ``workflow`` (its profiles and compiled caches left out; a rule file's without its
    rules' ``group:`` directives, :func:`rules_sha256`), and of ``modules``
    (paths relative to ``workdir``; a file missing from it is recorded as ``None``): the code digest of a Python
    module, the sha256 of any other file (a template)."""
    paths = [
        path.relative_to(workdir).as_posix()
        for path in (workdir / WORKFLOW).rglob("*")
        if path.is_file()
        and "__pycache__" not in path.parts
        and path.suffix != ".pyc"
        and not path.is_relative_to(workdir / PROFILES)
    ]
    found: dict[str, str | None] = {
        path: rules_sha256(workdir / path) if path.endswith(".smk") else file_sha256(workdir / path) for path in paths
    }
    for path in modules:
        file = workdir / path
        if not file.is_file():
            found[path] = None
        else:
            found[path] = sources.file_digest(file) if file.suffix == ".py" else file_sha256(file)
    return dict(sorted(found.items()))


def merged_config(workdir: Path, configfiles: Sequence[str]) -> dict[str, Any]:
    """The config a run with ``--configfile configfiles`` sees in ``workdir`` (merged, unchecked)."""
    return cb_config.load(workdir / BASE, *(workdir / name for name in configfiles))


def config_sha256(config: Mapping[str, Any]) -> str:
    """sha256 of a merged config's canonical JSON, ``data.raw_dir`` left out."""
    data = {key: value for key, value in config.get("data", {}).items() if key != "raw_dir"}
    return store.config_hash({**config, "data": data})


def _commit(workdir: Path) -> str | None:
    found = subprocess.run(["git", "rev-parse", "HEAD"], cwd=workdir, capture_output=True, text=True)
    return found.stdout.strip() if found.returncode == 0 else None


def record(workdir: Path, configfiles: Sequence[str], modules: Iterable[str]) -> dict[str, Any]:
    """The provenance of the run in ``workdir`` started with ``configfiles``: commit, code files,
    config, lock file, Python, platform and Snakemake's version.

    Parameters
    ----------
    workdir : Path
        The run's working folder (a checkout of the repository).
    configfiles : sequence of str
        The run's config files, relative to ``workdir`` or absolute.
    modules : iterable of str
        The library modules the run's jobs execute (paths relative to ``workdir``; :func:`job_modules`).
    """
    return {
        "commit": _commit(workdir),
        "code": code_files(workdir, modules),
        "config": {"files": list(configfiles), "sha256": config_sha256(merged_config(workdir, configfiles))},
        "lock": {"file": LOCK, "sha256": file_sha256(workdir / LOCK)},
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "snakemake": version("snakemake"),
    }


def differences(archived: Mapping[str, Any], current: Mapping[str, Any]) -> list[str]:
    """What differs between two provenance records, one phrase each (empty when the code, the
    config and the lock file are the same)."""
    found = []
    code = sorted(
        path
        for path in archived["code"].keys() | current["code"].keys()
        if archived["code"].get(path) != current["code"].get(path)
    )
    if code:
        shown = ", ".join(code[:3]) + (f" and {len(code) - 3} more" if len(code) > 3 else "")
        found.append(f"the code ({len(code)} file{'s' * (len(code) > 1)}: {shown})")
    if archived["config"]["sha256"] != current["config"]["sha256"]:
        found.append(f"the config ({' + '.join([BASE, *archived['config']['files']])})")
    if archived["lock"]["sha256"] != current["lock"]["sha256"]:
        found.append(f"the lock file ({LOCK})")
    return found
