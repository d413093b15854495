"""Where a hand-filled sheet's table is in its file, for the drafting assistant: the sheet
(a README, notes or data-dictionary sheet before the data is passed over), the header row
after any title rows (and a two-row header), a legend set off below the data, and how a
text file was read (separator, encoding, decimal commas). :mod:`inspect` then guesses what
each column of that table holds.
"""

from __future__ import annotations

import re
from pathlib import Path

from falseclaims.io.raw_reader import TEXT_SUFFIXES, read_raw_table
from falseclaims.io.raw_table import clean_text, is_missing
from falseclaims.io.textio import text_suffix
from falseclaims.sheets.read.prepare import combine_header

def _kinds(cells_: list) -> tuple[int, int, int]:
    """(filled, text, numeric) cells of one row."""
    filled = [c for c in cells_ if not is_missing(c)]
    nums = sum(1 for c in filled if isinstance(c, (int, float)) or
               re.fullmatch(r"[\d.,%\s/±()+-]+", str(c)))
    return len(filled), len(filled) - nums, nums


HEADER_SEARCH_ROWS = 1000  # rows (lines) read while looking for the header row


def find_header(path: Path, sheet: str | None, header_row: int | None = None,
                 header_rows: int | None = None):
    """(table, title rows, warnings): the header row after the title rows, combined with
    the row below when that row holds only names too (a two-row header)."""
    if header_row is None:
        header_row, header_rows, titles, warns = _detect(path, sheet)
    else:
        titles, warns = [], []
    rows_ = header_rows or 1
    if rows_ == 2 and header_row < 2:
        raise ValueError("--header-rows 2 needs --header-row 2 or more (the lower header row)")
    t = read_raw_table(path, sheet, header_row)
    if rows_ == 2 and t.header:
        combine_header(t, path, sheet, header_row)
    t.header_rows = rows_
    return t, titles, warns


def _detect(path: Path, sheet: str | None, look: int = 12):
    # judged on the first rows (a sheet of 10^6 rows is read in full once, afterwards)
    g = read_raw_table(path, sheet, 1, max_rows=HEADER_SEARCH_ROWS)
    if g.problems:  # the first lines cut a quoted multi-line cell: look at the whole file
        g = read_raw_table(path, sheet, 1)
    if not g.header:
        return 1, 1, [], []
    grid = [(1, [None if h in g.headerless else h for h in g.header])]
    grid += [(r, c) for r, c in g.rows[:look]]
    titles, warns = [], []
    h = None
    for k, (r, cells_) in enumerate(grid):
        filled, text, nums = _kinds(cells_)
        if filled <= 1:
            if filled:
                titles.append(f"row {r}: {next(str(c) for c in cells_ if not is_missing(c))!r}")
            continue
        if text >= max(2, 0.7 * filled):
            h = k
            break
        warns.append(f"row {r} holds numbers above the header: a data row? "
                     "(pass --header-row to choose the header)")
    if h is None:
        return 1, 1, titles, warns
    r, top = grid[h]
    if h + 2 < len(grid):
        r2, below = grid[h + 1]
        f2, t2, _ = _kinds(below)
        _, _, n3 = _kinds(grid[h + 2][1])
        gaps = any(is_missing(a) and not is_missing(b) for a, b in zip(top, below))
        if f2 >= 2 and t2 == f2 and n3 and (gaps or f2 < _kinds(top)[0]):
            return r2, 2, titles, warns
    return r, 1, titles, warns


def workbook_sheets(path: Path) -> list[str]:
    """The names of a workbook's worksheets in order ([] for a text file or a bad one)."""
    if path.suffix.lower() not in (".xlsx", ".xlsm"):
        return []
    import zipfile

    from falseclaims.io.xlsx import _workbook

    try:
        with zipfile.ZipFile(path) as z:
            return [n for n, _, ws in _workbook(z)[0] if ws]
    except (zipfile.BadZipFile, KeyError, OSError, ValueError):
        return []


def first_table(path: Path, header_row, header_rows):
    """The first sheet's table, or, when it has no data rows or only lines of text in one
    column (a README or notes sheet before the data), the first later sheet's that has a
    table, with a warning naming both."""
    t, titles, warns = find_header(path, None, header_row, header_rows)
    notes = _notes_only(t)
    if t.rows and not notes and t.header and (o := _described_sheet(path, t, header_row,
                                                                     header_rows)):
        return o[0], o[1], o[2] + [
            f"the first sheet {t.sheet!r} describes the columns of sheet {o[0].sheet!r} (a "
            f"data dictionary): the table is read from sheet {o[0].sheet!r} (--sheet to "
            "choose another)"]
    if (t.rows and not notes) or not t.header:
        return t, titles, warns
    for name in workbook_sheets(path)[1:]:
        o, o_titles, o_warns = find_header(path, name, header_row, header_rows)
        if o.rows and not o.problems and not _notes_only(o):
            what = "only lines of notes in one column" if notes else "no data rows (notes?)"
            return o, o_titles, o_warns + [
                f"the first sheet {t.sheet!r} holds {what}: the table is read from sheet "
                f"{name!r}, the first with a table (--sheet to choose another)"]
    return t, titles, warns


DICTIONARY_ROWS = 300  # a first sheet longer than this is no data dictionary (not checked)


def _described_sheet(path: Path, t, header_row, header_rows):
    """(table, titles, warnings) of the later sheet whose column names fill a column of
    the first sheet ('Variable': 'Paper', 'Task', ... of a codebook): at least two of them
    and half of its names; None otherwise (the first sheet is the table)."""
    if len(t.rows) > DICTIONARY_ROWS:
        return None
    listed = [{clean_text(str(row[k])).casefold() for _, row in t.rows if not is_missing(row[k])}
              for k in range(len(t.header))]
    for name in workbook_sheets(path)[1:]:
        o, o_titles, o_warns = find_header(path, name, header_row, header_rows)
        names = {clean_text(str(h)).casefold() for h in o.header
                 if not is_missing(h) and h not in o.headerless}
        if o.rows and not o.problems and len(names) >= 2 and any(
                len(names & cells_) >= max(2, len(names) / 2) for cells_ in listed):
            return o, o_titles, o_warns
    return None


def _notes_only(t) -> bool:
    """Every line of the sheet fills one cell at most: sentences of a README, no table (a
    table of one column has no paper beside its values)."""
    return sum(not is_missing(h) and h not in t.headerless for h in t.header) <= 1 and \
        all(sum(not is_missing(c) for c in row) <= 1 for _, row in t.rows)


def legend_rows(t) -> list[tuple[int, int, str]]:
    """The rows under the last row filling two cells or more when each of them fills one
    text cell outside column A ('*Source', '1.1 - seed papers' under a 'Source' column),
    set off from the data by an empty row: a legend below the data, no papers. A row with
    its id empty but other cells filled is a paper missing its id (the check names it), so
    any such row below keeps the legend out."""
    filled = [(r, row, [k for k, c in enumerate(row) if not is_missing(c)]) for r, row in t.rows]
    last = max((i for i, (_, _, ks) in enumerate(filled) if len(ks) >= 2), default=None)
    tail = [(r, row, ks) for r, row, ks in filled[last + 1:] if ks] if last is not None else []
    if tail and tail[0][0] == filled[last][0] + 1:
        return []  # no empty row under the data: a cell's next line (a table from a PDF)
    if not tail or any(len(ks) != 1 or ks[0] == 0 or not isinstance(row[ks[0]], str)
                       for _, row, ks in tail):
        return []
    return [(r, ks[0], clean_text(row[ks[0]])) for r, row, ks in tail]


_SEP_WORDS = {",": "','-separated", ";": "';'-separated", "\t": "tab-separated"}
_DECIMAL_COMMA = re.compile(r"^\s*-?\d*,\d+\s*%?\s*(?:(?:±|\+/-|\()\s*\d*,?\d+\)?)?\s*$")


def text_reading(path: Path, t, columns) -> str | None:
    """'';'-separated, Windows-1252 (not UTF-8), decimal commas in D, E' for a text
    file; None for a workbook. ``columns``: the column guesses (their roles say which
    columns hold values, where a comma is a decimal comma)."""
    suffix = text_suffix(path)
    if suffix not in TEXT_SUFFIXES:
        return None
    notes = [n["note"] for n in t.notes if n["row"] is None and n["column"] is None]
    sep = TEXT_SUFFIXES[suffix]
    if any(n.startswith("';'-separated") for n in notes):
        sep = ";"
    elif any("tab-separated" in n for n in notes):
        sep = "\t"
    words = [_SEP_WORDS.get(sep, repr(sep) + "-separated")]
    # "file is not UTF-8; read as Windows-1252 (...)", "...; decoded as UTF-16-LE"
    coded = [m[1].strip() + (" (not UTF-8)" if "not UTF-8" in n else "") for n in notes
             if n.startswith("file is ") and (m := re.search(r"(?:read|decoded) as ([^;(]+)", n))]
    words.append(", ".join(coded) if coded else "UTF-8")
    commas = [c.letter for k, c in enumerate(columns)
              if c.role.startswith(("value", "sd"))
              and any(isinstance(row[k], str) and not is_missing(row[k])
                      and _DECIMAL_COMMA.match(row[k]) for _, row in t.rows)]
    words.append(f"decimal commas in {', '.join(commas)}" if commas else "decimal points")
    return "; ".join(words)
