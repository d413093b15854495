"""Fast path of :func:`falseclaims.percase.readers.read_claims_reloaded` for clean files.

A Claims Reloaded file of 10^6 cases read cell by cell as text takes tens of seconds; a
clean one (comma-separated UTF-8, every cell filled, no padding, unique case ids, DSC
values in range, labels in the class set) needs none of the per-cell checks. This module
reads such a file in one typed pass of pandas' C parser (case ids as text, DSC as floats)
and builds the same :class:`PerCase`, with the same rows, order, dtypes and notes.

Anything else returns None and the caller reads the file the careful way, which finds and
words every problem: the fast path never raises its own validation errors.
"""

from __future__ import annotations

import csv
import mmap
from functools import partial
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from falseclaims.percase import model as r
from falseclaims.percase.checks import spelt_otherwise
from falseclaims.percase.text_table import mapping_note
from falseclaims.io.textio import (duplicated_names, is_gzip, looks_tab_separated,
                                   semicolon_separated)

__all__ = ["read_clean"]

_SORTED = slice(None)  # row order of ids that are already sorted


def read_clean(path, kind: str | None, task: str, classes: Sequence[str] | None,
               metric: str | None, min_methods: int, units: str,
               rename: dict[str, str] | None = None) -> r.PerCase | None:
    """The :class:`PerCase` of a clean file, or None when the careful reader is needed.
    ``rename``: {column in the file: role} (the column mapping)."""
    p = Path(path)
    raw = _clean_header(p)
    if raw is None:
        return None
    names = [str(c).strip() for c in raw]
    if rename:
        if any(c not in names for c in rename):
            return None
        names = [rename.get(c, c) for c in names]
    if kind is None:
        kind = "classification" if "ground_truth" in names else "segmentation"
    need = ["case_id"] + (["ground_truth"] if kind == "classification" else [])
    alg = [c for c in names if c.startswith("alg_")]
    if (any(c not in names for c in need) or len(alg) < min_methods
            or any(c not in need and c not in alg for c in names)
            or any(c == "alg_" for c in alg) or len(set(names)) != len(names)):
        return None
    metric = (metric or ("dsc" if kind == "segmentation" else r.LABEL_METRIC)).lower()
    numeric = kind == "segmentation"
    if numeric and _has_plus(p):
        # the careful reader's text-to-number conversion rounds '+0.123...' with 17 or more
        # digits differently in the last bit; keep its numbers
        return None
    # ids as text; DSC as floats; labels as categories (few distinct texts)
    dtypes = {raw[i]: ("object" if names[i] == "case_id" else float if numeric else "category")
              for i in range(len(raw))}
    try:
        df = pd.read_csv(p, sep=",", dtype=dtypes, keep_default_na=False, na_filter=False,
                         compression=None,
                         encoding="utf-8-sig", engine="c")
    except (ValueError, UnicodeDecodeError, pd.errors.ParserError):
        return None  # e.g. a text or empty cell among numbers, a ragged row
    df.columns = names
    n = len(df)
    if n == 0:
        return None
    ids = df["case_id"].to_numpy(dtype=object)
    order = _sorted_unique_order(ids)
    if order is None:
        return None
    if order is not _SORTED:
        ids = ids[order]
    methods = sorted(alg, key=lambda c: c[len("alg_"):])
    notes: list[str] = [f"{p}: {mapping_note(rename)}"] if rename else []
    if numeric:
        values = df[methods].to_numpy(dtype=float)  # cases x methods
        del df
        if order is not _SORTED:
            values = values[order]
        values = _checked_units(values, metric, units, notes)
        if values is None:
            return None
        truth = None
    else:
        labels = _checked_labels(df, methods, classes, notes)
        del df
        if labels is None:
            return None
        values, truth, classes = labels
        if order is not _SORTED:
            values, truth = values[order], truth[order]
    wide = r.Wide(task, metric, ids, np.array([c[len("alg_"):] for c in methods], dtype=object),
                  values, truth)
    return r.PerCase(kind=kind, table=r.Deferred(partial(long_table, wide)),
                     classes=tuple(classes) if classes is not None else None,
                     scores=None, notes=tuple(notes), wide=wide)



def _clean_header(p: Path) -> list | None:
    """The header of a plain UTF-8, comma-separated file, or None (the careful reader then
    handles the file: TSV, workbooks, gzip, UTF-16, other separators)."""
    if not p.is_file() or p.suffix.lower() in (".tsv", ".tab", ".xlsx", ".xlsm", ".xls",
                                               ".ods") or is_gzip(p):
        return None
    with open(p, "rb") as fh:
        first = fh.readline()
    if first[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return None
    try:
        header_line = first.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None
    if semicolon_separated(header_line) or looks_tab_separated(header_line):
        return None
    # old-Mac line ends (CR only) put the whole file on this "line"; NULs mean UTF-16 without
    # a byte-order mark: both are for the careful reader (falseclaims.io.textio)
    if "\r" in header_line.rstrip("\r\n") or "\x00" in header_line:
        return None
    if duplicated_names(next(csv.reader([header_line]), [])):
        return None  # the careful reader refuses a column named twice
    try:
        return list(pd.read_csv(p, nrows=0, encoding="utf-8-sig", compression=None).columns)
    except (ValueError, UnicodeDecodeError):
        return None

def long_table(w: r.Wide) -> pd.DataFrame:
    """The careful reader's long table of a wide file: rows by method, then case id."""
    n, k = w.values.shape
    text = r.text_dtype()
    table = pd.DataFrame({"case_id": pd.array(np.tile(w.case_ids, k), dtype=text)})
    # one column at a time: each object array is freed once converted
    table["task"] = pd.array(np.full(n * k, w.task, dtype=object), dtype=text)
    table["method"] = pd.array(np.repeat(w.methods, n), dtype=text)
    table["metric"] = pd.array(np.full(n * k, w.metric, dtype=object), dtype=text)
    value = w.values.T.reshape(-1)
    table["value"] = value if value.dtype == float else pd.array(value, dtype=text)
    if w.truth is not None:
        table["ground_truth"] = pd.array(np.tile(w.truth, k), dtype=text)
    return table


def _has_plus(p: Path) -> bool:
    if p.stat().st_size == 0:
        return False
    with open(p, "rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as m:
        return m.find(b"+") >= 0


def _sorted_unique_order(ids: np.ndarray):
    """Row order that sorts the case ids (``_SORTED`` when already sorted); None when an
    id is empty, padded, not text, or repeated (the careful reader reports those)."""
    if pd.api.types.infer_dtype(ids, skipna=False) != "string":
        return None
    if not all(map(str.__eq__, ids, map(str.strip, ids))):
        return None  # padded ids: the careful reader strips them
    if (ids == "").any():
        return None
    if ids.size < 2 or (ids[1:] > ids[:-1]).all():
        return _SORTED
    order = np.array(sorted(range(ids.size), key=ids.__getitem__), dtype=np.int64)
    s = ids[order]
    if (s[1:] == s[:-1]).any():
        return None
    return order


def _checked_units(values: np.ndarray, metric: str, units: str,
                   notes: list[str]) -> np.ndarray | None:
    """Values of a DSC-like metric as fractions, as the careful reader leaves them; None when
    a value is not finite or out of range (the careful reader words the problem)."""
    if not np.isfinite(values).all() or units not in r.UNITS:
        return None
    if metric not in r.DSC_METRICS:
        return values
    if (values.max(axis=0) <= 1).any() and ((values > 1).mean(axis=0) > 0.5).any():
        return None  # methods in two units: the careful reader names them
    if units == "percent":
        if (values <= 1).all() or (values < 0).any() or (values > 100).any():
            return None
        notes.append(f"{values.size} DSC value(s) in percent divided by 100 (--units percent)")
        return values / 100.0
    if (values < 0).any() or (values > 1).any():
        return None
    return values


def _checked_labels(df: pd.DataFrame, methods: list[str], classes, notes: list[str]):
    """(predicted labels cases x methods, truth, class set) when every label is a clean,
    non-empty text in the class set; else None. Label columns are read as categories."""
    cols = ["ground_truth", *methods]
    cats = [df[c].cat for c in cols]
    found = {u for c in cats for u in c.categories.tolist()}
    # pandas may infer one column's categories as numbers and another's as text (an empty
    # ground-truth cell among 0/1): such a mix cannot be sorted, so check before sorting
    if not all(type(u) is str and u and u == u.strip() for u in found):
        return None
    uniq = sorted(found)
    where = {u: i for i, u in enumerate(uniq)}
    codes = np.empty((len(df), len(cols)), dtype=np.int32)
    for j, c in enumerate(cats):  # each column's codes in the shared label list
        local = np.array([where[u] for u in c.categories.tolist()] + [-1], dtype=np.int32)
        codes[:, j] = local[c.codes.to_numpy()]
    if (codes < 0).any():
        return None
    labels = np.array(uniq, dtype=object)
    truth = set(labels[np.unique(codes[:, 0])])
    predicted = set(labels[np.unique(codes[:, 1:])])
    if classes is None:
        only_predicted = sorted(predicted - truth)
        if spelt_otherwise(only_predicted, truth):
            return None  # the careful reader names the cells
        if only_predicted:
            notes.append(f"predicted label(s) {only_predicted} never occur in the ground "
                         "truth; class set = labels of both (pass --classes to fix it)")
        classes = tuple(sorted(truth | predicted))
    else:
        classes = tuple(str(c) for c in classes)
        if not (truth | predicted) <= set(classes):
            return None
    return labels[codes[:, 1:]], labels[codes[:, 0]], classes
