"""The long layout in ``sheet inspect --write``: a papers table and a results table (one row
per paper x method x metric). When the inspected table is one of the two, the other is
looked for (another sheet of the workbook, a file named alike with "papers" and "results"
swapped, or ``--other-table``) and both are drafted into one venue block.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from pathlib import Path

from falseclaims.sheets.read.columns import PAPERS, RESULTS
from falseclaims.io.raw_table import is_missing
from falseclaims.sheets.draft.inspect import SheetGuess, inspect_sheet, table_kind
from falseclaims.sheets.draft.locate import find_header, workbook_sheets
from falseclaims.sheets.read.rows import skip_rows
from falseclaims.sheets.draft.draft_parts import (
    column_key, draft_repeats, examples, mark_todo, metric_constants, metric_rules, split_remarks,
    task_from_metric_cells, where_and_header,
)
from falseclaims.sheets.draft.metric_names import competing_value_columns
from falseclaims.sheets.draft.draft_rules import (
    N_TEST_MIN_CELLS, N_TEST_RULES, SPLIT_RULES, STAT_RULES, read_with,
)
from falseclaims.sheets.draft.repeats import repeated_methods, rows_text
from falseclaims.sheets.draft.roles import COUNT_ROLES, counts_complete

__all__ = ["long_kind", "find_other_table", "long_block"]

_METHOD = re.compile(r"(?i)\b(methods?|models?|approach(es)?|networks?|algorithms?|"
                     r"architectures?|baselines?|compared)\b")
_COMMENT = re.compile(r"(?i)\b(comments?|notes?|remarks?)\b")
_TEXTY = ("text", "category", "name_proposed", "name_best_prior", "(ignore)",
          "values_compared", "method")
_RESULT_ROLE = {"value_proposed": "value", "value": "value", "sd_proposed": "sd",
                "sd": "sd", "sd_over": "sd_over", "n_test": "n_test", "metric": "metric",
                "paper_id": "paper_id", "method": "method",
                **{c: c for c in COUNT_ROLES}}  # 2x2 counts: accuracy and n (read/counts.py)


def results_roles(g: SheetGuess) -> dict[int, str]:
    """{column index: results column} of a results table (one role per column; a column
    whose header names the role keeps it, else the first column with the role: a header
    'value' beats an earlier 'acceleration' column of numbers guessed from its cells)."""
    out: dict[int, str] = {}
    order = sorted(range(len(g.columns)), key=lambda k: (not g.columns[k].named, k))
    for k in order:
        c = g.columns[k]
        role = _RESULT_ROLE.get(c.role)
        if role is None and c.kind in _TEXTY and _METHOD.search(c.name) and not c.yes_no:
            role = "method"
            c.why, c.sure = f"header {c.name!r} names the methods", True
        if role is None and c.role == "uncertainty" and c.kind == "value_proposed":
            role = "sd"  # numbers under an "SD" header
        if role and role not in out.values():
            out[k] = role
    return dict(sorted(out.items()))


def long_kind(g: SheetGuess) -> str:
    """table_kind, and 'results' for a table with a method column (a header such as
    "Model" or "Method") and a value column."""
    kind = table_kind(g)
    if kind == "wide" and {"method", "value"} <= set(results_roles(g).values()) and not any(
            c.role == "value_best_prior" for c in g.columns):
        return "results"
    return kind


def _candidates(path: Path, sheet: str | None) -> list[tuple[Path, str | None]]:
    if path.suffix.lower() in (".xlsx", ".xlsm"):
        names = workbook_sheets(path)
        first = names[0] if names else None
        return [(path, n) for n in names if n != (sheet or first)]
    out = []
    for a, b in (("papers", "results"), ("results", "papers")):
        name = re.sub(a, b, path.name, flags=re.I)
        if name != path.name and (path.parent / name).is_file():
            out.append((path.parent / name, None))
    return out


def find_other_table(g: SheetGuess, other_file: str | None = None,
                     other_sheet: str | None = None) -> SheetGuess | None:
    """The other table of a long-layout survey (results for a papers table, papers for a
    results table), or None."""
    want = "results" if long_kind(g) == "papers" else "papers"
    if other_file is not None or other_sheet is not None:
        path = Path(other_file or g.file)
        cands = [(path, other_sheet)] if other_sheet or path != Path(g.file) else \
            _candidates(path, g.sheet)
    else:
        cands = _candidates(Path(g.file), g.sheet)
    for path, sheet in cands:
        try:
            other = inspect_sheet(path, sheet)
        except (ValueError, IndexError, KeyError):  # not a table: the next candidate
            continue
        if other_file or other_sheet:
            return other
        # found, not given: a table of another kind (a workbook's demographics sheet
        # beside its literature table) links to no paper without a paper id of its own
        if long_kind(other) == want and any(c.role == "paper_id" for c in other.columns):
            return other
    return None


def _mapping(g: SheetGuess, roles: dict[int, str], ours: dict, remarks: list[str],
             table: str) -> OrderedDict:

    mapping = OrderedDict()
    for k, c in enumerate(g.columns):
        if not c.letter:
            continue
        role = roles.get(k)
        mapping[column_key(c, g)] = role if role in ours else "ignore"
        if role in ours and not c.sure or (role is None and c.role not in ("(ignore)",)):
            remarks.append(f"unsure: {table} column {c.letter} {c.name!r} -> "
                           f"{mapping[column_key(c, g)]} ({c.why}{examples(c)})")
    return mapping


def long_block(pg: SheetGuess, rg: SheetGuess, venue: str, pfile: str, rfile: str
               ) -> tuple[dict, list[str], list[str]]:
    """(venue block, remarks, problems) of a long-layout survey."""

    remarks, problems = [], []
    proles = {k: c.role for k, c in enumerate(pg.columns) if c.role in PAPERS}
    rroles = results_roles(rg)
    block = {"label": venue, "papers": pfile}
    where_and_header(block, pg)
    block["results"] = rfile
    if rg.sheet:
        block["results_sheet"] = rg.sheet
    block.update({"layout": "long", "units": rg.units})
    if rg.header_row != pg.header_row:
        block["results_header_row"] = rg.header_row
    if rg.header_rows != pg.header_rows:
        block["results_header_rows"] = rg.header_rows
    pmap = _mapping(pg, proles, PAPERS, remarks, "papers")
    rmap = _mapping(rg, rroles, {**RESULTS, **dict.fromkeys(COUNT_ROLES)}, remarks, "results")
    counts = counts_complete(rroles.values())
    for what, roles in (("papers", proles), ("results", rroles)):
        if "paper_id" not in roles.values():
            problems.append(f"no paper id column found in the {what} table: map the column "
                            f"that links the two tables to paper_id (columns: {what}:)")
    for missing in ("method",) if counts else ("method", "value"):
        if missing not in rroles.values():
            problems.append(f"no {missing} column found in the results table: map it "
                            f"(columns: results:)")
    pid = next((pg.columns[k] for k, r in proles.items() if r == "paper_id"), None)
    if pid is not None:
        draft_repeats(pg, pid, pmap, block, remarks, long=True)
    again = repeated_methods(_with_roles(rg, rroles))
    if again:
        block["group_rows_by_id"] = True
        shown = "; ".join(f"{p!r} rows {rows_text(b)} repeat rows {rows_text(a)}"
                          for p, a, b in again[:3])
        remarks.append(f"a method and metric repeat within a paper in the results table "
                       f"({shown}{'; ...' if len(again) > 3 else ''}): one block of rows "
                       "per data set? group_rows_by_id: true uses each paper's first block "
                       "with two methods valued, the other rows are noted")
    values = {}
    if "statistical_test" in proles.values():
        values["statistical_test"] = dict(STAT_RULES)
    if "split" in proles.values():
        values["split"] = dict(SPLIT_RULES)
        for k in (k for k, r in proles.items() if r == "split" and pg.columns[k].values):
            values["split"] = dict(pg.columns[k].values)
            remarks += split_remarks(pg.columns[k])
        _split_sizes(pg, proles, pmap, values, remarks)
    elif set(proles.values()) & {"n_train", "n_val", "n_test"}:
        block["derive"] = {"split": "from_sizes"}
    block["columns"] = {"papers": dict(pmap), "results": dict(rmap)}
    _headline(rg, rroles, block, values, remarks, problems)
    if values:
        block["values"] = values
    _skip_comment_rows(rg, rroles, block, remarks)
    value = next((rg.columns[k] for k, r in rroles.items() if r == "value"), None)
    if value is not None and any("cell_pattern: value_sd" in h for h in value.hints):
        block["cells"] = {"value": {"cell_pattern": "value_sd"}}
    constants = {c: v for c, v in (("in_scope", True), ("values_only_in_figures", False))
                 if c not in proles.values()}
    if constants:
        remarks.append(f"no {' or '.join(constants)} column in the papers table: "
                       f"constants {constants} (every paper in scope, values in the text)")
    roles = set(proles.values()) | set(rroles.values())
    if counts and not roles & {"value", "metric"}:
        constants["task"] = "classification"
        remarks.append("2x2 counts: each row's accuracy (TP + TN) / N and n_test N are read "
                       "from them (metric accuracy, task classification; config/README.md)")
    constants.update(metric_constants(rg, roles, remarks))
    if "task" not in constants:
        constants.update(task_from_metric_cells(_with_roles(rg, rroles), roles, remarks))
    if constants:
        block["constants"] = constants
    return block, remarks, problems


def _headline(rg: SheetGuess, rroles: dict, block: dict, values: dict, remarks: list[str],
              problems: list[str]) -> None:
    """The results' headline metric: value columns naming it for several parts (asked,
    TODO), metric cells naming it with a qualifier (``values: metric:`` rules or asked)."""
    value_col = next((rg.columns[k] for k, r in rroles.items() if r == "value"), None)
    if value_col is not None and (clash := competing_value_columns(
            [c.name for c in rg.columns], [value_col.name])):
        problems.append(clash)
        mark_todo(block, ("columns", "results", column_key(value_col, rg)),
                  "which value column is the papers' headline? (STILL TO FIX above)")
    if metric_values := metric_rules(rg, rroles, remarks, problems, block, "results"):
        values["metric"] = metric_values


def _split_sizes(pg: SheetGuess, proles: dict, pmap: OrderedDict, values: dict,
                 remarks: list[str]) -> None:
    """A split column whose cells state explicit counts of test examples ("Train: 704
    epochs / Test: 176 epochs") in at least N_TEST_MIN_CELLS distinct cells, and no test-size
    column: the column is read as n_test too, by N_TEST_RULES only (a count of test
    examples; %, fractions, subjects, sessions ... give none); each sized cell is listed."""
    if "n_test" in proles.values():
        return
    for k in (k for k, r in proles.items() if r == "split"):
        c = pg.columns[k]
        sized = {cell: n for cell in c.mapped
                 if (n := read_with(N_TEST_RULES, str(cell))) not in (None, "NA")}
        if len(sized) < N_TEST_MIN_CELLS:
            continue
        pmap[column_key(c, pg)] = ["split", "n_test"]
        values["n_test"] = dict(N_TEST_RULES)
        remarks.append(f"test-set sizes from column {c.letter} {c.name!r} (no test-size "
                       f"column): {len(sized)} of {len(c.mapped)} distinct cells state a "
                       "count of test examples, read as n_test (splits in %, fractions, "
                       "subjects, sessions ... give no size)")
        remarks += [f"  n_test {cell!r} -> {n}" for cell, n in sized.items()]
        return


def _skip_comment_rows(rg: SheetGuess, rroles: dict, block: dict,
                       remarks: list[str]) -> None:
    """Results rows of a paper holding no method and no value, only a reviewer's comment
    ("No accuracy"): skipped by their empty method cell (skip_rows_where, each row
    listed), not left as bad cells that exclude their papers. Only when every row missing
    its method is such a row (a value without a method stays a problem to see)."""
    at = {r: k for k, r in rroles.items()}
    notes = [k for k, c in enumerate(rg.columns) if _COMMENT.search(c.name)]
    if not notes or not {"paper_id", "method", "value"} <= set(at):
        return
    t = find_header(Path(rg.file), rg.sheet, rg.header_row, rg.header_rows)[0]
    skip_rows(t, None, "")  # repeated headers and formula rows, as inspect_sheet reads
    bare = [(r, row) for r, row in t.rows
            if not is_missing(row[at["paper_id"]]) and is_missing(row[at["method"]])]
    if not bare or any(not is_missing(row[at["value"]])
                       or all(is_missing(row[k]) for k in notes) for _, row in bare):
        return
    key = column_key(rg.columns[at["method"]], rg)
    block.setdefault("skip_rows_where", {})[key] = "^$"
    remarks.append(f"results rows with no method and no value, only a comment, skipped "
                   f"(skip_rows_where: {{{key}: '^$'}}): " + "; ".join(
                       f"row {r} {str(row[notes[0]])[:40]!r}" for r, row in bare))


def _with_roles(g: SheetGuess, roles: dict[int, str]) -> SheetGuess:
    """A copy of the guesses with the results roles (for repeated_methods)."""
    from copy import copy

    out = copy(g)
    out.columns = [copy(c) for c in g.columns]
    for k, c in enumerate(out.columns):
        c.role = roles.get(k, "(ignore)")
    return out
