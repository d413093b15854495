"""Wide "top-2" sheets: one row per paper with the proposed method's value, the best prior
value and the test-set size in separate columns. They become the same papers and
results tables as the long layout, with methods named "proposed" and "best_prior" (or the
names in optional ``name_proposed`` / ``name_best_prior`` columns). Papers-table fields the
wide sheet lacks stay missing. A ``values_compared`` column may list every compared method
in one cell ("UNet 78.2; nnU-Net 80.1"), one results row each, instead of or next to
``value_best_prior``. Split cells (config ``cells: {col: {split: ...}}``) give one results
row per part (``expand_parts``). A sheet of study design only (no value column at all)
gives its papers and an empty results table: the flow, reporting-practice, uncertainty and
split-size outputs apply to it; probabilities need results (noted once).
"""

from __future__ import annotations

from falseclaims.sheets.read.columns import PAPERS, WIDE_METHODS
from falseclaims.io.raw_reader import RawTable
from falseclaims.sheets.read.records import SheetRecord

__all__ = ["wide_to_long", "check_wide_columns", "expand_parts", "NO_RESULTS",
           "lacks_metric_and_task"]


NO_RESULTS = ("no result columns (no value_proposed, value_best_prior or values_compared): "
              "the flow, reporting-practice, uncertainty and split-size outputs are made; "
              "probabilities need results")


# a metric constant gives every paper one metric: with a task column holding both tasks,
# the metric follows each paper's task instead
_BY_TASK = ("; if the task column holds both tasks, read the metric from it: columns: wide: "
            "{their task column: [task, metric]} with values: {metric: {classification: "
            "accuracy, segmentation: dsc}}")


def check_wide_columns(table: RawTable, idx: dict, constants: dict, where: str) -> bool:
    """Problems for missing metric/value columns; False for a sheet of study design only
    (no value column at all: its papers run without results, noted once)."""
    values = ("value_proposed", "value_best_prior", "values_compared")
    if not any(c in idx or c in (constants or {}) for c in values):
        table.note(None, None, None, NO_RESULTS)  # in the venue's digest (reader.py)
        return False
    both = lacks_metric_and_task(idx, constants)
    for col in ("metric", *(f"value_{m}" for m in WIDE_METHODS)):
        if col == "value_best_prior" and "values_compared" in idx:
            continue
        if col == "metric" and both:  # one problem for the two (the task is read next)
            table.problem(table.header_row, col, None,
                          f"a column 'metric' and a column 'task' (values without a metric: "
                          f"map yours in {where} columns: wide: {{their name: metric}}, "
                          "{their name: task} or set constants: {metric: ..., task: ...})")
        elif col not in idx and col not in (constants or {}):
            table.problem(table.header_row, col, None,
                          f"a column {col!r} (wide_top2 layout; map yours in {where} "
                          f"columns: wide: {{their name: {col}}}"
                          + (" or set constants: {metric: ...}" if col == "metric" else "")
                          + (_BY_TASK if col == "metric" and "task" in idx
                             and "task" not in (constants or {}) else "")
                          + ")")
    return True


def lacks_metric_and_task(idx: dict, constants: dict) -> bool:
    """Neither metric nor task mapped nor set: one problem names both."""
    return not any(c in idx or c in (constants or {}) for c in ("metric", "task"))


def wide_to_long(records: list[SheetRecord], table: RawTable, has_results: bool = True,
                 scoped: bool = True) -> tuple[list[SheetRecord], list[SheetRecord]]:
    """``scoped``: the sheet records in_scope (a column or a constant); a paper it puts out
    of scope gets no notes about missing values."""
    papers, results = [], []
    for rec in records:
        papers.append(SheetRecord(rec.row, rec.their, {c: rec.get(c) for c in PAPERS},
                                  bad=[c for c in rec.bad if c in PAPERS]))
        if not has_results:
            continue
        for method in WIDE_METHODS:
            if rec.get(f"value_{method}") is None:
                if f"value_{method}" not in rec.bad and not _excluded_before(rec, scoped):
                    table.note(rec.row, rec.name(f"value_{method}"), None,
                               f"no {method} value; no results row for it")
                continue
            if rec.get("metric") is None:
                if "metric" not in rec.bad:
                    table.problem(rec.row, rec.name("metric"), None,
                                  "a metric name (the row has values)")
                continue
            results.append(_method_record(rec, method))
        for name, m in rec.get("values_compared") or ():
            if rec.get("metric") is None:
                break
            results.append(_compared_record(rec, name, m))
    return papers, results


def _excluded_before(rec: SheetRecord, scoped: bool) -> bool:
    """A paper excluded before its values count (out of scope or its in_scope cell empty,
    values only in figures, an invalid cell): its exclusion reason says enough, no notes
    about its missing values. A sheet without in_scope keeps them (its setup is unfinished:
    the notes show what it will give once in scope)."""
    return (scoped and rec.get("in_scope") in (None, False)) \
        or rec.get("values_only_in_figures") is True or bool(rec.bad)


# the results columns of a wide row that keep their name: paper_id, metric, sd_over
_SHARED = ("paper_id", "metric", "sd_over")


def _method_record(rec: SheetRecord, method: str) -> SheetRecord:
    """The results row of the proposed or best-prior method of a wide row."""
    own = {"value": f"value_{method}", "sd": f"sd_{method}", "n_test": f"n_test_{method}",
           "method": f"name_{method}"}
    values = {"paper_id": rec.get("paper_id"), "method": rec.get(own["method"]) or method,
              "metric": rec["metric"], "value": rec[own["value"]], "sd": rec.get(own["sd"]),
              "sd_over": rec.get("sd_over"), "n_test": rec.get(own["n_test"])}
    their = {c: rec.name(own.get(c, c)) for c in
             ("paper_id", "method", "metric", "value", "sd", "sd_over", "n_test")}
    parts = rec.parts and rec.parts.get(own["value"])
    out = SheetRecord(
        rec.row, their, values,
        percent=["sd"] if own["sd"] in rec.percent else [],
        xlsx_percent=[c for c in ("value", "sd") if own[c] in rec.xlsx_percent],
        parts={"value": parts} if parts else None,
        bad=[c for c in _SHARED if c in rec.bad]
        + [c for c in ("value", "sd", "n_test") if own[c] in rec.bad])
    out.set_measure("value", rec.measure(own["value"]))
    return out


def _compared_record(rec: SheetRecord, name: str, m) -> SheetRecord:
    """One results row of a values_compared cell ("UNet 78.2; nnU-Net 80.1")."""
    values = {"paper_id": rec.get("paper_id"), "method": name, "metric": rec["metric"],
              "value": m.value, "sd": None, "sd_over": rec.get("sd_over"), "n_test": None}
    their = {c: rec.name(c if c in _SHARED or c == "n_test" else "values_compared")
             for c in ("paper_id", "method", "metric", "value", "sd", "sd_over", "n_test")}
    out = SheetRecord(rec.row, their, values, bad=[c for c in _SHARED if c in rec.bad])
    out.set_measure("value", m)
    return out


def expand_parts(records: list[SheetRecord], table: RawTable) -> list[SheetRecord]:
    """One record per part of a split value cell, " [part]" appended to the metric or the
    method name (noted); an SD cell split the same way pairs up part by part."""
    out = []
    for rec in records:
        rule = rec.parts and rec.parts.get("value")
        if rule is None or not isinstance(rec.get("value"), list):
            if isinstance(rec.get("sd"), list):
                table.problem(rec.row, rec.name("sd"), rec["sd"],
                              "one SD (the value cell of this row holds one value)", cell=True)
                rec["sd"] = None
                rec.mark_bad("sd")
            out.append(rec)
            continue
        sds = rec.get("sd")
        for k, part in enumerate(rule.parts):
            new = rec.clone()
            new["value"] = rec["value"][k]
            new.set_measure("value", rec.measure("value")[k])
            new["sd"] = sds[k] if isinstance(sds, list) else sds
            if part:
                target = rule.suffix_on
                if new.get(target) is not None:
                    new[target] = f"{new[target]} [{part}]"
                table.note(rec.row, rec.name("value"),
                           rec["value"][k], f"part {k + 1} of a {rule.split!r}-separated cell: "
                           f"{target} {new.get(target)!r}")
            out.append(new)
    return out
