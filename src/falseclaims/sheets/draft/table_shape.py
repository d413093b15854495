"""What a sheet's rows say about its table as a whole, for the drafting assistant: rows
without a paper id (units under the header, totals below the data), rows wider than the
header, a header row that is data, a second table below the first, and rows that are a
meta-analysis's pooled estimates rather than papers. :mod:`roles` checks each column's role;
these checks look across the rows.
"""

from __future__ import annotations

import re

from falseclaims.io.raw_table import clean_text, is_missing
from falseclaims.sheets.draft.roles import is_measure, is_text


# the one text cell a row of column totals may carry ("counts", "Total", "percentages")
_SUMMARY_LABEL = re.compile(r"(?i)(totals?|sums?|means?|averages?|medians?|counts?|"
                            r"percent(ages?)?|%|overall|all|n)[:.]?")


# a summary written IN the paper-id column under the table ("Total", "Pooled (random
# effects)", "Overall / summary estimate"): made of these words only, never a paper's name
_SUMMARY_WORD = (r"(?:totals?|sums?|means?|averages?|medians?|overall|pooled|summary|all|"
                 r"estimates?|random|fixed|effects?|models?|studies|meta[- ]?analysis|"
                 r"weighted|combined|and|of|n)")
_SUMMARY_ID = re.compile(rf"(?i)\W*{_SUMMARY_WORD}(?:[\s/,;:()&+-]+{_SUMMARY_WORD})*\W*")
# a row of units under the header ("(patients)", "[%]", "(years)"): bracketed words only
_UNITS_CELL = re.compile(r"\(\s*[^()]{1,24}?\s*\)|\[\s*[^\[\]]{1,24}?\s*\]")
_SUMMARY_START = re.compile(r"(?i)\W*(totals?|overall|pooled|summary|sum)\b")
_SUMMARY_NEEDS = re.compile(r"(?i)total|pooled|overall|summary|sum\b|mean|average|median")


def idless_rows(t, guesses: list) -> tuple[list[int], list[tuple[int, int, str]]]:
    """Rows without a paper id under the table: those holding numbers only, and those
    holding numbers and one label naming a summary ("counts", "percentages") as (row,
    column, label): rows of totals. A row without an id holding other text is a paper.
    A row whose id cell is a summary label ("Total / pooled") over numbers only is a row
    of totals too (listed with its label, never counted as a paper)."""
    ids = [k for k, g in enumerate(guesses) if g.role == "paper_id"]
    if not ids:
        return [], []
    bare, labelled = [], []
    cells = [clean_text(str(row[ids[0]])) for _, row in t.rows if not is_missing(row[ids[0]])]
    # ids that are numbers but for a label or two (PMIDs, record numbers)
    numeric = len(cells) >= 3 and sum(not c.isdigit() for c in cells) <= max(2, len(cells) // 10)
    first = t.rows[0][0] if t.rows else None
    for r, row in t.rows:
        if r == first and (unit := _units_row(row, ids[0])) is not None:
            labelled.append((r, *unit))
            continue
        if not is_missing(row[ids[0]]):
            if (label := _summary_id(row, ids[0], numeric)) is not None:
                labelled.append((r, ids[0], label))
            continue
        filled = [c for c in row if not is_missing(c)]
        text = [(k, clean_text(str(c))) for k, c in enumerate(row)
                if not is_missing(c) and is_text(c)]
        if filled and not text:
            bare.append(r)
        elif len(text) == 1 and len(filled) > 2 and _SUMMARY_LABEL.fullmatch(text[0][1]):
            labelled.append((r, *text[0]))
    return bare, labelled


def _units_row(row, at: int) -> tuple[int, str] | None:
    """(column, label) of the row right under the header when it has no paper id and
    every filled cell is a bracketed unit ('(patients)', '[%]'): a units row, no paper."""
    if not is_missing(row[at]):
        return None
    filled = [(k, clean_text(str(c))) for k, c in enumerate(row) if not is_missing(c)]
    if filled and all(_UNITS_CELL.fullmatch(c) for _, c in filled):
        return filled[0]
    return None


def _summary_id(row, at: int, numeric_ids: bool = False) -> str | None:
    """The id cell's label when it names a summary and every other filled cell is a
    number (a paper's row names its method or data in words somewhere, or is a paper).
    Under ids that are all numbers (PMIDs), a label that begins with a summary word names
    one too ('Total of included studies 2025'); among text ids 'Overall survival' is a
    paper."""
    label = clean_text(str(row[at]))
    if not ((_SUMMARY_ID.fullmatch(label) and _SUMMARY_NEEDS.search(label)) or (
            numeric_ids and _SUMMARY_START.match(label))):
        return None
    others = [c for k, c in enumerate(row) if k != at and not is_missing(c)]
    return label if others and not any(is_text(c) for c in others) else None


def ragged_rows(t) -> tuple[int, int, int] | None:
    """(first such row, fields the header names, that row's fields) when most rows of a
    text file hold values past the last named column: more fields than the header (an
    author list with unquoted commas; a column name left out) shifts every cell after it,
    so no column can be trusted. A spreadsheet's unnamed column is no such sign."""
    if str(t.file).lower().endswith((".xlsx", ".xlsm", ".xls")) or not t.rows:
        return None
    named = len(t.header)
    while named and t.header[named - 1] in t.headerless:
        named -= 1
    if named == len(t.header) or not named:
        return None
    wide = [(r, max(k for k, c in enumerate(row) if not is_missing(c)) + 1)
            for r, row in t.rows if any(not is_missing(c) for c in row[named:])]
    if len(wide) < max(1, 0.8 * len(t.rows)):
        return None
    return wide[0][0], named, wide[0][1]


_EXTENSION = re.compile(r"\.[a-z]{2,4}$", re.I)
_PACKED = re.compile(r"[#$|]")


def _share(col: list[str], test) -> float:
    return sum(map(test, col)) / len(col) if col else 0.0


def header_as_data(t) -> str | None:
    """Why the header row is a row of data (the file has no header), or None: every name
    holds a digit and most are shaped like their column's cells (a file name ending as
    80 % of the cells end, '.pdf'; a cell packing values with '#', '$' or '|' like 80 % of
    the cells; a number over numbers). A results file without a header row had its first
    paper read as the column names, the rest as 345 papers, and passed the check."""
    names = [h for h in t.header if h not in t.headerless]
    if t.header_row != 1 or not t.rows or not names or \
            not all(re.search(r"\d", h) for h in names):
        return None
    like = []
    for k, h in enumerate(t.header):
        col = [str(row[k]) for _, row in t.rows if k < len(row) and not is_missing(row[k])]
        ext, packed = _EXTENSION.search(h), _PACKED.findall(h)
        if ext and _share(col, lambda c: c.lower().endswith(ext.group().lower())) >= 0.8:
            like.append(f"{t.letters[k]} {h!r} ends in {ext.group()!r} like its cells")
        elif packed and _share(col, lambda c: bool(_PACKED.search(c))) >= 0.8:
            like.append(f"{t.letters[k]} {h!r} packs values with {packed[0]!r} like its cells")
        elif is_measure(h) and _share(col, is_measure) >= 0.8:
            like.append(f"{t.letters[k]} {h!r} is a number like its cells")
    return "; ".join(like) if 2 * len(like) >= len(names) else None


def second_table(rows: list) -> tuple[int, list[str]] | None:
    """(row, its names) when a second, narrower table stands below the first: after an
    empty row, a row of names only (no number) filling at most half the columns a row of
    the table fills, and no row below it wider (a summary per extractor under the
    extraction). Its rows would be read as papers."""
    widths = [sum(not is_missing(c) for c in row) for _, row in rows]
    for i in range(1, len(rows) - 1):
        if rows[i][0] - rows[i - 1][0] < 2:
            continue
        filled = [c for c in rows[i][1] if not is_missing(c)]
        typical = sorted(widths[:i])[i // 2]
        if len(filled) < 2 or 2 * len(filled) > typical or \
                any(not is_text(c) for c in filled) or max(widths[i + 1:]) > len(filled):
            continue
        return rows[i][0], [clean_text(str(c)) for c in filled]
    return None


# a meta-analysis's count of studies pooled on a row ('k', 'No. of studies')
POOLED_COUNT = re.compile(r"(?i)\s*(k|(no\.?|number) of (studies|trials|effect sizes)|"
                          r"studies)\s*")
# an estimate with its interval in one cell: '0.29 [0.24, 0.34]', '1.2 (0.9-1.6)'
_WITH_INTERVAL = re.compile(r"\s*-?\d+(\.\d+)?\s*[\[(]\s*-?\d+(\.\d+)?\s*"
                            r"(,|;|-|–|to)\s*-?\d+(\.\d+)?\s*[\])]\s*")


def pooled_estimates(g) -> str | None:
    """Why the rows are a meta-analysis's pooled estimates, not papers, or None: no
    column names a paper, one counts the studies pooled ('k') and one holds estimates
    with their intervals ('0.29 [0.24, 0.34]'). Fourteen such rows had passed the check
    as 14 papers with 'k' as the test-set size."""
    if any(c.role in ("paper_id", "title") for c in g.columns):
        return None
    count = next((c for c in g.columns if POOLED_COUNT.fullmatch(c.name)), None)
    packed = next((c for c in g.columns if c.examples
                   and all(_WITH_INTERVAL.fullmatch(e) for e in c.examples)), None)
    if count is None or packed is None:
        return None
    return (f"the rows ({g.n_rows}) are pooled estimates of a meta-analysis, not papers: "
            f"{count.letter} {count.name!r} counts the studies pooled on each row and "
            f"{packed.letter} {packed.name!r} holds an estimate with its interval "
            f"({packed.examples[0]!r}); no column names a paper")
