"""Helpers to start and check a venue's mapping (``falseclaims sheet inspect | check``).

``inspect_sheet`` finds the header row, guesses each column's role from its name and its
cells (an id, a test-set size, a metric value, a category, ...) and drafts a venue block
for config/config.yaml. The guesses are a starting point for the user to edit, never used
by the pipeline. ``group_problems`` condenses a validation error into one line per column
and kind of problem with the first examples.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from falseclaims.sheets import cells
from falseclaims.sheets.cells import clean_text, is_missing
from falseclaims.sheets.columns import ENUMS, PAPERS, RESULTS, WIDE

ALL_COLUMNS = {**WIDE, **RESULTS}
from falseclaims.sheets.errors import CellError, Problem
from falseclaims.sheets.io import read_raw_table
from falseclaims.sheets.rows import skip_rows

__all__ = ["ColumnGuess", "SheetGuess", "inspect_sheet", "draft_venue", "group_problems"]

# header words -> our column (checked in order, first match wins)
_NAME_HINTS = [
    (r"^(year|notes?|comments?|remarks?)$", "(ignore)"),
    (r"^(paper|ref|reference|id|paper.?id|papers|citation|study)\b", "paper_id"),
    (r"title", "title"),
    (r"task", "task"),
    (r"metric|measure", "metric"),
    (r"split|protocol|evaluation", "split"),
    (r"fold", "cv_folds"),
    (r"test.*(size|set|images|cases|n\b)|n.?test|#.?test", "n_test"),
    (r"train.*(size|images|cases)|n.?train", "n_train"),
    (r"stat|p.?val|significan", "statistical_test"),
    (r"bold", "bold_best"),
    (r"claim", "claims_outperformance"),
    (r"scope", "in_scope"),
    (r"uncertain|std|sd\b|ci\b", "uncertainty"),
    (r"other|compared|baselines", "values_compared"),
    (r"sota|best.?prior|prior|runner|second", "value_best_prior"),
    (r"ours|proposed|best\b|value|result|dsc|dice|acc", "value_proposed"),
]


@dataclass
class ColumnGuess:
    letter: str
    name: str
    role: str
    why: str
    examples: list[str] = field(default_factory=list)
    hints: list[str] = field(default_factory=list)


@dataclass
class SheetGuess:
    file: str
    sheet: str | None
    header_row: int
    n_rows: int
    columns: list[ColumnGuess]
    units: str


def _score_header(t) -> float:
    if not t.header:
        return -1.0
    named = [h for h in t.header if h not in t.headerless]
    texty = [h for h in named if not re.fullmatch(r"[\d.,%\s-]+", h)]
    return len(texty) - 0.5 * len(t.headerless) - 0.1 * t.header_row


HEADER_SEARCH_ROWS = 1000  # rows (lines) read while looking for the header row
ROLE_SAMPLE = 20_000  # values of a column the role guess looks at


def _find_header(path: Path, sheet: str | None, max_row: int = 10):
    best = None
    for r in range(1, max_row + 1):
        # candidates judged on their first rows (a sheet of 10^6 rows is read in full once)
        t = read_raw_table(path, sheet, r, max_rows=HEADER_SEARCH_ROWS)
        if any("not found" in p.expected or "a sheet of" in p.expected
               or "readable" in p.expected or "expands" in p.expected for p in t.problems):
            return t
        if not t.header:
            continue
        s = _score_header(t)
        if best is None or s > best[0]:
            best = (s, t)
        if not t.headerless and len(t.header) >= 2 and s == len(t.header) - 0.1 * r:
            break  # every column named by text: no need to read the file again
    return read_raw_table(path, sheet, best[1].header_row if best else 1)


def _role_from_cells(vals: list) -> tuple[str, str, list[str], float | None]:
    """(role, why, hints, share of values > 1 among metric values)."""
    hints = []
    texts = [clean_text(v) for v in vals if isinstance(v, str)]
    if any(re.search(r"\d\s*/\s*\d", t) and not re.search(r"[a-z]", t, re.I) for t in texts):
        hints.append("cells like '78.50/66.45': cells: {<col>: {split: '/', parts: [...]}}")
    if any(re.fullmatch(r"[\d.,]+\s+-\s*[\d.,]+", t) for t in texts):
        hints.append("cells like '70.49 -1.25': cells: {<col>: {cell_pattern: value_sd}}")
    if any(";" in t and re.search(r"\d", t) for t in texts):
        return "values_compared", "';'-separated names with numbers", hints, None
    sizes = measures = 0
    big = 0
    for v in vals:
        try:
            if cells.parse_size(v)[0] is not None:
                sizes += 1
        except CellError:
            pass
        try:
            m = cells.parse_measure(v)
        except CellError:
            two = re.match(r"^\s*([\d.,]+)\s*(?:/|\s-|\()", str(v))
            m = cells.Measure(float(two[1].replace(",", "."))) if two else None
        if m is not None:
            measures += 1
            big += abs(m.value) > 1
    n = len(vals)
    if n and sizes == n:
        return "n_test", "whole numbers", hints, None
    odd = [clean_text(v) for v in vals if not _is_size(v)]
    if n and sizes > n / 2 and not any(_is_measure(v) for v in odd):
        # mostly sizes; the rest is text such as '70/10/20 of 300 cases'
        hints.append(f"cells like {odd[0]!r} are not one whole number: they will be refused "
                     "naming the cell; write the test-set size")
        return "n_test", "whole numbers, some text", hints, None
    if n and measures >= 0.8 * n:
        return "value_proposed", "numbers", hints, big / max(measures, 1)
    distinct = {t.lower() for t in texts}
    if texts and len(distinct) <= max(6, min(20, n // 5)):
        for col, allowed in ENUMS.items():
            try:
                ok = all(cells.parse_enum(t, allowed)[0] is not None for t in texts)
            except CellError:
                ok = False
            if ok:
                return col, f"values of {col}", hints, None
        return "category", f"{len(distinct)} distinct texts (a category? map them with "\
            "values:)", hints, None
    if texts and len(distinct) == len(texts):
        return "text", "distinct texts (an id or a title?)", hints, None
    return "text", "free text", hints, None


def _id_hints(name: str, texts: list[str]) -> list[str]:
    hints = []
    years = [t for t in texts if re.fullmatch(r"\d{4}", t)]
    if years:
        hints.append(f"rows holding only a year ({years[0]!r}): skip_rows_where: "
                     f"{{{name!r}: '^\\d{{4}}$'}}")
    rest = [t for t in texts if t not in years]
    if len(set(rest)) < len(rest):
        hints.append(f"repeated ids: id: '{{{name}}}' numbers the repeats ' (2)', ...")
    return hints


def _is_size(v) -> bool:
    try:
        return cells.parse_size(v)[0] is not None
    except CellError:
        return False


def _is_measure(v) -> bool:
    try:
        return cells.parse_measure(v) is not None
    except CellError:
        return False


def inspect_sheet(path: str | Path, sheet: str | None = None) -> SheetGuess:
    path = Path(path)
    t = _find_header(path, sheet)
    if t.problems and not t.header:
        raise ValueError("; ".join(str(p) for p in t.problems))
    skip_rows(t, None, "")  # repeated headers and formula rows
    guesses = []
    shares = []
    taken = set()
    for k, name in enumerate(t.header):
        vals = [row[k] for _, row in t.rows if not is_missing(row[k])]
        if len(vals) > ROLE_SAMPLE:  # evenly spaced: a guess needs no 10^6 parses
            vals = vals[::-(-len(vals) // ROLE_SAMPLE)]
        role, why, hints, big = _role_from_cells(vals)
        label = name.lower()
        key = cells._enum_key(name)
        exact = key in ALL_COLUMNS and name not in t.headerless
        if exact:
            role, why = key, f"header {name!r} is our column name"
        for rx, ours in (() if exact else _NAME_HINTS):
            if name not in t.headerless and re.search(rx, label):
                if ours.startswith("value") and role not in ("value_proposed", "values_compared"):
                    continue
                role, why = ours, f"header {name!r}" + (f", {why}" if why else "")
                break
        if role in taken and role in WIDE:
            role = "(ignore?)"
            why += "; role already given to another column"
        taken.add(role)
        if role == "paper_id":
            hints += _id_hints(name, [clean_text(v) if isinstance(v, str) else str(v)
                                      for v in vals])
        if name in t.headerless:
            hints.append(f"no header: map it by letter, \"@{t.letters[k]}\": <our column>")
        if big is not None:
            shares.append(big)
        ex = []
        for v in vals:
            s = clean_text(v) if isinstance(v, str) else str(v)
            if s not in ex:
                ex.append(s)
            if len(ex) == 3:
                break
        guesses.append(ColumnGuess(t.letters[k], name, role, why, ex, hints))
    units = "auto"
    if shares:
        units = "percent" if min(shares) > 0.5 else "fraction" if max(shares) == 0 else "auto"
    return SheetGuess(t.file, t.sheet, t.header_row, len(t.rows), guesses, units)


def table_kind(g: SheetGuess) -> str:
    """'results' (a method column: one row per paper x method), 'papers' (no metric
    values) or 'wide' (one row per paper with its values)."""
    roles = {c.role for c in g.columns}
    if "method" in roles:
        return "results"
    if not roles & {"value", "value_proposed", "value_best_prior", "values_compared"}:
        return "papers"
    return "wide"


def draft_venue(g: SheetGuess, venue: str = "my_venue") -> str:
    """A venue block for config/config.yaml built from the guesses (to edit)."""
    kind = table_kind(g)
    ours = {"results": RESULTS, "papers": PAPERS, "wide": WIDE}[kind]
    mapping = OrderedDict()
    for c in g.columns:
        role = "value" if kind == "results" and c.role == "value_proposed" else c.role
        if role in ours and role not in mapping.values():
            key = f"@{c.letter}" if c.name in _headerless_names(g) else c.name
            mapping[key] = role
    block = {"label": venue}
    if kind == "wide":
        block["papers"] = str(g.file)
        if g.sheet:
            block["papers_sheet"] = g.sheet
        block["layout"] = "wide_top2"
    else:  # one of the two tables of the long layout: the other is still to be named
        other = "results" if kind == "papers" else "papers"
        block[kind] = str(g.file)
        if g.sheet:
            block[f"{kind}_sheet"] = g.sheet
        block[other] = f"TODO: the {other} table"
        block["layout"] = "long"
    block["units"] = g.units
    if g.header_row != 1:
        block["header_row"] = g.header_row
    if "paper_id" not in mapping.values():
        block["id"] = "row" if kind == "wide" else "TODO: {their id column}"
    block["columns"] = {kind: dict(mapping)}
    if kind == "wide":
        block["constants"] = {"in_scope": True, "values_only_in_figures": False}
    text = yaml.safe_dump({"venues": {venue: block}}, sort_keys=False, allow_unicode=True,
                          width=100)
    return text


def _headerless_names(g: SheetGuess) -> set[str]:
    return {c.name for c in g.columns if c.name == f"column {c.letter}"}


def _kind(expected: str) -> str:
    return re.sub(r"'[^']*'|\"[^\"]*\"|\d+(?:\.\d+)?", "#", expected)


def group_problems(problems: list[Problem], show: int = 3) -> list[str]:
    """Lines grouped by (file, sheet, column) and kind of problem: the first ``show``
    examples of each kind, then "and N more like this"."""
    groups: OrderedDict = OrderedDict()
    for p in problems:
        where = (p.file, p.sheet, p.column)
        groups.setdefault(where, OrderedDict()).setdefault(_kind(p.expected), []).append(p)
    lines = []
    for (file, sheet, column), kinds in groups.items():
        n = sum(len(v) for v in kinds.values())
        head = f"{file}" + (f", sheet '{sheet}'" if sheet else "")
        head += f", column '{column}'" if column else " (whole sheet)"
        lines.append(f"{head}: {n} problem(s)")
        for items in kinds.values():
            lines.append(f"  expected {items[0].expected}")
            for p in items[:show]:
                at = f"row {p.row}" if p.row is not None else "sheet"
                got = "(empty)" if p.value is None else repr(p.value)
                lines.append(f"    {at}: got {got}")
            if len(items) > show:
                lines.append(f"    ... and {len(items) - show} more like this")
    return lines

