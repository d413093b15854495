"""Per-case CSV/TSV files read as text under :mod:`falseclaims.io.textio`'s policy (gzip,
encodings, separators, decimal commas, notes), ids kept as text, and the column mapping
that lets a file name its columns its own way (``--columns case_id=ID,...``)."""

from __future__ import annotations

import csv
import difflib
import io
import os
import re
from collections.abc import Mapping
from pathlib import Path

import pandas as pd

from falseclaims.io import textio
from falseclaims.percase.errors import PerCaseValidationError, Problem
from falseclaims.io.textio import is_gzip, text_suffix

__all__ = ["ROLES", "BY_ORDER_COLUMN", "paired_by_order_note", "read_text_table", "is_gzip", "text_suffix",
           "column_mapping", "mapping_note",
           "parse_columns_option", "require_file", "split_items", "numeric_columns"]

PathLike = str | os.PathLike
_TEXT_COLUMNS = frozenset({"case_id", "ground_truth", "task", "method", "metric"})  # ids, labels
# the columns a per-case layout names (docs/percase.md); alg_<name> is a method's column
ROLES = ("case_id", "ground_truth", "task", "method", "metric", "value")
# a column naming the cases (a study, an exam, a record in classification test sets)
CASE_HEADER = re.compile(r"(?i)^(?:(?:case|image|subject|patient|pt|sample|scan|volume|study|"
                         r"exam|record)(?:[ _-]?(?:id|no|name))?|cases|id|name|file|"
                         r"file[ _-]?name)$")
_ALG = re.compile(r"alg_\S+")
# the case column of files paired by their rows' position (--paired-by-order): its ids are
# the data rows' numbers, 1 for the first row under the header
BY_ORDER_COLUMN = "(row)"
# binary files a model's outputs are often saved in: their first bytes, what they are
_BINARY = ((b"\x93NUMPY", "a NumPy array (.npy)"), (b"PK\x03\x04", "a zip archive (.npz, .xlsx?)"),
           *((b"\x80" + bytes([v]), "a Python pickle") for v in range(2, 6)),
           (b"\x89HDF", "an HDF5 file"))
# header cells no column is named like: a decimal number, an image or data file's name
_DATA_CELL = re.compile(r"(?i)[-+]?(?:\d+\.\d*|\.\d+)(?:e[-+]?\d+)?|.+\.(?:jpe?g|png|bmp|tiff?|"
                        r"dcm|nii(?:\.gz)?|nrrd|mha|mhd|npy|npz|h5)")


def header_looks_like_data(cells) -> bool:
    """A first row holding a decimal number or a file name: data, not column names (the
    file has no header line). Whole numbers alone are not enough: nnU-Net's labels 1, 2 are
    column names."""
    return any(_DATA_CELL.fullmatch(str(c).strip()) for c in cells)


def no_header_problem(file: str, cells) -> Problem:
    """The problem of a file whose first row is data."""
    got = ", ".join(repr(str(c).strip()[:40]) for c in list(cells)[:6])
    return Problem(file, row=1, message=(
        f"got {got}{' ...' if len(cells) > 6 else ''}; expected column names (the first row "
        "holds data such as a decimal number or a file name: the file has no header line; "
        "add one naming the columns, such as case_id,ground_truth,alg_A)"))


def column_mapping(columns: Mapping[str, str] | None) -> dict[str, str] | None:
    """``{role: column in the file}`` checked and turned into ``{column: role}`` (the form
    the readers rename with). A role that is not one of :data:`ROLES` or ``alg_<name>`` is
    refused with a suggestion; two roles on one column, or one role twice, are refused."""
    if not columns:
        return None
    out: dict[str, str] = {}
    for role, column in columns.items():
        role, column = str(role).strip(), str(column).strip()
        if role not in ROLES and not _ALG.fullmatch(role):
            near = difflib.get_close_matches(role, ROLES, n=1, cutoff=0.5)
            raise ValueError(f"unknown per-case column role {role!r}"
                             + (f"; did you mean {near[0]!r}?" if near else "")
                             + f" (roles: {', '.join(ROLES)}, alg_<method>)")
        if not column:
            raise ValueError(f"column role {role!r} maps to an empty column name")
        if column in out:
            raise ValueError(f"column {column!r} mapped twice ({out[column]!r} and {role!r})")
        out[column] = role
    return out


def mapping_note(rename: Mapping[str, str]) -> str:
    """The note of a file read through a column mapping ({column: role})."""
    return "columns renamed by the column mapping: " + ", ".join(
        f"{c!r} as {r!r}" for c, r in rename.items())


def numeric_columns(df: pd.DataFrame, names=None) -> list[str]:
    """The columns (of ``names``, default all) whose every non-empty cell is a number, and
    that have at least one: a file's metric or score columns, as opposed to its text."""
    out = []
    for n in (df.columns if names is None else names):
        filled = df[n].str.strip() != ""
        if filled.any() and pd.to_numeric(df[n].where(filled),
                                          errors="coerce").notna().sum() == filled.sum():
            out.append(n)
    return out


def split_items(text: str) -> list[str]:
    """``text`` split at the commas outside double or single quotes."""
    items, cur, quote = [], [], None
    for ch in text:
        if quote is None and ch in "\"'":
            quote = ch
        elif ch == quote:
            quote = None
        elif ch == "," and quote is None:
            items.append("".join(cur))
            cur = []
            continue
        cur.append(ch)
    if quote is not None:
        raise ValueError(f"an unclosed quote ({quote}) in {text!r}")
    items.append("".join(cur))
    return items


def parse_columns_option(text: str) -> dict[str, str]:
    """``"case_id=ID,ground_truth=label"`` as ``{role: column}`` (checked by
    :func:`column_mapping`); a malformed item raises ValueError naming it. A column name
    with a comma is quoted: ``prediction_b="pred, B"``."""
    mapping: dict[str, str] = {}
    for item in split_items(text):
        role, eq, column = item.partition("=")
        column = column.strip()
        if len(column) >= 2 and column[0] == column[-1] and column[0] in "\"'":
            column = column[1:-1]
        if not eq or not role.strip() or not column.strip():
            raise ValueError(f"item {item.strip()!r}: expected ROLE=COLUMN, e.g. "
                             "case_id=ID")
        if role.strip() in mapping:
            raise ValueError(f"role {role.strip()!r} given twice")
        mapping[role.strip()] = column
    # the predicted and the true label may share a name when they are in different files
    # (the predictions layout: each finding's column); the one-file layouts refuse it
    column_mapping({r: c for r, c in mapping.items()
                    if not (r == "ground_truth" and c == mapping.get("value"))})
    return mapping


def require_file(path: PathLike) -> Path:
    """``path`` as a Path when it names a regular file; else the one error that says what it
    is: a directory, '-' or a pipe (read twice here: header, then rows), a device, nothing."""
    p = Path(path)
    if p.is_dir():  # also --scores and --labels: a folder is not "not found"
        raise ValueError(f"{p}: is a directory, expected a per-case CSV file")
    if str(path) == "-":
        raise ValueError("-: standard input is not read; save the per-case table to a file "
                         "and give its name")
    if p.exists() and not p.is_file():
        raise ValueError(f"{p}: is not a regular file (a pipe or a device?); save the "
                         "per-case table to a file and give its name")
    if not p.is_file():
        raise FileNotFoundError(f"per-case file not found: {p}")
    return p


def _first_row(p: Path) -> list[str] | None:
    """The cells of the file's first line, split as the reader splits it; None when it
    cannot be read (the reader's own problem is then the one said)."""
    try:
        text, _ = textio.decode(textio.read_bytes(p, []), [])
    except (OSError, ValueError):
        return None
    line = next(iter(text.splitlines()), "")
    sep = textio.sniff_separator(line, text_suffix(p), [])
    return next(csv.reader(io.StringIO(line), delimiter=sep), [])


def read_text_table(path: PathLike, nrows: int | None = None,
                     columns: Mapping[str, str] | None = None,
                     by_order: bool = False) -> pd.DataFrame:
    """All cells as stripped strings ('' for empty), so every cell can be checked.

    Read by :func:`falseclaims.io.textio.read_frame`; decimal commas (0,85) in columns other
    than ids and labels follow its policy. ``columns`` ({role: column in the file}) renames
    the file's columns to the roles first. Notes (``"<file>: <note>"``) are in
    ``df.attrs["notes"]``. ``nrows=0`` reads the header only. ``by_order``: a first column
    :data:`BY_ORDER_COLUMN` holds each data row's number (the files' rows paired by position,
    declared by the user).
    """
    p = require_file(path)
    file = str(p)
    if p.suffix.lower() in (".xlsx", ".xlsm", ".xls", ".ods"):
        raise PerCaseValidationError([Problem(
            file, expected="a CSV file; save the workbook as 'CSV UTF-8'")])
    _not_binary(p)
    rename = column_mapping(columns)
    try:
        df, sep, notes = textio.read_frame(p, nrows=nrows)
    except textio.TextProblem as exc:
        first = _first_row(p) if exc.row == 1 else None
        if first and header_looks_like_data(first):  # its repeated '1' was no header's fault
            raise PerCaseValidationError([no_header_problem(file, first)]) from None
        raise PerCaseValidationError([Problem(
            file, row=exc.row, value=exc.value, expected=exc.expected)]) from None
    if rename:
        missing = [c for c in rename if c not in df.columns]
        if missing:
            raise PerCaseValidationError([Problem(
                file, expected=f"a column {missing[0]!r} (mapped to {rename[missing[0]]!r} by the column "
                f"mapping); the file's columns are {', '.join(map(repr, df.columns))}")])
        named = [rename.get(c, c) for c in df.columns]
        twice = sorted({c for c in named if named.count(c) > 1})
        if twice:
            raise PerCaseValidationError([Problem(
                file, column=twice[0], expected=f"one column {twice[0]!r}: the file has it and the column mapping maps "
                "another column to it")])
        df.columns = named
        notes.append(mapping_note(rename))
    textio.decimal_commas(df, [c for c in df.columns if c not in _TEXT_COLUMNS], sep, notes)
    if by_order:
        df.insert(0, BY_ORDER_COLUMN, [str(i) for i in range(1, len(df) + 1)])
    df.attrs["notes"] = [f"{file}: {n}" for n in notes]
    return df


def paired_by_order_note(files: list[str], case_columns=()) -> str:
    """The note saying the files' rows are paired by their position (``--paired-by-order``,
    declared by the user). A file with a column naming the cases (``case_columns`` or one
    like :data:`CASE_HEADER`) or files of different lengths are refused in one line:
    pairing by position is only for files without ids, of the same cases in one order."""
    rows = {}
    for f in files:
        df = read_text_table(f)
        named = [c for c in map(str, df.columns) if c in case_columns or CASE_HEADER.match(c)]
        if named:
            raise PerCaseValidationError(
                f"--paired-by-order: {f} has a column naming the cases ({named[0]!r}); "
                "expected files without case ids: files with ids are paired by them (leave "
                "out --paired-by-order, or name the column with --columns case_id=COLUMN)")
        rows[f] = len(df)
    if len(set(rows.values())) > 1:
        raise PerCaseValidationError(
            "--paired-by-order: the files have different numbers of rows ("
            + ", ".join(f"{f}: {n:,}" for f, n in rows.items()) + "); expected the same "
            "cases in the same order in every file (rows are paired by position)")
    return (f"rows paired by their position (--paired-by-order, as declared): row i of every "
            f"file is taken as the same case, {rows[files[0]]:,} rows each; the cases are "
            "named by their row number (1 = the first row under the header); nothing in the "
            "files checks that order")


def _not_binary(p: Path) -> None:
    """Refuse a binary file of a model's outputs in one line saying what it is (it would
    otherwise be refused for a control character, as if a text file were damaged)."""
    with open(p, "rb") as fh:
        head = fh.read(8)
    what = next((w for magic, w in _BINARY if head.startswith(magic)), None)
    if what is None:
        return
    shape = ""
    if what.startswith("a NumPy"):
        import numpy as np  # only for the array's shape in the message

        try:
            arr = np.load(p, mmap_mode="r", allow_pickle=False)
            shape = f" of shape {arr.shape}, {arr.dtype}"
        except ValueError:
            pass
    raise PerCaseValidationError([Problem(
        str(p), expected=f"a CSV table, not {what}{shape}: write each method's per-case "
        "results (or predictions) as a CSV with a column naming the cases; files whose rows "
        "are the same cases in the same order may be paired by position with "
        "--paired-by-order (docs/percase.md)")])
