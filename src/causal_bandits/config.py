"""Loading and validating the workflow configuration.

The JSON Schema in ``causal_bandits/config.schema.yaml`` (shared keys),
``causal_bandits/papers/<paper>/config.schema.yaml`` (one section per paper) and
``causal_bandits/experiments/config.schema.yaml`` (researchers' own experiments), all shipped as
package data (the library never reads ``workflow/``), describe every key;
:func:`validate` checks a config against it, fills in the schema's defaults and turns the first
violation into one line that names the key and the fix. Semantic checks that a schema cannot
express (a diagram's acyclicity, the reward not being non-manipulable, SCM parameters matching
the diagram) are done by each paper module's ``check_config``; :func:`check` runs both. Config
files are read by :func:`read` (a missing file, a YAML error with its line, an empty file, a target
typed after ``--configfile``: one line each), and :func:`command_line_scalars` types the nested
``--config`` values Snakemake leaves as strings.
"""

from __future__ import annotations

import contextlib
import copy
import difflib
import math
import os
from collections.abc import Iterable, Mapping, Sequence
from importlib.resources import files
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from causal_bandits import algorithms, checks, papers, studies, yaml_io
from causal_bandits.errors import ArgumentError, ConfigError
from causal_bandits.experiments.config import check_config as check_experiments
from causal_bandits.experiments.config import schema as experiments_schema
from causal_bandits.experiments.pure_exploration import SCHEMA as PURE_EXPLORATION_SCHEMA
from causal_bandits.experiments.pure_exploration import check_config as check_pure_exploration
from causal_bandits.papers import PAPERS
from causal_bandits.studies import STUDIES

SCHEMA = files("causal_bandits") / "config.schema.yaml"


def _where(path) -> str:
    return ".".join(str(p) for p in path) or "<top level>"


_BOUNDS = {"minimum": ">=", "exclusiveMinimum": ">", "maximum": "<=", "exclusiveMaximum": "<"}
_JSON_TYPES = {
    "integer": "an integer",
    "number": "a number",
    "string": "a string",
    "boolean": "true or false",
    "array": "a list",
    "object": "a mapping (key: value)",
    "null": "null",
}


def _fix(schema: Mapping[str, Any]) -> str:
    """What a valid value looks like, from the schema node: "use ..." (type, bounds, names)."""
    if "enum" in schema:
        return "use one of: " + ", ".join(str(v) for v in schema["enum"])
    kinds = schema.get("type")
    kinds = [kinds] if isinstance(kinds, str) else list(kinds or [])
    words = " or ".join(_JSON_TYPES.get(k, k) for k in kinds)
    bounds = " and ".join(f"{op} {schema[key]}" for key, op in _BOUNDS.items() if key in schema)
    if bounds:
        words = f"{words or 'a value'} {bounds}"
    if "pattern" in schema:
        words = f"{words or 'text'} matching {schema['pattern']}"
    if kinds == ["array"]:
        items = schema.get("items", {})
        if schema.get("minItems"):
            words += f" of at least {schema['minItems']} item(s)"
        if "enum" in items:
            words += " of: " + ", ".join(str(v) for v in items["enum"])
        if schema.get("uniqueItems"):
            words += ", each once"
    return f"use {words}" if words else ""


def _branch(error: jsonschema.ValidationError) -> jsonschema.ValidationError | None:
    """For a oneOf/anyOf failure on a mapping or list, the best error of the branch of that type (an
    inline diagram gets the diagram branch's complaint rather than "not valid under any schema")."""
    kinds: dict[type, str] = {dict: "object", list: "array"}
    kind = kinds.get(type(error.instance))
    branches = [i for i, b in enumerate(error.schema[error.validator]) if b.get("type") == kind]
    meant = [e for e in error.context or () if kind and e.relative_schema_path[0] in branches]
    return jsonschema.exceptions.best_match(meant) if meant else None


def moved() -> dict[str, str]:
    """Forwarding addresses: config keys that moved or were renamed, by their old dotted path, to where they live
    now; each paper declares its own (:attr:`causal_bandits.papers.Paper.moved`)."""
    return {f"{key}.{old}": new for key in PAPERS for old, new in papers.paper(key).moved.items()}


def _moved(path: str) -> str:
    """The line for a key that moved (:func:`moved`), or ''."""
    new = moved().get(path)
    if new is None:
        return ""
    fix = (
        "its keys are in causal_bandits/studies/" + new.split(".")[1] + ".schema.yaml"
        if new.startswith("studies.")
        else ""
    )
    return f"config key {path} has moved: it is now {new}; move it there" + (f" ({fix})" if fix else "")


def _non_ascii(key: Any) -> str:
    """' (it holds the non-ASCII letter 'о', U+043E)' for a key with a letter outside ASCII (a homoglyph), or ''."""
    odd = [c for c in str(key) if not c.isascii()]
    return f" ({key!r} holds the non-ASCII letter {odd[0]!r}, U+{ord(odd[0]):04X}: retype it)" if odd else ""


def _did_you_mean(name: Any, valid: Sequence[Any]) -> str:
    """'did you mean 'x'? ' naming the valid name closest to ``name``, or '' when none is close."""
    close = difflib.get_close_matches(str(name), [str(v) for v in valid], n=1, cutoff=0.6)
    return f"did you mean {close[0]!r}? " if close else ""


def _params_hint(extra: Sequence[Any]) -> str:
    """Where algorithm parameters belong, for an unknown key ``params`` (or '')."""
    if "params" not in extra:
        return ""
    return (
        " (algorithm parameters belong to an algorithm of an own experiment: experiments: <name>: algorithms: "
        "[{key: ..., params: {...}}], docs/guide/own-experiment.md)"
    )


def _message(error: jsonschema.ValidationError) -> str:
    where = _where(error.absolute_path)
    hint = error.schema.get("description", "")
    hint = f" ({hint})" if hint else ""
    if error.validator == "additionalProperties":
        extra = sorted(set(error.instance) - set(error.schema.get("properties", {})), key=str)
        prefix = "" if where == "<top level>" else f"{where}."
        moved = next((_moved(f"{prefix}{k}") for k in extra if _moved(f"{prefix}{k}")), "")
        if moved:
            return moved
        keys = ", ".join(repr(k) for k in extra)
        allowed = sorted(error.schema.get("properties", {}))
        return (
            f"unknown config key {keys} under {where}{''.join(map(_non_ascii, extra))}; "
            f"{_did_you_mean(extra[0], allowed)}allowed keys are: {', '.join(allowed) or 'none'}{_params_hint(extra)}"
        )
    if "x-algorithms" in error.schema and isinstance(error.instance, Mapping):
        return (
            f"config {where} = {error.instance!r} gives an algorithm with params or a label, which a paper's section "
            "and a study do not take (they name registry keys and run the class's defaults); write the key alone, "
            "or give params under an own experiment of experiments: (docs/guide/own-experiment.md)"
        )
    if error.validator == "enum" and "x-algorithms" in error.schema:
        paper = error.schema["x-algorithms"]
        return (
            f"config {where} = {error.instance!r} is not a registered algorithm of {paper}; "
            f"{_did_you_mean(error.instance, error.schema['enum'])}use one of "
            f"{', '.join(error.schema['enum'])}, or register it in causal_bandits/papers/{paper}/algorithms.py"
        )
    if error.validator in ("oneOf", "anyOf"):
        inner = _branch(error)
        if inner is not None:
            return _message(inner)
        fixes = [_fix(b).removeprefix("use ") for b in error.schema[error.validator]]
        return f"config {where} = {error.instance!r} is invalid; use " + "; or ".join(f for f in fixes if f) + hint
    if error.validator == "required":
        return f"config {where}: {error.message}; add it (see its config.schema.yaml)"
    if "propertyNames" in error.relative_schema_path:
        pattern = error.schema.get("pattern", "")
        return f"config {where}: the name {error.instance!r} does not match {pattern}; rename it"
    fix = _fix(error.schema)
    if error.validator in ("minItems", "minProperties") and not fix:
        fix = "give at least one"
    return f"config {where} = {error.instance!r} is invalid: {error.message}" + (f"; {fix}" if fix else "") + hint


def _fill_defaults(instance: Any, schema: Mapping[str, Any]) -> None:
    if not isinstance(instance, dict):
        return
    for key, sub in schema.get("properties", {}).items():
        if key not in instance and "default" in sub:
            instance[key] = copy.deepcopy(sub["default"])
        if key in instance:
            _fill_defaults(instance[key], sub)
    extra = schema.get("additionalProperties")
    if isinstance(extra, dict):
        for key, value in instance.items():
            if key not in schema.get("properties", {}):
                _fill_defaults(value, extra)


def _registered(node: Any) -> None:
    """Fill in the enum of every schema node marked ``x-algorithms: <paper>``: the paper's registered
    algorithms (causal_bandits.algorithms), so no schema lists them."""
    if isinstance(node, dict):
        if "x-algorithms" in node:
            node["enum"] = algorithms.solvers(node["x-algorithms"])
        for value in node.values():
            _registered(value)
    elif isinstance(node, list):
        for value in node:
            _registered(value)


def load_schema() -> dict[str, Any]:
    """The shared schema with each registered paper's section schema plugged in (algorithm enums from
    the papers' registries)."""
    schema = yaml_io.load(SCHEMA.read_text())
    for paper in PAPERS:
        schema["properties"][paper] = papers.paper(paper).schema()
    blocks = schema["properties"]["studies"]["properties"] = {}
    for name in STUDIES:
        blocks[name] = yaml_io.load((files("causal_bandits.studies") / f"{name}.schema.yaml").read_text())
    _registered(schema)

    schema["properties"]["experiments"] = experiments_schema(schema["properties"])
    schema["properties"]["pure_exploration"] = yaml_io.load(PURE_EXPLORATION_SCHEMA.read_text())
    return schema


def check_settings(values: Mapping[str, Any], section: Sequence[str], name: str, exclude: Sequence[str] = ()) -> None:
    """Keyword settings a library function takes from a config section (``section``: its path in the schema, e.g.
    ``("nonmanip", "pomis_plus")``), checked as the config path checks that section: a name the section lacks
    (or one of ``exclude``) with the closest one, then the first value the schema refuses, each a one-line
    :class:`~causal_bandits.errors.ArgumentError` naming ``name``."""
    node = load_schema()
    for key in section:
        node = node["properties"][key]
    allowed = [k for k in node.get("properties", {}) if k not in exclude]
    checks.known(values, allowed, name)
    errors = list(jsonschema.Draft202012Validator(node).iter_errors(dict(values)))
    if errors:
        raise ArgumentError(
            f"{name}: " + _message(min(errors, key=lambda e: len(e.absolute_path))).removeprefix("config ")
        )


#: The most values (mappings, lists and scalars) a config may hold with its YAML aliases expanded: the papers and
#: every study hold about 2,000; an alias bomb (aliases of aliases) holds billions from a few lines.
MAX_VALUES = 100_000


def _bounded(config: Mapping[str, Any]) -> None:
    """Refuse a config whose values, with YAML aliases expanded, number more than :data:`MAX_VALUES` (or that
    contains itself), before any check walks them: each mapping or list is sized once, however often an alias
    repeats it, so this costs what the file's text does."""
    sizes: dict[int, int] = {}

    def size(node: Any, where: str) -> int:
        if not isinstance(node, (dict, list)):
            return 1
        key = id(node)
        if key not in sizes:
            sizes[key] = -1
            values = node.values() if isinstance(node, dict) else node
            sizes[key] = 1 + sum(size(v, where) for v in values)
        elif sizes[key] < 0:
            raise ConfigError(f"config {where} contains itself (a YAML alias inside its own anchor); write it out")
        return sizes[key]

    for top, value in config.items():
        found = size(value, str(top))
        if found > MAX_VALUES:
            raise ConfigError(
                f"config {top} holds {found:,} values once its YAML aliases (*name) are expanded, more than the "
                f"{MAX_VALUES:,} a config may hold; write its values out instead of repeating aliases"
            )


def _finite(node: Any, path: tuple = ()) -> None:
    """Refuse NaN and infinities anywhere in a config (JSON Schema's bounds let NaN through), with the key."""
    if isinstance(node, float) and not math.isfinite(node):
        raise ConfigError(f"config {_where(path)} = {node!r} is invalid: use a finite number")
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, value in items:
        _finite(value, (*path, key))


def _types(schema: Mapping[str, Any]) -> list[str]:
    """The JSON types a schema node names (``type`` as a string or a list)."""
    kinds = schema.get("type", [])
    return [kinds] if isinstance(kinds, str) else list(kinds)


def _integers(node: Any, schema: Mapping[str, Any]) -> Any:
    """``node`` with every integral float where the schema takes an integer (``300.0``) made an int, as the
    workflow needs for ranges and chunk sizes (the schema accepted it: a float with no fraction is an
    integer to JSON Schema)."""
    kinds = {k for b in _branches(schema) for k in _types(b)}
    if isinstance(node, float) and "integer" in kinds and "number" not in kinds and node.is_integer():
        return int(node)
    if isinstance(node, dict):
        for key, value in node.items():
            node[key] = _integers(value, _child(schema, key))
    elif isinstance(node, list):
        node[:] = [_integers(v, _child(schema, i)) for i, v in enumerate(node)]
    return node


def validate(config: dict[str, Any]) -> dict[str, Any]:
    """Check ``config`` against the schema (in place: defaults are filled in) and return it."""
    schema = load_schema()
    validator = jsonschema.Draft202012Validator(schema)
    unknown = [e for e in validator.iter_errors(dict.fromkeys(config)) if e.validator == "additionalProperties"]
    if unknown:  # the top-level keys first, without looking inside any value
        raise ConfigError(_message(unknown[0]))
    _bounded(config)  # then the size: every later check walks the values
    errors = sorted(validator.iter_errors(config), key=lambda e: (len(e.absolute_path), e.path))
    if errors:  # the structure (unknown keys, types) before the values' finiteness
        raise ConfigError(_message(errors[0]))
    _finite(config)
    _fill_defaults(config, schema)
    _integers(config, schema)
    return config


def _scalar(text: str) -> Any:
    """``text`` as YAML reads a plain scalar in a config file: '500' -> 500, 'true' -> True, '0.1'
    -> 0.1, 'null' -> None; anything else stays the string it was."""
    try:
        value = yaml_io.load(text)
    except yaml.YAMLError:
        return text
    return value if value is None or isinstance(value, (bool, int, float)) else text


def _branches(schema: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [schema, *(b for key in ("oneOf", "anyOf") for b in schema.get(key, ()))]


def _takes_text(schema: Mapping[str, Any]) -> bool:
    """Whether a schema node accepts a string (so a string there stays one)."""
    for branch in _branches(schema):
        kinds = branch.get("type", [])
        if "string" in ([kinds] if isinstance(kinds, str) else kinds):
            return True
        if any(isinstance(v, str) for v in branch.get("enum", ())):
            return True
    return False


def _child(schema: Mapping[str, Any], key: Any) -> Mapping[str, Any]:
    """The schema node of ``key`` (a mapping key or a list index) under ``schema``, or {}."""
    for branch in _branches(schema):
        if isinstance(key, int) and isinstance(branch.get("items"), dict):
            return branch["items"]
        if key in branch.get("properties", {}):
            return branch["properties"][key]
        if isinstance(branch.get("additionalProperties"), dict):
            return branch["additionalProperties"]
    return {}


def command_line_scalars(config: dict[str, Any], overrides: Mapping[str, Any]) -> None:
    """Type the scalars of nested ``--config`` values in ``config`` (in place).

    Snakemake reads ``--config 'nonmanip={horizon: 500}'`` with YAML's BaseLoader, which keeps every
    nested scalar a string, so the schema would reject 500 as "not of type 'integer'". Each string
    of ``overrides`` (the ``--config`` values, already merged into ``config``) where the schema takes
    no string is read again as a YAML scalar, as it would be in a config file; where it takes a
    string (a path, a checksum, a graph name) it stays the text given."""

    def typed(value: Any, schema: Mapping[str, Any]) -> Any:
        if isinstance(value, str):
            return value if _takes_text(schema) else _scalar(value)
        if isinstance(value, Mapping):
            return {k: typed(v, _child(schema, k)) for k, v in value.items()}
        if isinstance(value, list):
            return [typed(v, _child(schema, i)) for i, v in enumerate(value)]
        return value

    schema = load_schema()
    for key, value in overrides.items():
        if isinstance(value, Mapping) and isinstance(config.get(key), Mapping):  # top-level scalars Snakemake types
            config[key] = merge(config[key], typed(value, _child(schema, key)))
        elif isinstance(value, list):
            config[key] = typed(value, _child(schema, key))


#: File endings Snakemake reads as config files; anything else after --configfile is likely a target.
CONFIG_SUFFIXES = (".yaml", ".yml", ".json")


def _not_a_config_file(path: Path) -> str:
    why = "a workflow output" if path.suffix in CONFIG_SUFFIXES else "it does not end in .yaml, .yml or .json"
    return (
        f"{path} was given to --configfile but is not a config file ({why}); --configfile takes every "
        f"name after it, so put targets before it: snakemake {path} --configfile ..."
    )


def read(path: str | Path) -> dict[str, Any]:
    """One config file as a mapping, or a one-line :class:`ConfigError` naming the file (and the
    line and column of a YAML error) and the fix."""
    path = Path(path)
    try:
        text = path.read_text()
    except FileNotFoundError:
        if path.suffix not in CONFIG_SUFFIXES:
            raise ConfigError(_not_a_config_file(path)) from None
        raise ConfigError(f"config file {path} not found; check the name (the config files are in config/)") from None
    except (OSError, UnicodeDecodeError) as err:
        what = err.strerror if isinstance(err, OSError) else "not UTF-8 text"
        raise ConfigError(f"cannot read config file {path}: {what}; pass a YAML file") from None
    try:
        data = yaml_io.load(text)
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark else str(path)
        problem = getattr(err, "problem", None) or str(err).splitlines()[0]
        line = text.splitlines()[mark.line] if mark and mark.line < len(text.splitlines()) else ""
        hint = (
            "keep one of the two (a later one would silently replace the first)"
            if problem.startswith(yaml_io.DUPLICATE)
            else "YAML indents with spaces only: replace the tab with spaces"
            if "\t" in line
            else "fix the indentation or quoting there"
        )
        raise ConfigError(f"{where}: not valid YAML ({problem}); {hint}") from None
    if data is None:
        raise ConfigError(
            f"config file {path} is empty; write the keys it should change (for example "
            f"'{PAPERS[0]}: {{horizon: 500}}') or leave the file out"
        )
    if not isinstance(data, dict):
        if path.suffix not in CONFIG_SUFFIXES:
            raise ConfigError(_not_a_config_file(path))
        raise ConfigError(
            f"config file {path} holds a {type(data).__name__}, not a mapping of config keys; "
            f"start each line at the top level with a key such as '{PAPERS[0]}:'"
        )
    return data


def load(base: str | Path, *overlays: str | Path) -> dict[str, Any]:
    """The config Snakemake builds from the workflow's ``configfile:`` (``base``) and ``--configfile overlays``:
    later files merged over earlier ones, and keys in Snakemake's order too. Its config starts from the overlays
    (merged in turn); ``base`` is merged into that and the overlays once more over it, so a key stands where the
    overlays first name it (config/tiny.yaml's cpe experiments E0, E2, E1), the base's other keys after. Outputs
    that list things in config order (the cpe claims) come out the same from a rebuild on this config."""
    cli: dict[str, Any] = {}
    for path in overlays:
        cli = merge(cli, read(path))
    return merge(merge(cli, read(base)), cli)


#: The workflow's output folders: a file there named after --configfile is a target typed too late.
OUTPUT_DIRS = ("results", "figures", "logs", "data")


def check_files(paths: Iterable[str | Path]) -> None:
    """The config files named by ``--configfile``, as the workflow sees them: each a YAML mapping
    whose name ends in .yaml, .yml or .json, outside the workflow's output folders (a target typed
    after ``--configfile`` is explained)."""
    for path in map(Path, paths):
        with contextlib.suppress(ValueError):  # outside the working directory: shown as given
            path = path.resolve().relative_to(Path.cwd())
        if path.suffix not in CONFIG_SUFFIXES or (not path.is_absolute() and path.parts[0] in OUTPUT_DIRS):
            raise ConfigError(_not_a_config_file(path))
        read(path)


#: The longest path and the longest name in a path that Linux and macOS file systems accept (bytes).
PATH_MAX, NAME_MAX = 4096, 255


def check_raw_dir(raw_dir: str) -> None:
    """``data.raw_dir`` must be a path the system can look up (no NUL byte, not too long for it); it need
    not exist yet (a download creates it)."""
    if "\0" in raw_dir:
        raise ConfigError("config data.raw_dir holds a NUL byte; give the directory's path without it")
    problem = ""
    if len(os.fsencode(raw_dir)) >= PATH_MAX:
        problem = f"longer than the {PATH_MAX:,} bytes a path may have"
    elif any(len(os.fsencode(part)) > NAME_MAX for part in Path(raw_dir).parts):
        problem = f"a name in it is longer than the {NAME_MAX} bytes a name may have"
    else:
        try:
            os.stat(raw_dir)
            if not os.path.isdir(raw_dir):
                problem = "it is a file, not a directory"
        except FileNotFoundError:
            pass
        except OSError as err:  # e.g. a file where a directory should be
            problem = err.strerror or str(err)
    if problem:
        raise ConfigError(
            f"config data.raw_dir ({len(raw_dir):,} characters, starting {raw_dir[:40]!r}) is not a usable path: "
            f"{problem}; give the raw-data directory's path"
        )


#: Blocks of experiments a config may give with no value, meaning none.
OPTIONAL_BLOCKS = ("experiments", "pure_exploration", "studies")


def check(config: dict[str, Any]) -> dict[str, Any]:
    """Every check of a workflow config: the schema (:func:`validate`, defaults filled in), then each
    configured paper's ``check_config`` (diagrams, SCM parameters, registry names), each configured
    study's (:func:`causal_bandits.studies.check_config`), then those of the researchers' own
    experiments (:func:`causal_bandits.experiments.config.check_config`). A block of experiments given with no value
    (``experiments:`` or ``pure_exploration:`` alone, null) is none, as ``{}`` is: removed, here and so in the
    workflow's config."""
    for key in OPTIONAL_BLOCKS:
        if key in config and config[key] is None:
            del config[key]
    validate(config)
    check_raw_dir(config["data"]["raw_dir"])
    for paper in PAPERS:
        if paper in config:
            papers.paper(paper).check_config(config[paper])
    studies.check_config(config)
    if config.get("experiments"):
        check_experiments(config["experiments"])
    if config.get("pure_exploration"):
        check_pure_exploration(config["pure_exploration"])
    return config


def merge(base: Mapping[str, Any], update: Mapping[str, Any]) -> dict[str, Any]:
    """Recursive dict update (Snakemake's rule for --configfile): mappings merge, rest replaces."""
    out = dict(base)
    for key, value in update.items():
        # the same object merged into itself (load merges the overlays twice): nothing to do, even if self-nested
        if key in out and value is out[key]:
            continue
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = merge(out[key], value)
        else:
            out[key] = value
    return out
