"""The one XLSX reader: one worksheet of an .xlsx/.xlsm workbook read sparsely, from the
cells present, into a :class:`RawTable` (:func:`read_xlsx_table`).

The sheet's XML is streamed with expat (standard library) and only cells that hold something
are kept, as ``(row, column, value)``: the declared used range (``<dimension>``) and the
empty rows and columns in between are never materialised, so a 6 KB workbook with one cell
at ``XFD1048576`` costs two cells, not 1,048,576 x 16,384. openpyxl is used only through its
public helpers (number-format tests, Excel serial dates); its private attributes are not.

Values follow what ``openpyxl.load_workbook(read_only=True, data_only=True)`` returns: the
stored (cached) value of a formula, ``int`` or ``float`` for numbers, ``datetime`` for
numbers in a date format, ``bool``, text for strings and errors (``#N/A``).
:func:`read_xlsx_table` turns those cells into a table: merged ranges, and only the rows
and columns that hold something (the declared used range is never materialised).

Hostile workbooks: a DOCTYPE or entity declaration in any part is refused (an XML external
entity or nested-entity attack: "unreadable workbook"), before anything is expanded; a row
beyond ``MAX_ROWS`` or a column beyond ``MAX_COLUMNS`` stops the reading with one problem.
"""

from __future__ import annotations

import posixpath
from array import array
import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from xml.parsers import expat

from falseclaims.errors import FalseclaimsInputError
from falseclaims.io.raw_table import RawTable, clean_text, finish_table

__all__ = ["MAX_ROWS", "MAX_COLUMNS", "UnreadableWorkbook", "SheetCells", "read_sheet_cells",
           "read_xlsx_table", "MAX_MERGED_ROWS", "MAX_EMPTY_ROW_NOTES"]

MAX_ROWS = 1_048_576     # Excel's own limit of rows per sheet
MAX_COLUMNS = 16_384     # Excel's own limit of columns (A..XFD)


class UnreadableWorkbook(FalseclaimsInputError):
    """The workbook's structure cannot be read (one line saying why)."""


class UncomputedFormula(str):
    """An XLSX formula cell without a stored (cached) value."""


@dataclass
class SheetCells:
    """The cells of a sheet that hold a value, in the order of the file, as three parallel
    arrays (~24 bytes a cell besides the values; a dict keyed by (row, column) would take
    ~150)."""

    sheet: str
    rows: array = field(default_factory=lambda: array("l"))
    cols: array = field(default_factory=lambda: array("l"))  # 0-based
    values: list = field(default_factory=list)
    percent: set[tuple[int, int]] = field(default_factory=set)  # numbers in a '%' format
    formulas: dict[tuple[int, int], str] = field(default_factory=dict)  # (row, col0) -> "=..."
    merged: list[str] = field(default_factory=list)  # "A2:A4"
    too_big: str | None = None  # set when a row or column limit stopped the reading

    def as_dict(self) -> dict[tuple[int, int], object]:
        """{(row, column): value}; a cell given twice keeps its last value."""
        return dict(zip(zip(self.rows, self.cols), self.values))


def _local(name: str) -> str:
    return name.rsplit(":", 1)[-1]


def _parser(part: str):
    """An expat parser that refuses any DOCTYPE or entity declaration (never expands)."""
    p = expat.ParserCreate()

    def refuse(*_args):
        raise UnreadableWorkbook(f"{part} declares a DOCTYPE or XML entities, which no "
                                 "spreadsheet program writes (an XML entity attack?)")

    p.StartDoctypeDeclHandler = refuse
    p.EntityDeclHandler = refuse
    p.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    return p


def _parse(z: zipfile.ZipFile, part: str, start=None, end=None, text=None) -> None:
    p = _parser(part)
    if start:
        p.StartElementHandler = start
    if end:
        p.EndElementHandler = end
    if text:
        p.CharacterDataHandler = text
    p.buffer_text = True
    try:
        with z.open(part) as fh:
            p.ParseFile(fh)
    except expat.ExpatError as exc:
        raise UnreadableWorkbook(f"{part} is not well-formed XML (line {exc.lineno}: "
                                 f"{expat.ErrorString(exc.code)})") from None


def _workbook(z: zipfile.ZipFile) -> tuple[list[tuple[str, str, bool]], bool]:
    """([(sheet name, part path, is a worksheet)], date1904)."""
    rels: dict[str, tuple[str, str]] = {}

    def rel(name, attrs):
        if _local(name) == "Relationship":
            target = attrs.get("Target", "")
            path = (target.lstrip("/") if target.startswith("/")
                    else posixpath.normpath(posixpath.join("xl", target)))
            rels[attrs.get("Id")] = (path, attrs.get("Type", ""))

    _parse(z, "xl/_rels/workbook.xml.rels", start=rel)
    sheets, flags = [], {"date1904": False}

    def wb(name, attrs):
        local = _local(name)
        if local == "sheet":
            rid = next((v for k, v in attrs.items() if _local(k) == "id"), None)
            path, kind = rels.get(rid, ("", ""))
            sheets.append((attrs.get("name", ""), path, kind.endswith("/worksheet")))
        elif local == "workbookPr":
            flags["date1904"] = attrs.get("date1904", "0") in ("1", "true")

    _parse(z, "xl/workbook.xml", start=wb)
    return sheets, flags["date1904"]


def _shared_strings(z: zipfile.ZipFile) -> list[str]:
    if "xl/sharedStrings.xml" not in z.namelist():
        return []
    out: list[str] = []
    state = {"parts": None, "in_t": False, "rph": 0}

    def start(name, _attrs):
        local = _local(name)
        if local == "si":
            state["parts"] = []
        elif local == "rPh":  # phonetic runs are not part of the text
            state["rph"] += 1
        elif local == "t" and not state["rph"]:
            state["in_t"] = True

    def end(name):
        local = _local(name)
        if local == "si":
            out.append("".join(state["parts"]).replace("x005F_", ""))  # as openpyxl
        elif local == "rPh":
            state["rph"] -= 1
        elif local == "t":
            state["in_t"] = False

    def text(data):
        if state["in_t"]:
            state["parts"].append(data)

    _parse(z, "xl/sharedStrings.xml", start, end, text)
    return out


def _styles(z: zipfile.ZipFile) -> list[str]:
    """The number-format code of each cell style (index = the cells' ``s`` attribute)."""
    from openpyxl.styles.numbers import BUILTIN_FORMATS

    if "xl/styles.xml" not in z.namelist():
        return []
    custom: dict[int, str] = {}
    xfs: list[int] = []
    state = {"cellXfs": False}

    def start(name, attrs):
        local = _local(name)
        if local == "numFmt":
            custom[int(attrs.get("numFmtId", 0))] = attrs.get("formatCode", "")
        elif local == "cellXfs":
            state["cellXfs"] = True
        elif local == "xf" and state["cellXfs"]:
            xfs.append(int(attrs.get("numFmtId", 0)))

    def end(name):
        if _local(name) == "cellXfs":
            state["cellXfs"] = False

    _parse(z, "xl/styles.xml", start, end)
    return [custom.get(i, BUILTIN_FORMATS.get(i, "General")) for i in xfs]


_REF = re.compile(r"([A-Z]+)(\d+)")


def _col_index(letters: str) -> int:
    j = 0
    for ch in letters:
        j = j * 26 + ord(ch) - 64
    return j - 1


class _SheetReader:
    """expat handlers collecting the cells of one worksheet."""

    def __init__(self, out: SheetCells, strings: list[str], formats: list[str], epoch):
        from openpyxl.styles.numbers import is_date_format, is_timedelta_format

        self.out, self.strings, self.formats, self.epoch = out, strings, formats, epoch
        self.dates = {i for i, f in enumerate(formats) if is_date_format(f)}
        self.timedeltas = {i for i, f in enumerate(formats) if is_timedelta_format(f)}
        self.row, self.col = 0, -1
        self.cell = None  # (type, style) of the open <c>
        self.v: list[str] | None = None
        self.f: list[str] | None = None
        self.inline: list[str] | None = None
        self.has_v = self.has_f = False
        self.capture = None

    def start(self, name, attrs):
        local = _local(name)
        if local == "row":
            self.row = int(attrs["r"]) if "r" in attrs else self.row + 1
            self.col = -1
            if self.row > MAX_ROWS:
                raise _TooBig(f"at most {MAX_ROWS:,} rows (Excel's limit); this sheet has "
                              f"a row {self.row:,}")
        elif local == "c":
            ref = attrs.get("r")
            m = _REF.fullmatch(ref) if ref else None
            if m:
                self.col, self.row = _col_index(m[1]), int(m[2])
            else:
                self.col += 1
            if self.col >= MAX_COLUMNS or self.row > MAX_ROWS:
                raise _TooBig(f"at most {MAX_COLUMNS:,} columns and {MAX_ROWS:,} rows "
                              f"(Excel's limits); this sheet has a cell {ref}")
            self.cell = (attrs.get("t", "n"), int(attrs.get("s", 0) or 0))
            self.v = self.f = self.inline = None
            self.has_v = self.has_f = False
        elif self.cell is not None:
            if local == "v":
                self.v, self.capture, self.has_v = [], "v", True
            elif local == "f":
                self.f, self.capture, self.has_f = [], "f", True
            elif local == "t" and self.cell[0] == "inlineStr":
                self.inline = self.inline if self.inline is not None else []
                self.capture = "t"
        elif local == "mergeCell" and "ref" in attrs:
            self.out.merged.append(attrs["ref"])

    def text(self, data):
        if self.capture == "v":
            self.v.append(data)
        elif self.capture == "f":
            self.f.append(data)
        elif self.capture == "t":
            self.inline.append(data)

    def end(self, name):
        local = _local(name)
        if local in ("v", "f", "t"):
            self.capture = None
        elif local == "c" and self.cell is not None:
            self._store()
            self.cell = None

    def _store(self):
        key = (self.row, self.col)
        kind, style = self.cell
        raw = "".join(self.v) if self.v else None
        value = self._value(kind, style, raw)
        if self.has_f:
            text = "=" + ("".join(self.f) if self.f else "(shared formula)")
            self.out.formulas[key] = text
            if value is None:
                value = UncomputedFormula(text)
        if value is None:
            return
        self.out.rows.append(self.row)
        self.out.cols.append(self.col)
        self.out.values.append(value)
        if isinstance(value, (int, float)) and style < len(self.formats) \
                and "%" in self.formats[style]:
            self.out.percent.add(key)

    def _value(self, kind, style, raw):
        from openpyxl.utils.datetime import from_excel, from_ISO8601

        if kind == "inlineStr":
            return None if self.inline is None else "".join(self.inline)
        if raw is None or raw == "":
            return None
        if kind == "n":
            value = float(raw) if ("." in raw or "E" in raw or "e" in raw) else int(raw)
            if style in self.dates:
                try:
                    return from_excel(value, self.epoch,
                                      timedelta=style in self.timedeltas)
                except (OverflowError, ValueError):
                    return "#VALUE!"
            return value
        if kind == "s":
            return self.strings[int(raw)]
        if kind == "b":
            return bool(int(raw))
        if kind == "d":
            return from_ISO8601(raw)
        return raw  # "str" (a formula's text result), "e" (an error such as #N/A)


_ROW_TAG = re.compile(rb"<(?:\w+:)?row[\s>/]")


def _count_rows(z: zipfile.ZipFile, part: str) -> int:
    """Row elements in a sheet part large enough to hold more than MAX_ROWS of them
    (else 0): a regular-expression count over the decompressed stream, ~10x faster than
    parsing it."""
    if z.getinfo(part).file_size < len("<row/>") * MAX_ROWS:
        return 0
    n, tail = 0, b""
    with z.open(part) as fh:
        while chunk := fh.read(1 << 22):
            buf = tail + chunk
            keep = len(buf) - 16  # a tag cut at the end is counted with the next chunk
            n += sum(1 for m in _ROW_TAG.finditer(buf) if m.start() < keep)
            tail = buf[keep:]
    return n + len(_ROW_TAG.findall(tail))


class _TooBig(Exception):
    pass


def _too_large(z: zipfile.ZipFile) -> str:
    """What a workbook expanding beyond MAX_XLSX_BYTES is expected to be ('' when it does
    not): judged from the sizes its zip directory declares, before any part is read (a bomb
    of 1.5 MB unpacking to 1.5 GB kept `table` parsing for minutes)."""
    total = sum(i.file_size for i in z.infolist())
    if total <= _max_bytes():
        return ""
    return (f"a workbook that expands to at most {_max_bytes() // 2**20} MB (this one "
            f"expands to {total / 2**20:,.0f} MB: a damaged file or a zip bomb; export "
            "the sheet as CSV)")


def read_sheet_cells(path, sheet: str | None) -> tuple[SheetCells | None, list[str], str]:
    """(cells of the sheet, every sheet name, a problem text or ''). ``sheet`` None: the
    first worksheet. Raises :class:`UnreadableWorkbook` for a damaged or hostile file."""
    from openpyxl.utils.datetime import CALENDAR_MAC_1904, CALENDAR_WINDOWS_1900

    try:
        with zipfile.ZipFile(path) as z:
            if too_large := _too_large(z):
                raise UnreadableWorkbook(too_large)
            sheets, date1904 = _workbook(z)
            names = [n for n, _, _ in sheets]
            if sheet is None:
                chosen = next(((n, p) for n, p, ws in sheets if ws), None)
                if chosen is None:
                    raise UnreadableWorkbook("the workbook has no worksheet")
            else:
                chosen = next(((n, p) for n, p, ws in sheets if n == sheet and ws), None)
                if chosen is None:
                    return None, names, (f"a sheet of this workbook: {', '.join(names)}"
                                         if sheet not in names else
                                         "a sheet of this workbook that holds cells (this "
                                         "one is a chart sheet)")
            out = SheetCells(chosen[0])
            rows = _count_rows(z, chosen[1])
            if rows > MAX_ROWS:  # refused without parsing the cells
                out.too_big = (f"a sheet of at most {MAX_ROWS:,} rows (Excel's limit); this "
                               f"sheet has {rows:,} rows")
                return out, names, ""
            reader = _SheetReader(out, _shared_strings(z), _styles(z),
                                  CALENDAR_MAC_1904 if date1904 else CALENDAR_WINDOWS_1900)
            try:
                _parse(z, chosen[1], reader.start, reader.end, reader.text)
            except _TooBig as exc:
                out.too_big = f"a sheet of {exc} (reading stopped there)"
            return out, names, ""
    except (zipfile.BadZipFile, KeyError, IndexError, ValueError, OSError) as exc:
        if isinstance(exc, UnreadableWorkbook):
            raise
        raise UnreadableWorkbook(f"{type(exc).__name__}: {exc}") from None


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
            too_large = _too_large(z)
    except (zipfile.BadZipFile, OSError) as exc:
        t.problem(None, None, None, f"a readable .xlsx workbook (not a zip archive: {exc})")
        return False
    if too_large:
        t.problem(None, None, None, too_large)
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

    across = []  # (row, ref, value) of data cells merged across columns
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
            across.append((r0, ref, value))
    if across:  # one problem: a sheet laid out for reading has hundreds of such ranges
        across.sort(key=lambda a: a[0])
        r0, ref, value = across[0]
        t.problem(r0, None, None if value is None else str(value), merged_across(across))
    return True


_ACROSS = "unmerged data cells ("


def merged_across_problems(problems: list) -> list:
    """The problem of a sheet whose data cells are merged across columns (one at most): a
    sheet laid out for reading, whose every further problem follows from it."""
    return [p for p in problems if p.column is None and str(p.expected).startswith(_ACROSS)]


def merged_across(across: list) -> str:
    """What a sheet whose data cells are merged across columns needs, in one line:
    ``across`` holds (row, range, value) sorted by row."""
    rows = sorted({r for r, _, _ in across})
    span = f"row {rows[0]}" if len(rows) == 1 else f"rows {rows[0]}-{rows[-1]}"
    refs = ", ".join(ref for _, ref, _ in across[:3]) + (", ..." if len(across) > 3 else "")
    return (f"{_ACROSS}{len(across)} merged range(s) span several columns in "
            f"{len(rows)} data row(s), {span}: {refs}); a sheet laid out for reading "
            "(group labels, stacked sub-tables) is not one row per paper: unmerge the cells "
            "or save the paper list alone as a sheet of one table")


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
