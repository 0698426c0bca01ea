"""Scaffolds: the files of a new paper or study, written from the templates beside this module.

``causal-bandits new-paper KEY`` and ``causal-bandits new-study NAME`` (:mod:`causal_bandits.commands.new`) write
a working skeleton that the workflow runs as it is: a paper's package, rule file, caption and docs page
(the templates under ``scaffold/paper/``, ``KEY`` in a path standing for the key) and the lines it adds to files
that list every paper (the edits of :func:`paper_plan`); a study's likewise (``scaffold/study/``, :func:`study_plan`).
docs/guide/add-a-paper.md and docs/studies.md list the same files, with their count.

A name is checked before anything is written (one line naming the problem and the fix); every file is rendered
and every edit computed before the first is written; an existing file is never overwritten.
"""

from __future__ import annotations

import json
import keyword
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from string import Template

from causal_bandits.claims import Rule
from causal_bandits.errors import CausalBanditsError
from causal_bandits.preregistration import parse_registry

#: The pre-registration registry, relative to the repository.
REGISTRY_PATH = "src/causal_bandits/preregistration/registry.json"

HERE = Path(__file__).parent
#: The one style of a paper key or study name: lower snake_case ASCII, starting with a letter (a Python
#: identifier, a config key and a path segment alike).
NAME = re.compile(r"[a-z][a-z0-9_]{0,29}")
#: Names the workflow already uses for its own targets and sections.
RESERVED = frozenset({"all", "report", "studies", "experiments", "pure_exploration", "data", "budget", "common"})
#: The rule the skeleton paper's claim is judged by: what its claims module declares and the pre-registration
#: registers (one declaration, rendered into the template and fingerprinted here).
PAPER_RULE = Rule(
    "band",
    "TS's mean regret at T: our 95 % interval inside [0, share x T x mean gap] (uniform play's loss)",
    {"share": 0.5},
)
#: The skeleton paper's scale (its config.yaml section): its claim is judged at this scale and is *not evaluated*
#: below it (tiny and quick runs), as the papers' claims are.
PAPER_SCALE = {"paper_horizon": "2000", "paper_seeds": "50"}


@dataclass(frozen=True)
class Plan:
    """What a scaffold writes: new files by path (relative to the repository root) and edited files by path,
    each with its whole new text."""

    new: Mapping[str, str]
    edited: Mapping[str, str]

    @property
    def paths(self) -> list[str]:
        return [*self.new, *self.edited]


def check_name(name: str, what: str, taken: set[str]) -> None:
    """Raise a one-line CausalBanditsError unless ``name`` is a fresh lower snake_case ASCII identifier."""
    if not name.isascii() or not NAME.fullmatch(name) or keyword.iskeyword(name):
        suggestion = re.sub(r"[^a-z0-9_]", "_", name.lower()).strip("_")
        if not suggestion[:1].isalpha():
            suggestion = f"my_{suggestion}".rstrip("_")
        raise CausalBanditsError(
            f"{what} name {name!r} is not lower snake_case ASCII (a letter, then letters, digits or _, at most 30, "
            f"not a Python keyword); use e.g. {suggestion[:30]!r}"
        )
    if name in taken or name in RESERVED:
        raise CausalBanditsError(
            f"{what} name {name!r} is already used (papers, studies and the workflow's own targets: "
            f"{', '.join(sorted(taken | RESERVED))}); choose another"
        )


#: A rule's name in a rule file: ``rule <name>:``, or ``use rule ... as <name> with:``.
RULE = re.compile(r"^(?:rule (\w+):|use rule .* as (\w+) with:)", re.M)


def rule_names(texts: Iterable[str]) -> set[str]:
    """The names of the rules the rule files ``texts`` declare."""
    return {name for text in texts for m in RULE.finditer(text) for name in m.groups() if name}


def check_rules(root: Path, key: str, files: Mapping[str, str]) -> None:
    """Raise a one-line CausalBanditsError if the target rule ``key`` or a rule the new rule files add is already one
    of the workflow's (Snakemake refuses two rules of one name)."""
    existing = rule_names(path.read_text() for path in (root / "workflow" / "rules").rglob("*.smk"))
    clash = sorted(({key} | rule_names(t for p, t in files.items() if p.endswith(".smk"))) & existing)
    if clash:
        raise CausalBanditsError(
            f"the skeleton's rule {clash[0]!r} is already a rule of the workflow (workflow/rules/); choose another name"
        )


def render(kind: str, values: Mapping[str, str], key: str) -> dict[str, str]:
    """The template files of ``scaffold/<kind>/`` rendered with ``values`` (``$name`` placeholders), by their
    path in the repository (``KEY`` in a path replaced by ``key``), except ``config/``'s blocks."""
    root = HERE / kind
    files = {}
    for template in sorted(root.rglob("*.tmpl")):
        relative = template.relative_to(root).as_posix()
        if not relative.startswith("config/"):
            files[relative.replace("KEY", key).removesuffix(".tmpl")] = block(kind, relative, values)
    return files


def block(kind: str, template: str, values: Mapping[str, str]) -> str:
    """One template of ``scaffold/<kind>/`` rendered with ``values``."""
    return Template((HERE / kind / template).read_text()).substitute(values)


def registered(text: str, key: str) -> str:
    """``text`` (a ``registry.yaml``: one ``- <key>`` line each) with ``key`` last."""
    return text + ("" if text.endswith("\n") or not text else "\n") + f"- {key}\n"


def preregistered(text: str, rules: Mapping[str, Rule]) -> str:
    """The pre-registration registry (``registry.json``'s text) with ``rules`` (``"<paper>/<key>"`` -> rule)."""
    registry = parse_registry(text, REGISTRY_PATH) | {key: rule.fingerprint for key, rule in rules.items()}
    return json.dumps(dict(sorted(registry.items())), indent=1) + "\n"


def paper_plan(root: Path, key: str, title: str, papers: tuple[str, ...], studies: tuple[str, ...]) -> Plan:
    """The files ``causal-bandits new-paper key`` writes in the repository at ``root``."""
    check_name(key, "paper", {*papers, *studies})
    rule = {f"rule_{k}": json.dumps(v) for k, v in PAPER_RULE.data().items()}
    values = {"key": key, "KEY": key.upper(), "title": title, **rule, **PAPER_SCALE}
    edits: dict[str, Callable[[str], str]] = {
        "src/causal_bandits/papers/registry.yaml": lambda t: registered(t, key),
        "config/config.yaml": lambda t: t + block("paper", "config/config.yaml.tmpl", values),
        "config/quick.yaml": lambda t: t + block("paper", "config/quick.yaml.tmpl", values),
        "config/tiny.yaml": lambda t: t + block("paper", "config/tiny.yaml.tmpl", values),
        REGISTRY_PATH: lambda t: preregistered(t, {f"{key}/ts-regret": PAPER_RULE}),
    }
    return _plan(root, key, render("paper", values, key), edits)


def study_plan(root: Path, name: str, title: str, papers: tuple[str, ...], studies: tuple[str, ...]) -> Plan:
    """The files ``causal-bandits new-study name`` writes in the repository at ``root``."""
    check_name(name, "study", {*papers, *studies})
    values = {"key": name, "KEY": name.upper(), "title": title}
    edits: dict[str, Callable[[str], str]] = {
        "src/causal_bandits/studies/registry.yaml": lambda t: registered(t, name),
        "config/studies.yaml": lambda t: t + block("study", "config/studies.yaml.tmpl", values),
        "config/tiny.yaml": lambda t: in_block(t, "studies:", block("study", "config/tiny.yaml.tmpl", values)),
    }
    return _plan(root, name, render("study", values, name), edits)


def in_block(text: str, key: str, lines: str) -> str:
    """``text`` (YAML) with ``lines`` added at the end of its top-level block ``key`` (its last indented line)."""
    rows = text.splitlines(keepends=True)
    if f"{key}\n" not in rows:
        raise CausalBanditsError(f"found no top-level {key!r} block to add {lines.strip()!r} to; add it by hand")
    end = start = rows.index(f"{key}\n")
    for i in range(start + 1, len(rows)):
        if rows[i].strip() and not rows[i][0].isspace():
            break
        if rows[i].strip():
            end = i
    return "".join([*rows[: end + 1], lines, *rows[end + 1 :]])


def _plan(root: Path, key: str, new: Mapping[str, str], edits: Mapping[str, Callable[[str], str]]) -> Plan:
    check_rules(root, key, new)
    existing = [path for path in new if (root / path).exists()]
    if existing:
        raise CausalBanditsError(
            f"{existing[0]} exists; the scaffold overwrites nothing: remove it or choose another name"
        )
    missing = [path for path in edits if not (root / path).is_file()]
    if missing:
        raise CausalBanditsError(f"{root / missing[0]} not found; run the command at the repository's root (or --root)")
    return Plan(dict(new), {path: edit((root / path).read_text()) for path, edit in edits.items()})


def write(root: Path, plan: Plan) -> None:
    """Write ``plan`` under ``root``: the new files, then the edits."""
    for path, text in {**plan.new, **plan.edited}.items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
