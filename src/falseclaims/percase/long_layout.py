"""The long per-case layout ``case_id, task, method, metric, value[, ground_truth]``."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from falseclaims.percase.checks import _check_kind, _finish, _line, _lines, _parse_numbers
from falseclaims.percase.checks import _require_columns
from falseclaims.percase.errors import PerCaseValidationError, Problem
from falseclaims.percase.model import LONG_COLUMNS, PerCase
from falseclaims.percase.text_table import read_text_table

PathLike = str | os.PathLike


def read_long(path: PathLike, kind: str | None = None, classes: Sequence[str] | None = None,
              case_mismatch: str = "error", min_methods: int = 2,
              units: str = "fraction", compared_tasks: Sequence[str] | None = None,
              columns: Mapping[str, str] | None = None) -> PerCase:
    """Long table ``case_id, task, method, metric, value[, ground_truth]``.

    The kind is classification when a ``ground_truth`` column is present (then ``value``
    holds predicted labels), else segmentation (numeric values; DSC-like metrics in [0, 1]).
    Empty values are problems: a long table lists only results that exist. Case sets must
    agree only within the ``compared_tasks`` when given (default: every task).
    ``columns``: {role: column in the file} for a file naming its columns differently.
    """
    _check_kind(kind)
    file = str(path)
    df = read_text_table(path, columns=columns)
    if kind is None:
        kind = "classification" if "ground_truth" in df.columns else "segmentation"
    need = list(LONG_COLUMNS) + (["ground_truth"] if kind == "classification" else [])
    problems = _require_columns(df, need, file)
    if problems:
        raise PerCaseValidationError(problems)
    table = df[need].copy()
    origin = pd.DataFrame({"file": file, "row": _lines(df.index),
                           "column": "value"})
    for col in ("task", "method", "metric"):
        for i in np.flatnonzero((table[col] == "").to_numpy()):
            problems.append(Problem(file, row=_line(df.index[i]), column=col, value="",
                                    expected=f"a non-empty {col}"))
    table["metric"] = table["metric"].str.lower()
    if kind == "segmentation":
        table["value"] = _parse_numbers(df["value"], file, "value", problems, allow_empty=False)
    else:
        for col in ("value", "ground_truth"):
            for i in np.flatnonzero((table[col] == "").to_numpy()):
                problems.append(Problem(file, row=_line(df.index[i]), column=col, value="",
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
    return _finish(kind, table, origin, files, problems, list(df.attrs["notes"]),
                   classes=classes, case_mismatch=case_mismatch, min_methods=min_methods,
                   units=units, compared_tasks=compared_tasks)


