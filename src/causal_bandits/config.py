"""Loading and validating the workflow configuration.

The JSON Schema in ``causal_bandits/config.schema.yaml`` (shared keys),
``causal_bandits/papers/<paper>/config.schema.yaml`` (one section per paper) and
``causal_bandits/experiments/config.schema.yaml`` (researchers' own experiments), all shipped as
package data (the library never reads ``workflow/``), describe every key;
:func:`validate` checks a config against it, fills in the schema's defaults and turns the first
violation into one line that names the key and the fix. Semantic checks that a schema cannot
express (a diagram's acyclicity, the reward not being non-manipulable, SCM parameters matching
the diagram) are done by each paper module's ``check_config``.
"""

from __future__ import annotations

import copy

from collections.abc import Mapping
from importlib.resources import files
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from causal_bandits import algorithms
from causal_bandits.errors import ConfigError
from causal_bandits.papers import PAPERS

SCHEMA = files("causal_bandits") / "config.schema.yaml"


def _where(path) -> str:
    return ".".join(str(p) for p in path) or "<top level>"


def _message(error: jsonschema.ValidationError) -> str:
    where = _where(error.absolute_path)
    if error.validator == "additionalProperties":
        extra = sorted(set(error.instance) - set(error.schema.get("properties", {})))
        keys = ", ".join(repr(k) for k in extra)
        allowed = ", ".join(sorted(error.schema.get("properties", {}))) or "none"
        return f"unknown config key {keys} under {where}; allowed keys are: {allowed}"
    if error.validator == "enum" and "x-algorithms" in error.schema:
        paper = error.schema["x-algorithms"]
        return (f"config {where} = {error.instance!r} is not a registered algorithm of {paper}; use one of "
                f"{', '.join(error.schema['enum'])}, or register it in causal_bandits/papers/{paper}/algorithms.py")
    if error.validator in ("minimum", "maximum", "minItems", "uniqueItems", "enum", "type", "oneOf"):
        hint = error.schema.get("description", "")
        return f"config {where} = {error.instance!r} is invalid: {error.message}" + (
            f" ({hint})" if hint else ""
        )
    if error.validator == "required":
        return f"config {where}: {error.message}; add it (see its config.schema.yaml)"
    return f"config {where}: {error.message}"


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


def _load_yaml(text: str) -> Any:
    """yaml.safe_load, through libyaml when PyYAML has it (the schemas take 0.3 s in pure Python, paid
    by every Snakemake start: each cluster job step parses the workflow)."""
    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


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
    schema = _load_yaml(SCHEMA.read_text())
    for paper in PAPERS:
        schema["properties"][paper] = _load_yaml((files("causal_bandits.papers") / paper / "config.schema.yaml").read_text())
    _registered(schema)
    from causal_bandits.experiments.config import schema as experiments_schema  # researchers' own studies

    pomis_plus = schema["properties"]["nonmanip"]["properties"]["pomis_plus"]
    schema["properties"]["experiments"] = experiments_schema(pomis_plus)
    return schema


def validate(config: dict[str, Any]) -> dict[str, Any]:
    """Check ``config`` against the schema (in place: defaults are filled in) and return it."""
    schema = load_schema()
    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(config), key=lambda e: (len(e.absolute_path), e.path))
    if errors:
        raise ConfigError(_message(errors[0]))
    _fill_defaults(config, schema)
    return config


def load(*paths: str | Path) -> dict[str, Any]:
    """Read YAML config files, later ones merged over earlier ones (as Snakemake does)."""
    merged: dict[str, Any] = {}
    for path in paths:
        try:
            data = yaml.safe_load(Path(path).read_text()) or {}
        except FileNotFoundError as err:
            raise ConfigError(f"config file {path} not found; pass an existing file") from err
        except yaml.YAMLError as err:
            raise ConfigError(f"config file {path} is not valid YAML: {err}".replace("\n", " ")) from err
        merged = merge(merged, data)
    return merged


def merge(base: Mapping[str, Any], update: Mapping[str, Any]) -> dict[str, Any]:
    """Recursive dict update (Snakemake's rule for --configfile): mappings merge, rest replaces."""
    out = dict(base)
    for key, value in update.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = merge(out[key], value)
        else:
            out[key] = value
    return out
