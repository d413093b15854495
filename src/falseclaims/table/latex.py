"""LaTeX results tables: the top-level ``tabular``, ``tabularx``, ``tabulary`` and
``longtable`` environments of a ``.tex`` file, their rows split into printed cells.

Papers' sources keep numbers in macros (``\\newcommand``/``\\def``, here or in another file
given with ``--macros``), nest tabulars in cells, wrap cells in ``\\multicolumn``,
``\\multirow`` and font commands, and end rows with ``\\\\`` or ``\\tabularnewline``; this
module undoes that and leaves the interpretation of the rows (headers, methods, values) to
:mod:`falseclaims.table.readers` and :mod:`falseclaims.table.model`, as
:mod:`falseclaims.table.htmltables` does for HTML tables.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from pathlib import Path

from falseclaims.errors import TableReadError
from falseclaims.io import textio
from falseclaims.table.cells import MAX_COLUMNS, incomparable_note, plain_text

__all__ = ["LatexTable", "latex_tables", "macro_file"]

_ENVS = r"tabular\*?|tabularx|tabulary|longtable"
_BEGIN = re.compile(rf"\\begin\{{({_ENVS})\}}")
# the float around a tabular: its \end closes a tabular whose own \end is missing
_FLOATS = r"table\*?|sidewaystable\*?"
_BEGIN_END = re.compile(rf"\\(begin|end)\{{({_ENVS}|{_FLOATS})\}}")
_RULES = re.compile(r"\\(?:hline|toprule|midrule|bottomrule|addlinespace(?:\[[^\]]*\])?|endhead|"
                    r"endfirsthead|"
                    r"hdashline|specialrule\{[^{}]*\}\{[^{}]*\}\{[^{}]*\}|cline\{[^{}]*\}|"
                    r"cmidrule(?:\([^)]*\))?\{[^{}]*\}|rowcolor(?:\[[^\]]*\])?\{[^{}]*\}|"
                    r"noalign\{[^{}]*\}|nopagebreak|pagebreak|newpage)")
_DEFINITION = re.compile(r"\\(?:re)?newcommand\*?\s*\{?\s*\\([A-Za-z]+)\s*\}?\s*\{|"
                         r"\\def\s*\\([A-Za-z]+)\s*\{")
_MACRO_USE = re.compile(r"\\([A-Za-z]+)(?![A-Za-z])(?:\{\})?")
MAX_MACRO_PASSES = 3  # a macro may use another; definitions that loop stop here


class _Latex:
    """Line numbers by binary search over the line starts (linear in the input)."""

    def __init__(self, text: str):
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def line(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset)


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
    raise TableReadError("unbalanced braces: a '{' is never closed")


def _skip_args(text: str, i: int, n: int) -> int:
    """Skip an optional [..] and ``n`` brace groups after ``\\begin{tabular}``."""
    for _ in range(n):
        while i < len(text) and text[i].isspace():
            i += 1
        if i < len(text) and text[i] == "[":
            close = text.find("]", i)
            if close < 0:
                raise TableReadError("an optional argument '[' is never closed")
            i = close + 1
            while i < len(text) and text[i].isspace():
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
            if depth < 0:
                raise TableReadError("unbalanced braces: a '}' closes nothing")
        if ch == "&" and depth == 0 and (k == 0 or row[k - 1] != "\\"):
            cells.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if depth > 0:
        raise TableReadError("unbalanced braces: a '{' is never closed")
    cells.append("".join(cur).strip())
    return cells


def _unwrap(cell: str, name: str) -> tuple[str, int] | None:
    """(content, span) of ``\\multicolumn{k}{..}{content}`` / ``\\multirow{k}{..}{content}``."""
    if not re.match(rf"\\{name}\b", cell):
        return None
    m = re.match(rf"\\{name}\s*(?:\[[^\]]*\])?\s*\{{\s*(-?\d{{1,9}})\s*\}}", cell)
    if m is None:
        raise TableReadError(f"a malformed \\{name} (expected \\{name}{{k}}{{..}}{{text}} "
                             f"with a whole number k): {cell[:40]!r}")
    span = int(m[1])
    if name == "multicolumn" and not 1 <= span <= MAX_COLUMNS:
        raise TableReadError(f"\\multicolumn{{{span}}} spans {span:,} columns; a table of at "
                             f"most {MAX_COLUMNS:,} columns is read")
    i = _skip_args(cell, m.end(), 1)  # alignment / width
    while i < len(cell) and cell[i].isspace():
        i += 1
    if i < len(cell) and cell[i] == "{":
        end = _group(cell, i)
        return cell[i + 1:end - 1] + cell[end:], span if name == "multirow" else max(span, 1)
    return cell[i:], span if name == "multirow" else max(span, 1)


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
        elif ch == "\\" and depth <= 0:
            m = _ROW_END.match(body, i)
            if m:
                yield start, body[start:i]
                start = i = m.end()
                depth = 0
                continue
            i += 1  # skip the escaped character
        i += 1
    yield start, body[start:]


def _latex_rows(body: str, first: int, lines: _Latex):
    """(cells, where, ruled) of each row (``ruled``: a rule such as ``\\midrule`` above
    it); a negative ``\\multirow`` label is copied into the empty cells of the rows above
    it that it spans."""
    out = []
    for cells, where, back, ruled in _latex_rows_forward(body, first, lines):
        for j, (text, up) in back.items():
            for prev, _, _ in out[len(out) - up:] if up else ():
                if j < len(prev) and not prev[j].strip():
                    prev[j] = text
        out.append((cells, where, ruled))
    return out


def _latex_rows_forward(body: str, first: int, lines: _Latex):
    carried = {}
    for at, piece in _row_pieces(body):
        back = {}
        lead = re.match(rf"(?:\s|{_RULES.pattern})*", piece).end()
        ruled = bool(re.search(r"\\(?:hline|midrule|cmidrule|cline|hdashline|specialrule)",
                               piece[:lead]))
        where = f"line {lines.line(first + at + lead)}"
        row = _RULES.sub(" ", piece).strip()
        if not row:
            continue
        cells = []
        try:
            for c in _split_cells(row):
                mc = _unwrap(c, "multicolumn")
                if mc is not None:
                    if len(cells) + mc[1] > MAX_COLUMNS:
                        raise TableReadError(f"more than {MAX_COLUMNS:,} columns")
                    cells.extend([mc[0].strip()] * mc[1])
                    continue
                mr = _unwrap(c, "multirow")
                if mr is not None and mr[1] < 0:  # \multirow{-3}: the label of this row
                    back[len(cells)] = (mr[0].strip(), -mr[1] - 1)  # and the 2 above it
                    c = mr[0].strip()
                elif mr is not None:
                    carried[len(cells)] = (mr[0].strip(), mr[1] - 1)
                    c = mr[0].strip()
                elif not c and len(cells) in carried and carried[len(cells)][1] > 0:
                    text, left = carried[len(cells)]
                    carried[len(cells)] = (text, left - 1)
                    c = text if len(cells) == 0 else ""
                cells.append(c)
        except TableReadError as exc:
            raise TableReadError(f"{where}: {exc}") from None
        yield cells, where, back, ruled


def _captions(text: str) -> list[tuple[int, int, str]]:
    """(start, end, caption) of every ``table`` environment that holds a caption."""
    out, opened = [], []
    for m in re.finditer(r"\\(begin|end)\{table\*?\}|\\caption\s*(?:\[[^\]]*\])?\{", text):
        if m[1] == "begin":
            opened.append([m.start(), None])
        elif m[1] == "end":
            if opened:
                start, cap = opened.pop()
                if cap is not None:
                    out.append((start, m.end(), cap))
        elif opened and opened[-1][1] is None:
            brace = m.end() - 1
            try:
                opened[-1][1] = plain_text(text[brace + 1:_group(text, brace) - 1])
            except TableReadError:
                opened[-1][1] = ""
    # a table environment the file leaves open (an excerpt, or \end{table} in the file
    # that \input{}s this one) still captions its tabulars
    out += [(start, len(text), cap) for start, cap in opened if cap is not None]
    return out


def _macro_definitions(text: str) -> dict[str, str]:
    """``\\newcommand{\\name}{value}`` and ``\\def\\name{value}`` (no arguments)."""
    out = {}
    for m in _DEFINITION.finditer(text):
        brace = m.end() - 1
        try:
            out[m[1] or m[2]] = text[brace + 1:_group(text, brace) - 1].strip()
        except TableReadError:
            continue
    return out


def macro_file(path) -> dict[str, str]:
    p = Path(path)
    try:
        text, _ = textio.decode(textio.read_bytes(p, []), [])
    except (OSError, textio.TextProblem) as exc:
        raise TableReadError(f"--macros {p}: not readable ({exc})") from None
    defs = _macro_definitions(re.sub(r"(?<!\\)%[^\n]*", "", text))
    if not defs:
        raise TableReadError(f"--macros {p}: no \\newcommand or \\def definitions")
    return defs


def _expand(text: str, defs: dict[str, str]) -> str:
    """Definitions expanded in ``text``; a definition's own braces are kept balanced."""
    for _ in range(MAX_MACRO_PASSES):
        new = _MACRO_USE.sub(lambda m: defs.get(m[1], m[0]), text)
        if new == text:
            break
        text = new
    return text


def _flatten_nested(body: str) -> str:
    """A tabular inside a cell (a two-line header ``\\begin{tabular}{c}Dice\\\\(\\%)
    \\end{tabular}``) becomes its text."""
    def flat(m):
        inner = m[2]
        try:
            inner = inner[_skip_args(inner, 0, 1):]
        except TableReadError:
            pass
        return " " + re.sub(r"\\\\|&", " ", inner) + " "
    pattern = re.compile(rf"\\begin\{{({_ENVS})\}}((?:(?!\\begin\{{(?:{_ENVS})\}}).)*?)"
                         rf"\\end\{{\1\}}", re.S)
    return pattern.sub(flat, body)


# rows typeset from another file: not in the file given, so never read as its table
_ROWS_ELSEWHERE = re.compile(r"\\(?:csvreader|csvautotabular|csvautobooktabular|"
                             r"pgfplotstabletypeset|DTLdisplaydb|input|include)\b\s*(?:\[[^]]*\])?"
                             r"\s*\{([^}]*)\}")


def _rows_elsewhere(body: str, where: str) -> None:
    """Refuse a tabular whose rows come from another file (``\\input{rows}``, ``\\csvreader``),
    naming the command: the rows read would be none, or the header alone."""
    m = _ROWS_ELSEWHERE.search(body)
    if m:
        raise TableReadError(f"{where}: its rows come from {m[0].split('{')[0].strip()}"
                             f"{{{m[1]}}}, another file; give falseclaims that file (a CSV as "
                             "it is, a .tex with its rows) or paste its rows in its place")


@dataclass
class LatexTable:
    """One top-level tabular as printed: its rows of cells, where each came from, whether a
    rule (\\hline, \\midrule) sits above it, its caption and notes on how it was read."""
    name: str
    rows: list[list[str]]
    where: list[str]
    ruled: list[bool]
    caption: str = ""
    notes: list[str] = field(default_factory=list)


def _notes_below(text: str, end: int, float_end: int | None, lines: _Latex) -> list[str]:
    """Notes on incomparable marks in the lines after a tabular: to the end of its table
    float (``tablenotes``, a ``\\footnotesize`` line), or to the first blank line."""
    below = text[end:float_end] if float_end else text[end:].split("\n\n", 1)[0]
    out, at = [], end
    for line in below.split("\n"):
        if note := incomparable_note(line, f"line {lines.line(at)}"):
            out.append(note)
        at += len(line) + 1
    return out


def latex_tables(text: str, source: str, macros: dict | None = None,
                 max_tables: int = 1_000) -> list[LatexTable]:
    """The top-level ``tabular``-like environments of ``text`` (nested ones stay inside
    their cells); ``macros`` add to the file's own ``\\newcommand``/``\\def`` definitions."""
    text = re.sub(r"(?<!\\)%[^\n]*", "", text)  # comments, keeping line numbers
    lines = _Latex(text)
    if not re.search(rf"\\begin\{{(?:{_ENVS})\}}", text):  # no tabular: made from a file?
        _rows_elsewhere(text, source)
    defs = {**_macro_definitions(text), **(macros or {})}
    captions = sorted(_captions(text))
    cap_starts = [a for a, _, _ in captions]
    out, depth, k, open_at = [], 0, 0, None
    for m in _BEGIN_END.finditer(text):  # top-level tabulars; nested ones stay inside
        unclosed = bool(re.fullmatch(_FLOATS, m[2]))
        if unclosed and (m[1] == "begin" or depth != 1):
            continue
        if m[1] == "begin":
            depth += 1
            if depth == 1:
                k += 1
                open_at = m
                if k > max_tables:
                    raise TableReadError(f"{source}: more than {max_tables:,} tabulars; at "
                                         f"most {max_tables:,} are read from one file")
            continue
        if depth == 0:
            raise TableReadError(f"{source}, line {lines.line(m.start())}: \\end{{{m[2]}}} "
                                 "without a \\begin")
        depth -= 1
        if depth:
            continue
        env, here = open_at[2], f"{source}, tabular {k} (line {lines.line(open_at.start())})"
        if m[2] != env and not unclosed:
            raise TableReadError(f"{here}: \\begin{{{env}}} closed by \\end{{{m[2]}}}")
        try:
            start = _skip_args(text, open_at.end(), 2 if env in ("tabular*", "tabularx",
                                                               "tabulary") else 1)
        except TableReadError as exc:
            raise TableReadError(f"{here}: {exc}") from None
        body = text[start:m.start()]
        _rows_elsewhere(body, here)
        if _BEGIN.search(body):
            body = _flatten_nested(body)
        if defs:
            body = _expand(body, defs)
        rows, where, ruled = [], [], []
        try:
            for cells, w, rule in _latex_rows(body, start, lines):
                rows.append(cells)
                where.append(w)
                ruled.append(rule)
        except TableReadError as exc:
            raise TableReadError(f"{source}, tabular {k}, {exc}") from None
        if not rows:
            continue
        at = bisect.bisect_right(cap_starts, open_at.start()) - 1  # its table environment
        cap = captions[at][2] if at >= 0 and m.end() <= captions[at][1] else ""
        name = f"tabular {k}" + (f": {cap[:80]}" if cap else "")
        note = ([f"no \\end{{{env}}}: the rows up to \\end{{{m[2]}}} (line "
                 f"{lines.line(m.start())}) read as the table"] if unclosed else [])
        note += _notes_below(text, m.end(), captions[at][1] if cap else None, lines)
        out.append(LatexTable(name, rows, where, ruled, cap or "", note))
    if depth:
        raise TableReadError(f"{source}, tabular {k} (line {lines.line(open_at.start())}): "
                             f"no \\end{{{open_at[2]}}} (the file ends inside the table)")
    return out
