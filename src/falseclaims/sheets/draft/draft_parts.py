"""Parts of a drafted venue block shared by the wide draft (:mod:`falseclaims.sheets.draft.draft`)
and the long-layout draft (:mod:`falseclaims.sheets.draft.draft_long`): the key a column is
mapped by, repeated ids, the metric and task constants."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from falseclaims.io.raw_table import clean_text, is_missing
from falseclaims.sheets.draft.draft_rules import METRIC_TASK, metric_words
from falseclaims.sheets.draft.inspect import SheetGuess
from falseclaims.sheets.draft.locate import find_header
from falseclaims.sheets.draft.metric_names import competing_value_columns, metric_cell_rules
from falseclaims.sheets.draft.repeats import repeat_runs, rows_text, scattered_verdict
from falseclaims.sheets.draft.roles import (group_statistics, header_metric, metrics_named,
                                          names_effect_size, names_statistic, names_the_paper,
                                          reproduced_pair)

_VALUE_ROLES = ("value_proposed", "value_best_prior", "values_compared", "value")


def examples(c) -> str:
    """'; e.g. a | b | c' of a column's first distinct cells, for a remark ('' when it has
    none: an empty column)."""
    return f"; e.g. {' | '.join(e[:20] for e in c.examples)}" if c.examples else ""


def column_key(c, g: SheetGuess) -> str:
    """The key a column is mapped by: its name, or its letter ('@AI') when it has no name
    or shares it with another column (two 'accuracy' columns: one key each)."""
    if c.name == f"column {c.letter}" or not c.name or sum(
            o.name == c.name for o in g.columns) > 1:
        return f"@{c.letter}"
    return c.name


def draft_repeats(g: SheetGuess, idc, mapping: dict, block: dict, remarks: list[str],
             long: bool) -> None:
    """Repeated ids: consecutive rows of one paper are grouped (group_rows_by_id), rows
    the evidence shows to be different papers get their own id (sheets/draft/repeats.py)."""
    name = idc.name
    runs = repeat_runs(g)
    scattered = any(h.startswith("repeated ids:") for h in idc.hints)
    if not runs and not scattered:
        return
    decided = scattered_verdict(g) if scattered and not long else None
    if scattered and not long and decided is None and names_the_paper(idc):
        decided = ("same", f"the header {name!r} names the publication each row comes "
                   "from: rows of one id are one paper")
    if decided and decided[0] == "same":  # decided as consecutive runs are
        block["group_rows_by_id"] = True
        remarks.append(f"ids repeat in column {name!r} (not in consecutive rows): one paper "
                       f"over several rows ({decided[1]}); group_rows_by_id: true uses one "
                       "comparison, the other rows are noted")
        return
    different = [r for r in runs if r.verdict == "different"]
    if not long and (scattered or len(different) == len(runs)):
        block["id"] = "{" + column_key(idc, g) + "}"
        del mapping[column_key(idc, g)]  # read by id: (an ignored column could not be)
        for r in different:
            remarks.append(f"ids repeat in rows {rows_text(r.rows)} of column "
                           f"{name!r}: different papers ({r.evidence}); numbered ' (2)', ... "
                           "(id:)")
        if decided:
            remarks.append(f"ids repeat in column {name!r} (not in consecutive rows): "
                           f"different papers ({decided[1]}); numbered ' (2)', ... (id:)")
        elif scattered:
            remarks.append(f"unsure: ids repeat in column {name!r} (not in consecutive "
                           "rows): read as different papers, numbered ' (2)', ... (id:); if "
                           "a paper fills several rows, write group_rows_by_id: true instead")
        return
    block["group_rows_by_id"] = True
    if scattered:
        remarks.append(f"unsure: ids repeat in column {name!r} (not in consecutive rows): "
                       "read as one paper (group_rows_by_id: true)")
    overrides = block.setdefault("cell_overrides", {})
    for r in runs:
        rows = rows_text(r.rows)
        if r.verdict == "same":
            remarks.append(f"ids repeat in rows {rows} of column {name!r}: one paper over "
                           f"several rows ({r.evidence}); group_rows_by_id: true uses one "
                           "comparison, the other rows are noted")
        elif r.verdict == "unsure":
            remarks.append(f"unsure: ids {r.pid!r} repeat in rows {rows} of column {name!r}"
                           f" ({r.evidence}): read as one paper over several rows "
                           "(group_rows_by_id: true; one comparison used, the others "
                           "noted); if they are different papers, give each its own id "
                           "(cell_overrides)")
        elif long:
            remarks.append(f"unsure: ids {r.pid!r} repeat in rows {rows} of the papers table "
                           f"but look like different papers ({r.evidence}): give each its "
                           "own id in both tables; read as one paper meanwhile")
        else:
            for k, row in enumerate(r.later, start=2):
                overrides[f"{idc.letter}{row}"] = f"{r.pid} ({k})"
            remarks.append(f"ids {r.pid!r} repeat in rows {rows} of column {name!r} but "
                           f"are different papers ({r.evidence}): the later rows get their "
                           "own id (cell_overrides)")
    if not overrides:
        del block["cell_overrides"]


def metric_constants(g: SheetGuess, roles: set, remarks: list[str]) -> dict:
    out = {}
    if g.metric and "metric" not in roles:  # the metric the paired value headers name
        out["metric"] = g.metric[0]
        taken = ", ".join(repr(c.name) for c in g.columns if c.role in _VALUE_ROLES)
        remarks.append(f"no metric column: constants metric: {g.metric[0]} (the value "
                       f"columns' headers name it: {taken})")
        if g.metric[1] and "task" not in roles:
            out["task"] = g.metric[1]
            remarks.append(f"no task column: constants task: {g.metric[1]} (from the metric)")
        return out
    # the value columns' own headers decide ('Model Accuracy': accuracy, never a Dice or
    # HD header elsewhere in the sheet, nor the file's name)
    named = {header_metric(c.name) for c in g.columns if c.role in _VALUE_ROLES}
    named.discard(None)
    if len(named) == 1:
        (metric, task), = named
        if "metric" not in roles:
            out["metric"] = metric
            remarks.append(f"no metric column: constants metric: {metric} (the value "
                           "column's header names it)")
        if task and "task" not in roles:
            out["task"] = task
            remarks.append(f"no task column: constants task: {task} (from the metric the "
                           "value column's header names)")
        return out
    if len(named) > 1:
        remarks.append("unsure: the value columns' headers name several metrics ("
                       + ", ".join(sorted(m for m, _ in named)) + "): no metric constant "
                       "drafted; map a metric column or set constants: {metric: ...}")
        return out
    # a group row above the header over the value columns ("Results (accuracy)" over
    # "Proposed", "Best prior"), taken for a title row: its one metric, if it names one
    titled = {m for t in g.title_rows for m in metrics_named(t.split(":", 1)[-1])}
    if len(titled) == 1 and any(c.role in _VALUE_ROLES for c in g.columns):
        (metric, task), = titled
        for ours, v in (("metric", metric), ("task", task)):
            if v and ours not in roles:
                out[ours] = v
                remarks.append(f"unsure: no {ours} column: constants {ours}: {v} (the row "
                               f"above the header names {metric}: "
                               f"{'; '.join(g.title_rows)}); change it if wrong")
        return out
    text = metric_words(" ".join(c.name for c in g.columns if not names_effect_size(c.name))
                        + " " + str(g.file))
    for rx, metric, task in METRIC_TASK:
        if re.search(rx, text):
            if "metric" not in roles:
                out["metric"] = metric
                remarks.append(f"no metric column: constants metric: {metric} (a header "
                               "names it); change it if wrong")
            if "task" not in roles:
                out["task"] = task
                remarks.append(f"no task column: constants task: {task} (from the metric)")
            break
    return out


def where_and_header(block: dict, g: SheetGuess, sheet_key: str = "papers_sheet") -> None:
    """The sheet name and, when not the defaults, the header row(s) of ``g`` in ``block``."""
    if g.sheet:
        block[sheet_key] = g.sheet
    if g.header_row != 1:
        block["header_row"] = g.header_row
    if g.header_rows == 2:
        block["header_rows"] = 2


_BARE_METRIC = re.compile(r"[a-z][a-z0-9_\-]{1,15}")
_NOT_A_METRIC = {"nr", "na", "nan", "none", "unclear", "unknown", "other", "others", "yes",
                 "no", "missing", "multiple", "various", "several"}


def mark_todo(block: dict, path: tuple, text: str) -> None:
    """Write ``TODO: text`` at ``path`` of the block once it has been read (``_finish``):
    a draft that must ask instead of guessing then fails ``sheet check`` with the question,
    rather than running on one guess."""
    block.setdefault("_todo", {})[path] = f"TODO: {text}"


def metric_rules(g: SheetGuess, roles: dict[int, str], remarks: list[str],
                 problems: list[str], block: dict, table: str) -> dict:
    """``values: metric:`` rules for the metric column's cells that name the task's primary
    metric with a qualifier (``DICE_WM``; :mod:`falseclaims.sheets.draft.metric_names`);
    several parts of one metric: a problem, and the metric column's mapping a TODO."""
    from falseclaims.config import Analysis, load_config

    column = next((k for k, r in roles.items() if r == "metric"), None)
    if column is None:
        return {}
    t, _, _ = find_header(Path(g.file), g.sheet, g.header_row, g.header_rows)
    pid = next((k for k, r in roles.items() if r == "paper_id"), None)
    cells = [(c[pid] if pid is not None and pid < len(c) else None, c[column])
             for _, c in t.rows if column < len(c)]
    spellings = Analysis.from_config(load_config()).eligibility.metrics
    before = len(problems)
    rules = metric_cell_rules(cells, g.columns[column].name, spellings, remarks, problems)
    if len(problems) > before:
        mark_todo(block, ("columns", table, column_key(g.columns[column], g)),
                  "which part is the papers' headline metric? (STILL TO FIX above)")
    return rules


def competing_values(g: SheetGuess, block: dict) -> list[str]:
    """[one problem] when several value columns of the proposed method name the primary
    metric for different parts and one of them was taken (``Dice_WM``, ``Dice_GM``); the
    taken column's mapping is then a TODO."""
    if not any(c.role == "value_proposed" for c in g.columns):
        return []
    prior = re.compile(r"baseline|prior|comparator|sota|previous|runner|competing|second|"
                       r"existing|state.of.the.art", re.I)
    names = [c.name for c in g.columns if (c.role == "value_proposed" or (
        c.role == "(ignore)" and c.kind == "value_proposed")) and not prior.search(c.name)]
    taken = [c for c in g.columns if c.role == "value_proposed"]
    problem = competing_value_columns(names, [c.name for c in taken])
    if problem:
        mark_todo(block, ("columns", "wide", column_key(taken[0], g)),
                  "which value column is the papers' headline? (STILL TO FIX above)")
    return [problem] if problem else []


# a value column is "filled" (one value per paper) at this share of the rows
_FILLED_SHARE = 0.8
# a value as written: '0.695', '95.2', '95.2%', with its SD '68.4(7.1)', '68.4 ± 7.1' (a
# numbered category '3. (+) statement' is not)
_PLAIN_NUMBER = re.compile(r"[-+]?\d+(?:[.,]\d+)?\s*%?"
                           r"(?:\s*(?:\(\s*\d+(?:[.,]\d+)?\s*%?\s*\)|±\s*\d+(?:[.,]\d+)?\s*%?))?")


def file_metric(g: SheetGuess) -> tuple[str, str | None] | None:
    """(metric, task) when the file's name is a metric's name ('auc.csv', 'dice.xlsx'):
    a table per metric, the metric said by the file name only."""
    return header_metric(Path(g.file).stem)


def uncompared_values(g: SheetGuess, block: dict) -> list[str]:
    """[one problem] when no value column is mapped but two or more columns hold one
    number per paper on one scale, the role the cells suggest a value's (``DESR`` and
    ``Conventional``, ``AUC DESR`` and ``AUC Conventional``): the values of methods
    compared, under headers naming methods, not which is the proposed one nor (often)
    the metric. Read as a study-design sheet, the comparison would be lost unsaid; so the
    first of them is a TODO and the user says which is value_proposed, which
    value_best_prior, and the metric."""
    roles = {c.role for c in g.columns}
    if roles & {"value", "value_proposed", "value_best_prior", "values_compared", "method"} \
            or block.get("group_rows_by_id"):  # a paper over several rows: _lost_results
        return []
    same = [c for c in g.columns if c.role == "(ignore)" and c.kind == "value_proposed"
            and c.filled >= _FILLED_SHARE * g.n_rows and c.big is not None
            and c.examples and all(_PLAIN_NUMBER.fullmatch(e.strip()) for e in c.examples)]
    if stats := [c for c in same if names_statistic(c.name)]:
        return _not_compared(g, block, stats, "effect sizes and test statistics (a "
                             "meta-analysis's data)", [c for c in same if c not in stats])
    if groups := group_statistics([c.name for c in same]):
        return _not_compared(g, block, [c for c in same if c.name in groups], "means and SDs "
                             "of a study's groups of people (cases and controls)",
                             [c for c in same if c.name not in groups])
    if pair := reproduced_pair([c.name for c in same]):
        return _not_compared(g, block, [c for c in same if c.name in pair], "one method's "
                             "score as first reported and as reproduced (a reproduction)",
                             [c for c in same if c.name not in pair])
    for scale in ([c for c in same if c.big == 0], [c for c in same if c.big > 0.5]):
        named = {header_metric(c.name) for c in scale}
        if len(scale) < 2 or (len(named) > 1 and named != {None}):
            continue  # headers naming several metrics (recall, precision): one method's
        names = ", ".join(f"{c.letter} {c.name!r}" for c in scale)
        metric = next(iter(named))[0] if None not in named else None
        by_file = file_metric(g) if not metric else None
        mark_todo(block, ("columns", "wide", column_key(scale[0], g)),
                  "which column is the proposed method's value? (STILL TO FIX above)")
        return [f"columns {names} each hold one number per paper on the same scale: the "
                "values of methods compared? say which is the proposed method's "
                "(value_proposed) and which the prior one's (value_best_prior), and "
                + (f"check the metric ({metric}, as the headers name it)" if metric else
                   f"check the metric ({by_file[0]}, as the file name names it; no header "
                   f"does): constants: {{metric: {by_file[0]}, task: {by_file[1]}}}"
                   if by_file else
                   "name the metric (constants: metric, task): no header names it")
                + "; analysis.metrics too if it is not the task's primary metric"]
    return []


def _not_compared(g: SheetGuess, block: dict, cols: list, what: str, rest: list) -> list[str]:
    """[one problem]: number columns that are no values of methods compared (effect sizes,
    a score and its reproduction): the question says so, and asks what the rows are,
    rather than which column is the proposed method's (a meta-analysis's correlations,
    standard errors and p values had been offered as candidate values)."""
    names = ", ".join(f"{c.letter} {c.name!r}" for c in cols)
    ids = [c for c in g.columns if c.role == "paper_id"]
    mark_todo(block, ("columns", "wide", column_key(cols[0], g)),
              "not the values of methods compared (STILL TO FIX above)")
    ref = _reference_papers(g, ids[0]) if ids else None
    return [f"columns {names} hold {what}, not the values of methods compared: this sheet "
            "holds no claim to assess; map them to ignore to run it as a study-design sheet, "
            + (f"and name each row's paper: {ids[0].letter} {ids[0].name!r} differs on every "
               f"row (a number per effect size?) while {ref[0].letter} {ref[0].name!r} names "
               f"{ref[1]} references over {g.n_rows} rows: map {ref[0].name!r} to paper_id "
               f"and {ids[0].name!r} to ignore, with group_rows_by_id: true (and no id: "
               "template)" if ref else
               f"after checking that {ids[0].letter} {ids[0].name!r} names one paper per "
               "row or per group of rows (one row per effect size or score?)" if ids else
               "after naming the column of each row's paper (id)")
            + (f"; the other number columns ({', '.join(repr(c.name) for c in rest)}) "
               "too, unless two are methods compared" if rest else "")]


# a header naming the publication each row cites in full ('Full.Reference', 'Citation')
_REFERENCE = re.compile(r"reference|citation", re.I)


def _reference_papers(g: SheetGuess, idc) -> tuple | None:
    """(column, distinct references) when the paper id drafted differs on every row while
    a filled reference column names fewer publications (cells compared as the reader
    groups them: runs of white space ignored): an id numbering the rows (effect sizes),
    the reference naming the papers. None otherwise."""
    from falseclaims.io.raw_table import clean_text
    from falseclaims.sheets.read.rows import skip_rows

    refs = [c for c in g.columns if c is not idc and c.role != "paper_id" and not c.unique
            and _REFERENCE.search(c.name) and c.filled == g.n_rows]
    if not idc.unique or not refs:
        return None
    t, _, _ = find_header(Path(g.file), g.sheet, g.header_row, g.header_rows)
    skip_rows(t, None, "")
    k = next(i for i, c in enumerate(g.columns) if c is refs[0])
    n = len({clean_text(str(r[k])) for _, r in t.rows})
    return (refs[0], n) if n < g.n_rows else None


def task_from_metric_cells(g: SheetGuess, roles: set, remarks: list[str]) -> dict:
    """``{task: ...}`` for a sheet without a usable task column whose metric (or
    metrics-reported) cells name metrics of one task only (accuracy: classification; Dice,
    IoU, Hausdorff: segmentation), else ``{}``. Safe to guess: a paper is analysed only on
    its task's primary metric (``analysis.metrics``), so a paper compared on another metric
    is left out, not misread; the guess is listed as unsure."""
    column = next((k for k, c in enumerate(g.columns)
                   if c.role in ("metric", "metrics_reported")), None)
    if "task" in roles or column is None:
        return {}
    t, _, _ = find_header(Path(g.file), g.sheet, g.header_row, g.header_rows)
    counts: Counter = Counter()
    filled: Counter = Counter()  # cells naming one metric of no known task, by name
    for _, cells in t.rows:
        text = str(cells[column]).lower() if column < len(cells) and cells[column] else ""
        tasks = {task for rx, _, task in METRIC_TASK if re.search(rx, metric_words(text))}
        # each listed metric's own task too (AUROC, sensitivity: classification)
        tasks |= {m[1] for part in re.split(r"[;,|\n]", text)
                  if (m := header_metric(part)) and m[1]}
        counts.update(tasks)
        if not tasks and _BARE_METRIC.fullmatch(text.strip()) \
                and text.strip() not in _NOT_A_METRIC and not header_metric(text):
            filled[text.strip()] += 1  # a metric's bare name (psnr), not 'NR' or free text
    if len(counts) != 1:
        return {}
    (task, n), = counts.items()
    # metrics of no known task (PSNR, SSIM of a reconstruction review) named: with few
    # task rows, most papers are then left out, which the user should see before running
    others = (f"; the other rows name e.g. {', '.join(repr(m) for m, _ in filled.most_common(3))}"
              if sum(filled.values()) >= n else "")
    remarks.append(f"unsure: no usable task column: constants task: {task} (column "
                   f"{g.columns[column].name!r} names a {task} metric in {n} of {len(t.rows)} "
                   f"rows and no metric of another task{others}); papers compared on another "
                   "metric are left out by analysis.metrics")
    return {"task": task}


def task_from_headers(g: SheetGuess, roles: set, remarks: list[str]) -> dict:
    """``{task: ...}`` for a sheet without a task column whose numeric columns' headers
    name metrics of one task only (``top1_acc``: classification), even where no column is
    mapped as a value (one value per paper: a study-design sheet still needs its task);
    listed as unsure."""
    if "task" in roles:
        return {}
    named = {header_metric(c.name) for c in g.columns if c.kind in ("value_proposed",)}
    tasks = {t for m in named if m for t in [m[1]]}
    if len(tasks) > 1:  # F1 (used for both tasks) beside recall or precision: theirs
        tasks.discard(None)
    if len(tasks) != 1 or None in tasks:
        return {}
    (task,) = tasks
    remarks.append(f"unsure: no task column: constants task: {task} (numeric columns' headers "
                   f"name {task} metrics only: "
                   + ", ".join(sorted(repr(c.name) for c in g.columns
                                      if c.kind == "value_proposed" and header_metric(c.name)))
                   + ")")
    return {"task": task}


def split_remarks(c) -> list[str]:
    """Each distinct cell of a free-text split column with the category its values: rules
    give it, so that a reviewer sees every mapping (and every 'unclear') in the draft."""
    if not c.mapped:
        return []
    unclear = sum(v == "unclear" for v in c.mapped.values())
    return ([f"split from free text in column {c.letter} {c.name!r}: {len(c.mapped)} distinct "
             f"cells, {unclear} naming no clear split -> unclear; edit values: split: to "
             "change one"]
            + [f"  split {t!r} -> {v}" for t, v in c.mapped.items()])


# a header naming who filled each row ('Assigned to', 'Reviewer', 'Extracted by')
_REVIEWER = re.compile(r"(?i)(assigned ?to|reviewers?|reviewed ?by|extractors?|extracted ?by|"
                       r"coders?|coded ?by|raters?|annotators?|assessors?)")


def reviewer_rows(g: SheetGuess) -> str | None:
    """The question for a double data extraction: a column naming who extracted each row (a
    few names, each on several rows) beside a paper id that repeats, so that a paper's rows
    are its reviewers' copies, not its results; None otherwise. Drafted as it stood, a
    psychology extraction sheet (15 rows, 3 papers, 4-5 reviewers each) had become a
    results table with unrelated columns as methods and values."""
    ids = [c for c in g.columns if c.role == "paper_id"]
    revs = [k for k, c in enumerate(g.columns) if _REVIEWER.fullmatch(c.low.strip())
            and c.role != "paper_id"]
    if not ids or not revs or ids[0].unique:
        return None
    t, _, _ = find_header(Path(g.file), g.sheet, g.header_row, g.header_rows)
    names = [clean_text(str(r[revs[0]])) for _, r in t.rows if not is_missing(r[revs[0]])]
    distinct = list(dict.fromkeys(names))
    if not 2 <= len(distinct) <= 12 or 2 * len(distinct) > len(names):
        return None
    rc, idc = g.columns[revs[0]], ids[0]
    return (f"column {rc.letter} {rc.name!r} names who extracted each row ("
            + ", ".join(repr(n) for n in distinct[:4]) + f"{', ...' if len(distinct) > 4 else ''}"
            f": {len(distinct)} names over {len(names)} rows) while the ids of column "
            f"{idc.letter} {idc.name!r} repeat (" + ", ".join(repr(e) for e in idc.examples)
            + "): a double data extraction, a row per paper and reviewer, not a paper's "
            "results? keep one row per paper (the agreed rows, or one reviewer's: "
            f"skip_rows_where: {{{rc.name!r}: '^(?!{re.escape(distinct[0])}$)'}}) and check "
            "that the ids name each paper one way")

