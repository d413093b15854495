"""Reading and writing the pipeline's tables (CSV) and YAML files.

Tables are written with fixed float formatting so that the same inputs give byte-identical
files, and read back with ids and labels kept as text (paper ``003`` stays ``003``, a venue
or method called ``NA`` or ``None`` keeps its name). Library stages, scripts and the CLI
all use these functions; the Snakemake glue lives in :mod:`falseclaims.pipeline`.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pandas as pd
import yaml

FLOAT_FORMAT = "%.10g"


def write_table_parts(parts, path) -> None:
    """Frames with the same columns written one after another as one table: the same
    bytes as ``write_table(pd.concat(parts), path)`` without holding them all."""
    for i, part in enumerate(parts):
        write_table(part, path, append=i > 0)


def write_table(df: pd.DataFrame, path, append: bool = False) -> None:
    """Write ``df`` as CSV: fixed float format, ``\n`` line ends, and text cells that a
    spreadsheet would run as a formula neutralised (:func:`spreadsheet_safe`)."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    df = spreadsheet_safe(df, path)
    # float columns formatted here: the same text as float_format gives, ~4x faster
    # (pandas calls the format per value through several layers; 10^6-row tables)
    floats = [c for c in df.columns if df[c].dtype == "float64"]
    if floats and df.columns.is_unique:
        df = df.copy(deep=False)
        for c in floats:
            df[c] = _format_floats(df[c].to_numpy())
    df.to_csv(path, index=False, float_format=FLOAT_FORMAT, lineterminator="\n",
              mode="a" if append else "w", header=not append)


# OWASP "CSV injection": a cell starting with one of these is run as a formula by Excel,
# LibreOffice and Google Sheets; a leading apostrophe makes it text there
FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?%?|[+-]?(inf|nan)", re.I)


def neutralise(text: str) -> str:
    """``text`` prefixed with ``'`` when a spreadsheet would read it as a formula (numbers
    such as ``-0.5`` and a lone sign such as ``-`` stay as they are)."""
    if len(text) > 1 and text.startswith(FORMULA_TRIGGERS) and not _NUMBER.fullmatch(text):
        return "'" + text
    return text


def spreadsheet_safe(df: pd.DataFrame, path="") -> pd.DataFrame:
    """``df`` with its formula-like text cells neutralised (a copy, only when there are
    any; numeric columns untouched), each changed column logged as a note."""
    out = df
    for c in df.columns if df.columns.is_unique else ():
        col = df[c]
        if col.dtype.kind in "biufcmM" or isinstance(col.dtype, pd.CategoricalDtype) and \
                col.cat.categories.dtype.kind in "biufcmM":
            continue
        try:
            distinct = pd.unique(col.to_numpy(dtype=object))
        except TypeError:  # unhashable cells (lists): not text
            continue
        bad = {v for v in distinct if isinstance(v, str) and neutralise(v) != v}
        if not bad:
            continue
        if out is df:
            out = df.copy(deep=False)
        out[c] = col.astype(object).map(lambda v: neutralise(v) if v in bad else v)
        logging.getLogger("falseclaims.write_table").warning(
            "%s: %d distinct text(s) in column %r begin with =, +, -, @, tab or CR; written "
            "with a leading ' so that a spreadsheet shows them as text (e.g. %r)",
            path, len(bad), c, sorted(bad)[0][:40])
    return out


def _format_floats(values) -> list[str]:
    """``FLOAT_FORMAT % v`` per value, '' for NaN (pandas' ``na_rep``)."""
    return [FLOAT_FORMAT % v if v == v else "" for v in values.tolist()]


# columns holding ids, names and labels: always text, never parsed as numbers or missing
TEXT_COLUMNS = frozenset({
    "venue", "venue_label", "label", "paper_id", "title", "task", "metric", "method",
    "method_a", "method_b", "model", "source", "dataset", "case_id", "split", "sd_over",
    "sd_a_over", "sd_b_over", "uncertainty", "metrics_reported", "source_file",
    "source_sheet", "congruence_source", "congruence_level", "sd_source", "sd_level",
    "condition", "reason", "step", "detail", "file", "sheet", "column", "note", "invalid_cell",
})


def read_table(path, columns=None, categories=()) -> pd.DataFrame:
    """Read a table written by :func:`write_table` (only ``columns``, when given; text
    columns in ``categories`` as categoricals with sorted categories, for tables of 10^6
    rows that repeat a few texts).

    Only an empty field is missing (``write_table`` writes missing values so); ``NA``,
    ``None`` or ``null`` are ordinary text. Columns in ``TEXT_COLUMNS`` stay text, so ids
    such as ``003`` and ``0001`` keep their leading zeros and never collide with ``3``/``1``.
    A table with no rows has its other columns as floats (empty numbers, not text).
    """
    dtype = {**dict.fromkeys(TEXT_COLUMNS, "str"), **dict.fromkeys(categories, "category")}
    df = pd.read_csv(path, dtype=dtype, keep_default_na=False, na_values=[""],
                     usecols=None if columns is None else list(columns))
    for c in categories:
        if c in df.columns:
            df[c] = df[c].cat.reorder_categories(sorted(df[c].cat.categories))
    if df.empty:  # a header-only table: numeric columns as numbers, so stages need no case
        df = df.astype({c: float for c in df.columns if c not in TEXT_COLUMNS})
    return df


def write_yaml(obj, path) -> None:
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        yaml.safe_dump(obj, fh, sort_keys=False)


def require_columns(df: pd.DataFrame, columns, name: str) -> None:
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise ValueError(f"{name}: missing columns {missing}; has {list(df.columns)}")


def numeric(df: pd.DataFrame, columns) -> pd.DataFrame:
    """A copy with ``columns`` as numbers: a table read from an empty CSV (header only) has
    text columns, which cannot be summarised."""
    return df.assign(**{c: pd.to_numeric(df[c]) for c in columns if c in df})
