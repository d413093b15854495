"""Read the tables of one file as printed: CSV/TSV, XLSX (each sheet; bold from the font),
Markdown pipe tables and LaTeX ``tabular`` environments.

Each reader returns :class:`RawTable` objects: rows of raw cells (text, or numbers from a
spreadsheet) with where each row came from, before any interpretation (that is
:mod:`falseclaims.table.model`). Header rows are the leading rows without a number outside
the first column; several header rows (``\\multicolumn`` groups) are joined per column.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from pathlib import Path

from falseclaims.io import textio
from falseclaims.errors import FalseclaimsInputError
from falseclaims.table.cells import parse_printed_cell, plain_text

__all__ = ["FORMATS", "RawTable", "TableReadError", "read_tables", "table_format"]

FORMATS = {".csv": "csv", ".tsv": "tsv", ".tab": "tsv", ".txt": None, ".xlsx": "xlsx",
           ".xlsm": "xlsx", ".md": "markdown", ".markdown": "markdown", ".tex": "latex"}


class TableReadError(FalseclaimsInputError):
    """A file or table that cannot be read; the message names file, table, row, column."""


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


def table_format(path) -> str | None:
    return FORMATS.get(textio.text_suffix(path))


def read_tables(path) -> list[RawTable]:
    """Every table of ``path`` (format from the extension; text files under
    :mod:`falseclaims.io.textio`'s policy: gzip, encodings, separators, decimal commas)."""
    p = Path(path)
    fmt = table_format(p)
    if fmt is None:
        raise TableReadError(f"{p}: unsupported file type {p.suffix or '(none)'!r}; expected "
                             "one of " + ", ".join(k for k, v in FORMATS.items() if v))
    if not p.is_file():
        raise TableReadError(f"{p}: file not found")
    if fmt == "xlsx":
        return _read_xlsx(p)
    notes: list[str] = []
    try:
        text, _ = textio.decode(textio.read_bytes(p, notes), notes)
    except textio.TextProblem as exc:
        raise TableReadError(f"{p}: expected {exc.expected}") from None
    reader = {"csv": _read_delimited, "tsv": _read_delimited, "markdown": _read_markdown,
              "latex": _read_latex}[fmt]
    tables = reader(text, str(p), fmt)
    for t in tables:
        t.notes[:0] = notes
    if not tables:
        what = {"markdown": "no pipe table (a header row, then a |---| row)",
                "latex": "no \\begin{tabular} ... \\end{tabular}"}.get(fmt, "no rows")
        raise TableReadError(f"{p}: {what}")
    return tables


def _is_number_row(cells: list) -> bool:
    return any(parse_printed_cell(c).numeric for c in cells[1:])


def _finish(source, name, fmt, rows, where, bold=None, notes=None, min_header=0) -> RawTable:
    """Split header rows from data rows and join the header rows per column."""
    width = max((len(r) for r in rows), default=0)
    rows = [list(r) + [""] * (width - len(r)) for r in rows]
    bold = [list(b) + [False] * (width - len(b)) for b in bold] if bold else []
    k = 0
    while k < len(rows) and not min_header and not _is_number_row(rows[k]):
        k += 1
    if min_header or k == len(rows):  # a fixed header row, or no number anywhere
        k = max(min_header, 1)
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
    return RawTable(source, name, fmt, header, rows[k:], where[k:],
                    bold[k:] if bold else [], list(notes or []))


# ---------------------------------------------------------------- CSV / TSV
def _read_delimited(text: str, source: str, fmt: str) -> list[RawTable]:
    lines = text.splitlines()
    if not any(line.strip() for line in lines):
        return []
    first = next(line for line in lines if line.strip())
    notes: list[str] = []
    delim = textio.sniff_separator(first, ".tsv" if fmt == "tsv" else ".csv", notes)
    rows, where, commas = [], [], 0
    for i, row in enumerate(csv.reader(io.StringIO(text), delimiter=delim), 1):
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
    return [_finish(source, name, fmt, rows, where, notes=notes, min_header=1)]


_DECIMAL_COMMA = re.compile(r"(?<![\d,])(\d+),(\d+)(?![\d,])")


# ---------------------------------------------------------------- XLSX
def _displayed(cell) -> object:
    """The number as the sheet shows it (fixed decimals, percent formats) or the value."""
    v = cell.value
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return "" if v is None else str(v)
    fmtstr = str(cell.number_format or "")
    m = re.fullmatch(r"0(?:\.(0+))?(%?)", fmtstr)
    if m is None:
        return v
    d = len(m[1] or "")
    return f"{v * 100:.{d}f}%" if m[2] else f"{v:.{d}f}"


def _read_xlsx(p: Path) -> list[RawTable]:
    import openpyxl

    try:
        wb = openpyxl.load_workbook(p, data_only=True)
    except Exception as exc:  # openpyxl raises many kinds for a damaged file
        raise TableReadError(f"{p}: not a readable workbook ({type(exc).__name__}: {exc})"
                             ) from None
    out = []
    for ws in wb.worksheets:
        rows, bold, where = [], [], []
        for r in ws.iter_rows():
            vals = [_displayed(c) for c in r]
            if not any(str(v).strip() for v in vals):
                continue
            rows.append(vals)
            bold.append([bool(c.font and c.font.b) for c in r])
            where.append(f"row {r[0].row}")
        if len(rows) >= 2:
            out.append(_finish(str(p), f"sheet {ws.title}", "xlsx", rows, where, bold,
                               min_header=1))
    if not out:
        raise TableReadError(f"{p}: no sheet holds a header and a data row")
    return out


# ---------------------------------------------------------------- Markdown
_SEPARATOR = re.compile(r"^\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")


def _pipe_cells(line: str) -> list[str]:
    s = line.strip()
    s = s[1:] if s.startswith("|") else s
    s = s[:-1] if s.endswith("|") and not s.endswith("\\|") else s
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", s)]


def _read_markdown(text: str, source: str, fmt: str) -> list[RawTable]:
    lines = text.splitlines()
    out, i, title = [], 0, None
    while i < len(lines):
        line = lines[i].strip()
        if line.startswith("#"):
            title = line.lstrip("#").strip()
        if "|" in line and i + 1 < len(lines) and _SEPARATOR.match(lines[i + 1].strip()):
            rows, where = [_pipe_cells(line)], [f"line {i + 1}"]
            j = i + 2
            while j < len(lines) and "|" in lines[j] and lines[j].strip():
                rows.append(_pipe_cells(lines[j]))
                where.append(f"line {j + 1}")
                j += 1
            name = title or f"table {len(out) + 1}"
            if any(t.name == name for t in out):
                name = f"{name} ({len(out) + 1})"
            out.append(_finish(source, name, fmt, rows, where, min_header=1))
            i = j
            continue
        if line and not line.startswith("#") and "|" not in line:
            title = title if not re.match(r"(?i)^table\b", line) else line
        i += 1
    return out


# ---------------------------------------------------------------- LaTeX
_BEGIN = re.compile(r"\\begin\{(tabular\*?|tabularx|tabulary|longtable)\}")
_RULES = re.compile(r"\\(?:hline|toprule|midrule|bottomrule|addlinespace|endhead|endfirsthead|"
                    r"hdashline|specialrule\{[^{}]*\}\{[^{}]*\}\{[^{}]*\}|cline\{[^{}]*\}|"
                    r"cmidrule(?:\([^)]*\))?\{[^{}]*\}|rowcolor(?:\[[^\]]*\])?\{[^{}]*\}|"
                    r"noalign\{[^{}]*\})")


def _group(text: str, i: int) -> int:
    """Index after the brace group starting at ``text[i] == '{'``."""
    depth = 0
    for j in range(i, len(text)):
        if text[j] == "{" and (j == 0 or text[j - 1] != "\\"):
            depth += 1
        elif text[j] == "}" and text[j - 1] != "\\":
            depth -= 1
            if depth == 0:
                return j + 1
    raise TableReadError("unbalanced braces")


def _skip_args(text: str, i: int, n: int) -> int:
    """Skip an optional [..] and ``n`` brace groups after ``\\begin{tabular}``."""
    for _ in range(n):
        while i < len(text) and text[i].isspace():
            i += 1
        if i < len(text) and text[i] == "[":
            i = text.index("]", i) + 1
            while text[i].isspace():
                i += 1
        if i >= len(text) or text[i] != "{":
            raise TableReadError("missing column specification after \\begin{tabular}")
        i = _group(text, i)
    return i


def _split_cells(row: str) -> list[str]:
    cells, depth, cur = [], 0, []
    for k, ch in enumerate(row):
        if ch == "{" and (k == 0 or row[k - 1] != "\\"):
            depth += 1
        elif ch == "}" and row[k - 1] != "\\":
            depth -= 1
        if ch == "&" and depth == 0 and (k == 0 or row[k - 1] != "\\"):
            cells.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    cells.append("".join(cur).strip())
    return cells


def _unwrap(cell: str, name: str) -> tuple[str, int] | None:
    """(content, span) of ``\\multicolumn{k}{..}{content}`` / ``\\multirow{k}{..}{content}``."""
    m = re.match(rf"\\{name}\s*\{{\s*(\d+)\s*\}}", cell)
    if m is None:
        return None
    i = m.end()
    i = _skip_args(cell, i, 1)  # alignment / width
    while i < len(cell) and cell[i].isspace():
        i += 1
    if i < len(cell) and cell[i] == "{":
        end = _group(cell, i)
        return cell[i + 1:end - 1] + cell[end:], int(m[1])
    return cell[i:], int(m[1])


_ROW_END = re.compile(r"\\\\(?:\s*\[[^\]]*\])?|\\tabularnewline\b")


def _row_pieces(body: str):
    """(offset, text) of each row: split at ``\\\\`` outside braces (``\\makecell{a\\\\b}``
    keeps its line break)."""
    depth, start, i = 0, 0, 0
    while i < len(body):
        ch = body[i]
        if ch == "{" and (i == 0 or body[i - 1] != "\\"):
            depth += 1
        elif ch == "}" and body[i - 1] != "\\":
            depth -= 1
        elif ch == "\\" and depth == 0:
            m = _ROW_END.match(body, i)
            if m:
                yield start, body[start:i]
                start = i = m.end()
                continue
            i += 1  # skip the escaped character
        i += 1
    yield start, body[start:]


def _latex_rows(body: str, first_line: int):
    carried = {}
    for at, piece in _row_pieces(body):
        lead = re.match(rf"(?:\s|{_RULES.pattern})*", piece).end()
        line = first_line + body.count("\n", 0, at + lead)
        row = _RULES.sub(" ", piece).strip()
        if not row:
            continue
        cells = []
        for j, c in enumerate(_split_cells(row)):
            mc = _unwrap(c, "multicolumn")
            if mc is not None:
                cells.extend([mc[0].strip()] * mc[1])
                continue
            mr = _unwrap(c, "multirow")
            if mr is not None:
                carried[len(cells)] = (mr[0].strip(), mr[1] - 1)
                c = mr[0].strip()
            elif not c and len(cells) in carried and carried[len(cells)][1] > 0:
                text, left = carried[len(cells)]
                carried[len(cells)] = (text, left - 1)
                c = text if len(cells) == 0 else ""
            cells.append(c)
        yield cells, f"line {line}"


def _caption(text: str, start: int, end: int) -> str | None:
    env_start = text.rfind("\\begin{table", 0, start)
    env_end = text.find("\\end{table", end)
    for m in re.finditer(r"\\caption\s*(?:\[[^\]]*\])?\{", text):
        if env_start >= 0 and env_start < m.start() < (env_end if env_end >= 0 else len(text)):
            if text.rfind("\\begin{table", 0, m.start()) == env_start:
                brace = m.end() - 1
                return plain_text(text[brace + 1:_group(text, brace) - 1])[:80]
    return None


def _read_latex(text: str, source: str, fmt: str) -> list[RawTable]:
    text = re.sub(r"(?<!\\)%[^\n]*", "", text)  # comments, keeping line numbers
    out = []
    for k, m in enumerate(_BEGIN.finditer(text), 1):
        env = m[1]
        try:
            start = _skip_args(text, m.end(), 2 if env in ("tabular*", "tabularx", "tabulary")
                               else 1)
        except (TableReadError, ValueError) as exc:
            raise TableReadError(f"{source}, tabular {k} (line "
                                 f"{text.count(chr(10), 0, m.start()) + 1}): {exc}") from None
        end = text.find(f"\\end{{{env}}}", start)
        if end < 0:
            raise TableReadError(f"{source}, tabular {k}: no \\end{{{env}}}")
        line0 = text.count("\n", 0, start) + 1
        rows, where = [], []
        for cells, w in _latex_rows(text[start:end], line0):
            rows.append(cells)
            where.append(w)
        if not rows:
            continue
        cap = _caption(text, m.start(), end)
        name = f"tabular {k}" + (f": {cap}" if cap else "")
        out.append(_finish(source, name, fmt, rows, where))
    return out
