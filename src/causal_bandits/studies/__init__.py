"""The studies this replication adds beyond the papers, each a first-class, opt-in record.

A study asks one question about a paper that the paper's own tables and figures leave open (does the
bootstrap refresh schedule matter, which deferral reproduces a cell, how robust are the orderings...).
Each is declared here once, with the paper and the instances it studies and what it varies, and has
its own config block (``studies.<name>``, schema ``studies/<name>.schema.yaml``), its own rule file
(``workflow/rules/studies/<name>.smk``), its own run store (``results/runs/studies/<name>/...``), its
own outputs (``figures/studies/<name>/...``) and its own section of the report, with its findings as
claims documents (``results/claims/studies/<name>.json``). A study runs only when the config has a
block for it (``config/studies.yaml`` holds all of them at their chosen size); no claim of a paper
reads a study's outputs: a study names the paper claims it examines (:attr:`Study.locates`) and writes, for
each it examined, a finding record (:func:`finding`: *located*, *ruled out*, *partly* or *inconclusive*, with its
numbers and one sentence), which the report prints under the claim (:mod:`causal_bandits.report.located`).

A study with run jobs has them declared once, in its module, with the interface of a paper's run module:
``run_jobs(config)`` yields the wildcards of every job, ``describe(config, wildcards)`` describes one
(:class:`causal_bandits.runs.RunJob`, made by the runner of the paper it reruns, with that paper's settings);
the workflow's run and report rules (:mod:`causal_bandits.studies.rule_inputs`) and the cost check
(:mod:`causal_bandits.cost`) all read that one enumeration.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from importlib.resources import files
from types import ModuleType
from typing import Any

from causal_bandits import runs, yaml_io
from causal_bandits.claims import NOT_EVALUATED, NOT_SPECIFIED, Verdict
from causal_bandits.errors import ConfigError
from causal_bandits.papers import registered

#: The registered studies, in report order (``registry.yaml`` beside this module).
STUDIES = registered(__name__)


@dataclass(frozen=True)
class Study:
    """One study: its ``name`` (config key, path segment, workflow target), the ``paper`` it studies,
    its report ``title``, the ``question`` it answers, what it ``varies``, its ``docs`` section
    (a path under docs/ with its anchor), the paper claims it examines for a cause (``locates``:
    regular expressions matched at the start of a claim id; whether it found one is its finding record's) and,
    for a study with run jobs (its module's
    ``run_jobs`` and ``describe``), how its report names their files (``run_key``: a template of the jobs'
    wildcards, :func:`causal_bandits.run_paths.run_files`; empty for a study without run jobs)."""

    name: str
    paper: str
    title: str
    question: str
    varies: str
    docs: str
    locates: tuple[str, ...] = ()
    run_key: str = ""

    def about(self, claim_id: str) -> bool:
        """Whether this study examines the cause of the paper claim ``claim_id``."""
        return any(re.match(pattern, claim_id) for pattern in self.locates)

    @property
    def command(self) -> str:
        """The command that runs this study alone, at its size in config/studies.yaml."""
        return f"snakemake --cores all {self.name} --configfile config/studies.yaml"


def module(name: str) -> ModuleType:
    """The package module of study ``name`` (``causal_bandits.studies.<name>``)."""
    if name not in STUDIES:
        raise KeyError(f"no study {name!r} is registered; registered studies: {', '.join(STUDIES)}")
    return importlib.import_module(f"causal_bandits.studies.{name}")


def study(name: str) -> Study:
    """The record of study ``name``."""
    return module(name).STUDY


def default(name: str, key: str) -> Any:
    """The default of ``studies.<name>.<key>``, from the study's schema (where it is declared once)."""
    schema = yaml_io.load((files(__package__) / f"{name}.schema.yaml").read_text())
    return schema["properties"][key]["default"]


def chunks(section: Mapping[str, Any]) -> runs.Chunks:
    """Seed chunks of a study's runs: its ``n_seeds`` in jobs of ``seeds_per_job`` (speed only: a seed's streams do
    not depend on its chunk)."""
    return runs.chunk_seeds(section["n_seeds"], section["seeds_per_job"])


def chunk_jobs(section: Mapping[str, Any], **wildcards: str) -> Iterator[dict[str, str]]:
    """The wildcards of one (point, experiment, strategy, algorithm) of a study's runs, one job per seed chunk."""
    for k in range(len(chunks(section))):
        yield {**wildcards, "chunk": str(k)}


def with_runs(config: Mapping[str, Any]) -> list[str]:
    """The configured studies that have run jobs (:attr:`Study.run_key`)."""
    return [name for name in configured(config) if study(name).run_key]


def configured(config: Mapping[str, Any]) -> list[str]:
    """The studies a config runs: those with a block under ``studies:`` (a null block is off), in order."""
    blocks = config.get("studies") or {}
    return [name for name in STUDIES if blocks.get(name) is not None]


def check_config(config: Mapping[str, Any]) -> None:
    """Each configured study's checks against its own block and its paper's section (one-line errors)."""
    for name in configured(config):
        record = study(name)
        if record.paper not in config:
            raise ConfigError(
                f"studies.{name} studies {record.paper}, which this config has no section for; "
                f"add a {record.paper}: section or drop studies.{name}"
            )
        module(name).check_config(config["studies"][name], config[record.paper])


LOCATED, RULED_OUT, PARTLY, INCONCLUSIVE = "located", "ruled out", "partly", "inconclusive"
#: What a study found about a paper claim it examined: the cause *located* (with its numbers, :class:`Located`), a
#: candidate cause *ruled out*, a cause found for *partly* the gap, or *inconclusive* (not judged at this scale, or
#: no decision).
OUTCOMES = (LOCATED, RULED_OUT, PARTLY, INCONCLUSIVE)
#: The keys a *located* record carries beside its outcome, numbers and sentence (:class:`Located`).
LOCATED_KEYS = ("setting", "main_setting", "at_setting", "others")


@dataclass(frozen=True)
class Located:
    """The numbers a *located* finding rests on: at ``setting`` (named, not the main run's ``main_setting``) the
    claim's own rule puts the paper's value inside ours (``reproduced``: what that rule says there, and
    ``at_setting``: our value with its interval against the rule's band), and ``others`` says what that setting does
    to the paper's other claims the study measured. Without all of it a finding is *partly* or *inconclusive*."""

    setting: str
    main_setting: str
    reproduced: bool
    at_setting: str
    others: str

    def problem(self) -> str:
        """Why these numbers do not show a located cause (empty when they do)."""
        if not self.setting or self.setting == self.main_setting:
            return f"its setting {self.setting!r} is the main run's own; name another setting"
        if not self.reproduced:
            return f"the claim's rule does not reproduce the paper at {self.setting} ({self.at_setting})"
        if not self.at_setting.strip() or not self.others.strip():
            return "it must give our value at the setting and what the setting does to the other claims"
        return ""


def finding(outcome: str, sentence: str, numbers: str = "", located: Located | None = None) -> dict[str, str]:
    """A finding record about one paper claim: its ``outcome`` (:data:`OUTCOMES`), the ``numbers`` it rests on and
    one ``sentence``; a *located* one also its :class:`Located` numbers, refused when they do not show it."""
    if outcome not in OUTCOMES:
        raise ValueError(f"unknown finding outcome {outcome!r}; one of {', '.join(OUTCOMES)}")
    record = {"outcome": outcome, "numbers": "" if numbers == sentence else numbers, "sentence": sentence}
    if outcome != LOCATED:
        return record
    problem = "no numbers (causal_bandits.studies.Located)" if located is None else located.problem()
    if located is None or problem:
        raise ValueError(f"a located finding needs its numbers: {problem}; else record it as partly or inconclusive")
    return {**record, **{key: getattr(located, key) for key in LOCATED_KEYS}}


def _not_located(record: Mapping[str, Any]) -> bool:
    """Whether a record says *located* without the numbers :class:`Located` requires."""
    if record.get("outcome") != LOCATED:
        return False
    if any(not str(record.get(key, "")).strip() for key in LOCATED_KEYS):
        return True
    return record["setting"] == record["main_setting"]


def document(
    name: str, scale: str, rows: list[dict[str, str]], findings: Mapping[str, Mapping[str, str]]
) -> dict[str, Any]:
    """A study's evaluated claims as the report reads them: its question and docs section, the scale of its
    runs, its claims' rows (:meth:`causal_bandits.claims.Claim.check`) and ``findings``, the finding record
    (:func:`finding`) of each paper claim it examined, by that claim's id."""
    bad = [key for key, f in findings.items() if not isinstance(f, Mapping) or f.get("outcome") not in OUTCOMES]
    if bad:
        raise ValueError(f"study {name}: findings {bad} are not finding records (causal_bandits.studies.finding)")
    bare = [key for key, f in findings.items() if _not_located(f)]
    if bare:
        raise ValueError(
            f"study {name}: findings {bare} say located without the setting, our value there and what it does to the "
            "other claims (causal_bandits.studies.Located); record them as partly or inconclusive"
        )
    record = study(name)
    return {
        "study": name,
        "paper": record.paper,
        "question": record.question,
        "docs": record.docs,
        "scale": scale,
        "claims": rows,
        "findings": {key: dict(f) for key, f in findings.items()},
    }


def finding_verdict(paper: str, found: Mapping[str, Any], note: str, scale: str) -> Verdict:
    """A study's finding about one of the paper's numbers ``paper`` (beyond the paper, so never reproduced or
    differs): not evaluated when ``found["paper_scale"]`` is false (``scale`` says at what scale it is judged),
    else ``found["finding"]`` with ``note``."""
    if not found["paper_scale"]:
        return Verdict(NOT_EVALUATED, paper, found["finding"], f"judged at {scale}; {note}")
    return Verdict(NOT_SPECIFIED, paper, found["finding"], note)
