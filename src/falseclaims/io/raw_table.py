"""A sheet read into rows and columns: :class:`RawTable` (cells as read, problems and notes
collected rather than raised) and :func:`finish_table`, which splits the header from the
data, drops empty rows (noted) and unnamed empty columns. The text reader
(:mod:`falseclaims.io.raw_reader`) and the XLSX reader (:mod:`falseclaims.io.xlsx`)
both build their tables with it.

What an empty cell is, and the cleaning every cell text gets before it is compared
(:func:`clean_text`, :func:`is_missing`, :data:`MISSING_TOKENS`), is defined here too: the
readers drop empty rows and columns with it, and the cell parsers of
:mod:`falseclaims.sheets.read.cells` start from it.
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass, field

from falseclaims.errors import Problem

# "--", en and em dashes: "not reported" in hand-filled sheets as in published tables
MISSING_TOKENS = frozenset({"", "na", "n/a", "nan", "null", "-", "--", "\u2013", "\u2014", "?",
                            "#n/a"})

_SPACES = re.compile(r"[\s\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]+")
_ZERO_WIDTH = re.compile(r"[\u200b\u200c\u200d\u2060\ufeff]")
_MINUS = str.maketrans({"\u2212": "-", "\ufe63": "-", "\uff0d": "-"})


def clean_text(raw) -> str:
    """Whitespace, zero-width characters and Unicode minus signs normalised."""
    return _clean_str(raw if isinstance(raw, str) else str(raw))


@functools.lru_cache(maxsize=1 << 16)
def _clean_str(raw: str) -> str:
    # survey sheets repeat cell texts heavily (enums, yes/no, sizes): memoise
    s = _ZERO_WIDTH.sub("", raw).translate(_MINUS)
    s = _SPACES.sub(" ", s).strip()
    if s[:1] in ("\u2013", "\u2014") and s[1:2].isdigit():
        s = "-" + s[1:]
    return s


def is_missing(raw) -> bool:
    if raw is None:
        return True
    if isinstance(raw, float) and math.isnan(raw):
        return True
    if isinstance(raw, str):
        return clean_text(raw).lower() in MISSING_TOKENS
    return False


MAX_CELL_CHARS = 10_000          # a survey cell is a number, a name or a short comment


MAX_PROBLEMS_PER_COLUMN = 100    # listed one by one; the rest in one summarising problem


@dataclass
class RawTable:
    file: str
    sheet: str | None
    header: list[str]
    rows: list[tuple[int, list]]  # (row number, cells aligned with header)
    percent_format: dict[tuple[int, int], bool] = field(default_factory=dict)  # XLSX '%' cells
    header_row: int = 1
    problems: list[Problem] = field(default_factory=list)
    notes: list[dict] = field(default_factory=list)
    headerless: set[str] = field(default_factory=set)  # "column J" names kept for mapping
    formulas: dict[tuple[int, int], str] = field(default_factory=dict)  # (row, col) -> "=..."
    letters: list[str] = field(default_factory=list)  # spreadsheet letter of each column
    cell_problems: set[int] = field(default_factory=set)  # indices into problems
    per_column: dict = field(default_factory=dict)  # column -> (count, first row, summary k)
    problem_cap: int | None = MAX_PROBLEMS_PER_COLUMN  # None: every problem (on_bad_cell)

    def note(self, row, column, value, text) -> None:
        self.notes.append(
            {"file": self.file, "sheet": self.sheet, "row": row, "column": column,
             "value": None if value is None else str(value), "note": text}
        )

    def problem(self, row, column, value, expected, cell: bool = False) -> None:
        """``cell``: the problem is one cell's content (a paper may be excluded for it under
        ``on_bad_cell: exclude``), not the sheet's structure."""
        if row is not None and column is not None and self.problem_cap is not None \
                and self._over_cap(row, column):
            return
        if cell:
            self.cell_problems.add(len(self.problems))
        self.problems.append(Problem(self.file, sheet=self.sheet, row=row, column=column,
                                     value=value, expected=expected))

    def _over_cap(self, row, column) -> bool:
        """True (the problem is counted in one summary) past ``MAX_PROBLEMS_PER_COLUMN``
        problems in one column: a broken column of 10^6 rows gives 101 lines, not 10^6."""
        n, first, k = self.per_column.get(column, (0, None, None))
        n += 1
        if n <= self.problem_cap:
            self.per_column[column] = (n, first, k)
            return False
        first = row if first is None else first
        extra = n - self.problem_cap
        summary = Problem(self.file, sheet=self.sheet, column=column,
                          expected=f"the cells above fixed: {extra:,} more problem(s) in this "
                          f"column (rows {first}-{row}) not listed one by one")
        if k is None:
            k = len(self.problems)
            self.problems.append(summary)
        else:
            self.problems[k] = summary
        self.per_column[column] = (n, first, k)
        return True


def finish_table(t: RawTable, grid: list[tuple[int, list]], header_row: int,
            long_cells: bool = True, positions: list[int] | None = None) -> RawTable:
    """Split header from data, drop empty rows (noted) and unnamed empty columns.
    ``long_cells``: False when the caller knows no cell exceeds ``MAX_CELL_CHARS`` (the
    per-cell check is skipped)."""
    t.header_row = header_row
    header_cells = None
    data = []
    for rownum, cells in grid:
        if rownum < header_row:
            continue
        if rownum == header_row:
            header_cells = cells
            continue
        data.append((rownum, cells))
    if header_cells is None or all(is_missing(c) for c in header_cells):
        t.problem(header_row, None, None,
                  f"column names in row {header_row} (the header row)")
        return t
    width = max([len(header_cells)] + [len(c) for _, c in data])
    header_cells = list(header_cells) + [None] * (width - len(header_cells))
    keep = keep_columns(t, header_cells, lambda j: any(
        j < len(c) and not is_missing(c[j]) for _, c in data), positions)
    cols = [j for j, _ in keep]
    every = cols == list(range(width))
    missing = MissingMemo()
    if every and not long_cells and all(c.__class__ is list and len(c) == width
                                        for _, c in data):
        t.rows = _drop_blank_rows(t, data, missing)
        return _renumber_cells(t, keep)
    for rownum, cells in data:
        if len(cells) < width:
            cells = list(cells) + [None] * (width - len(cells))
        # the row list itself when every column is kept (no copy per row)
        row = cells if every and cells.__class__ is list else [cells[j] for j in cols]
        if long_cells:
            for k, c in enumerate(row):
                if isinstance(c, str) and len(c) > MAX_CELL_CHARS:
                    t.problem(rownum, t.header[k], c[:40] + "...",
                              f"a cell of at most {MAX_CELL_CHARS} characters (this one has "
                              f"{len(c)})", cell=True)
                    row[k] = None
        if missing.all(row):
            if any(c is not None and str(c) != "" for c in row):
                t.note(rownum, None, None, "row holds only blanks/placeholders; skipped")
            else:
                t.note(rownum, None, None, "empty row skipped")
            continue
        t.rows.append((rownum, row))
    return _renumber_cells(t, keep)


def _drop_blank_rows(t: RawTable, data: list, missing: "MissingMemo") -> list:
    """``data`` without its blank rows (noted), for full-width rows kept as they are: only
    rows whose first cell is blank can be blank, found among the first column's distinct
    values."""
    first = list(map(_first_cell, data))
    if not set(map(type, first)) <= {str, type(None)}:
        blank_first = None  # typed cells (XLSX): NaN != NaN, so every row is looked at
    else:
        blank_first = {c for c in set(first) if missing[c]}
        if not blank_first:
            return data
    kept = []
    for (rownum, row), c in zip(data, first):
        if (blank_first is None or c in blank_first) and missing.all(row):
            if any(c is not None and str(c) != "" for c in row):
                t.note(rownum, None, None, "row holds only blanks/placeholders; skipped")
            else:
                t.note(rownum, None, None, "empty row skipped")
            continue
        kept.append((rownum, row))
    return kept


def _first_cell(item):
    return item[1][0]


def _renumber_cells(t: RawTable, keep: list) -> RawTable:
    new_pos = {j: k for k, (j, _) in enumerate(keep)}
    t.percent_format = {(r, new_pos[j]): v for (r, j), v in t.percent_format.items()
                        if j in new_pos}
    t.formulas = {(r, new_pos[j]): f for (r, j), f in t.formulas.items() if j in new_pos}
    return t


class MissingMemo(dict):
    """``is_missing`` of text cells, computed once per distinct text (rows repeat ids)."""

    def __missing__(self, text):
        if text.__class__ is not str:  # True == 1 == 1.0: typed cells are not memoised
            return is_missing(text)
        value = self[text] = is_missing(text)
        return value

    def all(self, row) -> bool:
        for c in row:
            if not (self[c] if c.__class__ is str else is_missing(c)):
                return False
        return True


def col_letter(j: int) -> str:
    s = ""
    j += 1
    while j:
        j, r = divmod(j - 1, 26)
        s = chr(65 + r) + s
    return f"column {s}"


def keep_columns(t, header_cells, has_data, positions=None) -> list[tuple[int, str]]:
    """(position, name) of the columns to read: every named column, and an unnamed one when
    ``has_data(position)`` (named by its letter and marked headerless: map_columns refuses it
    unless the venue maps it by letter). Sets ``t.header`` and ``t.letters``."""
    keep = []
    for j, h in enumerate(header_cells):
        name = None if is_missing(h) else clean_text(h)
        if name is None:
            if not has_data(j):
                continue
            name = col_letter(j if positions is None else positions[j])
            t.headerless.add(name)
        keep.append((j, name))
    t.header = [name for _, name in keep]
    t.letters = [col_letter(j if positions is None else positions[j])[len("column "):]
                 for j, _ in keep]
    return keep
