"""Per-case CSV/TSV files read as text: encoding and separator policy, ids kept as text."""

from __future__ import annotations

import gzip
import operator
import os
import re
from pathlib import Path

import pandas as pd

from falseclaims.percase.errors import PerCaseValidationError, Problem
from falseclaims.sheets.io import semicolon_separated

PathLike = str | os.PathLike
_TEXT_COLUMNS = frozenset({"case_id", "ground_truth", "task", "method", "metric"})  # ids, labels
_NOT_UTF8 = "UTF-8 or UTF-16 text (save the file as 'CSV UTF-8')"


def is_gzip(path: PathLike) -> bool:
    """True for a gzip-compressed file (by its magic bytes, whatever its name)."""
    with open(path, "rb") as fh:
        return fh.read(2) == b"\x1f\x8b"


def text_suffix(path: PathLike) -> str:
    """The suffix that names the text format: '.tsv' for both 'x.tsv' and 'x.tsv.gz'."""
    p = Path(path)
    return (Path(p.stem).suffix if p.suffix.lower() == ".gz" else p.suffix).lower()


def _read_text_table(path: PathLike, nrows: int | None = None) -> pd.DataFrame:
    """All cells as stripped strings ('' for empty), so every cell can be checked.

    The separator is a tab for .tsv/.tab, else ',' or ';' (a header with more ';' than ',',
    as the sheet reader decides); in a ';'-separated file decimal commas (0,85) are read as
    points (not in id or label columns). Such changes are listed in ``df.attrs["notes"]``.
    ``nrows=0`` reads the header only. A gzip-compressed file (``.csv.gz``) is read
    decompressed.
    """
    p = Path(path)
    if not p.is_file():
        raise FileNotFoundError(f"per-case file not found: {p}")
    file = str(p)
    if p.suffix.lower() in (".xlsx", ".xlsm", ".xls", ".ods"):
        raise PerCaseValidationError([Problem(
            file, expected="a CSV file; save the workbook as 'CSV UTF-8'")])
    notes = []
    gz = is_gzip(p)
    opener = gzip.open if gz else open
    suffix = text_suffix(p)
    if gz:
        notes.append(f"{file}: gzip-compressed, read decompressed")
    with opener(p, "rb") as fh:
        utf16 = fh.read(2) in (b"\xff\xfe", b"\xfe\xff")  # BOM of "Unicode text" exports
    encoding = "utf-16" if utf16 else "utf-8-sig"
    if utf16:
        notes.append(f"{file}: read as UTF-16 (byte order mark)")
    try:
        with opener(p, "rt", encoding=encoding, newline="") as fh:
            header = fh.readline()
    except UnicodeDecodeError:
        raise PerCaseValidationError([Problem(file, expected=_NOT_UTF8)]) from None
    if suffix in (".tsv", ".tab"):
        sep = "\t"
    elif semicolon_separated(header):
        sep = ";"
        notes.append(f"{file}: ';'-separated (the header has more ';' than ',')")
    else:
        sep = ","
    try:
        df = pd.read_csv(p, sep=sep, dtype=str, keep_default_na=False, na_filter=False,
                         encoding=encoding, nrows=nrows, compression="gzip" if gz else None)
    except pd.errors.EmptyDataError as exc:
        raise PerCaseValidationError([Problem(file, expected="a header row")]) from exc
    except UnicodeDecodeError:
        raise PerCaseValidationError([Problem(file, expected=_NOT_UTF8)]) from None
    except pd.errors.ParserError as exc:
        m = re.search(r"Expected (\d+) fields in line (\d+), saw (\d+)", str(exc))
        if m is None:
            raise PerCaseValidationError([Problem(
                file, expected=f"a readable CSV table ({exc})")]) from None
        shown = "tab" if sep == "\t" else repr(sep)
        raise PerCaseValidationError([Problem(
            file, row=int(m[2]), value=f"{m[3]} fields",
            expected=f"{m[1]} fields like the header (a {shown} inside a value? quote the value)")]
        ) from None
    df.columns = [str(c).strip() for c in df.columns]
    for c in df.columns:
        df[c] = _stripped(df[c])
        if sep == ";" and c not in _TEXT_COLUMNS:
            decimal = df[c].str.fullmatch(r"[+-]?\d*,\d+")
            if decimal.any():
                df[c] = df[c].where(~decimal, df[c].str.replace(",", ".", regex=False))
                notes.append(f"{file}: column {c!r}: {int(decimal.sum())} decimal comma(s) "
                             "read as decimal point(s)")
    df.attrs["notes"] = notes
    return df


def _stripped(col: pd.Series) -> pd.Series:
    """``col.str.strip()``, rebuilt only when a cell changes (str.strip returns the same
    object for a clean cell; most files have no padding, and rebuilding costs)."""
    vals = col.to_numpy(dtype=object)
    out = list(map(str.strip, vals))  # cells are str (read with dtype=str, no NA filter)
    if all(map(operator.is_, vals, out)):
        return col
    return pd.Series(out, index=col.index, dtype=col.dtype)


