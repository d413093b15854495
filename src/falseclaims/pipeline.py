"""Glue between Snakemake rules and the library: logging, reading and writing tables.

Scripts call ``run_step(snakemake, func)``; ``func`` receives the snakemake object and
does one library call. Tables are written with fixed float formatting so that the same
inputs give byte-identical files, and read back with ids and labels kept as text (paper
``003`` stays ``003``, a venue or method called ``NA`` or ``None`` keeps its name).
"""

from __future__ import annotations

import errno
import logging
import re
import sys
from pathlib import Path

import pandas as pd
import yaml

from falseclaims.errors import FalseclaimsInputError

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


# errors the user fixes by changing an input: reported without a Python traceback
EXPECTED_ERRORS = (FalseclaimsInputError, FileNotFoundError)


# errors of the machine, not of the input or the code: disk full, quota, read-only file
# system, permission denied, too many open files, out of memory
ENVIRONMENT_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES,
                                errno.EPERM, errno.EMFILE, errno.ENFILE, errno.ENOMEM})


class EnvironmentProblem(Exception):
    """A step stopped by its environment (reported in one line, without a traceback)."""


def environment_message(exc: OSError) -> str:
    where = f" ({exc.filename})" if exc.filename else ""
    return (f"environment problem, not a bug: {exc.strerror or exc}{where}; free disk space, "
            "fix permissions or choose a writable directory, then rerun")


class _Format(logging.Formatter):
    def format(self, record):
        if getattr(record, "block", False):
            return record.getMessage()
        return super().format(record)


def error_block(rule: str, wildcards: dict, log_path, exc: BaseException) -> str:
    """The message a failing step prints: rule (and wildcards), the problem, the log."""
    where = ", ".join(f"{k}={v}" for k, v in wildcards.items())
    lines = [f"ERROR in rule {rule}" + (f" ({where})" if where else "") + ":"]
    lines += [f"    {line}" for line in str(exc).splitlines() or [type(exc).__name__]]
    if log_path:
        lines.append(f"    (log: {log_path})")
    return "\n".join(lines)


def run_step(snakemake, func) -> None:
    """Run ``func(snakemake)`` with logging into the rule's log file.

    An input error (:data:`EXPECTED_ERRORS`) ends the job with one ``ERROR`` block naming
    the rule, the problem and the log file, and exit status 1; any other exception is a bug
    and is logged with its traceback.
    """
    log_path = snakemake.log[0] if len(snakemake.log) else None
    # the console gets one summary per step (INFO); the rule's log also the details (DEBUG)
    console = logging.StreamHandler(sys.stderr)
    console.setLevel(logging.INFO)
    handlers = [console]
    if log_path:
        Path(log_path).parent.mkdir(parents=True, exist_ok=True)
        handlers.append(logging.FileHandler(log_path, mode="w"))
    fmt = _Format("%(levelname)s %(name)s: %(message)s")
    for handler in handlers:
        handler.setFormatter(fmt)
    logging.basicConfig(level=logging.INFO, handlers=handlers, force=True)
    logging.getLogger("falseclaims").setLevel(logging.DEBUG)
    # PDF font subsetting logs every glyph at INFO
    logging.getLogger("fontTools").setLevel(logging.WARNING)
    log = logging.getLogger(f"falseclaims.{snakemake.rule}")
    try:
        func(snakemake)
        log.debug("done: %s", ", ".join(map(str, snakemake.output)))
    except EXPECTED_ERRORS as exc:
        wildcards = dict(snakemake.wildcards.items()) if snakemake.wildcards else {}
        log.error("%s", error_block(snakemake.rule, wildcards, log_path, exc),
                  extra={"block": True})
        raise SystemExit(1) from None
    except OSError as exc:
        if exc.errno not in ENVIRONMENT_ERRNOS:
            log.exception("unexpected error in rule %s (a bug, not a problem with your "
                          "input; please report it with this log)", snakemake.rule)
            raise SystemExit(1) from None
        wildcards = dict(snakemake.wildcards.items()) if snakemake.wildcards else {}
        log.error("%s", error_block(snakemake.rule, wildcards, log_path,
                                    EnvironmentProblem(environment_message(exc))),
                  extra={"block": True})
        raise SystemExit(1) from None
    except Exception:
        log.exception("unexpected error in rule %s (a bug, not a problem with your input; "
                      "please report it with this log)", snakemake.rule)
        raise SystemExit(1) from None
