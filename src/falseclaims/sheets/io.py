"""Reading raw tables (CSV, TSV, XLSX) with spreadsheet row numbers, before any parsing.

Row numbers are those the user sees: with ``header_row = 1`` the header is row 1 and the
first data row is row 2 (for CSV/TSV, the record number). Empty rows are skipped and noted.
XLSX merged cells: a merged range touching the header row is rejected (naming the range),
because its columns would share one name; a merged range inside one data column (e.g. a
paper id spanning its method rows) is forward-filled with a note; a merged range spanning
several data columns is rejected.
"""

from __future__ import annotations

import csv
import io as _io
import re
from dataclasses import dataclass, field
from pathlib import Path

from falseclaims.sheets.cells import clean_text, is_missing
from falseclaims.sheets.errors import Problem

__all__ = ["RawTable", "read_raw_table", "EXCEL_SUFFIXES", "TEXT_SUFFIXES"]

EXCEL_SUFFIXES = (".xlsx", ".xlsm")
TEXT_SUFFIXES = {".csv": ",", ".tsv": "\t", ".tab": "\t", ".txt": "\t"}


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

    def note(self, row, column, value, text) -> None:
        self.notes.append(
            {"file": self.file, "sheet": self.sheet, "row": row, "column": column,
             "value": None if value is None else str(value), "note": text}
        )

    def problem(self, row, column, value, expected) -> None:
        self.problems.append(Problem(self.file, self.sheet, row, column, value, expected))


def read_raw_table(path: str | Path, sheet: str | None = None, header_row: int = 1,
               display: str | None = None) -> RawTable:
    """Read one table. Problems (missing file or sheet, merged headers, ...) are collected
    on the returned table rather than raised, so that every problem is reported at once."""
    path = Path(path)
    shown = display or str(path)
    if not path.is_file():
        t = RawTable(shown, sheet, [], [])
        t.problem(None, None, None, f"an existing file (not found: {path})")
        return t
    suffix = path.suffix.lower()
    if suffix in EXCEL_SUFFIXES:
        return _read_xlsx(path, shown, sheet, header_row)
    if suffix in TEXT_SUFFIXES:
        return _read_text(path, shown, TEXT_SUFFIXES[suffix], header_row, sheet)
    t = RawTable(shown, sheet, [], [])
    t.problem(None, None, path.suffix, "a .csv, .tsv or .xlsx file")
    return t


def _finish(t: RawTable, grid: list[tuple[int, list]], header_row: int) -> RawTable:
    """Split header from data, drop empty rows (noted) and unnamed empty columns."""
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
    keep = []
    for j, h in enumerate(header_cells):
        name = None if is_missing(h) else clean_text(h)
        has_data = any(j < len(c) and not is_missing(c[j]) for _, c in data)
        if name is None:
            if has_data:
                t.problem(header_row, _col_letter(j), None,
                          "a column name above data (this column has values but no header)")
            continue
        keep.append((j, name))
    t.header = [name for _, name in keep]
    for rownum, cells in data:
        cells = list(cells) + [None] * (width - len(cells))
        row = [cells[j] for j, _ in keep]
        if all(is_missing(c) for c in row):
            if any(c is not None and str(c) != "" for c in row):
                t.note(rownum, None, None, "row holds only blanks/placeholders; skipped")
            else:
                t.note(rownum, None, None, "empty row skipped")
            continue
        t.rows.append((rownum, row))
    t.percent_format = {(r, k): v for (r, j), v in t.percent_format.items()
                        for k, (jj, _) in enumerate(keep) if jj == j}
    return t


def _col_letter(j: int) -> str:
    s = ""
    j += 1
    while j:
        j, r = divmod(j - 1, 26)
        s = chr(65 + r) + s
    return f"column {s}"


def semicolon_separated(header: str) -> bool:
    """A CSV header with more ';' than ',' is ';'-separated (spreadsheets in locales with a
    decimal comma write such files). Shared with the per-case readers."""
    return header.count(";") > header.count(",")


def _read_text(path: Path, shown: str, sep: str, header_row: int, sheet) -> RawTable:
    t = RawTable(shown, None, [], [])
    if sheet:
        t.note(None, None, sheet, f"sheet name {sheet!r} ignored: a text file has one table")
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = raw.decode("cp1252", errors="replace")
        t.note(None, None, None, "file is not UTF-8; read as Windows-1252 (save as UTF-8 "
                                 "to avoid this)")
    if sep == "," and semicolon_separated(text.split("\n", 1)[0]):
        sep = ";"
        t.note(None, None, None, "';'-separated file (header has more ';' than ',')")
    reader = csv.reader(_io.StringIO(text, newline=""), delimiter=sep)
    grid = [(i, row) for i, row in enumerate(reader, start=1)]
    return _finish(t, grid, header_row)


_MERGE = re.compile(rb'<(?:\w+:)?mergeCell\s+ref="([A-Z]+[0-9]+:[A-Z]+[0-9]+)"')


def _read_xlsx(path: Path, shown: str, sheet: str | None, header_row: int) -> RawTable:
    # read-only mode streams rows (about 3x faster than a full load); merged ranges are not
    # exposed there, so they are read from the sheet's XML
    import openpyxl
    from openpyxl.utils import range_boundaries

    t = RawTable(shown, sheet, [], [])
    try:
        wb = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except Exception as exc:  # corrupt or not a workbook
        t.problem(None, None, None, f"a readable .xlsx workbook ({type(exc).__name__}: {exc})")
        return t
    try:
        if sheet is None:
            ws = wb.worksheets[0]
            t.sheet = ws.title
            t.note(None, None, ws.title, f"no sheet named in config; first sheet {ws.title!r} used")
        elif sheet in wb.sheetnames:
            ws = wb[sheet]
        else:
            t.problem(None, None, sheet, f"a sheet of this workbook: {', '.join(wb.sheetnames)}")
            return t
        ws.reset_dimensions()  # some writers store a wrong <dimension>
        grid: dict[int, dict[int, object]] = {}
        pct = {}
        for r, row in enumerate(ws.iter_rows(), start=1):
            for j, c in enumerate(row):
                v = getattr(c, "value", None)
                if v is None:
                    continue
                grid.setdefault(r, {})[j] = v
                if isinstance(v, (int, float)) and "%" in (c.number_format or ""):
                    pct[(r, j)] = True
        merged = _MERGE.findall(wb._archive.read(ws._worksheet_path))
    finally:
        wb.close()
    for ref in merged:
        ref = ref.decode()
        c0, r0, c1, r1 = range_boundaries(ref)
        c0, c1 = c0 - 1, c1 - 1
        value = grid.get(r0, {}).get(c0)
        if r0 <= header_row <= r1:
            t.problem(header_row, None, None if value is None else str(value),
                      f"one header cell per column (merged header cells {ref}); unmerge "
                      "them and give every column its own name")
        elif r0 > header_row and c0 == c1:
            name = grid.get(header_row, {}).get(c0)
            for r in range(r0 + 1, r1 + 1):
                grid.setdefault(r, {})[c0] = value
                t.note(r, None if name is None else clean_text(name), value,
                       f"merged cells {ref}: value of the first cell repeated")
        elif r0 > header_row:
            t.problem(r0, None, None if value is None else str(value),
                      f"unmerged data cells (merged range {ref} spans several columns)")
    width = max((max(cols) + 1 for cols in grid.values()), default=0)
    last = max(grid, default=0)
    rows = [(r, [grid.get(r, {}).get(j) for j in range(width)]) for r in range(1, last + 1)]
    t.percent_format = pct
    return _finish(t, rows, header_row)
