"""Strict validation of a config against the schemas in ``falseclaims/schemas``.

One function, :func:`validate`, serves the Snakemake pipeline (``workflow/rules/common.smk``)
and the command line, so both refuse the same configs with the same messages. Schemas are
JSON Schema (draft 2020-12) in YAML; ``$ref`` between schema files resolves relative to the
referencing file. Schemas hold no ``default:`` values: the defaults are config/config.yaml
(merged under the user's file before validation, :mod:`falseclaims.config`), and
``tests/test_config_validation.py`` refuses a schema that adds one. Every problem becomes one line naming the key path, e.g.
``config: unknown key 'anaylsis' (did you mean 'analysis'?)``.
"""

from __future__ import annotations

import difflib
import re
from functools import lru_cache
from importlib import resources
from pathlib import Path
from urllib.parse import urlparse
from urllib.request import url2pathname

import yaml

from falseclaims.errors import FalseclaimsInputError, Problem

__all__ = ["SCHEMA_DIR", "ConfigError", "schema_path", "schema_required", "validate",
           "config_problems"]

# jsonschema and referencing are imported inside the functions that validate: most pipeline
# jobs import this module (through falseclaims.config) but never validate, and those imports
# cost ~0.07 s per process.

SCHEMA_DIR = Path(str(resources.files("falseclaims") / "schemas"))
# renamed keys, (block, old): new; a config still using an old key is refused naming the new
RENAMED_KEYS = {("analysis", "curve_grid"): "exceedance_grid", ("figures", "threshold"): "cutoff"}
_JSON_TYPES = {"object": "a mapping", "array": "a list", "string": "text", "number": "a number",
               "integer": "a whole number", "boolean": "true or false", "null": "null"}
# the other limits a schema sets, in words ("expected a number >= 1, got 0")
_BOUNDS = {"minimum": "a number >= {}", "maximum": "a number <= {}",
           "exclusiveMinimum": "a number > {}", "exclusiveMaximum": "a number < {}",
           "minLength": "{} or more characters", "maxLength": "at most {} characters",
           "minItems": "a list of {} or more items", "maxItems": "a list of at most {} items",
           "minProperties": "a mapping of {} or more entries", "uniqueItems": "a list without repeats"}


class ConfigError(FalseclaimsInputError):
    """A config that does not match its schema: one :class:`Problem` per line of
    ``problems`` (a key path and what is wrong), located in ``source``."""

    def __init__(self, problems: str | list[str], source: str = "config"):
        self.source = source
        lines = [problems] if isinstance(problems, str) else problems
        super().__init__([Problem(source, message=line) for line in lines], subject=source)


def schema_path(name: str) -> Path:
    """Path of ``<name>.schema.yaml`` shipped with the package."""
    return SCHEMA_DIR / f"{name}.schema.yaml"


def schema_required(name: str) -> list[str]:
    """The top-level keys ``<name>.schema.yaml`` requires (the blocks a config must have)."""
    return list(_load(str(schema_path(name))).get("required", []))


@lru_cache(maxsize=64)
def _load(path: str) -> dict:
    with open(path, encoding="utf-8") as fh:
        schema = yaml.safe_load(fh)
    schema["$id"] = Path(path).resolve().as_uri()
    # every file is draft 2020-12; without "$schema" jsonschema keeps our validator class
    # (it would switch to the stock one for a subschema that names its dialect)
    schema.pop("$schema", None)
    return schema


def _retrieve(uri: str):
    from referencing.jsonschema import DRAFT202012

    parts = urlparse(uri)
    if parts.scheme != "file":
        raise ValueError(f"schema reference {uri!r}: only local schema files are allowed")
    return DRAFT202012.create_resource(_load(url2pathname(parts.path)))


def _close(key, known, cutoff=0.6) -> str | None:
    match = difflib.get_close_matches(str(key), list(known), n=1, cutoff=cutoff)
    return match[0] if match else None


def _extra_keys(instance: dict, schema: dict) -> list:
    known = schema.get("properties", {})
    patterns = [re.compile(p) for p in schema.get("patternProperties", {})]
    return [k for k in instance
            if k not in known and not any(p.search(str(k)) for p in patterns)]


@lru_cache(maxsize=1)
def _validator_class():
    """Draft 2020-12 validator that reports a misspelt fixed key in a map of named entries
    (``congruence: {uses: ...}``) as unknown instead of as a malformed entry."""
    from jsonschema import Draft202012Validator, ValidationError, validators

    def additional_properties(validator, extra, instance, schema):
        if not isinstance(instance, dict):
            return
        known = list(schema.get("properties", {}))
        for key in _extra_keys(instance, schema):
            if extra is False:
                close = _close(key, known)
                hint = (f" (did you mean {close!r}?)" if close
                        else f" (valid keys: {', '.join(known)})" if known else "")
                yield ValidationError(f"unknown key {key!r}{hint}")
                continue
            close = _close(key, known, cutoff=0.75)
            if close and not validator.evolve(schema=extra).is_valid(instance[key]):
                yield ValidationError(f"unknown key {key!r} (did you mean {close!r}?)")
            else:
                yield from validator.descend(instance[key], extra, path=key)

    return validators.extend(Draft202012Validator,
                             {"additionalProperties": additional_properties})


def _where(path) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _show(value) -> str:
    text = yaml.safe_dump(value, default_flow_style=True, width=10**6).strip()
    text = text.removesuffix("\n...").removesuffix("...").strip()
    return text if len(text) <= 60 else text[:57] + "..."


def _message(error) -> list[str]:
    """One or more plain lines for a jsonschema error."""
    if error.validator in ("anyOf", "oneOf") and error.context:
        deepest = max(error.context, key=lambda e: (len(e.absolute_path), -len(e.schema_path)))
        return _message(deepest)
    where = _where(error.absolute_path)
    prefix = f"{where}: " if where else ""
    if error.validator == "required":
        missing = [k for k in error.validator_value if k not in error.instance]
        return [f"{prefix}missing key {k!r}" for k in missing]
    if error.validator == "type":
        types = error.validator_value
        types = [types] if isinstance(types, str) else list(types)
        wanted = " or ".join(_JSON_TYPES.get(t, t) for t in types)
        return [f"{prefix}expected {wanted}, got {_show(error.instance)}"]
    got = f", got {_show(error.instance)}"
    if "propertyNames" in error.schema_path:  # a key of a mapping, not a value: name it
        key = str(error.instance)
        prefix, got = f"{prefix}key {key if len(key) <= 60 else key[:57] + '...'!r}: ", ""
    if error.validator == "pattern":  # a reason in words, not the regular expression
        wanted = (error.schema.get("patternMessage") if isinstance(error.schema, dict)
                  else None) or f"text matching the pattern {error.validator_value}"
        return [f"{prefix}expected {wanted}{got}"]
    if error.validator == "enum":
        return [f"{prefix}expected one of {', '.join(map(str, error.validator_value))}{got}"]
    if error.validator in _BOUNDS:
        return [f"{prefix}expected {_BOUNDS[error.validator].format(error.validator_value)}{got}"]
    return [prefix + error.message]


def config_problems(config: dict, schema: str | Path) -> list[str]:
    """Every problem of ``config`` against the schema file, one line each."""
    from referencing import Registry
    from referencing.jsonschema import DRAFT202012

    root = _load(str(Path(schema)))
    registry = Registry(retrieve=_retrieve).with_resource(
        root["$id"], DRAFT202012.create_resource(root))
    validator = _validator_class()(root, registry=registry)
    errors = sorted(validator.iter_errors(config),
                    key=lambda e: ([str(p) for p in e.absolute_path], str(e.message)))
    out: list[str] = []
    for e in errors:
        for line in _message(e):
            if line not in out:
                out.append(line)
    suggested = {m.group(1) + m.group(2) for line in out
                 if (m := re.match(r"(.*?)unknown key .* \(did you mean (.*)\?\)$", line))}
    return [line for line in out
            if not ((m := re.match(r"(.*?)missing key (.*)$", line))
                    and m.group(1) + m.group(2) in suggested)]


def validate(config: dict, schema: str | Path, source: str = "config") -> dict:
    """Check ``config`` against ``schema`` (a path to a ``*.schema.yaml``); raise
    :class:`ConfigError` listing every problem. Returns ``config`` unchanged."""
    if not isinstance(config, dict):
        raise ConfigError([f"expected a mapping of blocks at the top level, got "
                           f"{_show(config)}"], source)
    problems = [f"{block}.{old} was renamed {block}.{new}: rename it in your config"
                for (block, old), new in RENAMED_KEYS.items()
                if isinstance(config.get(block), dict) and old in config[block]]
    problems = problems or config_problems(config, schema)
    if not problems:  # what a schema cannot say: quartile order, SD curves, known sources
        from falseclaims.config_checks import semantic_problems

        problems = semantic_problems(config)
    if problems:
        raise ConfigError(problems, source)
    return config
