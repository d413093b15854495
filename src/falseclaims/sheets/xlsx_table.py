"""An XLSX worksheet as a :class:`RawTable`: the sparse cells of
:mod:`falseclaims.sheets.xlsx`, merged ranges, and only the rows and columns that hold
something (the declared used range is never materialised)."""

from __future__ import annotations

import zipfile
from pathlib import Path

from falseclaims.sheets.cells import clean_text
from falseclaims.sheets.raw_table import RawTable, finish_table
from falseclaims.sheets.xlsx import UnreadableWorkbook, read_sheet_cells

__all__ = ["read_xlsx_table", "MAX_MERGED_ROWS", "MAX_EMPTY_ROW_NOTES"]

MAX_MERGED_ROWS = 10_000         # rows one merged data range may fill
MAX_EMPTY_ROW_NOTES = 10_000     # empty rows noted one by one (more: one note)


_LAST: dict = {}  # the last sheet read: `sheet inspect` reads it once per header row tried


def _cells(path: Path, sheet: str | None):
    """:func:`read_sheet_cells`, remembered for the last (file, size, mtime, sheet)."""
    st = Path(path).stat()
    key = (str(Path(path).resolve()), st.st_size, st.st_mtime_ns, sheet)
    if key not in _LAST:
        _LAST.clear()
        _LAST[key] = read_sheet_cells(path, sheet)
    return _LAST[key]


MAX_XLSX_BYTES = 512 * 2**20  # uncompressed size of all parts of a workbook


def _max_bytes() -> int:
    return MAX_XLSX_BYTES  # read at call time (tests lower it)


def _xlsx_size_ok(path: Path, t: RawTable) -> bool:
    try:
        with zipfile.ZipFile(path) as z:
            total = sum(i.file_size for i in z.infolist())
    except (zipfile.BadZipFile, OSError) as exc:
        t.problem(None, None, None, f"a readable .xlsx workbook (not a zip archive: {exc})")
        return False
    if total > _max_bytes():
        t.problem(None, None, None,
                  f"a workbook that expands to at most {_max_bytes() // 2**20} MB (this one "
                  f"expands to {total / 2**20:,.0f} MB: a damaged file or a zip bomb; export "
                  "the sheet as CSV)")
        return False
    return True


def read_xlsx_table(path: Path, shown: str, sheet: str | None, header_row: int,
                    max_rows: int | None = None) -> RawTable:
    t = RawTable(shown, sheet, [], [])
    if not _xlsx_size_ok(path, t):
        return t
    try:
        sc, _names, problem = _cells(path, sheet)
    except UnreadableWorkbook as exc:
        t.problem(None, None, None, f"a readable .xlsx workbook (unreadable workbook: {exc})")
        return t
    if sc is None:
        t.problem(None, None, sheet, problem)
        return t
    if sheet is None:
        t.sheet = sc.sheet
        t.note(None, None, sc.sheet, f"no sheet named in config; first sheet {sc.sheet!r} used")
    if sc.too_big:
        t.problem(None, None, None, sc.too_big)
        return t
    t.formulas = sc.formulas
    t.percent_format = dict.fromkeys(sc.percent, True)
    cells = _Cells(sc.rows, sc.cols, sc.values)
    if sc.merged:  # filled in a copy: the remembered cells stay as read
        grid = sc.as_dict()
        if not _fill_merged(t, grid, sc.merged, header_row):
            return t
        cells = [(r, c, v) for (r, c), v in grid.items()]
    if max_rows is not None:
        cells = [(r, c, v) for r, c, v in cells if r <= max_rows]
    return _finish_sparse(t, cells, header_row)


class _Cells:
    """(row, column, value) of parallel arrays, iterable more than once."""

    def __init__(self, rows, cols, values):
        self.rows, self.cols, self.values = rows, cols, values

    def __iter__(self):
        return zip(self.rows, self.cols, self.values)


def _fill_merged(t: RawTable, grid: dict, merged: list[str], header_row: int) -> bool:
    """Merged ranges: refused across the header or several data columns, forward-filled
    (noted) within one data column. False when a range is too long to fill."""
    from openpyxl.utils import range_boundaries

    for ref in merged:
        c0, r0, c1, r1 = range_boundaries(ref)
        c0, c1 = c0 - 1, c1 - 1
        value = grid.get((r0, c0))
        if r0 <= header_row <= r1:
            t.problem(header_row, None, None if value is None else str(value),
                      f"one header cell per column (merged header cells {ref}); unmerge "
                      "them and give every column its own name")
        elif r0 > header_row and c0 == c1:
            if r1 - r0 > MAX_MERGED_ROWS:
                t.problem(r0, None, None if value is None else str(value),
                          f"a merged range of at most {MAX_MERGED_ROWS:,} rows (range {ref})")
                return False
            name = grid.get((header_row, c0))
            for r in range(r0 + 1, r1 + 1):
                grid[(r, c0)] = value
                t.note(r, None if name is None else clean_text(name), value,
                       f"merged cells {ref}: value of the first cell repeated")
        elif r0 > header_row:
            t.problem(r0, None, None if value is None else str(value),
                      f"unmerged data cells (merged range {ref} spans several columns)")
    return True


def _finish_sparse(t: RawTable, cells, header_row: int) -> RawTable:
    """:func:`finish_table` for sparse ``(row, column, value)`` cells (iterated twice): only
    the columns with a cell from the header row down become columns, and only rows with a
    cell become rows; the empty rows in between are noted one by one up to
    ``MAX_EMPTY_ROW_NOTES``, else in one note."""
    cols = sorted({c for r, c, _ in cells if r >= header_row})
    pos = {c: k for k, c in enumerate(cols)}
    t.percent_format = {(r, pos[c]): v for (r, c), v in t.percent_format.items() if c in pos}
    t.formulas = {(r, pos[c]): f for (r, c), f in t.formulas.items() if c in pos}
    dense: dict[int, list] = {}
    for r, c, v in cells:
        if r >= header_row:
            line = dense.get(r)
            if line is None:
                line = dense[r] = [None] * len(cols)
            line[pos[c]] = v
    rows = sorted(dense)
    last = rows[-1] if rows else header_row
    gaps = (last - header_row + 1) - len(rows)
    if gaps > MAX_EMPTY_ROW_NOTES:
        t.note(None, None, None, f"{gaps:,} empty rows between rows {header_row} and "
                                 f"{last} skipped")
        grid = [(header_row, dense.get(header_row, []))] + [
            (r, dense[r]) for r in rows if r != header_row]
    else:
        grid = [(r, dense.get(r, [])) for r in range(header_row, last + 1)]
    del dense
    return finish_table(t, grid, header_row, positions=cols)
