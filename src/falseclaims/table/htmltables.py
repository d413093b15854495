"""HTML ``<table>`` elements inside a Markdown file (README leaderboards, challenge pages):
their rows as printed cells, ``rowspan``/``colspan`` repeated into the cells they cover.

READMEs print HTML tables where a pipe table cannot hold the shape (a data-set name over
several metric columns, a method name over two header rows). The standard library's
:class:`html.parser.HTMLParser` reads them; no HTML library is needed for this subset.
``<b>``/``<strong>`` become ``**...**`` so that bold marks a winner as in a pipe table. The
header rows are found as in every format (the leading rows without a number), not from
``<thead>``/``<th>``: READMEs mark sub-headers with ``<td>``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

__all__ = ["HtmlTable", "html_tables"]

_TABLE_TAG = re.compile(r"(?i)<(/?)table\b[^>]*>")
MAX_SPAN = 1_000  # a rowspan/colspan of 10**9 is refused by the caller's column limit


@dataclass
class HtmlTable:
    line: int                       # line of the <table> tag in the file
    rows: list[list[str]] = field(default_factory=list)
    where: list[str] = field(default_factory=list)   # "line N" of each <tr>
    closed: bool = True             # False: no </table>, read to the end of the file
    end: int = 0                    # line of the </table> tag
    caption: str = ""               # the text of its <caption>


class _Parser(HTMLParser):
    def __init__(self, first_line: int):
        super().__init__(convert_charrefs=True)
        self.first_line = first_line
        self.rows: list[list[tuple[str, int, int]]] = []
        self.where: list[str] = []
        self._cell: list[str] | None = None
        self._span = (1, 1)
        self._nested = 0
        self.caption: list[str] = []
        self._in_caption = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table":
            self._nested += 1
        elif self._nested > 1:
            return
        elif tag == "caption":
            self._in_caption = True
        elif tag == "tr":
            self._close_cell()
            self.rows.append([])
            self.where.append(f"line {self.first_line + self.getpos()[0] - 1}")
        elif tag in ("td", "th"):
            self._close_cell()
            if not self.rows:  # a cell before any <tr>
                self.handle_starttag("tr", [])
            self._cell = []
            self._span = (_span(a.get("rowspan")), _span(a.get("colspan")))
        elif tag in ("b", "strong") and self._cell is not None:
            self._cell.append("**")
        elif tag == "br" and self._cell is not None:
            self._cell.append(" ")

    def handle_endtag(self, tag):
        if tag == "table":
            self._nested -= 1
        elif self._nested > 1:
            return
        elif tag in ("td", "th", "tr"):
            self._close_cell()
        elif tag == "caption":
            self._in_caption = False
        elif tag in ("b", "strong") and self._cell is not None:
            self._cell.append("**")

    def handle_data(self, data):
        if self._cell is not None and self._nested == 1:
            self._cell.append(data)
        elif self._in_caption and self._nested == 1:
            self.caption.append(data)

    def close(self):
        super().close()
        self._close_cell()  # a last cell without its closing tag

    def _close_cell(self):
        if self._cell is None:
            return
        text = re.sub(r"\s+", " ", "".join(self._cell)).strip()
        text = re.sub(r"\*\*\s*\*\*", "", text)  # an empty bold
        self.rows[-1].append((text, *self._span))
        self._cell = None


def _span(value) -> int:
    try:
        return max(1, min(int(str(value).strip()), MAX_SPAN))
    except (TypeError, ValueError):
        return 1


def _grid(parsed: _Parser) -> list[list[str]]:
    """Cells placed in a grid: a rowspan repeats the cell down, a colspan to the right."""
    grid: list[list[str]] = []
    pending: dict[tuple[int, int], str] = {}   # (row, column) filled by a rowspan above
    for r, cells in enumerate(parsed.rows):
        row: list[str] = []
        for text, rowspan, colspan in cells:
            while (r, len(row)) in pending:
                row.append(pending.pop((r, len(row))))
            for _ in range(colspan):
                col = len(row)
                row.append(text)
                for below in range(1, rowspan):
                    pending[(r + below, col)] = text
        while (r, len(row)) in pending:
            row.append(pending.pop((r, len(row))))
        grid.append(row)
    return grid


def _top_level(text: str) -> list[tuple[int, int, bool]]:
    """(start, end) of each outermost ``<table>``: a table nested in a cell stays inside its
    table; one never closed runs to the end of the text."""
    spans, depth, start = [], 0, 0
    for m in _TABLE_TAG.finditer(text):
        if not m[1]:
            if depth == 0:
                start = m.start()
            depth += 1
        elif depth:
            depth -= 1
            if depth == 0:
                spans.append((start, m.end(), True))
    if depth:
        spans.append((start, len(text), False))
    return spans


def html_tables(text: str) -> list[HtmlTable]:
    """Every top-level ``<table>`` of ``text`` with at least one row."""
    out = []
    for start, end, closed in _top_level(text):
        line = text.count("\n", 0, start) + 1
        parser = _Parser(line)
        parser.feed(text[start:end])
        parser.close()
        grid = _grid(parser)
        keep = [k for k, row in enumerate(grid) if any(c.strip() for c in row)]
        if not keep:
            continue
        out.append(HtmlTable(line, [grid[k] for k in keep], [parser.where[k] for k in keep],
                             closed, text.count("\n", 0, end) + 1,
                             re.sub(r"\s+", " ", "".join(parser.caption)).strip()))
    return out
