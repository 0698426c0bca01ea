"""One dependency list: pyproject.toml is the source; environment.yml (conda users) and the rules' conda
environment (workflow/envs/causal_bandits.yaml, `snakemake --use-conda`) list exactly its requirements
(the core ones and the extras `test`, `slurm`, `cluster` and `docs`; not the linters), and requirements.lock
pins every one of them at a version its range allows. A dependency added to pyproject and forgotten in an
environment file (numba was) fails here, with the lines to paste."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
ENV_FILES = ("environment.yml", "workflow/envs/causal_bandits.yaml")
#: The pyproject extras the environment files carry (the linters stay pip-only: `make lint` installs them).
EXTRAS = ("test", "slurm", "cluster", "docs")
#: PyPI names whose conda-forge package has another name (and its own versions).
CONDA_NAMES = {"mkdocstrings[python]": "mkdocstrings-python"}


def _project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def _requirements() -> list[str]:
    project = _project()
    extras = project["optional-dependencies"]
    return [r.replace(" ", "") for r in [*project["dependencies"], *(r for e in EXTRAS for r in extras[e])]]


def _conda_line(requirement: str) -> str:
    req = Requirement(requirement)
    name = req.name + (f"[{','.join(sorted(req.extras))}]" if req.extras else "")
    return CONDA_NAMES.get(name, requirement)


def expected() -> list[str]:
    """The conda dependency lines pyproject.toml asks for (as it writes them), python first."""
    return [f"python{_project()['requires-python']}", *sorted(_conda_line(r) for r in _requirements())]


def _listed(path: str) -> tuple[list[str], list]:
    deps = yaml.safe_load((ROOT / path).read_text())["dependencies"]
    plain = [d for d in deps if isinstance(d, str) and d != "pip"]
    pip = [d["pip"] for d in deps if isinstance(d, dict)]
    return plain, pip


@pytest.mark.parametrize("path", ENV_FILES)
def test_environment_files_list_exactly_pyprojects_requirements(path):
    plain, pip = _listed(path)
    want = expected()
    missing, extra = sorted(set(want) - set(plain)), sorted(set(plain) - set(want))
    assert not missing and not extra, (
        f"{path} disagrees with pyproject.toml: missing {missing}, not in pyproject {extra}; its dependencies "
        f"should be: {want}"
    )
    assert len(plain) == len(set(plain)), f"{path} lists a dependency twice"
    assert pip == [["-e ."]], f"{path} must install the package itself with pip (- pip: [-e .])"


def test_environment_files_agree():
    assert _listed(ENV_FILES[0]) == _listed(ENV_FILES[1])


def test_lock_pins_every_requirement_within_its_range():
    lock = {}
    for line in (ROOT / "requirements.lock").read_text().splitlines():
        if "==" in line and not line.startswith("#"):
            name, _, version = line.partition("==")
            lock[name.strip().lower().replace("_", "-")] = Version(version.split(";")[0].strip())
    project = _project()
    for req in map(Requirement, [*_requirements(), *project["optional-dependencies"]["lint"]]):
        name = req.name.lower().replace("_", "-")
        assert name in lock, f"requirements.lock pins no {req.name} (pyproject.toml: {req}); add it"
        assert lock[name] in req.specifier, f"requirements.lock pins {req.name}=={lock[name]}, outside {req}"
