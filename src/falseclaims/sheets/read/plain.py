"""Tables built from parsed columns, and the column-wise path for a plain results table.

Most results tables are plain: every cell readable, no SD inside a value cell, no '%' signs
or percent-formatted cells, no split cells, fraction-scale values already fractions, no
duplicate or out-of-range rows. For such a table the per-row records (one dict per row,
~300 bytes each at 10^6 rows) and the record-by-record unit conversion and checks are not
needed: :func:`plain_results` checks the same conditions column by column and builds the
table from the columns. Anything else returns None and the caller takes the per-record path,
which gives every note and problem; so both paths give the same tables, notes and messages.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from falseclaims.sheets.read.columns import RESULTS, RESULTS_OUT, SCALE_RANGES, metric_scale
from falseclaims.io.raw_reader import RawTable
from falseclaims.sheets.read.normalise import Parsed
from falseclaims.sheets.read.rows import fold_name
from falseclaims.sheets.read.schema import check_table, load_schema

__all__ = ["DTYPES", "frame_of_columns", "plain_results"]

DTYPES = {"id": "string", "text": "string", "metric": "string", "enum": "string",
          "list": "string", "bool": "boolean", "size": "Int64", "measure": "float64",
          "number": "float64"}


def frame_of_columns(data: dict[str, list], rownums, spec: dict, out_cols: list[str],
                     table: RawTable, venue: str) -> pd.DataFrame:
    """The normalised table from column lists of parsed values (None when missing).
    Empties ``data``: each list is dropped once its column is converted (10^6 rows)."""
    n = len(rownums)
    cols = {}
    for c in [c for c in out_cols if c in spec]:
        s = pd.Series(data.pop(c)) if n else pd.Series([], dtype=object)
        kind = spec[c]
        if DTYPES[kind] == "float64":
            cols[c] = pd.to_numeric(s.astype(object), errors="coerce").astype("float64")
        else:
            cols[c] = s.astype(object).where(s.notna(), None).astype(DTYPES[kind])
        del s
    df = pd.DataFrame(cols, copy=False)
    del cols
    df.insert(0, "venue", pd.array([venue] * n, dtype="string"))
    df["source_file"] = pd.array([table.file] * n, dtype="string")
    df["source_sheet"] = pd.array([table.sheet] * n, dtype="string")
    df["source_row"] = pd.array(rownums, dtype="int64")
    return df[out_cols].reset_index(drop=True)


def _needs_records(p: Parsed) -> bool:
    """A cell that the per-record steps would change or report (split cells, an SD in the
    value cell, '%' signs, XLSX percent formats) or a row with a bad cell."""
    if p.bad_rows or any(p.pct_cells.values()):
        return True
    for col, kind in p.spec.items():
        for _ok, value, extra, _ in p.distinct(col):
            if isinstance(value, list) or isinstance(extra, list):
                return True
            if kind == "measure" and extra is not None \
                    and (extra.sd is not None or extra.percent_sign):
                return True
            if kind == "number" and extra:
                return True
    return False


def plain_results(p: Parsed | None, table: RawTable, paper_ids: set, units: str,
                  venue: str) -> pd.DataFrame | None:
    """The results table of a plain results sheet (notes added to ``table``), or None when
    a row needs the per-record path (which then gives exactly the same notes and problems
    as for any sheet)."""
    if p is None or table.problems or _needs_records(p):
        return None
    value = p.values("value")
    v = np.array(value, dtype=float)
    has_value = ~np.isnan(v)
    if int(has_value.sum()) != len(value) - value.count(None):
        return None  # a NaN value: the range check reports it
    metric = p.values("metric")
    codes, uniques = pd.factorize(pd.Series(metric, dtype=object), use_na_sentinel=True)
    scales = [metric_scale(m) if m else None for m in uniques]
    scale = np.array(scales + [None], dtype=object)[codes]  # code -1 -> None
    has_metric = scale != None  # noqa: E711 (element-wise)
    frac = has_value & has_metric & (scale == "fraction")  # the values units: converts
    small = frac & (np.abs(v) <= 1)
    if units == "percent" and frac.any():
        return None
    if units == "auto" and (frac & ~small).any():
        return None  # values > 1: converted from percent, or refused
    # _check_rows: ranges and SDs of rows with a metric and a value
    lo = np.array([SCALE_RANGES[s][0] if s else np.nan for s in scales] + [np.nan])[codes]
    hi = np.array([SCALE_RANGES[s][1] if s else np.nan for s in scales] + [np.nan])[codes]
    checked = has_value & has_metric
    if (checked & ~((lo <= v) & (v <= hi))).any():
        return None
    sd = np.array(p.values("sd"), dtype=float)
    with np.errstate(invalid="ignore"):
        if (checked & (scale != "distance") & (scale != "decibel") & (sd >= 0) & (sd > 1)).any():
            return None
    # one row per paper x method x metric; every paper_id in the papers table
    pid = p.values("paper_id")
    if not set(pid) - {None} <= paper_ids:
        return None
    method = p.values("method")
    folded = [fold_name(m) for m in set(method)]
    if len(set(folded)) != len(folded):
        return None  # 'Ours' and 'ours ': the per-record check names them
    keys = pd.DataFrame({"p": pid, "m": method, "x": metric}, dtype=object)
    keys = keys[keys.notna().all(axis=1)]
    if keys.duplicated().any():
        return None
    if any(isinstance(n, int) and n < 2 for n in set(p.values("n_test"))):
        return None  # the per-record check names the paper
    del keys, v, sd, scale, lo, hi, checked, frac, codes
    data = {"paper_id": pid, "method": method, "metric": metric, "value": value}
    del pid, method, metric, value
    data.update({c: p.values(c) for c in RESULTS if c in RESULTS_OUT and c not in data})
    df = frame_of_columns(data, p.rownums, RESULTS, RESULTS_OUT, table, venue)
    for _ in check_table(df, load_schema("results")):
        return None
    if units == "auto" and small.any():
        col = p.their.get("value", "value")
        table.note(None, col, None, f"units auto-detected as fraction: all {int(small.sum())} "
                                    "unmarked fraction-scale values are <= 1")
    return df
