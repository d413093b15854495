"""Repeated paper ids in consecutive rows: one paper over several rows, or different papers
that share a short reference ("Li 2022" twice)? ``sheet inspect --write`` decides from the
evidence in the rows, in this order:

1. an identifying column (a title, DOI, URL, PubMed/arXiv id, journal, year or authors
   column, or one whose every cell cites a study: 'Barrett et al. (2017)') holding two
   different filled values: **different papers**;
2. a column naming data sets (header "data set", "dataset", "cohort", ... or cells such as
   "dataset 1", "cohort B") holding different values: **one paper** over its data sets;
3. a title, DOI, URL or study citation filled and the same on every row: **one paper**;
4. a study-design column (task, split, statistical test, uncertainty, scope, claims, bold
   face) holding different values: **different papers** (one paper's data sets share its
   design; a test-set size or a value may differ between data sets and is no evidence);
5. otherwise **unsure**: drafted as one paper and listed as unsure.

Ids repeating in scattered rows are decided the same way over all rows of each id
(:func:`scattered_verdict`); with a title column, :func:`title_ids` tells papers apart by
their titles whatever the id style.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from falseclaims.io.raw_table import clean_text, is_missing
from falseclaims.sheets.draft.inspect import year_row
from falseclaims.sheets.draft.locate import find_header
from falseclaims.sheets.read.rows import fold_name, skip_rows

__all__ = ["Run", "repeat_runs", "title_ids", "numbered_parts", "rows_text"]


def rows_text(rows) -> str:
    """Row numbers as a remark shows them: runs of consecutive rows as ranges ('2-480, 482'),
    so a paper over 480 rows takes one line, not 480 numbers."""
    out, rows = [], sorted(rows)
    start = prev = None
    for r in [*rows, None]:
        if start is not None and (r is None or r != prev + 1):
            out.append(str(start) if start == prev else
                       f"{start}, {prev}" if prev == start + 1 else f"{start}-{prev}")
            start = None
        if r is not None and start is None:
            start = r
        prev = r
    return ", ".join(out)

_IDENTIFYING = re.compile(r"(?i)title|\bdoi\b|\burl\b|\blink\b|pmid|pubmed|arxiv|journal|"
                          r"^year$|\bauthors?\b|first author")
# identifiers of one publication (not a year, journal or author list shared by several)
_STRONG_ID = re.compile(r"(?i)title|\bdoi\b|\burl\b|\blink\b|pmid|pubmed|arxiv")
_DATASET_HEADER = re.compile(r"(?i)data\s*-?sets?|cohort|\bcent(er|re)s?\b|\bsites?\b|"
                             r"\borgans?\b|\bstructures?\b|\btargets?\b")
_DATASET_CELL = re.compile(r"(?i)^(?:data\s*-?set|cohort|cent(?:er|re)|site|organ)\s*\S+|"
                           r"\bdata\s*-?set\b")
# a cell citing one study: 'Barrett et al. (2017)', 'Hasler et al 2004', 'Li and Wu, 2020',
# 'Carter (2005)'; a capital first letter, the year apart, and 'et al.', a second author or
# the year in brackets: never a data set's 'nina_2024' or 'BraTS 2019'
_NAME = r"[^\W\d_][^\s\d_(),;]*"
_REFERENCE_CELL = re.compile(
    rf"{_NAME}(?:(?:\s+(?:and|&)\s+{_NAME}|\s+[Ee][Tt]\s+[Aa][Ll]\.?),?\s*\(?\s*"
    rf"(?:19|20)\d\d[a-z]?\)?|\s*\(\s*(?:19|20)\d\d[a-z]?\s*\))")
_DESIGN = ("task", "split", "statistical_test", "uncertainty", "in_scope",
           "claims_outperformance", "bold_best", "values_only_in_figures")


@dataclass
class Run:
    """Consecutive rows (sheet row numbers) sharing the id ``pid``, and the verdict:
    "different" papers, the "same" paper, or "unsure"; ``evidence`` says why."""

    pid: str
    rows: list[int]
    verdict: str
    evidence: str
    later: list[int] = field(default_factory=list)  # rows after the first


def _text(v) -> str:
    return "" if is_missing(v) else clean_text(str(v))


def _differs(cells: list) -> tuple[str, str] | None:
    """Two different filled values of one column (case and spaces ignored), else None."""
    seen: dict[str, str] = {}
    for c in cells:
        t = _text(c)
        if t:
            seen.setdefault(" ".join(t.split()).casefold(), t)
    vals = list(seen.values())
    return (vals[0], vals[1]) if len(vals) > 1 else None


def _references(cells: list) -> bool:
    """Every filled cell cites one study ('Barrett et al. (2017)'): a column naming the
    paper whatever its header ('PlotLabel')."""
    texts = [_text(x) for x in cells if _text(x)]
    return bool(texts) and all(t[0].isupper() and _REFERENCE_CELL.fullmatch(t) for t in texts)


def _verdict(rows: list[list], columns: list, id_col: int) -> tuple[str, str]:
    """(verdict, evidence) for the rows of one run; ``columns`` are the ColumnGuesses."""
    def column_cells(j):
        return [r[j] for r in rows]

    def say(c, pair):
        return f"column {c.name!r} holds {pair[0]!r} and {pair[1]!r}"

    def identifying(j, c, named: bool):
        return j != id_col and (c.role == "title" or named or _references(column_cells(j)))

    for j, c in enumerate(columns):
        if identifying(j, c, bool(_IDENTIFYING.search(c.name))):
            pair = _differs(column_cells(j))
            if pair:
                return "different", say(c, pair)
    for j, c in enumerate(columns):
        cells_ = column_cells(j)
        if j == id_col or c.role.startswith(("value", "n_")):
            continue
        named = _DATASET_HEADER.search(c.name) or all(
            _DATASET_CELL.search(_text(x)) for x in cells_ if _text(x))
        pair = _differs(cells_) if named else None
        if pair and any(_text(x) for x in cells_):
            return "same", say(c, pair) + " (data sets of one paper)"
    for j, c in enumerate(columns):  # a title, DOI, URL or reference the same on every row
        if identifying(j, c, bool(_STRONG_ID.search(c.name.replace("_", " ")))):
            cells_ = [_text(x) for x in column_cells(j)]
            if all(cells_) and len({" ".join(x.split()).casefold() for x in cells_}) == 1:
                return "same", f"column {c.name!r} holds {cells_[0][:60]!r} on every row"
    for j, c in enumerate(columns):
        if j != id_col and c.role in _DESIGN:
            pair = _differs(column_cells(j))
            if pair:
                return "different", say(c, pair) + f" (its {c.role.replace('_', ' ')})"
    return "unsure", "no title, DOI, data-set or study-design column tells them apart"


def repeat_runs(g) -> list[Run]:
    """The runs of consecutive rows sharing a paper id in the sheet of ``g`` (a
    SheetGuess), each with its verdict; [] without an id column."""

    id_cols = [k for k, c in enumerate(g.columns) if c.role == "paper_id"]
    if not id_cols:
        return []
    t, _, _ = find_header(Path(g.file), g.sheet, g.header_row, g.header_rows)
    skip_rows(t, None, "")
    k = id_cols[0]
    out: list[Run] = []
    run: list = []
    for rownum, cells in [*t.rows, (None, None)]:
        pid = _text(cells[k]) if cells is not None else ""
        if run and pid == _text(run[0][1][k]):
            run.append((rownum, cells))
            continue
        if len(run) > 1:
            verdict, why = _verdict([c for _, c in run], g.columns, k)
            nums = [r for r, _ in run]
            out.append(Run(_text(run[0][1][k]), nums, verdict, why, nums[1:]))
        run = [(rownum, cells)] if pid and not year_row(cells, k) else []
    return out


def repeated_methods(g) -> list[tuple[str, list[int], list[int]]]:
    """Results table of the long layout: (paper id, rows first holding a method and
    metric, rows repeating them) where a paper's method and metric repeat (one block of
    method rows per data set?); [] when none or without id and method columns."""

    roles = {c.role: k for k, c in reversed(list(enumerate(g.columns)))}
    if "paper_id" not in roles or "method" not in roles:
        return []
    t, _, _ = find_header(Path(g.file), g.sheet, g.header_row, g.header_rows)
    skip_rows(t, None, "")
    i, m, x = roles["paper_id"], roles["method"], roles.get("metric")
    seen: dict = {}
    out: dict[str, tuple[list[int], list[int]]] = {}
    for rownum, cells in t.rows:
        pid = _text(cells[i])
        key = (pid, fold_name(_text(cells[m])), "" if x is None else _text(cells[x]).lower())
        if pid and key in seen:
            first, again = out.setdefault(pid, ([], []))
            first.append(seen[key])
            again.append(rownum)
        seen.setdefault(key, rownum)
    return [(p, sorted(set(a)), b) for p, (a, b) in out.items()]


@dataclass
class TitleIds:
    """Papers told apart by their titles: the ``id:`` template (None: the id column as
    mapped), whether rows sharing an id are one paper (``group_rows_by_id``), the id
    column left unmapped (it is in the template) and why."""

    spec: str | None
    group: bool
    unmapped: str | None
    evidence: str


def title_ids(g, key) -> TitleIds | None:
    """One paper over several rows, decided by the title whatever the id style: no id
    column, an id per row (``#``, a record number) while titles repeat, ids repeating in
    consecutive or scattered rows, one id for two papers (``Li 2021``). ``key(column)`` is
    the name a column is mapped by. None where the title decides nothing (no title column
    or an empty title cell: :func:`repeat_runs` decides from the other evidence)."""
    tk = next((k for k, c in enumerate(g.columns) if c.role == "title"), None)
    if tk is None:
        return None
    ik = next((k for k, c in enumerate(g.columns) if c.role == "paper_id"), None)
    t, _, _ = find_header(Path(g.file), g.sheet, g.header_row, g.header_rows)
    skip_rows(t, None, "")
    rows = [(_text(r[tk]), _text(r[ik]) if ik is not None else "") for _, r in t.rows
            if any(not is_missing(c) for c in r)]
    if not rows or any(not title for title, _ in rows):
        return None
    fold = [(" ".join(a.split()).casefold(), b) for a, b in rows]
    titles, ids, pairs = {a for a, _ in fold}, {b for _, b in fold}, set(fold)
    title = g.columns[tk]
    over = f"{len(titles)} titles over {len(rows)} rows: one paper over several rows"
    if ik is None:
        group = len(titles) < len(rows)
        return TitleIds("{" + key(title) + "}", group, None,
                        f"no paper-id column: papers told apart by column {title.name!r}"
                        + (f" ({over})" if group else ""))
    idc = g.columns[ik]
    bib = any(c.bibtex and c.unique for c in g.columns)
    if len(ids) == len(rows):
        # a column of distinct BibTeX entries beside the record number: a shared title
        # is two entries (a workshop and a conference paper), not one paper over two rows
        if len(titles) == len(rows) or _STRONG_ID.search(idc.name) or idc.bibtex or bib:
            # one row per paper; or an id naming a publication (PMID, DOI, arXiv, a BibTeX
            # key): a
            # title shared by two of them is two records, not one paper over two rows
            return None
        return TitleIds("{" + key(title) + "}", True, key(idc),
                        f"column {idc.name!r} differs on every row but {over}: a record "
                        f"number, not a paper id; papers told apart by column {title.name!r}")
    if not _scattered([b for _, b in fold]) and all(
            len({a for a, _ in run}) in (1, len(run)) for run in _runs(fold)):
        return None  # consecutive runs of one paper or of different papers: repeat_runs
    if len(pairs) == len(titles) == len(ids):  # each id names one title: the id decides
        return TitleIds(None, True, None, f"each id of column {idc.name!r} names one title "
                        f"of column {title.name!r} ({over})")
    if len(titles) == len(rows):  # every row its own title: the id column names authors
        return TitleIds("{" + key(title) + "}", False, key(idc),
                        f"column {idc.name!r} repeats ({len(ids)} values over {len(rows)} "
                        f"rows) where column {title.name!r} differs on every row: not a "
                        f"paper id; papers told apart by column {title.name!r}")
    return TitleIds("{" + key(idc) + "}: {" + key(title) + "}", len(pairs) < len(rows),
                    key(idc), f"ids of column {idc.name!r} name {len(pairs)} different "
                    f"(id, title) pairs ({len(ids)} ids, {len(titles)} titles over "
                    f"{len(rows)} rows): papers told apart by id and title")


# "S24-3": part 3 of study S24 (its third test set or cohort), "S24c" the same with a
# letter after the study number; the reader strips either from an id template field
# written "{column|stem}" (falseclaims.sheets.read.rows.STEM)
_PART = re.compile(r"(.+?)[-_.](\d)|(.+?\d)([A-Za-z])")
# "Li 2019a", "Li 2019b": two papers of one author and year, never parts of one study
_YEAR_END = re.compile(r"(?<!\d)(?:19|20)\d\d$")


def _part(pid: str) -> tuple[str, int, str] | None:
    """(stem, part number, kind) of an id numbering a part ("S24-3" -> S24, 3, "digit";
    "S24c" -> S24, 3, "lower"); None for a plain id or an author-year letter."""
    m = _PART.fullmatch(pid)
    if not m:
        return None
    if m[1] is not None:
        return m[1], int(m[2]), "digit"
    if _YEAR_END.search(m[3]):
        return None
    return m[3], ord(m[4].lower()) - ord("a") + 1, "lower" if m[4].islower() else "upper"


def numbered_parts(g, key) -> TitleIds | None:
    """Ids numbering the parts of one study (``S10, S11-1, S11-2, S12`` or ``S10, S11a,
    S11b, S12``): every id distinct, each numbered stem over consecutive rows numbered 1,
    2, ... (a, b, ...; one style per stem; at most 9 digit parts; one stem at least in
    two), the stems shaped like the plain ids beside them (or, with no plain id, at least
    two stems holding a number): one paper per stem, ``id: '{column|stem}'`` with
    grouping. A prefix numbering records (``P-1`` ... ``P-50``) is none of these, and an
    id ending in a year and a letter (``Li 2019a``, ``Li 2019b``) never a part: a sheet
    holding one is left as it is."""
    ik = next((k for k, c in enumerate(g.columns) if c.role == "paper_id"), None)
    if ik is None:
        return None
    t, _, _ = find_header(Path(g.file), g.sheet, g.header_row, g.header_rows)
    skip_rows(t, None, "")
    ids = [_text(r[ik]) for _, r in t.rows if any(not is_missing(c) for c in r)]
    if not ids or "" in ids or len(set(ids)) < len(ids):
        return None
    if any(_PART.fullmatch(pid) and not _part(pid) for pid in ids):
        return None  # author-year letters: the reader's stem would merge two papers
    parts: dict[str, list[tuple[int, int, str]]] = {}
    plain = []
    for pos, pid in enumerate(ids):
        part = _part(pid)
        if part:
            parts.setdefault(part[0], []).append((pos, part[1], part[2]))
        else:
            plain.append(pid)
    shape = {re.sub(r"\d+", "9", p) for p in plain}
    # with no plain id beside them, stems must number studies themselves ("S24", not "A")
    if not parts or (not plain and (len(parts) < 2 or not all(
            re.search(r"\d", stem) for stem in parts))) or any(
            [k for _, k, _ in run] != list(range(1, len(run) + 1))
            or len({kind for _, _, kind in run}) > 1
            or [p for p, _, _ in run] != list(range(run[0][0], run[0][0] + len(run)))
            or (plain and re.sub(r"\d+", "9", stem) not in shape)
            for stem, run in parts.items()) or max(map(len, parts.values())) < 2:
        return None
    idc = g.columns[ik]
    papers = len(plain) + len(parts)
    example, run = next(iter(parts.items()))
    first, last = (ids[run[0][0]], ids[run[-1][0]])
    return TitleIds("{" + key(idc) + "|stem}", True, key(idc),
                    f"ids of column {idc.name!r} number the parts of one study "
                    f"({first} ... {last}): {len(ids)} rows, {papers} papers, one per "
                    "study")


def _scattered(ids: list[str]) -> bool:
    """An id repeating in two separate runs of rows."""
    seen, last = set(), None
    for i in ids:
        if i != last and i in seen:
            return True
        seen.add(i)
        last = i
    return False


def _runs(fold: list[tuple[str, str]]) -> list[list[tuple[str, str]]]:
    """Consecutive (title, id) rows sharing an id."""
    out: list = []
    for row in fold:
        if out and out[-1][0][1] == row[1]:
            out[-1].append(row)
        else:
            out.append([row])
    return out


def scattered_verdict(g) -> tuple[str, str] | None:
    """Ids repeating in scattered rows, decided over all rows of each id as
    :func:`repeat_runs` decides a run: ("same", evidence) when every repeated id is one
    paper, ("different", evidence) when every one is several papers, else None."""
    k = next((k for k, c in enumerate(g.columns) if c.role == "paper_id"), None)
    if k is None:
        return None
    t, _, _ = find_header(Path(g.file), g.sheet, g.header_row, g.header_rows)
    skip_rows(t, None, "")
    by: dict[str, list] = {}
    for _, cells in t.rows:
        pid = _text(cells[k])
        if pid:
            by.setdefault(pid, []).append(cells)
    verdicts = {pid: _verdict(rows, g.columns, k) for pid, rows in by.items() if len(rows) > 1}
    kinds = {v for v, _ in verdicts.values()} - {"unsure"}  # unsure ids follow the rest
    if len(kinds) != 1:
        return None
    (kind,) = kinds
    pid, (_, why) = next((p, v) for p, v in verdicts.items() if v[0] == kind)
    unsure = [p for p, (v, _) in verdicts.items() if v == "unsure"]
    return kind, (f"{len(verdicts)} repeated ids, e.g. {pid!r}: {why}"
                  + (f"; unsure for {', '.join(map(repr, unsure[:3]))}: no evidence either "
                     "way" if unsure else ""))
