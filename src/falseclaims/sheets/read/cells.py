"""Reading single messy cells (method: accept with a note, or reject naming what was expected).

Rules (documented in data/README.md, "Messy cells"):

* Text is cleaned first: non-breaking and other Unicode spaces become spaces, zero-width
  characters and byte-order marks are removed, runs of whitespace collapse, ends are stripped,
  and a Unicode minus (U+2212) or a leading dash (U+2013/U+2014) becomes "-".
* Missing: an empty cell or one of ``na, n/a, nan, null, -, ?`` (case-insensitive).
* Booleans: yes/no, y/n, true/false, t/f, 1/0.
* Metric values (the grammar of :mod:`falseclaims.io.cells`, shared with table mode): a
  number, optionally followed by an SD ("0.85 ± 0.03", "0.85 +/- 0.03",
  "0.85 (0.03)", "0.85 (SD 0.03)") or an interval ("0.85 (0.80-0.90)", ignored with a note),
  optionally with "%" (the whole cell is then percent). A comma is always a decimal comma in a
  metric value ("0,853" -> 0.853): metric values are at most 100, so a thousands separator
  cannot occur there; a cell mixing "," and "." is rejected.
* Sizes (integers): digits, optionally grouped in thousands by ",", " ", "'" or "_" with
  groups of exactly three digits after a non-zero leading group ("1,234", "1 234"), or by
  "." where no whole number can be meant ("1.529", noted: table mode's rule). "0,853",
  "12,5" and "2.000" are rejected: a size is an integer, and "2.000" is 2 or 2000. In the
  data-set size columns (``counted``) a size may be written with what it counts:
  "462 patients", "1,200 images", "n=50" (noted).
"""

from __future__ import annotations

import datetime as _dt
import math
import re
from dataclasses import dataclass
from functools import lru_cache

from falseclaims.io.cells import NUMBER_COMMA, NumberError, grouped_count, read_measure
from falseclaims.io.raw_table import MISSING_TOKENS, clean_text, is_missing
from falseclaims.sheets.read.errors import CellError

__all__ = [
    "Measure",
    "parse_bool",
    "parse_size",
    "parse_number",
    "parse_measure",
    "parse_enum",
    "parse_list",
    "parse_text",
]

MAX_SIZE = 10**12  # larger counts are typing errors (and overflow 64-bit columns)
_TRUE = frozenset({"yes", "y", "true", "t", "1", "1.0"})
_FALSE = frozenset({"no", "n", "false", "f", "0", "0.0"})

_RE_INT = re.compile(r"^[+-]?\d+$")
_RE_INT_FLOAT = re.compile(r"^[+-]?\d+\.0*$")
_RE_GROUPED = re.compile(r"^[1-9]\d{0,2}(?P<sep>[, '_])\d{3}(?:(?P=sep)\d{3})*$")
# digits grouped by '.', as a German or Italian sheet writes 1.529 (table mode's rule,
# docs/table.md "digit groups"): a size is whole, so '.' before digits that make no whole
# number groups them; 2.000 is 2 or 2000 and stays refused
_RE_DOT_GROUPED = re.compile(r"^[1-9]\d{0,2}(?:\.\d{3})+$")


def _cleaning_note(raw, s: str) -> list[str]:
    if isinstance(raw, str) and raw != s and raw.strip() != s:
        return [f"{raw!r} read as {s!r} (spaces/minus signs normalised)"]
    return []


def _reject_nonscalar(raw, expected: str) -> None:
    if isinstance(raw, (_dt.date, _dt.datetime, _dt.time, _dt.timedelta)):
        raise CellError(f"{expected} (the cell holds a date/time; format it as text/number)")


def _empty(raw, expected: str) -> bool:
    """True for an empty cell; a date/time cell is refused (it cannot be ``expected``)."""
    _reject_nonscalar(raw, expected)
    return is_missing(raw)


def parse_text(raw) -> tuple[str | None, tuple[str, ...]]:
    """Free text: cleaned; numbers from XLSX that are integral lose their '.0'."""
    if is_missing(raw):
        return None, ()
    if isinstance(raw, float) and raw.is_integer():
        return str(int(raw)), ()
    s = clean_text(raw)
    return s, tuple(_cleaning_note(raw, s))


def parse_bool(raw) -> tuple[bool | None, tuple[str, ...]]:
    expected = "yes/no, true/false, y/n or 1/0"
    if _empty(raw, expected):
        return None, ()
    if isinstance(raw, bool):
        return raw, ()
    if isinstance(raw, (int, float)):
        if raw in (0, 1):
            return bool(raw), ()
        raise CellError(expected)
    return _parse_bool_str(str(raw))


@lru_cache(maxsize=256)
def _parse_bool_str(raw: str) -> tuple[bool | None, tuple[str, ...]]:
    s = clean_text(raw).lower()
    if s in _TRUE:
        return True, ()
    if s in _FALSE:
        return False, ()
    raise CellError("yes/no, true/false, y/n or 1/0")


# what a data set's size counts, as written after the number ("462 patients")
COUNTED_NOUNS = (
    "patients?", "participants?", "subjects?", "cases?", "images?", "scans?", "slides?",
    "volumes?", "samples?", "stud(?:y|ies)", "eyes?", "lesions?", "nodules?", "exams?",
    "examinations?", "videos?", "frames?", "patch(?:es)?", "records?", "recordings?",
    "individuals?", "persons?", "people", "women", "men", "child(?:ren)?", "mammograms?",
    "radiographs?", "x-rays?", "visits?", "encounters?", "admissions?", "tumou?rs?",
    "specimens?", "biopsies", "biopsy", "cells?", "sequences?", "series", "trials?",
    "epochs?", "segments?", "sessions?", "notes?", "reports?", "documents?", "sentences?",
    "events?", "surger(?:y|ies)", "procedures?", "pairs?")
_RE_COUNTED = re.compile(
    r"^(?:n\s*[=:]\s*(?P<n>\d[\d, '_]*)(?:\s+(?P<u1>[a-z-]+(?: [a-z-]+)?))?"
    r"|(?P<v>\d[\d, '_]*?)\s*(?P<u2>[a-z-]+(?: [a-z-]+)?))\.?$", re.I)
_RE_NOUN = re.compile(r"(?:%s)" % "|".join(COUNTED_NOUNS), re.I)


def _counted(s: str) -> tuple[str, str, str] | None:
    """(number, unit word or 'n=') of a size written with what it counts ('462 patients',
    '1,200 images', 'n=50') and the cell, or None."""
    m = _RE_COUNTED.match(s)
    if m is None:
        return None
    unit = m["u1"] or m["u2"]  # "patients" or "patient visits": the last word counts
    if unit is not None and not _RE_NOUN.fullmatch(unit.split()[-1]):
        return None
    return (m["n"] or m["v"]).strip(), unit or "n=", s


def parse_size(raw, counted: bool = False) -> tuple[int | None, tuple[str, ...]]:
    """A non-negative count such as a test-set size (range checks come later).
    ``counted``: a data set's size, which may be written with what it counts
    ('462 patients', 'n=50'): read as the number, with a note naming the unit."""
    expected = "a whole number (e.g. 1234 or 1,234)"
    if _empty(raw, expected):
        return None, ()
    if isinstance(raw, bool):
        raise CellError(expected)
    if isinstance(raw, (int, float)) and not math.isfinite(raw):
        raise CellError(expected)
    if isinstance(raw, float):
        if not raw.is_integer():
            raise CellError(expected)
        raw = int(raw)
    if isinstance(raw, int):
        value, notes = raw, ()
    elif counted and (c := _counted(clean_text(str(raw)))):
        value, _ = _parse_size_str(c[0])
        what = "written as n=" if c[1] == "n=" else f"a count of {c[1].lower()}"
        notes = (f"{c[2]!r} read as {value} ({what})",)
    else:
        value, notes = _parse_size_str(str(raw))
    if abs(value) > MAX_SIZE:
        raise CellError(f"a whole number below {MAX_SIZE:.0e} (a count of test cases)")
    return value, notes


@lru_cache(maxsize=4096)
def _parse_size_str(raw: str) -> tuple[int, tuple[str, ...]]:
    s = clean_text(raw)
    if _RE_INT.match(s):
        return int(s), ()
    if _RE_DOT_GROUPED.match(s):  # before 2.000 could be read as 2.0
        return _dot_grouped(raw, s)
    if _RE_INT_FLOAT.match(s):
        return int(float(s)), ()
    m = _RE_GROUPED.match(s)
    if m:
        value = int(s.replace(m.group("sep"), ""))
        return value, (f"{raw!r} read as {value} (thousands separator)",)
    if re.fullmatch(r"\d+(\.\d+)?[eE][+-]?\d+", s):  # scientific notation: 1.5e3
        x = float(s)
        if x > MAX_SIZE:
            raise CellError(f"a whole number below {MAX_SIZE:.0e} (a count of test cases)")
        if not x.is_integer():
            raise CellError(f"a whole number ({s} = {x:g} is not one)")
        return int(x), (f"{raw!r} read as {int(x)} (scientific notation)",)
    if len(re.findall(r"\d+", s)) > 1 and re.search(r"[/a-zA-Z]", s):
        raise CellError("one whole number, the test-set size; this cell describes a split "
                        "or several sizes (e.g. '70/10/20 of 300 cases'): compute the "
                        "test-set size and write it")
    raise CellError("a whole number (e.g. 1234 or 1,234)")


def _dot_grouped(raw: str, s: str) -> tuple[int, tuple[str, ...]]:
    """Digits grouped by '.' (a decimal-comma sheet's 1.529), by table mode's rule
    (:func:`falseclaims.io.cells.grouped_count`): a size is whole, so ``1.529`` is 1529, and
    ``2.000`` is refused (2 or 2000)."""
    try:
        value = grouped_count(s)
    except ValueError as exc:
        raise CellError(f"a whole number: {exc}") from None
    return value, (f"{raw!r} read as {value} ('.' groups digits: a size is whole, so it "
                   "is no decimal point)",)


@dataclass(frozen=True)
class Measure:
    """A metric cell: value, optional SD from the same cell, and how it was written."""

    value: float
    sd: float | None = None
    percent_sign: bool = False
    notes: tuple[str, ...] = ()


def parse_number(raw) -> tuple[float | None, bool, tuple[str, ...]]:
    """A plain number (an SD cell): value, percent sign, notes."""
    m = parse_measure(raw)
    if m is None:
        return None, False, ()
    if m.sd is not None:
        raise CellError("a single number (this column holds one value per cell)")
    return m.value, m.percent_sign, m.notes


def parse_measure(raw) -> Measure | None:
    expected = "a number, optionally with '± SD', '(SD)' or '%'"
    if _empty(raw, expected):
        return None
    if isinstance(raw, bool):
        raise CellError(expected)
    if isinstance(raw, (int, float)):
        if (r := read_measure(raw)) is None:  # inf
            raise CellError(expected)
        return Measure(r.value)
    return _parse_measure_str(str(raw))


# two numbers in one value cell: "0.85/0.90", "0.85 0.90"
_RE_TWO = re.compile(rf"{NUMBER_COMMA}\s*(?:/|\s)\s*-?\s*{NUMBER_COMMA}")


@lru_cache(maxsize=16384)
def _parse_measure_str(raw: str) -> Measure:
    s = clean_text(raw)
    notes = _cleaning_note(raw, s)
    try:
        r = read_measure(raw, decimal_comma=True)
    except NumberError as e:
        raise CellError(e.expected) from None
    # a bracketed part that is no SD or interval, or one beside "± SD", is not guessed at
    if r is None or r.aside_kind == "other" or (r.plus_minus and r.aside):
        if _RE_TWO.fullmatch(clean_text(s.replace("%", " "))):
            raise CellError("a number, optionally with '± SD', '(SD)' or '%'; this cell holds "
                            "two numbers: if the column is written like this, describe it in "
                            "the venue's config (cells: {<column>: {cell_pattern: value_sd}} "
                            "for mean and SD, or {split: '/', parts: [...]} for two values)")
        raise CellError("a number, optionally with '± SD', '(SD)' or '%'")
    if r.sd is not None:
        notes.append(f"SD {r.sd_text} taken from the value cell {raw!r}")
    if r.interval:
        notes.append(f"interval ({r.interval[0]}, {r.interval[1]}) in {raw!r} ignored: it is "
                     "not an SD")
    if r.decimal_comma:
        notes.append(f"decimal comma in {raw!r} read as a decimal point")
    return Measure(r.value, r.sd, r.percent, tuple(notes))


def _enum_key(s: str) -> str:
    s = clean_text(s).lower().replace("+", " plus ")
    return re.sub(r"[^0-9a-z]+", "_", s).strip("_")


def parse_enum(raw, allowed: tuple[str, ...], aliases: dict[str, str] | None = None):
    """One of ``allowed``; case, spaces, '/' and '-' are forgiven (with a note)."""
    expected = "one of " + ", ".join(allowed)
    _reject_nonscalar(raw, expected)
    if raw is None or (isinstance(raw, float) and math.isnan(raw)):
        return None, ()
    s = clean_text(raw)
    # other punctuation ("cls?", "seg*") marks doubt or a typo: never read past it
    if re.search(r"[^0-9A-Za-z\s/+_-]", s) and s.lower() not in MISSING_TOKENS:
        raise CellError(expected)
    key = _enum_key(s)
    if key in allowed:
        value = key
    elif aliases and key in aliases:
        value = aliases[key]
    elif s.lower() in MISSING_TOKENS:
        return None, ()
    else:
        raise CellError(expected)
    notes = () if value == s.lower() else (f"{raw!r} read as {value!r}",)
    return value, notes


def parse_list(raw) -> tuple[str | None, tuple[str, ...]]:
    """A list of metric names separated by ';', ',', '|' or line breaks -> lower-case,
    ';'-joined."""
    if is_missing(raw):
        return None, ()
    # line breaks separate items too (cleaning would fold them into spaces)
    s = clean_text(re.sub(r"\s*[\r\n\u2028\u2029]+\s*", ";", str(raw)))
    parts = [clean_text(p).lower() for p in re.split(r"[;,|]", s)]
    parts = [p for p in parts if p]
    if not parts:
        return None, ()
    value = ";".join(parts)
    notes = () if ";".join(clean_text(p) for p in s.split(";")).lower() == value else (
        f"{raw!r} read as {value!r}",
    )
    return value, notes
