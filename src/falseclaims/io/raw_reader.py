"""Reading raw tables (CSV, TSV, XLSX) with spreadsheet row numbers, before any parsing.

Row numbers are those the user sees: with ``header_row = 1`` the header is row 1 and the
first data row is row 2 (for CSV/TSV, the record number). Empty rows are skipped and noted.
XLSX sheets are read by :mod:`falseclaims.io.xlsx` (cells present only; merged
cells: a merged range touching the header row is rejected, naming the range, because its
columns would share one name; a merged range inside one data column, e.g. a paper id
spanning its method rows, is forward-filled with a note; one spanning several data columns
is rejected).

Guards against hostile files: an XLSX whose parts expand beyond
``xlsx.MAX_XLSX_BYTES`` is refused before parsing (zip bomb); UTF-16 text files are detected by their byte-order mark
or their NUL bytes; a cell longer than ``MAX_CELL_CHARS`` is refused naming the cell; a
formula without a stored value (XLSX written by a program that does not compute formulas)
is refused naming the cell; binary files, control characters, an unclosed quote and more
than ``MAX_ROWS`` rows are refused in one problem (:mod:`falseclaims.io.textguard`);
past ``MAX_PROBLEMS_PER_COLUMN`` problems in one column the rest are counted in one
summarising problem. Columns with values but no header are kept under the name
"column J" (their letter) so that config can map them (``"@J"``, ``"column J"`` or ``"@10"``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from falseclaims.io import textio
from falseclaims.io.raw_table import (
    MAX_CELL_CHARS, MAX_PROBLEMS_PER_COLUMN, MissingMemo, RawTable, col_letter, finish_table,
    is_missing, keep_columns,
)
from falseclaims.io.textguard import first_lines, text_ok
from falseclaims.io.xlsx import UncomputedFormula

__all__ = ["RawTable", "ColumnRows", "read_raw_table", "EXCEL_SUFFIXES", "TEXT_SUFFIXES",
           "col_letter", "MAX_CELL_CHARS", "MAX_PROBLEMS_PER_COLUMN", "UncomputedFormula"]

EXCEL_SUFFIXES = (".xlsx", ".xlsm")
TEXT_SUFFIXES = textio.SEPARATORS  # also gzip-compressed: x.csv.gz


class ColumnRows(Sequence):
    """Data rows held column by column (a text table of 10^6 rows: one list per column, not
    one per row); reads like the list of ``(row number, cells)`` it stands for."""

    def __init__(self, rownums: list[int], columns: list[list]):
        self.rownums, self.columns = rownums, columns

    def __len__(self) -> int:
        return len(self.rownums)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        return self.rownums[i], [c[i] for c in self.columns]

    def __iter__(self):
        return zip(self.rownums, map(list, zip(*self.columns)))

    def __eq__(self, other) -> bool:
        return list(self) == list(other)


def read_raw_table(path: str | Path, sheet: str | None = None, header_row: int = 1,
               display: str | None = None, max_rows: int | None = None) -> RawTable:
    """Read one table. Problems (missing file or sheet, merged headers, ...) are collected
    on the returned table rather than raised, so that every problem is reported at once.
    ``max_rows``: the lines (rows of an XLSX sheet) beyond it are left out (a quick look)."""
    path = Path(path)
    shown = display or str(path)
    if not path.is_file():
        t = RawTable(shown, sheet, [], [])
        t.problem(None, None, None, f"an existing file (not found: {path})")
        return t
    suffix = textio.text_suffix(path)
    if suffix in EXCEL_SUFFIXES:
        from falseclaims.io.xlsx import read_xlsx_table

        return read_xlsx_table(path, shown, sheet, header_row, max_rows)
    if suffix in TEXT_SUFFIXES:
        return _read_text(path, shown, TEXT_SUFFIXES[suffix], header_row, sheet, max_rows)
    t = RawTable(shown, sheet, [], [])
    t.problem(None, None, path.suffix, "a .csv, .tsv or .xlsx file" + (
        " (an old Excel .xls workbook is not read: open it in Excel or LibreOffice and "
        "save it as .xlsx, or each sheet as CSV)" if suffix in (".xls", ".xlsb") else ""))
    return t


def _read_text(path: Path, shown: str, sep: str, header_row: int, sheet,
               max_rows: int | None = None) -> RawTable:
    """A CSV/TSV sheet under :mod:`falseclaims.io.textio`'s policy (gzip, encodings and
    separators, noted), then the sheet's own checks (control characters, row limit)."""
    t = RawTable(shown, None, [], [])
    if sheet:
        t.note(None, None, sheet, f"sheet name {sheet!r} ignored: a text file has one table")
    notes: list[str] = []
    try:
        raw = textio.read_bytes(path, notes)
        if raw[:4] == b"PK\x03\x04":  # a workbook under a text name (before UTF-16 sniffing)
            raise textio.TextProblem(textio.binary_problem(raw))
    except textio.TextProblem as exc:
        return _text_problem(t, notes, exc)
    try:
        encoding = textio.encoding_of(raw, notes)
    except textio.TextProblem as exc:  # unreadable: no rows (the header problem follows)
        return finish_table(_text_problem(t, notes, exc), [], header_row)
    if not encoding[0].startswith("utf-16") and (bad := textio.binary_problem(raw)):
        return _text_problem(t, notes, textio.TextProblem(bad))
    text = raw.decode(*encoding)
    del raw
    if not text_ok(t, text):
        return _text_problem(t, notes, None)
    text = text if max_rows is None else first_lines(text, max_rows)
    declared, text = textio.sep_line(text, notes)
    if declared:
        sep = declared
    elif sep == ",":
        sep = textio.sniff_separator(textio.first_line(text), ".csv", notes)
    _text_problem(t, notes, None)
    odd_quotes = text.count('"') % 2 == 1
    same: dict[str, str] = {}
    split = textio.split_records(text, sep, same)
    if split is not None and split[0] == "columns":
        del text
        if _finish_columns(t, *split[1:], same, header_row):
            return t
        grid = list(zip(split[1], map(list, zip(*split[2]))))
        del split
        return _finish_text(t, grid, same, header_row)
    if split is not None:
        del text
        return _finish_text(t, split[1], same, header_row)
    del text
    grid: list = []
    try:
        start, end = textio.csv_records(path, encoding, sep, same, grid,
                                        f"; cells may hold at most {MAX_CELL_CHARS} characters",
                                        skip_sep_line=declared is not None)
    except textio.TextProblem as exc:
        t.problem(exc.row, None, None, exc.expected)
        return t
    if odd_quotes and end > start and grid and any("\n" in c for c in grid[-1][1]):
        t.problem(len(grid), None, None,
                  f"a closing quote: the '\"' opened in the record from line {start} is never "
                  "closed (the rest of the file was read as one cell)")
        return t
    return _finish_text(t, grid, same, header_row)


def _text_problem(t: RawTable, notes: list[str], exc) -> RawTable:
    """The text reader's notes (emptied) and problem, if any, on the sheet's table."""
    for text in notes:
        t.note(None, None, None, text)
    notes.clear()
    if exc is not None:
        t.problem(exc.row, None, None, exc.expected)
    return t


def _finish_columns(t: RawTable, rownums: list, columns: list, same: dict,
                    header_row: int) -> bool:
    """:func:`finish_table` for a text split into columns; False (``t`` untouched) when a cell is
    too long, a formula or the header is missing (then the rows go through finish_table)."""
    if any(len(c) > MAX_CELL_CHARS or (c.startswith("=") and re.match(r"^=[A-Za-z]+\(", c))
           for c in same):
        return False
    h = header_row - 1  # rownums are 1, 2, ...
    if h >= len(rownums) or all(is_missing(c[h]) for c in columns):
        return False
    t.header_row = header_row
    missing = MissingMemo()
    keep = keep_columns(t, [col[h] for col in columns], lambda j: any(
        not missing[c] for c in set(columns[j][h + 1:])))
    cols = [columns[j][h + 1:] for j, _ in keep]
    nums = rownums[h + 1:]
    blank_first = {c for c in set(cols[0]) if missing[c]}
    blank = []
    if blank_first:
        for i, c in enumerate(cols[0]):
            if c in blank_first and all(missing[col[i]] for col in cols):
                row = [col[i] for col in cols]
                if any(c is not None and str(c) != "" for c in row):
                    t.note(nums[i], None, None, "row holds only blanks/placeholders; skipped")
                else:
                    t.note(nums[i], None, None, "empty row skipped")
                blank.append(i)
    if blank:
        drop = set(blank)
        nums = [r for i, r in enumerate(nums) if i not in drop]
        cols = [[c for i, c in enumerate(col) if i not in drop] for col in cols]
    t.rows = ColumnRows(nums, cols)
    return True


def _finish_text(t: RawTable, grid: list, same: dict, header_row: int) -> RawTable:
    # formulas and over-long cells looked up among the distinct texts, not cell by cell
    formulas = {c for c in same
                if c.startswith("=") and len(c) > 1 and re.match(r"^=[A-Za-z]+\(", c)}
    if formulas:
        for i, row in grid:
            for j, c in enumerate(row):
                if c in formulas:
                    t.formulas[(i, j)] = c
    long_cells = any(len(c) > MAX_CELL_CHARS for c in same)
    del same
    return finish_table(t, grid, header_row, long_cells)


