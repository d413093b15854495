"""The long per-case layout ``case_id, task, method, metric, value[, ground_truth]``."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from falseclaims.percase.checks import _check_kind, _finish, _line, _lines, _parse_numbers
from falseclaims.percase.checks import _require_columns
from falseclaims.percase.errors import PerCaseValidationError, Problem
from falseclaims.percase.layouts import SINGLE_STRUCTURE
from falseclaims.percase.model import LONG_COLUMNS, PerCase
from falseclaims.percase.text_table import numeric_columns, read_text_table

PathLike = str | os.PathLike


def read_long(path: PathLike, kind: str | None = None, classes: Sequence[str] | None = None,
              case_mismatch: str = "error", min_methods: int = 2,
              units: str = "fraction", compared_tasks: Sequence[str] | None = None,
              columns: Mapping[str, str] | None = None,
              compared_metric: str | None = None) -> PerCase:
    """Long table ``case_id, task, method, metric, value[, ground_truth]``.

    The kind is classification when a ``ground_truth`` column is present (then ``value``
    holds predicted labels), else segmentation (numeric values; DSC-like metrics in [0, 1]).
    Empty values are problems: a long table lists only results that exist. Case sets must
    agree only within the ``compared_tasks`` when given (default: every task).
    ``columns``: {role: column in the file} for a file naming its columns differently.
    ``compared_metric``: only that metric's case sets must agree (``--metric``).
    """
    _check_kind(kind)
    file = str(path)
    df = read_text_table(path, columns=columns)
    notes = list(df.attrs["notes"])
    df = metric_columns_as_rows(df, file, notes)
    if kind is None:
        kind = "classification" if "ground_truth" in df.columns else "segmentation"
    need = list(LONG_COLUMNS) + (["ground_truth"] if kind == "classification" else [])
    problems = _require_columns(df, need, file)
    if problems:
        raise PerCaseValidationError(problems)
    table = df[need].copy()
    at = pd.Index(df["_line_of"]) if "_line_of" in df.columns else df.index
    origin = pd.DataFrame({"file": file, "row": _lines(at),
                           "column": df.get("_column", "value")})
    for col in ("task", "method", "metric"):
        for i in np.flatnonzero((table[col] == "").to_numpy()):
            problems.append(Problem(file, row=_line(at[i]), column=col, value="",
                                    expected=f"a non-empty {col}"))
    table["metric"] = table["metric"].str.lower()
    if kind == "segmentation":
        cells = pd.Series(df["value"].to_numpy(), index=at)  # messages name the file's row
        table["value"] = _parse_numbers(cells, file, "value", problems,
                                        allow_empty=False).to_numpy()
    else:
        for col in ("value", "ground_truth"):
            for i in np.flatnonzero((table[col] == "").to_numpy()):
                problems.append(Problem(file, row=_line(at[i]), column=col, value="",
                                        expected="a label (empty cells are not allowed)"))
        # one truth per case and task, whatever the method
        if not problems:
            n_truth = table.groupby(["task", "case_id"])["ground_truth"].nunique()
            for (task, case), k in n_truth[n_truth > 1].items():
                problems.append(Problem(file, column="ground_truth", value=case,
                                        expected=f"one ground truth per case in task {task!r} "
                                        f"(found {k} different labels)"))
        origin["gt_column"] = "ground_truth"
    files = {m: file for m in table["method"].unique()}
    return _finish(kind, table, origin, files, problems, notes,
                   classes=classes, case_mismatch=case_mismatch, min_methods=min_methods,
                   units=units, compared_tasks=compared_tasks,
                   compared_metrics=None if compared_metric is None else [compared_metric.lower()])




def has_metric_columns(header) -> bool:
    """A case column and a method column but neither ``metric`` nor ``value``: one row per
    case (and structure) and method, one column per metric (``pt_id, anatomy, methods,
    assd, dice``, after the column mapping)."""
    names = set(map(str, header))
    return {"case_id", "method"} <= names and not names & {"metric", "value"}


def metric_columns_as_rows(df: pd.DataFrame, file: str, notes: list[str]) -> pd.DataFrame:
    """A file of :func:`has_metric_columns` as the long layout: each column whose every
    non-empty cell is a number becomes a metric (its name), the other columns (a centre, a
    scanner) are left out with a note; without a task column the rows are one structure.
    An empty cell is left out with a note: that case lacks that metric (an HD95 undefined
    for an empty prediction), which the case-set check then names when it is compared."""
    if not has_metric_columns(df.columns):
        return df
    keys = [c for c in ("case_id", "task", "method", "ground_truth") if c in df.columns]
    rest = [c for c in df.columns if c not in keys]
    numeric = numeric_columns(df, rest)
    if not numeric:
        raise PerCaseValidationError(
            f"{file}: a case column and a method column, but no column of numbers (the "
            f"other columns {rest} hold text); expected one column per metric, or the "
            "columns metric and value")
    other = [c for c in rest if c not in numeric]
    notes.append(f"{file}: one row per case and method with one column per metric "
                 f"({', '.join(numeric)})" + (f"; column(s) {', '.join(other)} not metrics, "
                                              "left out" if other else ""))
    if "task" not in keys:
        df = df.assign(task=SINGLE_STRUCTURE)
        keys.insert(1, "task")
    long = df.melt(id_vars=keys, value_vars=numeric, var_name="metric", value_name="value",
                   ignore_index=False)
    long["_column"] = long["metric"]
    long["_line_of"] = long.index  # the file's row, for messages: the melted index repeats
    empty = long["value"].str.strip() == ""
    if empty.any():  # a metric undefined for a case (HD95 of an empty prediction)
        said = long.loc[empty, "metric"].value_counts().sort_index()
        notes.append("empty cell(s) left out: " + ", ".join(f"{n} of {m}"
                                                             for m, n in said.items())
                     + " (those cases lack that metric; the case-set check names them)")
    return long[~empty].reset_index(drop=True)
