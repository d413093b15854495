"""Checking normalised tables against falseclaims/schemas/{papers,results}.schema.yaml.

Each schema describes one row as a JSON object. Rows are checked column by column with
numpy/pandas (a per-row ``jsonschema`` call costs ~0.1 ms, too slow for 10^5 papers). The
keywords used by these schemas are interpreted here: ``required``, ``additionalProperties:
false``, ``type``, ``enum``, ``minimum``, ``maximum``, ``minLength`` and ``pattern``; any
other keyword in a column schema is refused, so the schema cannot silently say more than
is checked. tests/test_sheets_schema.py checks agreement with ``jsonschema`` row by row.
"""

from __future__ import annotations

import re
from functools import lru_cache

import numpy as np
import pandas as pd
import yaml

from falseclaims.config_validation import schema_path

__all__ = ["load_schema", "check_table"]

_SUPPORTED = {"type", "enum", "minimum", "maximum", "minLength", "pattern", "description"}


@lru_cache(maxsize=8)
def _load(path: str) -> dict:
    with open(path, encoding="utf-8") as fh:
        schema = yaml.safe_load(fh)
    for col, sub in schema.get("properties", {}).items() if "venues" not in path else ():
        extra = set(sub) - _SUPPORTED
        if extra:
            raise ValueError(f"{path}: column {col!r} uses unsupported keywords {sorted(extra)}")
    return schema


def load_schema(name: str) -> dict:
    return _load(str(schema_path(name)))


def _type_ok(vals: np.ndarray, null: np.ndarray, types: list[str]) -> np.ndarray:
    """Element-wise: does each non-null value have one of the JSON types?"""
    ok = null & ("null" in types)
    nn = ~null
    if "string" in types:
        ok |= nn & np.array([isinstance(v, str) for v in vals], dtype=bool)
    if "boolean" in types:
        ok |= nn & np.array([isinstance(v, (bool, np.bool_)) for v in vals], dtype=bool)
    if "integer" in types or "number" in types:
        is_num = np.array(
            [isinstance(v, (int, float, np.integer, np.floating))
             and not isinstance(v, (bool, np.bool_)) for v in vals], dtype=bool)
        if "number" in types:
            ok |= nn & is_num & np.array(
                [not (isinstance(v, float) and not np.isfinite(v)) for v in vals], dtype=bool)
        else:
            ok |= nn & is_num & np.array(
                [float(v).is_integer() if is_n else False for v, is_n in zip(vals, is_num)],
                dtype=bool)
    return ok


def check_table(df: pd.DataFrame, schema: dict):
    """Yield (row index, column, value, expected) for every violation."""
    cols = list(df.columns)
    for col in schema.get("required", []):
        if col not in cols:
            yield None, col, None, "this column to exist (schema: required)"
    if schema.get("additionalProperties") is False:
        for col in cols:
            if col not in schema["properties"]:
                yield None, col, None, "no such column (schema: additionalProperties false)"
    for col, sub in schema["properties"].items():
        if col not in cols:
            continue
        s = df[col]
        if _typed(s):
            # checks depend on the value only: run them once per distinct value
            codes, uniques = pd.factorize(s, use_na_sentinel=True)
            uvals = np.append(np.asarray(uniques.astype(object), dtype=object), None)
            unull = np.zeros(uvals.size, dtype=bool)
            unull[-1] = True
            ubad, uwhy = _check_values(uvals, unull, sub)
            codes = np.where(codes < 0, uvals.size - 1, codes)
            for i in np.flatnonzero(ubad[codes]):
                k = codes[i]
                yield i, col, None if unull[k] else uvals[k], uwhy[k]
            continue
        vals = s.astype(object).to_numpy()
        null = s.isna().to_numpy()
        bad, why = _check_values(vals, null, sub)
        for i in np.flatnonzero(bad):
            yield i, col, None if null[i] else vals[i], why[i]


def _typed(s: pd.Series) -> bool:
    """One value type per column (the normalised tables), so equal values check alike."""
    return isinstance(s.dtype, (pd.StringDtype, pd.BooleanDtype, pd.Int64Dtype)) or \
        s.dtype == np.float64


def _check_values(vals: np.ndarray, null: np.ndarray, sub: dict):
    """(bad, why) per element of one column for one column schema."""
    types = sub.get("type", [])
    types = [types] if isinstance(types, str) else list(types)
    bad = np.zeros(len(vals), dtype=bool)
    why = np.full(len(vals), "", dtype=object)
    if types:
        t_bad = ~_type_ok(vals, null, types)
        why[t_bad & ~bad] = f"type {' or '.join(types)}"
        bad |= t_bad
    present = ~null & ~bad
    if "enum" in sub:
        allowed = [v for v in sub["enum"] if v is not None]
        allowed_set = set(allowed)
        e_bad = present & np.array(
            [p and (v not in allowed_set) for v, p in zip(vals, present)], dtype=bool)
        why[e_bad] = "one of " + ", ".join(map(str, allowed))
        bad |= e_bad
    for key, op, text in (("minimum", np.less, ">="), ("maximum", np.greater, "<=")):
        if key in sub:
            num = np.array([float(v) if p else np.nan for v, p in zip(vals, present)])
            with np.errstate(invalid="ignore"):
                r_bad = present & op(num, sub[key])
            r_bad &= ~bad
            why[r_bad] = f"a value {text} {sub[key]}"
            bad |= r_bad
    if "minLength" in sub:
        l_bad = present & ~bad & np.array(
            [isinstance(v, str) and len(v) < sub["minLength"] for v in vals], dtype=bool)
        why[l_bad] = f"at least {sub['minLength']} character(s)"
        bad |= l_bad
    if "pattern" in sub:
        rx = re.compile(sub["pattern"])
        p_bad = present & ~bad & np.array(
            [isinstance(v, str) and rx.search(v) is None for v in vals], dtype=bool)
        why[p_bad] = f"text matching {sub['pattern']!r}"
        bad |= p_bad
    return bad, why
