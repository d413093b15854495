"""Rows that are not data: repeated header rows, formula rows and rows matching the venue's
``skip_rows_where`` rules are removed before parsing, each with a row of notes. Paper ids
generated from a template or the row number (``id:``) are made here too.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from falseclaims.io.raw_table import clean_text, is_missing
from falseclaims.io.raw_reader import ColumnRows, RawTable, col_letter
from falseclaims.sheets.read.records import SheetRecord

__all__ = ["STEM", "column_ref", "release_problems", "resolve_column", "skip_rows", "generate_ids", "fold_name",
           "group_paper_rows", "group_long_rows"]

_LETTER_REF = re.compile(r"^(?:@|column\s+)([A-Za-z]{1,3}|[1-9]\d{0,4})$", re.I)


def column_ref(name: str) -> str | None:
    """'@J', 'column J', '@10' or 'column 10' -> 'J' (a reference by spreadsheet letter or
    1-based position), else None."""
    m = _LETTER_REF.match(clean_text(name))
    if not m:
        return None
    ref = m.group(1)
    return col_letter(int(ref) - 1)[len("column "):] if ref.isdigit() else ref.upper()


def resolve_column(table: RawTable, name: str) -> int | None:
    """Index in ``table.header`` of a column given by its name or its letter."""
    letter = column_ref(name)
    if letter is not None:
        return table.letters.index(letter) if letter in table.letters else None
    name = clean_text(name)
    return table.header.index(name) if name in table.header else None


def _is_repeated_header(table: RawTable, row: list, names: list[str]) -> bool:
    same = sum(1 for c, h in zip(row, names) if isinstance(c, str) and clean_text(c).lower() == h)
    if same < 2:
        return False
    return 2 * same >= sum(1 for c in row if not is_missing(c))


def _header_like(rows: list, names: list[str]) -> set[int]:
    """Indices of the rows with at least two cells equal to their column's name (cleaned,
    lower-cased): the only rows :func:`_is_repeated_header` can accept. Column by column,
    each distinct cell text cleaned once (10^6 rows: no per-cell Python unless a column
    holds its own name)."""
    counts: dict[int, int] = {}
    columns = rows.columns if isinstance(rows, ColumnRows) else zip(*(row for _, row in rows))
    for h, col in zip(names, columns):
        match = {c for c in set(col) if isinstance(c, str) and clean_text(c).lower() == h}
        if match:
            for i, c in enumerate(col):
                if c in match:
                    counts[i] = counts.get(i, 0) + 1
    return {i for i, n in counts.items() if n >= 2}


def skip_rows(table: RawTable, rules: dict | None, where: str) -> None:
    """Drop repeated headers, formula rows and rows matched by ``rules`` ({column: regex}),
    noting each. A rule whose column this table lacks is returned unused (checked across
    the venue's tables by the caller)."""
    compiled = []
    for col, pattern in (rules or {}).items():
        j = resolve_column(table, str(col))
        if j is None:
            continue
        # found before ``ignore`` columns are dropped: a rule may key on one (its label)
        table.skip_columns_found = getattr(table, "skip_columns_found", set()) | {str(col)}
        try:
            compiled.append((col, j, pattern, re.compile(str(pattern))))
        except re.error as exc:
            table.problem(None, str(col), pattern,
                          f"a valid regular expression in {where} skip_rows_where ({exc})")
    kept = []
    names = [h.lower() for h in table.header]
    header_like = _header_like(table.rows, names)
    if not header_like and not table.formulas and not compiled:
        return  # nothing to skip (the usual case)
    for i, (rownum, row) in enumerate(table.rows):
        why = None
        if i in header_like and _is_repeated_header(table, row, names):
            why = "repeated header row skipped"
        elif table.formulas:
            filled = [k for k, c in enumerate(row) if not is_missing(c)]
            if filled and all((rownum, k) in table.formulas for k in filled):
                why = (f"formula row skipped (e.g. {table.formulas[(rownum, filled[0])]!r} "
                       f"in column {table.header[filled[0]]!r})")
        if why is None:
            for col, j, pattern, rx in compiled:
                text = "" if is_missing(row[j]) else clean_text(row[j])
                if rx.search(text):
                    why = (f"skipped by skip_rows_where {{{col!r}: {pattern!r}}}: column "
                           f"{table.header[j]!r} holds {text!r}")
                    break
        if why is None:
            kept.append((rownum, row))
        else:
            cells = "; ".join(clean_text(c) for c in row if not is_missing(c))
            table.note(rownum, None, cells[:200], why)
    table.rows = kept


# an id template field "{Study|stem}": the cell without a part number ("S24-3" -> "S24")
# or part letter after the study number ("S24c" -> "S24"), for ids numbering the parts
# (test sets, cohorts) of one study; an id ending in a year keeps its letter ("Li 2019a")
STEM = "|stem"
_PART = re.compile(r"(?<=.)[-_.]\d$|(?<=\d)(?<!(?<!\d)19\d\d)(?<!(?<!\d)20\d\d)[A-Za-z]$")


def generate_ids(table: RawTable, spec: str, dedupe: bool) -> str | None:
    """Add a column of paper ids from ``spec``: "row" (the spreadsheet row number) or a
    template naming columns in braces ("{Authors} {Year}"). Duplicates get " (2)", " (3)"
    when ``dedupe`` (the papers or wide table), each noted. Returns the new column's name
    (None when the template names a column this table lacks: a problem of the table)."""
    name = "(generated id)"
    fields = re.findall(r"{([^{}]+)}", spec)
    idx, stems = {}, set()
    for f in fields:
        j = resolve_column(table, f)
        if j is None and f.endswith(STEM):
            j = resolve_column(table, f[:-len(STEM)])
            stems.add(f)
        if j is None:
            table.problem(None, f, spec, "a column of this table for the id template "
                                         f"(found: {', '.join(table.header)})")
            return None
        idx[f] = j
    if spec != "row" and not fields:
        table.problem(None, None, spec, "id: 'row' or a template naming columns in braces, "
                                        "e.g. '{Authors} {Year}'")
        return None
    seen: dict[str, int] = {}
    rows = []
    for rownum, row in table.rows:
        if spec == "row":
            pid = f"row {rownum}"
        else:
            pid = spec
            for f, j in idx.items():
                cell = "" if is_missing(row[j]) else clean_text(row[j])
                pid = pid.replace("{" + f + "}", _PART.sub("", cell) if f in stems else cell)
            pid = clean_text(pid)
        if pid and dedupe:
            seen[pid] = seen.get(pid, 0) + 1
            if seen[pid] > 1:
                new = f"{pid} ({seen[pid]})"
                table.note(rownum, name, new, f"generated id {pid!r} already used; "
                                              f"this row's id is {new!r}")
                pid = new
        rows.append((rownum, [*row, pid or None]))
    table.rows = rows
    table.header = [*table.header, name]
    table.letters = [*table.letters, ""]
    table.note(None, name, spec, f"paper ids generated from {spec!r} (config id:)")
    return name


def fold_name(name):
    """A method name as compared within a paper: case and runs of white space ignored
    ('Ours' and 'ours ' are one method written twice)."""
    return " ".join(name.split()).casefold() if isinstance(name, str) else name


def _is_bad(r: SheetRecord, col: str | None = None) -> bool:
    """An unreadable cell in the row (in column ``col``, when given)."""
    return col in r.bad if col else bool(r.bad)


def _note_unused(rows: list, used, table: RawTable, key, unused: set, text: str) -> None:
    """Every row of a paper but ``used`` noted with ``text`` and added to ``unused``."""
    for r in rows:
        if r is not used:
            unused.add(r.row)
            table.note(r.row, r.name("paper_id"), key, text)


def _by_paper(records: list) -> tuple[list, dict]:
    """(paper keys in sheet order, {key: its records}); a row without an id is its own."""
    groups: dict = {}
    order = []
    for rec in records:
        pid = rec.get("paper_id")
        key = pid if pid is not None else ("row", rec.row)
        if key not in groups:
            order.append(key)
        groups.setdefault(key, []).append(rec)
    return order, groups


def group_paper_rows(records: list[SheetRecord], table: RawTable) -> list[SheetRecord]:
    """``group_rows_by_id: true`` (wide layout): the rows sharing a paper id are one paper
    (one row per data set, say). The paper contributes the comparison of its first row,
    in sheet order, whose cells are readable and that has both a proposed and a best-prior
    value (or compared values), else its first row; each other row is noted with the row
    used, so every row is accounted for."""
    order, groups = _by_paper(records)

    def complete(r):
        return r.get("value_proposed") is not None and not _is_bad(r) and (
            r.get("value_best_prior") is not None or r.get("values_compared"))

    out, unused = [], set()
    for key in order:
        rows = groups[key]
        used = next((r for r in rows if complete(r)), rows[0])
        out.append(used)
        _note_titles(rows, table, key)
        _note_unused(rows, used, table, key, unused,
                     f"further row of paper {key!r} not used: a paper contributes one "
                     f"comparison, that of row {used.row} (its first readable row "
                     "with both values; config group_rows_by_id)")
    _release_unused(table, unused)
    return out


def _note_titles(rows: list, table: RawTable, key) -> None:
    """Grouped rows whose titles differ: different papers sharing an id? (noted; the
    draft gives them their own ids, sheets/draft/repeats.py)."""
    titles = {}
    for r in rows:
        t = r.get("title")
        if isinstance(t, str) and t.strip():
            titles.setdefault(" ".join(t.split()).casefold(), (t, r.row))
    if len(titles) > 1:
        (a, ra), (b, rb) = list(titles.values())[:2]
        table.note(rb, "title", b, f"rows {ra} and {rb} of paper {key!r} have different "
                   f"titles ({a!r}, {b!r}) but are read as one paper (group_rows_by_id): "
                   "if they are different papers, the comparison of one is not used; give "
                   "each its own id (cell_overrides)")


def _blocks(rows: list) -> list[list]:
    """A paper's results rows cut into comparisons (one per data set, say): a new block
    starts where a method (case and spaces ignored) and metric repeat in the block."""
    blocks, seen = [], set()
    for r in rows:
        key = (fold_name(r.get("method")), r.get("metric"))
        if not blocks or key in seen:
            blocks.append([])
            seen = set()
        blocks[-1].append(r)
        seen.add(key)
    return blocks


def _compares(block: list, metrics: Collection[str] | None = None) -> bool:
    """Two methods with a readable value for one metric (one of ``metrics``, lower case,
    when given): a comparison."""
    valued: dict = {}
    for r in block:
        if r.get("value") is not None and not _is_bad(r, "value"):
            valued[r.get("metric")] = valued.get(r.get("metric"), 0) + 1
    return any(n >= 2 for m, n in valued.items()
               if metrics is None or str(m).strip().lower() in metrics)


def _span(rows: list) -> str:
    nums = [r.row for r in rows]
    return f"row {nums[0]}" if len(nums) == 1 else f"rows {min(nums)}-{max(nums)}"


def group_long_rows(precs: list[SheetRecord], rrecs: list[SheetRecord], ptab: RawTable,
                    rtab: RawTable, primary: Collection[str] = ()
                    ) -> tuple[list[SheetRecord], list[SheetRecord]]:
    """``group_rows_by_id: true`` (long layout): the papers rows sharing an id are one
    paper, and its results rows (one per method) are cut into blocks, a new block where
    a method and metric repeat (one block per data set, say). The paper contributes one
    comparison: its first block, in sheet order, with two methods valued for one of the
    ``primary`` metrics (lower-case names, config ``analysis.metrics``), else its first
    with two methods valued for any metric (a PSNR block before the Dice block must not
    stand for the paper), else its first block. Its papers row is the one in the same
    position as that block when the paper has as many papers rows as blocks, else its
    first readable row. Every other row of both tables is noted with the rows used."""
    rorder, rgroups = _by_paper(rrecs)
    used_block: dict = {}
    rout, runused = [], set()
    for key in rorder:
        blocks = _blocks(rgroups[key])
        first = next((i for i, b in enumerate(blocks) if _compares(b)), 0)
        k = next((i for i, b in enumerate(blocks) if primary and _compares(b, primary)),
                 first)
        which = ("its first with two methods valued" if k == first else
                 "its first with two methods valued for a primary metric, config "
                 "analysis.metrics")
        used_block[key] = (k, len(blocks))
        rout += blocks[k]
        for i, b in enumerate(blocks):
            if i == k:
                continue
            for r in b:
                runused.add(r.row)
                rtab.note(r.row, r.name("paper_id"), key,
                          f"further results row of paper {key!r} not used: a paper "
                          f"contributes one comparison, that of {_span(blocks[k])} (block "
                          f"{k + 1} of {len(blocks)}: a block ends where a method and metric "
                          f"repeat; {which}; config group_rows_by_id)")
    rout.sort(key=lambda r: r.row)
    porder, pgroups = _by_paper(precs)
    pout, punused = [], set()
    for key in porder:
        rows = pgroups[key]
        k, n = used_block.get(key, (0, 0))
        if len(rows) > 1 and len(rows) == n:
            used, why = rows[k], f"the papers row of results block {k + 1} of {n}"
        else:
            used = next((r for r in rows if not _is_bad(r)), rows[0])
            why = "its first readable papers row"
        pout.append(used)
        _note_titles(rows, ptab, key)
        _note_unused(rows, used, ptab, key, punused,
                     f"further papers row of paper {key!r} not used: the paper is "
                     f"row {used.row} ({why}; config group_rows_by_id)")
    _release_unused(ptab, punused)
    _release_unused(rtab, runused)
    return pout, rout


def _release_unused(table: RawTable, unused: set[int]) -> None:
    """An unreadable cell in a row that is not used changes nothing: a note, not a problem."""
    release_problems(table, lambda k, p: k in table.cell_problems and p.row in unused,
                     "unreadable cell in a row not used (group_rows_by_id); expected ")


def release_problems(table: RawTable, unused, why: str) -> None:
    """Problems ``unused(index, problem)`` says stop nothing become notes (``why`` + what
    was expected); the indices of the cell problems left are kept in step."""
    keep, cell = [], set()
    for k, p in enumerate(table.problems):
        if unused(k, p):
            table.note(p.row, p.column, p.value, f"{why}{p.expected}")
            continue
        if k in table.cell_problems:
            cell.add(len(keep))
        keep.append(p)
    table.problems, table.cell_problems = keep, cell
