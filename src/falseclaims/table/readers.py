"""Read the tables of one file as printed: CSV/TSV, XLSX (each sheet; bold from the font),
Markdown pipe tables and LaTeX ``tabular`` environments.

Each reader returns :class:`RawTable` objects: rows of raw cells (text, or numbers from a
spreadsheet) with where each row came from, before any interpretation (that is
:mod:`falseclaims.table.model`). Header rows are the leading rows without a number outside
the first column; several header rows (``\\multicolumn`` groups) are joined per column.
"""

from __future__ import annotations

import csv
import html
import io
import re
from dataclasses import dataclass, field
from pathlib import Path

from falseclaims.io import textio
from falseclaims.errors import TableReadError
from falseclaims.table.cells import (MAX_COLUMNS, MISSING, incomparable_note,
                                     parse_printed_cell, plain_text)
from falseclaims.table.htmltables import html_tables
from falseclaims.table.latex import latex_tables, macro_file

__all__ = ["CASES_HEADER", "FORMATS", "MAX_COLUMNS", "MAX_TABLES", "ROWS_HEADER", "RawTable",
           "TableReadError",
           "read_tables", "table_format", "transpose"]

# hostile inputs: 16,000 tabulars in one file are refused (MAX_COLUMNS: table.cells)
MAX_TABLES = 1_000    # tables in one file

FORMATS = {".csv": "csv", ".tsv": "tsv", ".tab": "tsv", ".txt": None, ".xlsx": "xlsx",
           ".xlsm": "xlsx", ".md": "markdown", ".markdown": "markdown", ".tex": "latex",
           # a saved web page: its <table> elements, read as in a Markdown file
           ".html": "html", ".htm": "html"}


@dataclass
class RawTable:
    source: str
    name: str
    format: str
    header: list[str]
    rows: list[list]                      # raw cells (str or number), header rows removed
    where: list[str]                      # "line 12" / "row 5" per data row
    bold: list[list[bool]] = field(default_factory=list)   # spreadsheet font marks
    notes: list[str] = field(default_factory=list)
    caption: str = ""                     # LaTeX caption / Markdown heading (metric context)
    group: str = ""                       # the row group (data set) of a split table
    cited_header: bool = False            # most header cells cite a paper: methods as columns
    rows_are: str = ""                    # as printed, the method column's header names data
    #                                       sets ("Data", "Task"): its rows are no methods;
    #                                       "metrics: ..." when its rows name metrics


def table_format(path) -> str | None:
    return FORMATS.get(textio.text_suffix(path))


def read_tables(path, macros=None) -> list[RawTable]:
    """Every table of ``path`` (format from the extension; text files under
    :mod:`falseclaims.io.textio`'s policy: gzip, encodings, separators, decimal commas).
    ``macros``: LaTeX files whose ``\\newcommand``/``\\def`` definitions are expanded in
    the tables (numbers kept in macros in another file of the paper's source)."""
    p = Path(path)
    fmt = table_format(p)
    if fmt is None:
        raise TableReadError(f"{p}: unsupported file type {p.suffix or '(none)'!r}; expected "
                             "one of " + ", ".join(k for k, v in FORMATS.items() if v))
    if p.is_dir():
        raise TableReadError(f"{p}: is a directory, expected a table file (a folder of "
                             "tables: --dir)")
    if not p.is_file():
        raise TableReadError(f"{p}: file not found")
    if fmt == "xlsx":
        return _read_xlsx(p)
    notes: list[str] = []
    try:
        text, (encoding, _) = textio.decode(textio.read_bytes(p, notes), notes)
    except textio.TextProblem as exc:
        raise TableReadError(f"{p}: expected {exc.expected}") from None
    _refuse_binary(p, text, encoding)
    if fmt == "latex":
        defs = {}
        for f in ([macros] if isinstance(macros, (str, Path)) else macros or []):
            defs.update(macro_file(f))
        tables = _read_latex(text, str(p), fmt, defs)
    else:
        reader = {"csv": _read_delimited, "tsv": _read_delimited,
                  "markdown": _read_markdown, "html": _read_markdown}[fmt]
        tables = reader(text, str(p), fmt)
    if len(tables) > MAX_TABLES:
        raise TableReadError(f"{p}: {len(tables):,} tables; at most {MAX_TABLES:,} are read "
                             "from one file")
    for t in tables:
        t.notes[:0] = notes
    if not tables:
        what = {"markdown": "no pipe table (a header row, then a |---| row) and no HTML "
                            "<table>" + _other_table_syntax(text),
                "html": "no HTML <table>",
                "latex": "no \\begin{tabular} ... \\end{tabular}"}.get(fmt, "no rows")
        raise TableReadError(f"{p}: {what}")
    return tables


# C0 controls no text table holds (tab, LF, CR and ESC aside: a terminal escape in a name is
# removed when printed)
_CONTROLS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f]")


def _refuse_binary(p: Path, text: str, encoding: str) -> None:
    """A short binary file named .csv passes textio's test, which counts control bytes
    against the length (a few in a large text file are stray), and got "no method column;
    columns are ['garbage']": a NUL is never text, nor a control byte in a file that is not
    UTF-8 (a real Windows-1252 table has none)."""
    bad = (text.count("\x00") if encoding != "cp1252"
           else len(_CONTROLS.findall(text)))
    if bad:
        what = "NUL character(s)" if encoding != "cp1252" else "control byte(s), not UTF-8"
        raise TableReadError(f"{p}: expected a text file (this one is not: {bad:,} {what}; "
                             "a binary file, or a spreadsheet saved in another format?)")


# tables of other markups that a Markdown file may hold: named in the refusal, not read
_GRID_RULE = re.compile(r"(?m)^\s*\+(?:[-=]+\+){2,}\s*$")
_ORG_RULE = re.compile(r"(?m)^\s*\|-+(?:\+-+)+\|?\s*$")


def _other_table_syntax(text: str) -> str:
    if _GRID_RULE.search(text):
        return ("; a reStructuredText grid table (+---+ borders) is not read: give it as a "
                "pipe table or CSV")
    if _ORG_RULE.search(text):
        return ("; an Org-mode table (a |---+---| rule) is not read: give it as a pipe table "
                "(a |---|---| rule) or CSV")
    if len(_SPACED_ROW.findall(text)) >= 2:
        return ("; lines of words and numbers apart by spaces (a table pasted from a PDF?) "
                "are no table: paste it as a pipe table (| Method | Dice |), or as CSV / "
                "TSV (cells apart by commas or tabs)")
    return ""


# a line of a pasted table: a name, then numbers apart by spaces ("U-Net  0.85  0.12")
_SPACED_ROW = re.compile(r"(?m)^[^|\n]*[A-Za-z][^|\n]*?(?:[ \t]+[-+−]?\d*\.?\d+%?){2,}[ \t]*$")


_HEADER_MARK = re.compile(r"\\(?:up|down|Up|Down)arrow|[↑↓]|\\[A-Za-z]+\s*_\s*\{")


# several values in one cell, separated by semicolons (``0.97; 0.98; 0.99``)
VALUE_LIST = re.compile(r"^\s*[-+]?\d*\.?\d+%?(?:\s*;\s*[-+]?\d*\.?\d+%?)+\s*$")


def _is_number_row(cells: list) -> bool:
    """A row with a value; ``$\\delta_{1.25}\\uparrow$`` is a header cell, not 1.25."""
    return any((parse_printed_cell(c).numeric or VALUE_LIST.match(plain_text(str(c))))
               and not _HEADER_MARK.search(str(c)) for c in cells[1:])


_LONE_MACRO = re.compile(r"^\\[A-Za-z]+\s*(?:\{\s*\})?$")
# the header of the method column: the rows below it are methods, never data sets
METHOD_HEADER = re.compile(r"(?i)^(?:methods?|models?|approach(?:es)?|algorithms?|networks?|"
                            r"architectures?|backbones?|variants?|configurations?|"
                            r"ensembles?|pipelines?)$")

# a first header naming what the rows are when they are not methods: data sets, organs,
# regions, classes, or the conditions one method was tested under (noise, lesion size)
ROWS_HEADER = re.compile(r"(?i)^(?:data ?sets?|data|benchmarks?|tasks?|cohorts?|corpus|corpora|"
                         # the label one model predicts, one per row (CAD, LAD, LCX, RCA)
                         r"(?:prediction )?targets?|outcomes?|endpoints?|"
                         r"domains?|sites?|cent(?:er|re)s?|organs?|structures?|class(?:es)?|"
                         r"regions?|tissues?|noise(?: type| level)?|conditions?|corruptions?|"
                         r"perturbations?|(?:(?:gt|ground[- ]truth|true) )?(?:lesion|tumou?r|nodule|polyp|object) "
                         r"sizes?|"
                         r"modalit(?:y|ies)|"
                         # acquisition settings of one prediction (voxel spacing, slice
                         # thickness, resolution), a unit in parentheses allowed; not "Size"
                         # alone (model variants Small / Base / Large)
                         r"(?:(?:(?:voxel|pixel|image|input) )?(?:spacings?|resolutions?)|"
                         r"slice thickness(?:es)?)(?: ?\([^()]*\))?|数据集|任务|"
                         # the same words in Portuguese, Spanish and French READMEs
                         r"estruturas?|estructuras?|órgãos?|órganos?|organes?|regiões|região|"
                         r"regi[oó]n(?:es)?|régions?|conjuntos? de dad?os|jeux? de données)$")
# a method column headed by the test cases of one model (``case_id``: 4DLUNG-104, ...,
# ``Patient``): per-case results, no methods; only for a table read as printed
CASES_HEADER = re.compile(r"(?i)^(?:cases?|patients?|subjects?|scans?|images?|volumes?|"
                          r"casos?|pacientes?|sujeitos?)(?:[ _-]?(?:id|ids|no\.?|#))?$")


def _is_full_span(cells: list) -> bool:
    """One text across the whole row (``\\multicolumn{5}{c}{BTCV}``): a section row that
    opens the body, not a header row."""
    texts = {str(c).strip() for c in cells}
    return len(cells) > 1 and len(texts) == 1 and "" not in texts


# a result in a metric the column does not name (``3.7 MAE`` under an accuracy): a value
_VALUE_AND_ABBREVIATION = re.compile(r"^[-+]?\d*\.?\d+\s*%?\s+[A-Z][A-Z0-9@-]{1,7}$")


def _is_data_row(cells: list) -> bool:
    """A row of values although it holds no number: missing-value marks (``--``), cells
    that are one undefined macro each (``\\resA``) or results in another metric (``3.7
    MAE``); never joined into the header."""
    rest = [str(c).strip() for c in cells[1:] if str(c).strip()]
    marks = [c for c in rest if c.lower() in MISSING or _LONE_MACRO.match(c)
             or _VALUE_AND_ABBREVIATION.match(plain_text(c))]
    return bool(rest) and len(marks) * 2 >= len(rest)


def _method_header(cell) -> bool:
    return bool(METHOD_HEADER.match(plain_text(str(cell)).strip()))


def _numbered_header(rows, ruled, k) -> bool:
    """Row ``k`` holds numbers but is a header row: column names such as labelled-data
    ratios (``Method & 5\\% & 10\\%``), thresholds or shots, closed by a rule below it,
    with the method column's name (``Method``) or nothing in its first cell, so that a data
    row ruled off from the rest (a baseline) is never taken for a header."""
    if not ruled or k + 2 >= len(rows) or not ruled[k + 1] or sum(ruled) * 2 > len(rows):
        return False
    cells = [str(c).strip() for c in rows[k][1:]]
    first = plain_text(str(rows[k][0])).strip()
    if first and not _method_header(first):
        return False
    # an empty cell under a header above it (\multirow{2}{*}{CPM} beside the operating
    # points 0.125 ... 8 of an FROC table) continues that header
    empty_ok = k > 0 and all(str(rows[k - 1][j + 1]).strip() for j, c in enumerate(cells)
                             if not c)
    if not (all(cells) or empty_ok and sum(bool(c) for c in cells) >= 2):
        return False
    # 5%, 0.125, 8 shots, 4x / 4× (an acceleration factor)
    return all(re.fullmatch(r"[<>=≤≥~×]?\s*\d+(?:\.\d+)?\s*(?:\\?%|×|[a-zA-Z-]{0,8})",
                            plain_text(c).strip()) for c in cells if c)


def _finish(source, name, fmt, rows, where, bold=None, notes=None, min_header=0,
            caption="", ruled=None) -> RawTable:
    """Split header rows from data rows and join the header rows per column."""
    width = max((len(r) for r in rows), default=0)
    if width > MAX_COLUMNS:
        at = next(w for r, w in zip(rows, where) if len(r) == width)
        raise TableReadError(f"{source}, {name}, {at}: {width:,} columns; a table of at most "
                             f"{MAX_COLUMNS:,} columns is read")
    rows = [list(r) + [""] * (width - len(r)) for r in rows]
    bold = [list(b) + [False] * (width - len(b)) for b in bold] if bold else []
    notes = list(notes or [])
    if not min_header and len(rows) > 2 and _is_full_span(rows[0]):  # a title over the table
        title = plain_text(str(rows[0][0]))
        notes.append(f"{where[0]}: {title!r} across the table read as its title")
        caption = f"{caption} {title}".strip()
        rows, where, bold = rows[1:], where[1:], bold[1:] if bold else []
    k = 0
    while k < len(rows) and not min_header and not _is_number_row(rows[k]) and not (
            k and (_is_data_row(rows[k]) or _is_full_span(rows[k]))):
        k += 1
    if min_header or k == len(rows):  # a fixed header row, or no number anywhere
        k = max(min_header, 1)
    elif _numbered_header(rows, (ruled or [])[len(ruled or []) - len(rows):], k):
        notes.append(f"{where[k]}: a row of numbers above the rule read as a header row "
                     f"(column names {[plain_text(str(c)) for c in rows[k][1:]]})")
        k += 1
        # names under those numbers (4x: PSNR, SSIM, NMSE) are header rows too
        while k < len(rows) and not _is_number_row(rows[k]) and not (
                _is_data_row(rows[k]) or _is_full_span(rows[k])):
            k += 1
    if k == 0:
        raise TableReadError(f"{source}, {name}: no header row (the first row, {where[0]}, "
                             "already holds numbers)")
    header = []
    for j in range(width):
        parts = []
        for r in rows[:k]:
            t = plain_text(r[j]) if isinstance(r[j], str) else str(r[j])
            if t and t not in parts:
                parts.append(t)
        header.append(" ".join(parts))
    valued = [j for j in range(1, width) if any(parse_printed_cell(r[j]).numeric
                                                for r in rows[k:])]
    cited = sum(any("\\cite" in str(r[j]) for r in rows[:k]) for j in valued)
    return RawTable(source, name, fmt, header, rows[k:], where[k:],
                    bold[k:] if bold else [], notes, caption,
                    cited_header=cited * 2 > len(valued))


def transpose(raw: RawTable) -> RawTable:
    """Methods as columns and metrics as rows -> methods as rows (``--transpose``, or
    detected by :mod:`falseclaims.table.model`)."""
    lead = 1  # leading label columns (Negative | Predicted): joined into the new header
    while lead < len(raw.header) - 1 and not any(parse_printed_cell(r[lead]).numeric
                                                 for r in raw.rows):
        lead += 1
    labels, last = [], [""] * lead
    for r in raw.rows:
        last = [plain_text(str(r[j])) or (last[j] if j < lead - 1 else "")
                for j in range(lead)]
        labels.append(" ".join(x for x in last if x))
    grid = [[" ".join(x for x in (plain_text(str(h)) for h in raw.header[:lead]) if x)]
            + list(raw.header[lead:])] + [[lab] + list(r[lead:])
                                          for lab, r in zip(labels, raw.rows)]
    width = len(grid[0])
    cols = [[row[j] for row in grid] for j in range(width)]
    bold = [[False] + [raw.bold[i][j + lead - 1 if j else 0] for i in range(len(raw.rows))]
            for j in range(width)] if raw.bold else []
    head = [plain_text(c) if isinstance(c, str) else str(c) for c in cols[0]]
    where = [f"column {j + lead} ({plain_text(str(raw.header[j + lead - 1]))[:30]})"
             for j in range(1, len(cols))]
    return RawTable(raw.source, raw.name, raw.format, head, cols[1:], where,
                    bold[1:] if bold else [], list(raw.notes), raw.caption, raw.group)


# ---------------------------------------------------------------- CSV / TSV
def _read_delimited(text: str, source: str, fmt: str) -> list[RawTable]:
    lines = text.splitlines()
    if not any(line.strip() for line in lines):
        return []
    first = next(line for line in lines if line.strip())
    notes: list[str] = []
    delim = textio.sniff_separator(first, ".tsv" if fmt == "tsv" else ".csv", notes)
    rows, where, commas = [], [], 0
    # newline="": the csv module's own line endings, so a classic Mac file (CR only, Excel's
    # "CSV (Macintosh)") is rows, not "new-line character seen in unquoted field"
    _unclosed_quote(text, delim, source)
    records = csv.reader(io.StringIO(text, newline=""), delimiter=delim)
    for i, row in enumerate(_records(records, source), 1):
        if any(c.strip() for c in row):
            cells = [c.strip() for c in row]
            if delim != ",":  # decimal commas: 85,3 -> 85.3 (noted; textio's policy)
                fixed = [_DECIMAL_COMMA.sub(r"\1.\2", c) for c in cells]
                commas += sum(a != b for a, b in zip(cells, fixed))
                cells = fixed
            rows.append(cells)
            where.append(f"line {i}")
    name = Path(source).stem
    if commas:
        notes.append(textio.decimal_note(commas))
    if rows and max(len(r) for r in rows) == 1:
        rows = _space_separated(rows, where, source, notes)
    return [_finish(source, name, fmt, rows, where, notes=notes, min_header=1)]


_SPACE_RUN = re.compile(r"\s{2,}|\t")
_SPACED_NUMBER = re.compile(r"\S\s+[-+−]?\d*[.,]?\d+%?(?:\s|$)")


def _space_separated(rows: list[list[str]], where: list[str], source: str,
                     notes: list[str]) -> list[list[str]]:
    """One column whose cells hold words and numbers apart by spaces: a table pasted from
    a PDF or a terminal. Read when every row splits at runs of two or more spaces into the
    same number of cells (the columns line up); else refused with how to give it."""
    cells = [r[0] for r in rows]
    split = [[c.strip() for c in _SPACE_RUN.split(text.strip())] for text in cells]
    if len(split) > 1 and len({len(r) for r in split[1:]}) == 1 and \
            len(split[0]) == len(split[1]) - 1 >= 2:
        split[0].insert(0, "")  # no name over the method column (an indented header)
    widths = {len(r) for r in split}
    if len(widths) == 1 and widths.pop() >= 2 and len(rows) >= 2:
        notes.append("one column whose cells are apart by runs of spaces (a table pasted from "
                     "a PDF?): read as columns split at every run of two or more spaces")
        return split
    if sum(bool(_SPACED_NUMBER.search(c)) for c in cells) >= 2:
        at = next(w for w, c in zip(where, cells) if _SPACED_NUMBER.search(c))
        raise TableReadError(f"{source}, {at}: one column whose cells hold words and numbers "
                             "apart by spaces (a table pasted from a PDF?), and its columns do "
                             "not line up: separate the cells by tabs or commas, or paste the "
                             "table as a Markdown pipe table (| Method | Dice |)")
    return rows


def _unclosed_quote(text: str, delim: str, source: str) -> None:
    """A quote opened and never closed makes the rest of the file one cell (read, the rows
    after it vanished into "no numeric column"); the strict reader finds it, its other
    complaints (``"a"b``, read as ``ab``) are left to the lenient one."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delim, strict=True)
    start = 1
    try:
        for _ in reader:
            start = reader.line_num + 1
    except csv.Error as exc:
        if "unexpected end of data" in str(exc):
            raise TableReadError(f"{source}, line {start}: a quote (\") opened in this row is "
                                 "never closed (the rest of the file would be one cell)"
                                 ) from None


def _records(reader, source: str):
    """The csv reader's records; its errors (a cell over the module's field limit, 128 KB)
    as one line naming the line, never "unexpected Error"."""
    try:
        yield from reader
    except csv.Error as exc:
        raise TableReadError(f"{source}, line {reader.line_num}: {exc} (expected a table "
                             "cell, not a text or data dump)") from None


_DECIMAL_COMMA = re.compile(r"(?<![\d,])(\d+),(\d+)(?![\d,])")


# ---------------------------------------------------------------- XLSX
def _read_xlsx(p: Path) -> list[RawTable]:
    """Every sheet through the sheets' bounded, streaming reader
    (:func:`falseclaims.io.xlsx.read_sheet_cells`: entity declarations refused, only the
    cells present kept, so one far cell costs one cell). Only the columns and rows that hold
    something become the table. Bold fonts are not read from workbooks: the values decide
    the winner."""
    from falseclaims.io.xlsx import UnreadableWorkbook, read_sheet_cells

    try:
        _, names, _ = read_sheet_cells(p, None)
        sheets = [read_sheet_cells(p, name) for name in names]
    except UnreadableWorkbook as exc:
        raise TableReadError(f"{p}: not a readable workbook ({exc})") from None
    out = []
    for name, (cells, _, problem) in zip(names, sheets):
        if cells is None or problem:
            continue
        if cells.too_big:
            raise TableReadError(f"{p}, sheet {name}: expected {cells.too_big}")
        grid = cells.as_dict()
        cols = sorted({c for _, c in grid})
        if len(cols) > MAX_COLUMNS:
            raise TableReadError(f"{p}, sheet {name}: {len(cols):,} columns hold values; a "
                                 f"table of at most {MAX_COLUMNS:,} columns is read")
        rows, where = [], []
        for r in sorted({r for r, _ in grid}):
            vals = [_shown(grid.get((r, c)), (r, c) in cells.percent) for c in cols]
            if any(str(v).strip() for v in vals):
                rows.append(vals)
                where.append(f"row {r}")
        if len(rows) >= 2:
            out.append(_finish(str(p), f"sheet {name}", "xlsx", rows, where, min_header=1))
    if not out:
        raise TableReadError(f"{p}: no sheet holds a header and a data row")
    return out


def _shown(v, percent: bool) -> object:
    """A cell as the sheet shows it: numbers in a percent format as ``85.3%``."""
    if v is None:
        return ""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return str(v)
    return f"{v * 100:.10g}%" if percent else v


# ---------------------------------------------------------------- Markdown
_SEPARATOR = re.compile(r"^\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")


# inline Markdown / HTML inside a README cell: a link or image keeps its text, a code span
# its content, a line break is a space (``0.91<br>(0.02)``: the SD on a second line)
_MD_LINK = re.compile(r"!?\[([^\]]*)\]\([^)\s]*(?:\s+\"[^\"]*\")?\)")
_MD_CODE = re.compile(r"`([^`]*)`")
_MD_BREAK = re.compile(r"(?i)<br\s*/?>")


def _md_inline(cell: str) -> str:
    cell = _MD_BREAK.sub(" ", _MD_CODE.sub(r"\1", _MD_LINK.sub(r"\1", cell)))
    return html.unescape(cell).replace("\xa0", " ").strip()


def _pipe_cells(line: str) -> list[str]:
    s = line.strip()
    s = s[1:] if s.startswith("|") else s
    s = s[:-1] if s.endswith("|") and not s.endswith("\\|") else s
    return [_md_inline(c.strip().replace("\\|", "|")) for c in re.split(r"(?<!\\)\|", s)]


# a README table's own title: a bold line (``**DESS E1**``, ``**Table 3.** Ablation ...``) or
# a line starting with "Table" (after an emoji: ``📊 Table 1. ...``) just above the table
_MD_LABEL = re.compile(r"^\*\*[^*]+\*\*|^[^\w\s]{0,3}\s*(?i:table)\b")


def _md_group_header(rows: list[list[str]], where: list[str]):
    """A pipe table can hold one header row only; READMEs print a second as the first row:
    ``| | ACDC | | Synapse | |`` then ``| Method | Dice | HD95 | Dice | HD95 |``. When the
    header has blanks after a group name and the first row names every column (no number,
    no missing-value mark), the two are one header, each group name spanning the blanks to
    its right (``ACDC Dice``, ``ACDC HD95``)."""
    if len(rows) < 3:
        return rows, where, []
    head, sub = rows[0], rows[1]
    names = [plain_text(c) for c in sub[1:]]
    if not (any(not plain_text(c) for c in head[1:]) and plain_text(head[1])
            and all(names) and not any(n.lower() in MISSING for n in names)
            and not any(parse_printed_cell(c).numeric for c in sub[1:])):
        return rows, where, []
    spans, group = [], ""
    for c in head[1:]:
        group = plain_text(c) or group
        spans.append(group)
    joined = [plain_text(sub[0]) or plain_text(head[0])] + [
        f"{g} {n}".strip() for g, n in zip(spans, names)]
    return [joined] + rows[2:], [where[0]] + where[2:], [
        f"{where[1]}: the first row names the columns under the header's groups: read as a "
        "second header row"]


_HTML_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.S)


def _without_comments(text: str) -> tuple[str, list[int]]:
    """The text with its HTML comments blanked (line numbers kept), and the first line of
    each comment that held a table row: a commented-out table is no table of the file."""
    hidden: list[int] = []

    def blank(m: re.Match) -> str:
        if any(ln.strip().startswith("|") or "<table" in ln.lower()
               for ln in m.group(0).splitlines()):
            hidden.append(text.count("\n", 0, m.start()) + 1)
        return re.sub(r"[^\n]", " ", m.group(0))

    return _HTML_COMMENT.sub(blank, text), hidden


def _read_markdown(text: str, source: str, fmt: str) -> list[RawTable]:
    """Pipe tables and HTML ``<table>`` elements, in the order of the file; each named by
    the heading (or bold / ``Table N`` line) above it. Tables inside HTML comments are
    skipped, with a note."""
    text, hidden = _without_comments(text)
    pipes = _read_pipe_tables(text, source, fmt)
    found = [(int(t.where[0].split()[-1]) if t.where else 0, t) for t in pipes]
    lines = text.splitlines()
    for h in html_tables(text):
        title, label = _md_title_above(lines, h.line - 1)
        # its own <caption> and a quoted note below it are read as a Markdown caption is:
        # for the test-set size and the metric
        caption = ". ".join(x for x in (title, label, h.caption,
                                        _quote_below(lines, h.end) if h.end else "") if x)
        table = _finish(source, label or title or f"table {len(found) + 1}", fmt, h.rows,
                        h.where, notes=[f"line {h.line}: an HTML <table> (rowspan/colspan "
                                        "repeated into the cells they cover)" + (
                                            "" if h.closed else "; no </table>: read to the "
                                            "end of the file")] + _html_notes(lines, h),
                        caption=caption)
        found.append((h.line, table))
    out = [t for _, t in sorted(found, key=lambda x: x[0])]
    seen: set[str] = set()
    for k, t in enumerate(out, 1):
        if t.name in seen:
            t.name = f"{t.name} ({k})"
        seen.add(t.name)
        t.notes += [f"line {n}: a table inside an HTML comment <!-- --> skipped (commented "
                    "out, not part of the file's results)" for n in hidden]
    return out


def _md_title_above(lines: list[str], i: int) -> tuple[str | None, str | None]:
    """The last heading above line ``i`` and a title line just above it (blank lines and
    HTML wrapper tags such as ``<div>`` apart)."""
    title = next((ln.strip().lstrip("#").strip() for ln in reversed(lines[:i])
                  if ln.strip().startswith("#")), None)
    above = next((ln.strip() for ln in reversed(lines[:i])
                  if ln.strip() and not re.match(r"^</?\w+[^>]*>$", ln.strip())), "")
    label = plain_text(above).strip() if _MD_LABEL.match(above) else None
    return title, label


def _read_pipe_tables(text: str, source: str, fmt: str) -> list[RawTable]:
    lines = text.splitlines()
    out, i, title, label = [], 0, None, None
    while i < len(lines):
        line = lines[i].strip()
        if line.startswith("#"):
            title, label = line.lstrip("#").strip(), None
        if "|" in line and i + 1 < len(lines) and _SEPARATOR.match(lines[i + 1].strip()):
            rows, where = [_pipe_cells(line)], [f"line {i + 1}"]
            j = i + 2
            while j < len(lines) and "|" in lines[j] and lines[j].strip():
                rows.append(_pipe_cells(lines[j]))
                where.append(f"line {j + 1}")
                j += 1
            name = label or title or f"table {len(out) + 1}"
            if any(t.name == name for t in out):
                name = f"{name} ({len(out) + 1})"
            caption = ". ".join(x for x in (title, label, _quote_below(lines, j)) if x)
            rows, where, notes = _md_group_header(rows, where)
            notes += _incomparable_notes(lines, j)
            out.append(_finish(source, name, fmt, rows, where, notes=notes, min_header=1,
                               caption=caption))
            i, label = j, None
            continue
        if line and not line.startswith("#") and "|" not in line:
            # the line just above the table (blank lines apart) titles it when it looks a title
            label = plain_text(line).strip() if _MD_LABEL.match(line) else None
        i += 1
    return out


def _quote_below(lines: list[str], end: int) -> str:
    """A quoted note right below a table that ends before line ``end`` (blank lines apart):
    ``> Dice values are reported.`` names the metric of columns headed by structures, as a
    caption does; any other text below is not read as the caption."""
    k = end
    while k < len(lines) and not _untagged(lines[k]):
        k += 1
    quoted = []
    while k < len(lines) and lines[k].lstrip().startswith(">"):
        quoted.append(_untagged(lines[k].lstrip().lstrip(">")))
        k += 1
    return " ".join(q for q in quoted if q)


def _incomparable_notes(lines: list[str], end: int) -> list[str]:
    """The notes (one per mark) of the text right below a pipe table that ends before line
    ``end``: up to the next heading, table or blank line after the first text."""
    out, k = [], end
    while k < len(lines) and not lines[k].strip():
        k += 1
    while k < len(lines) and lines[k].strip() and not lines[k].lstrip().startswith(("#", "|")):
        if note := incomparable_note(lines[k], f"line {k + 1}"):
            out.append(note)
        k += 1
    return out


def _html_notes(lines: list[str], table) -> list[str]:
    """The notes on incomparable marks of an HTML table: in its ``<caption>`` or in the
    text right below ``</table>`` (``<p>``, ``<sub>``: tags removed), up to the next blank
    line, heading or table after the first text; a ``<tfoot>`` row is read with the rows."""
    out = [n for part in re.split(r"(?<=[.;])\s+", table.caption)
           if (n := incomparable_note(part, f"line {table.line} (<caption>)"))]
    k = table.end
    if k and k <= len(lines) and (tail := _untagged(lines[k - 1].split("</table>")[-1])):
        if note := incomparable_note(tail, f"line {k}"):
            out.append(note)
    while k < len(lines) and not _untagged(lines[k]):
        k += 1
    while k < len(lines) and (text := _untagged(lines[k])) and "<table" not in lines[k] \
            and not lines[k].lstrip().startswith(("#", "|")):
        if note := incomparable_note(text, f"line {k + 1}"):
            out.append(note)
        k += 1
    return out


def _untagged(line: str) -> str:
    return re.sub(r"<[^>]*>", " ", line).strip()


def _read_latex(text: str, source: str, fmt: str, macros: dict | None = None
                ) -> list[RawTable]:
    return [_finish(source, t.name, fmt, t.rows, t.where, notes=t.notes, caption=t.caption,
                    ruled=t.ruled)
            for t in latex_tables(text, source, macros, MAX_TABLES)]
