"""``falseclaims sheet inspect FILE --write DRAFT.yaml``: a complete config file that runs.

:func:`draft_config` turns the guesses of :func:`inspect.inspect_sheet` into one venue
block of the wide top-2 layout and a ``run_venues: [venue]`` key (so that
``snakemake --configfile DRAFT.yaml`` runs this venue only; every other key comes from
config/config.yaml). The block is then read as the pipeline reads it: if cells are still
unreadable, ``on_bad_cell: exclude`` is set and the cells are named in the file's
comments; a column the guesses are unsure of is mapped to ``ignore`` (listed with its
evidence), never to a field that could change a result silently.
"""

from __future__ import annotations

import re
from collections import Counter, OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import yaml

from falseclaims.io.raw_table import is_missing
from falseclaims.sheets.read.columns import WIDE
from falseclaims.sheets.draft.inspect import SheetGuess
from falseclaims.sheets.draft.locate import find_header
from falseclaims.sheets.draft.draft_parts import (
    column_key, draft_repeats, examples, metric_constants, split_remarks, task_from_headers,
    competing_values, uncompared_values, file_metric, mark_todo, metric_rules, task_from_metric_cells,
    reviewer_rows,
    where_and_header,
)
from falseclaims.sheets.draft.draft_rules import SPLIT_RULES, STAT_RULES
from falseclaims.sheets.draft.table_shape import pooled_estimates
from falseclaims.sheets.draft.repeats import numbered_parts, rows_text, title_ids

__all__ = ["draft_config", "Draft", "Read", "Judge"]


class Draft:
    """The config text, the block as a dict and the lines to show the user."""

    def __init__(self, text: str, config: dict, remarks: list[str], problems: list[str],
                 findings: list | None = None, read: Read | None = None):
        self.text, self.config, self.remarks, self.problems = text, config, remarks, problems
        self.findings = findings or []  # plausibility.Finding s (also in problems)
        self.read = read  # the sheet as the pipeline reads it with this block, if it reads


# (venue, block as read, papers, results, notes) -> (findings, Read): the plausibility judge
Judge = Callable[[str, dict, pd.DataFrame, pd.DataFrame, pd.DataFrame], tuple[list, "Read"]]


@dataclass(frozen=True)
class Read:
    """The drafted block's reading: the validated tables, the eligibility step's
    exclusions and each paper's comparison on its primary metric."""

    papers: pd.DataFrame
    results: pd.DataFrame
    exclusions: pd.DataFrame
    comparisons: pd.DataFrame


def _block(g: SheetGuess, venue: str, file: str, problems: list[str]
           ) -> tuple[dict, list[str]]:
    remarks = []
    mapping, split_cells = OrderedDict(), {}
    roles = {c.role for c in g.columns}
    for c in g.columns:
        key = column_key(c, g)
        if c.split_sizes:
            split_cells[key] = ["n_train", "n_val", "n_test"]
        if c.role in WIDE and c.letter:
            mapping[key] = c.role
        elif c.letter:
            mapping[key] = "ignore"
        if not c.sure or (c.role not in WIDE and c.role != "(ignore)" and c.letter):
            remarks.append(f"unsure: column {c.letter} {c.name!r} -> {mapping.get(key, c.role)}"
                           f" ({c.why}{examples(c)})")
    block = {"label": venue, "papers": file}
    where_and_header(block, g)
    block.update({"layout": "wide_top2", "units": g.units})
    _ids_and_skips(g, mapping, block, remarks, problems)
    if split_cells:
        block["split_cells"] = split_cells
    block["columns"] = {"wide": dict(mapping)}
    values = {}
    if "statistical_test" in roles:
        values["statistical_test"] = dict(STAT_RULES)
    if "split" in roles:
        values["split"] = dict(SPLIT_RULES)
    elif roles & {"n_train", "n_val", "n_test"}:
        block["derive"] = {"split": "from_sizes"}
    for c in g.columns:  # rules proposed by inspect (task words in free-text task cells)
        if c.values and c.role in WIDE:
            values[c.role] = dict(c.values)
            remarks += split_remarks(c)
    metric_values = metric_rules(g, {k: c.role for k, c in enumerate(g.columns)}, remarks,
                                 problems, block, "wide")
    if metric_values:
        values["metric"] = metric_values
    if values:
        block["values"] = values
    cells_ = {c.role: {"cell_pattern": "value_sd"} for c in g.columns
              if c.role in ("value_proposed", "value_best_prior")
              and any("cell_pattern: value_sd" in h for h in c.hints)}
    if cells_:
        block["cells"] = cells_
        remarks.append("cells holding a mean and an SD ('70.49 -1.25'): cells: "
                       f"{{{', '.join(cells_)}: {{cell_pattern: value_sd}}}}")
    block["constants"] = {"in_scope": True, "values_only_in_figures": False,
                          **metric_constants(g, roles, remarks)}
    if "task" not in block["constants"]:
        block["constants"].update(task_from_metric_cells(g, roles, remarks))
    if "task" not in block["constants"]:
        block["constants"].update(task_from_headers(g, roles, remarks))
    if "in_scope" in roles:  # an empty inclusion cell is not "in scope"
        del block["constants"]["in_scope"]
    return block, remarks


# rows read as papers (id: row) are refused when at least one in this many continues
# the row above (empty first cell): cells written over several lines
CONTINUED_SHARE_DEN = 5
MIN_LINES = 3  # fewer such rows are notes, whatever the share
# rows numbered under one prefix (s0000, s0001, ...) are cases, not papers, from this many
# rows on, when at most this many numbers are skipped per row kept (a few cases removed)
MIN_CASES, CASE_GAP = 20, 2
SINGLE_SHARE = 0.8  # papers of one results row in a long table: one value per method
_CASE_ID = re.compile(r"([A-Za-z_-]{0,12}?)(\d+)")


def _rater_copies(g: SheetGuess, block: dict) -> list[str]:
    """[one problem per pair] two columns of one name with different cells and a role of
    the paper's (two raters' copies): which one is the paper's? (the first a TODO)."""
    out = []
    for c in g.columns:
        if c.asked:
            role, twin = c.asked
            mark_todo(block, ("columns", "wide", column_key(c, g)),
                      f"which copy is the paper's {role}? (STILL TO FIX above)")
            out.append(f"columns {c.letter} and {twin} are both named {c.name!r} and their "
                       f"cells differ (two raters' copies?): which one is the paper's {role}? "
                       f"map it by its letter (\"@{c.letter}\" or \"@{twin}\"), the other to "
                       "ignore")
    return out


def _second_table(g: SheetGuess, block: dict) -> list[str]:
    """[one problem] when a second table stands below the first in the sheet (the paper
    id's mapping is then a TODO, so 'sheet check' stops on it)."""
    if g.second_table is None:
        return []
    row, names = g.second_table
    ids = [c for c in g.columns if c.role == "paper_id"]
    problem = (f"a second table starts at row {row}, below an empty row ({', '.join(names)}): "
               "its rows would be read as papers; delete it or save it as a sheet of its own")
    mark_todo(block, ("columns", "wide", column_key(ids[0], g)) if ids else ("id",),
              f"a second table below row {row} (STILL TO FIX above)" if ids else problem)
    return [problem]


def _rows_of_runs(g: SheetGuess) -> str | None:
    """[one problem] for a sheet read row by row (no paper id) whose rows are runs, not
    papers: a column whose header names a metric holds measured values and a category
    column (``classifier_name``: mlp, fcn, resnet, ... again and again) names what was
    run. Read as one paper per row, the results would be set aside unsaid."""
    from falseclaims.sheets.draft.roles import header_metric
    values = [c for c in g.columns if c.role == "(ignore)" and c.kind == "value_proposed"
              and header_metric(c.name)]
    kinds = [c for c in g.columns if c.kind == "category" and not c.flags
             and c.role in ("(ignore)", "category", "method")]
    if not values or not kinds:
        return None
    names = ", ".join(f"{c.letter} {c.name!r}" for c in values[:3])
    return (f"no paper id column: rows would be read as papers, but column(s) {names} hold "
            f"results and column {kinds[0].letter} {kinds[0].name!r} repeats a few names "
            f"({', '.join(kinds[0].examples)}, ...) over {g.n_rows} rows: runs of methods "
            "(x data sets x repeats?), not papers; add a column naming each row's paper "
            "(then: sheet inspect again), or map the result columns to ignore to read the "
            "rows as papers")


def _numbered_cases(g: SheetGuess, block: dict) -> list[str]:
    """[one problem] when the paper id numbers the rows under one prefix (s0000, s0001,
    ...) and every other filled column holds numbers (Dice per organ): per-case results of
    a method, not papers. Read as a study-design sheet, each case was a 'paper' and the
    scores were set aside unsaid. The id is a TODO holding the question."""
    ids = [k for k, c in enumerate(g.columns) if c.role == "paper_id"]
    if len(ids) != 1 or g.n_rows < MIN_CASES:
        return []
    k = ids[0]
    scores = [c for j, c in enumerate(g.columns) if j != k and c.kind == "value_proposed"
              and c.big is not None]
    if len(scores) < 2 or any(c.filled for j, c in enumerate(g.columns)
                              if j != k and c not in scores):
        return []
    t, _, _ = find_header(Path(g.file), g.sheet, g.header_row, g.header_rows)
    found = [_CASE_ID.fullmatch(str(cells[k]).strip()) for _, cells in t.rows
             if k < len(cells) and not is_missing(cells[k])]
    if not found or not all(found) or len({m.group(1) for m in found}) != 1:
        return []
    numbers = sorted(int(m.group(2)) for m in found)
    if numbers[-1] - numbers[0] + 1 > CASE_GAP * len(numbers):
        return []
    idc = g.columns[k]
    names = ", ".join(f"{c.letter} {c.name!r}" for c in scores[:4])
    problem = (f"column {idc.letter} {idc.name!r} numbers the rows ({found[0].group(0)} ... "
               f"{found[-1].group(0)}, {len(found)} rows) and every other column holds "
               f"numbers ({names}{', ...' if len(scores) > 4 else ''}): per-case results "
               "(cases x structures or methods), not papers; compare methods on them with "
               "`falseclaims percase FILE` (docs/percase.md), or give a sheet with a row per "
               "paper")
    mark_todo(block, ("id",), problem)
    return [problem]


def _continued_rows(g: SheetGuess) -> list[int]:
    """Sheet rows whose first cell is empty while another is filled."""
    t, _, _ = find_header(Path(g.file), g.sheet, g.header_row, g.header_rows)
    return [r for r, cells in t.rows if cells and is_missing(cells[0])
            and any(not is_missing(c) for c in cells[1:])]


def _ids_and_skips(g: SheetGuess, mapping: dict, block: dict, remarks: list[str],
                   problems: list[str]) -> None:
    """Paper ids (a column, repeats grouped or numbered, or row numbers) and the rows to
    skip (free text, years as section titles)."""
    ids = [c for c in g.columns if c.role == "paper_id"]
    by_title = title_ids(g, lambda c: column_key(c, g)) or numbered_parts(
        g, lambda c: column_key(c, g))
    if by_title is not None:
        if by_title.spec:
            block["id"] = by_title.spec
        if by_title.group:
            block["group_rows_by_id"] = True
        if by_title.unmapped:  # read by id: (an ignored column could not be)
            mapping.pop(by_title.unmapped, None)
        remarks.append(f"paper ids: {by_title.evidence} ("
                       + (f"id: {by_title.spec!r}" if by_title.spec else "the id column")
                       + (", group_rows_by_id: true: a paper's first row with both values "
                          "gives its comparison, the others are noted" if by_title.group
                          else "") + ")")
    elif not ids:
        block["id"] = "row"
        remarks.append("unsure: no paper id column: each row read as one paper (id: row)")
        if runs := _rows_of_runs(g):
            mark_todo(block, ("id",), runs)  # 'sheet check' repeats the question
            problems.append(runs)
        elif len(cont := _continued_rows(g)) >= MIN_LINES and \
                len(cont) * CONTINUED_SHARE_DEN >= g.n_rows:
            problems.append(f"no paper id column, and {len(cont)} of {g.n_rows} rows (rows "
                            f"{rows_text(cont[:12])}, ...) have an empty first cell under a filled "
                            "row: cells written over several lines (a table copied from a "
                            "PDF?), so rows are not papers; join each paper's lines into one "
                            "row, or add a column naming the paper on each of its rows")
            mark_todo(block, ("id",), problems[-1])
    else:
        draft_repeats(g, ids[0], mapping, block, remarks, long=False)
    skips = {}
    if ids and g.text_rows:
        first = column_key(g.columns[0], g)
        skips[first] = "^(?:" + "|".join(re.escape(t) for _, t in g.text_rows) + ")$"
        remarks.append("free-text rows skipped (skip_rows_where): "
                       + "; ".join(f"row {r}" for r, _ in g.text_rows))
        lines = [r for r, t in g.text_rows if not re.fullmatch(r"\s*(19|20)\d\d\s*", t)]
        if len(lines) >= MIN_LINES and len(lines) * CONTINUED_SHARE_DEN >= g.n_rows:
            # not a few notes or year dividers: a paper's cells over several lines
            problems.append(f"{len(lines)} of {g.n_rows} rows hold text in column "
                            f"{g.columns[0].name!r} only: cells written over several lines "
                            "(a table copied from a PDF?), so a paper's id and values may "
                            "be cut over rows too; join each paper's lines into one row")
            mark_todo(block, ("columns", "wide", column_key(ids[0], g)),
                      "rows continue over several lines (STILL TO FIX above)")
    if ids:
        _skip_totals(g, ids[0], skips, remarks)
        _skip_legend(g, skips, remarks)
    for c in ids:
        for h in c.hints:
            if h.startswith("rows holding only a year"):
                skips[column_key(c, g)] = (skips.get(column_key(c, g), "") + "|" if column_key(c, g) in skips
                                     else "") + r"^\d{4}$"
    if skips:
        block["skip_rows_where"] = skips


def _skip_legend(g: SheetGuess, skips: dict, remarks: list) -> None:
    """A legend below the data ('*Source', '1.1 - seed papers' in the 'Source' column, the
    id column empty) skipped by its texts: not papers missing their ids."""
    texts: dict[str, list[str]] = {}
    for _, k, text in g.legend_rows:
        texts.setdefault(column_key(g.columns[k], g), []).append(re.escape(text))
    for col, rx in texts.items():
        rule = "^(?:" + "|".join(dict.fromkeys(rx)) + ")$"
        skips[col] = f"{skips[col]}|{rule}" if col in skips else rule
    if g.legend_rows:
        remarks.append("a legend below the data skipped by its text (skip_rows_where): "
                       + "; ".join(f"row {r} {text!r}" for r, _, text in g.legend_rows))


def _skip_totals(g: SheetGuess, id_col, skips: dict, remarks: list) -> None:
    """Rows of totals under the table skipped: numbers-only rows by their empty id, rows
    labelled "counts" / "percentages" by that label (so that a paper row missing its id
    is still a problem, never skipped with them)."""
    if g.idless_rows:
        skips[column_key(id_col, g)] = "^$"
        remarks.append("rows without a paper id holding numbers only (totals?) skipped "
                       "(skip_rows_where): " + "; ".join(f"row {r}" for r in g.idless_rows))
    labels: dict[str, set] = {}
    for _, k, label in g.summary_rows:
        labels.setdefault(column_key(g.columns[k], g), set()).add(re.escape(label))
    for col, texts in labels.items():
        rule = "^(?:" + "|".join(sorted(texts)) + ")$"
        skips[col] = f"{skips[col]}|{rule}" if col in skips else rule
    if g.summary_rows:
        what = ("rows of totals or units" if any(label.startswith(("(", "["))
                                                   for _, _, label in g.summary_rows)
                else "rows of totals")
        remarks.append(f"{what} skipped by their label "
                       "(skip_rows_where): " + "; ".join(f"row {r} {label!r}"
                                                         for r, _, label in g.summary_rows))


def draft_config(g: SheetGuess, venue: str = "my_venue", file: str | None = None,
                 other: SheetGuess | None = None, judge: Judge | None = None) -> Draft:
    """A complete config for ``snakemake --configfile``: ``run_venues`` + one venue.
    A papers or results table of the long layout is drafted with its other table
    (``other``, else found by :func:`draft_long.find_other_table`). ``judge`` (the
    commands pass ``falseclaims.plausibility.judge_draft``, which sits above the sheet
    reader and the survey analysis) judges the block's reading: a draft it finds
    implausible says NOT READY TO RUN at its top."""
    from falseclaims.sheets.draft.draft_long import find_other_table, long_block, long_kind

    shown = file or str(g.file)
    if reviewers := reviewer_rows(g):  # a paper's rows are its reviewers' copies
        return _asked(g, venue, f"{g.file}: {reviewers}", "a row per paper and reviewer",
                      one_table=True)
    kind = long_kind(g)
    if kind in ("papers", "results") and other is None:
        other = find_other_table(g)
    if kind in ("papers", "results") and other is not None:
        pg, rg = (g, other) if kind == "papers" else (other, g)
        same = Path(other.file) == Path(g.file)
        other_shown = shown if same else (str(Path(other.file).resolve())
                                          if Path(shown).is_absolute() else str(other.file))
        pfile, rfile = (shown, other_shown) if kind == "papers" else (other_shown, shown)
        block, remarks, problems = long_block(pg, rg, venue, pfile, rfile)
        remarks.insert(0, f"layout long: papers {pfile}" + (f" (sheet {pg.sheet!r})"
                       if pg.sheet else "") + f", results {rfile}" +
                       (f" (sheet {rg.sheet!r})" if rg.sheet else ""))
        trial = dict(block, papers=str(Path(pg.file).resolve()),
                     results=str(Path(rg.file).resolve()))
        return _finish(block, trial, venue, shown, remarks, problems, judge)
    if kind == "results" and any(c.role == "paper_id" for c in g.columns):
        return _own_papers(g, venue, shown, judge)
    if g.ragged:  # more fields than the header: every cell after the wide one is shifted
        return _ragged(g, venue)
    if g.no_header:  # the first row is a paper: every name is one of its cells
        return _no_header(g, venue)
    if pooled := pooled_estimates(g):  # a meta-analysis's results, one row per pooling
        return _asked(g, venue, f"{g.file}: {pooled}; give the table of the studies (one "
                      "row per paper) instead", "pooled estimates, not papers", one_table=True)
    if kind == "results":  # no papers table found: the block names what is missing
        return _no_papers_table(g, venue)
    problems = []
    block, remarks = _block(g, venue, shown, problems)
    compared = uncompared_values(g, block)
    problems += competing_values(g, block) + compared + _second_table(g, block) \
        + _rater_copies(g, block) + _numbered_cases(g, block)
    if missing := _no_metric(block, file_metric(g)):  # the reader: six lines
        return _finish(block, None, venue, shown, remarks, [missing], judge)
    if kind == "papers" and not compared:
        remarks.append("no result columns: a study-design sheet; the flow, reporting-"
                       "practice, uncertainty and split-size outputs are made, probabilities "
                       "need results (if they are in another table: --other-table)")
        problems += _lost_results(g, remarks) if block.get("group_rows_by_id") else []
    return _finish(block, dict(block, papers=str(Path(g.file).resolve())), venue, shown,
                   remarks, problems, judge)


def _no_papers_table(g: SheetGuess, venue: str) -> Draft:
    """A results table of the long layout with no paper id column and no papers table
    found: one question, and the block's id a TODO holding it, so that ``sheet check`` (and
    the pipeline) stop on the question rather than read each row as a paper (a benchmark's
    leaderboard, model x organ, had passed as 170 papers)."""
    named = ", ".join(f"{c.letter} {c.name!r}" for c in g.columns
                      if c.role in ("name_proposed", "method", "metric", "value",
                                    "value_proposed"))
    problem = (f"no paper id column: the rows ({g.n_rows}; {named}) are results of the long "
               "layout, and no papers table was found: runs of methods (one benchmark's "
               "leaderboard?), not papers; add a column naming each row's paper and give "
               "the papers table with --other-table FILE (another sheet of the workbook or a "
               "file named alike is found without it)")
    return _asked(g, venue, problem, "a results table of the long layout and no papers "
                  "table found (another sheet, a file named alike, or --other-table)")


def _ragged(g: SheetGuess, venue: str) -> Draft:
    """Rows holding more fields than the header: one question, the id a TODO holding it
    (a review's author lists with unquoted commas had been drafted with 'Study Design' as
    the paper id and the authors' names as values)."""
    row, named, fields = g.ragged
    problem = (f"{g.file}: row {row} holds {fields} fields, the header names {named}; most "
               "rows hold values past the last named column: a cell with an unquoted comma "
               "(an author list?) or a column name left out shifts every cell after it; "
               "quote the cell or name the column, then run sheet inspect again")
    return _asked(g, venue, problem, "rows wider than the header: no column can be trusted",
                  one_table=True)


def _no_header(g: SheetGuess, venue: str) -> Draft:
    """A file whose first row is a row of data: one question, the id a TODO holding it."""
    problem = (f"{g.file}: row 1 reads as a row of data, not column names ({g.no_header}): "
               "the file seems to have no header row; add a row naming the columns (one "
               "result per cell: cells packing several results are not read), then run "
               "sheet inspect again")
    return _asked(g, venue, problem, "no header row: the first row is data", one_table=True)


def _asked(g: SheetGuess, venue: str, problem: str, remark: str,
           one_table: bool = False) -> Draft:
    """The draft of a sheet that cannot be read as it stands: its id a TODO holding the one
    question, so that ``sheet check`` and the pipeline stop on it (``one_table``: the sheet
    is drafted as one wide table, no results table asked for)."""
    from falseclaims.sheets.draft.inspect import draft_venue

    config = yaml.safe_load(draft_venue(g, venue))
    block = config["venues"][venue]
    if one_table:
        block.pop("results", None)
        if str(block.get("papers", "")).startswith("TODO"):  # drafted as a results table
            block["papers"] = str(g.file)
            for key in ("sheet", "header_row", "header_rows"):
                if f"results_{key}" in block:
                    block[key if key != "sheet" else "papers_sheet"] = block.pop(f"results_{key}")
        block["layout"] = "wide_top2"
        block["columns"] = {"wide": (block.get("columns") or {}).get("papers", {})}
    block["id"] = f"TODO: {problem}"
    text = ("# NOT READY TO RUN: see STILL TO FIX below\n# STILL TO FIX (the draft does "
            f"not run yet):\n#   {problem}\n"
            + yaml.safe_dump(config, sort_keys=False, allow_unicode=True, width=100))
    return Draft(text, config, [remark], [problem])


def _one_row_per_method(g: SheetGuess, block: dict) -> list[str]:
    """[one problem] for a long results table holding its own paper key where a different
    method fills each row and nearly every paper (SINGLE_SHARE) has one row: one value per
    method (a leaderboard's models, each with its paper's link), no paper's comparison of
    its method with a prior one. Drafted as the long layout, the check then stopped on an
    unrelated question (no split column). The id is a TODO holding the question."""
    ids = [k for k, c in enumerate(g.columns) if c.role == "paper_id"]
    methods = [k for k, c in enumerate(g.columns) if c.role == "method"]
    if not ids or not methods or not g.columns[methods[0]].unique:
        return []
    t, _, _ = find_header(Path(g.file), g.sheet, g.header_row, g.header_rows)
    rows = Counter(str(cells[ids[0]]).strip() for _, cells in t.rows
                   if ids[0] < len(cells) and not is_missing(cells[ids[0]]))
    single = sum(n == 1 for n in rows.values())
    if not rows or single < SINGLE_SHARE * len(rows):
        return []
    idc, mc = g.columns[ids[0]], g.columns[methods[0]]
    problem = (f"column {mc.letter} {mc.name!r} names a different method on each row and "
               f"{single} of {len(rows)} papers (column {idc.letter} {idc.name!r}) have one "
               "row only: one value per method (a leaderboard's methods with their papers?), "
               "no paper's comparison of its method with a prior one to assess; give each "
               "paper's rows (its method and the prior ones it compares with), or say the "
               "sheet holds no comparisons (map the value column to ignore)")
    mark_todo(block, ("id",), problem)
    return [problem]


def _own_papers(g: SheetGuess, venue: str, shown: str, judge) -> Draft:
    """A long results table holding its own paper columns (a paper key on every row, no
    papers table): the one sheet is both tables. A value column of an error metric (RMSE,
    MAE: lower is better) is never drafted as the value: the probability model reads
    higher-is-better scores (accuracy, DSC), so the sheet is read as study design only."""
    from dataclasses import replace

    from falseclaims.config import Analysis, load_config
    from falseclaims.sheets.draft.draft_long import long_block, results_roles
    from falseclaims.metrics import classify

    spellings = Analysis.from_config(load_config()).eligibility.metrics
    values = [g.columns[k] for k, r in results_roles(g).items() if r == "value"]
    lower = [c for c in values if classify(c.name, spellings).direction == "lower"]
    full = str(Path(g.file).resolve())
    if not lower:
        block, remarks, problems = long_block(g, g, venue, shown, shown)
        block["group_rows_by_id"] = True
        remarks = _layout_repeats(g, remarks)
        remarks.insert(0, f"layout long: papers and results both {shown}: the results table "
                       "holds its own paper columns (a paper's first row gives its papers "
                       "fields, group_rows_by_id: true)")
        problems += _one_row_per_method(g, block)
        return _finish(block, dict(block, papers=full, results=full), venue, shown, remarks,
                       problems, judge)
    errors = {c.name for c in g.columns if c.kind == "value_proposed"
              and classify(c.name, spellings).direction == "lower"}
    design = replace(g, columns=[
        replace(c, role="(ignore)", sure=True) if c.name in errors or c.role in (
            "value_proposed", "value_best_prior", "values_compared") else c
        for c in g.columns])
    problems = []
    block, remarks = _block(design, venue, shown, problems)
    # a results table gives a paper a row per model by construction: its repeated key is
    # one paper, whatever the rows' other columns say
    remarks = [r for r in remarks if not re.match(r"(unsure: )?ids .*repeat in ", r)]
    block.pop("cell_overrides", None)
    idc = next(c for c in g.columns if c.role == "paper_id")
    if str(block.get("id", "")).startswith("{"):
        del block["id"]
    block["columns"]["wide"][column_key(idc, g)] = "paper_id"
    block["group_rows_by_id"] = True
    remarks.append(f"ids repeat in column {idc.name!r}: a results table, one paper over its "
                   "rows (a row per model): group_rows_by_id: true, a paper's first row "
                   "gives its fields")
    remarks.append(f"no probability: {', '.join(sorted(errors))} "
                   f"{'is an error metric' if len(errors) == 1 else 'are error metrics'} "
                   "(lower is better) and the probability model reads higher-is-better scores "
                   "(accuracy, DSC); the sheet is read as each paper's study design (papers "
                   "from this one sheet, a paper's first row)")
    return _finish(block, dict(block, papers=full), venue, shown, remarks, problems, judge)


def _layout_repeats(g: SheetGuess, remarks: list[str]) -> list[str]:
    """The remarks of a results table holding its own paper columns with its ids repeating
    over a paper's rows, one per method (the layout, not a doubt), said in one line in
    place of an "unsure" line per id (a method repeated within a paper has its own
    remark)."""
    said = re.compile(r"unsure: ids (.*) repeat in rows (.*?) of column .*: read as one "
                      r"paper over several rows")
    unsure = [m for r in remarks if (m := said.match(r))]
    if not unsure:
        return remarks
    idc = next(c for c in g.columns if c.role == "paper_id")
    return [r for r in remarks if not said.match(r)] + [
        f"ids repeat in rows {unsure[0][2]} of column {idc.name!r} ({unsure[0][1]}; "
        f"{len(unsure)} ids in all): a results table, a row per method, one paper over its "
        "rows (group_rows_by_id: true)"]


def _no_metric(block: dict, by_file: tuple | None = None) -> str | None:
    """What a wide block with value columns but no metric (no metric column, no header or
    cell naming one) needs, in one line; None when it has its metric or no value column.
    ``by_file``: the (metric, task) the file's name names ('auc.csv'), offered, not set.
    With a task column, a metric constant would give every paper one metric whatever its
    task: the metric is read from the task column instead (``task_metric_edit``)."""
    wide = block["columns"]["wide"]
    values = [k for k, ours in wide.items() if ours in ("value_proposed", "value_best_prior",
                                                        "values_compared")]
    if not values or "metric" in wide.values() or "metric" in block["constants"]:
        return None
    said = (f"no metric: nothing names the metric of the value column(s) "
            f"{', '.join(repr(v) for v in values)} (no metric column, no metric in a header "
            "or cell); ")
    if edit := task_metric_edit(block):
        (key, _), = edit["columns"]["wide"].items()
        return (said + f"the task column {key!r} holds each paper's task: read the metric "
                "from it too, each task's primary metric (analysis.metrics), by "
                + flow_yaml(edit) + " (change a metric if the values are of another), or "
                "map the value columns to ignore to read the sheet as study design")
    return (said + "set constants: {metric: ..., task: ...} (accuracy: classification, "
            "dsc: segmentation"
            + (f"; the file name names {by_file[0]}: {{metric: {by_file[0]}, task: "
               f"{by_file[1]}}}" if by_file else "")
            + "), or map them to ignore to read the sheet as study design")


def task_metric_edit(block: dict) -> dict | None:
    """The edit of a wide block that reads each paper's metric from its task column:
    ``{columns: {wide: {Task: [task, metric]}}, values: {metric: {rule: metric}}}``, a
    rule per task (its name and short names, any case) and one per ``values: task:`` rule
    of the block, giving the task's primary metric (``analysis.metrics``, first spelling);
    None without a task column."""
    from falseclaims.config import Analysis, load_config
    from falseclaims.tasks import TASK_ALIASES, TASKS

    key = next((k for k, ours in block["columns"]["wide"].items() if ours == "task"), None)
    if key is None:
        return None
    primary = {t: names[0] for t, names in
               Analysis.from_config(load_config()).eligibility.metrics.items()}
    rules = {pattern: primary[task] for pattern, task in
             ((block.get("values") or {}).get("task") or {}).items() if task in primary}
    for task in TASKS:
        names = [task, *(a for a, t in TASK_ALIASES.items() if t == task)]
        rules[f"(?i)^(?:{'|'.join(names)})$"] = primary[task]
    return {"columns": {"wide": {key: ["task", "metric"]}}, "values": {"metric": rules}}


def flow_yaml(edit: dict) -> str:
    """An edit as one line of YAML (flow style), as a problem line quotes it."""
    return yaml.safe_dump(edit, default_flow_style=True, width=10**6, sort_keys=False).strip()


def _lost_results(g: SheetGuess, remarks: list[str]) -> list[str]:
    """A study-design draft of a paper over several rows that would drop metric values:
    columns whose header names a metric over measured values, all left unmapped (a long
    results table in one sheet, one row per paper x method, reads like this; one value per
    paper on one row, with nothing to compare it with, is listed, not lost). Values of
    metrics the probability model does not read (F1, recall, precision, AUROC: no model,
    ``falseclaims.metrics``) lose no probability: one remark says so, the draft runs."""
    from falseclaims.config import Analysis, load_config
    from falseclaims.metrics import classify
    from falseclaims.sheets.draft.roles import header_metric

    spellings = Analysis.from_config(load_config()).eligibility.metrics
    lost = [c for c in g.columns
            if c.role == "(ignore)" and c.kind == "value_proposed" and header_metric(c.name)]
    modelled = [c for c in lost if classify(c.name, spellings).task]
    if lost and not modelled:
        names = ", ".join(repr(c.name) for c in lost)
        remarks.append(f"no probability: {names} are values of metrics without a probability "
                       "model (the model reads accuracy and Dice, docs/method.md); the sheet "
                       "is read as each paper's study design")
    lost = modelled
    if not lost:
        return []
    names = ", ".join(f"{c.letter} {c.name!r}" for c in lost[:4]) + (
        f" and {len(lost) - 4} more" if len(lost) > 4 else "")
    return [f"results would be lost: column(s) {names} hold values of a metric but none is "
            "mapped (a sheet with one row per paper x method is a long results table: map "
            "its method and value columns; to read it as study design only, run it as "
            "drafted)"]


def _finish(block: dict, trial: dict | None, venue: str, shown: str, remarks: list[str],
            problems: list[str], judge: Judge | None = None) -> Draft:
    """Read the sheet(s) with the block as the pipeline does (``on_bad_cell: exclude`` if
    cells are unreadable; ``trial`` None: not read, ``problems`` already say why it cannot
    run) and write the config text with the remarks as comments."""
    from falseclaims.io.xlsx import merged_across_problems
    from falseclaims.sheets import SheetValidationError, read_venue
    from falseclaims.sheets.draft.inspect import group_problems

    read_problems, findings, read = [], [], None
    todo = block.pop("_todo", {})
    if trial is not None:
        trial.pop("_todo", None)
    for attempt in ("stop", "exclude") if trial is not None else ():  # None: not read
        trial["on_bad_cell"] = block["on_bad_cell"] = attempt
        try:
            s = read_venue(trial, base_dir=".", venue=venue)
        except SheetValidationError as exc:
            if laid_out := merged_across_problems(exc.problems):
                # not a table: the one reason, no drafting problem that follows from it
                problems, read_problems = [], [str(laid_out[0])]
                break
            read_problems = group_problems(exc.problems, 2)
            continue
        except ValueError as exc:
            read_problems = [str(exc)]
            continue
        read_problems = []
        remarks += _read_remarks(s)
        if judge is not None:
            findings, read = judge(venue, trial, s.papers, s.results, s.notes)
        break
    if block.get("on_bad_cell") == "stop":
        del block["on_bad_cell"]
    problems = problems + read_problems
    for path, text in todo.items():  # asked, not guessed: `sheet check` stops on it
        inner = block
        for key in path[:-1]:
            inner = inner[key]
        inner[path[-1]] = text
    config = {"run_venues": [venue], "venues": {venue: block}}
    head = []
    if problems or findings:
        head += ["# NOT READY TO RUN: see STILL TO FIX below"]
    head += [f"# drafted by `falseclaims sheet inspect {shown}`; run it with",
             "#   snakemake --cores 2 --configfile THIS_FILE",
             "# (merged over config/config.yaml; run_venues: runs this venue only)"]
    head += [f"# {r}" for r in remarks]
    if problems:
        head += ["# STILL TO FIX (the draft does not run yet):"] + [f"#   {p}" for p in problems]
    if findings:
        head += ["# STILL TO FIX (it runs, but the result would be implausible):"]
        head += [f"#   {f}" for f in findings]
    text = "\n".join(_comment(h) for h in head) + "\n" + yaml.safe_dump(
        config, sort_keys=False, allow_unicode=True, width=100)
    return Draft(text, config, remarks, problems + [str(f) for f in findings], findings, read)


def _comment(line: str) -> str:
    """A comment line stays one comment: a line break in a file, sheet or column name
    (quoted by yaml.safe_dump in the block itself) would otherwise start a YAML line."""
    return " ".join(line.splitlines()) if line.startswith("#") else "# " + line


def _read_remarks(s) -> list[str]:
    out = [f"read as the pipeline reads it: {s.papers['paper_id'].nunique()} papers, "
           f"{len(s.results)} results rows"]
    if "invalid_cell" in s.papers:
        for pid, why in s.papers.dropna(subset=["invalid_cell"])[
                ["paper_id", "invalid_cell"]].itertuples(index=False):
            out.append(f"excluded (on_bad_cell: exclude), fix the cell or add "
                       f"cell_overrides: {pid}: {why}")
    sd = s.results.dropna(subset=["sd"])
    unused = sd[sd["sd_over"].isna()]
    if len(unused):
        out.append(f"{len(unused)} reported SD(s) (e.g. row {int(unused['source_row'].iloc[0])}) "
                   "are not used while sd_over is unknown: if they are over the test set, add "
                   "constants: {sd_over: test}")
    return out
