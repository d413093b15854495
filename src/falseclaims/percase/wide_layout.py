"""Wide per-method files (one file per method, one column per task), as in Touchstone."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import pandas as pd

from falseclaims.percase.checks import _finish, _line, _parse_numbers, _require_columns
from falseclaims.percase.errors import PerCaseValidationError, Problem
from falseclaims.percase.model import PerCase
from falseclaims.percase.text_table import read_text_table

PathLike = str | os.PathLike


def _method_paths(paths) -> dict[str, str]:
    if isinstance(paths, Mapping):
        out = {str(k): str(v) for k, v in paths.items()}
    else:
        out = {}
        for p in paths:
            name = Path(p).stem
            if name in out:
                raise PerCaseValidationError(f"two files give method name {name!r}: "
                                             f"{out[name]} and {p}")
            out[name] = str(p)
    if not out:
        raise ValueError("no per-method files given")
    return out


def read_wide_per_method(paths: Mapping[str, PathLike] | Iterable[PathLike],
                         case_column: str = "name", metric: str = "dsc",
                         tasks: Sequence[str] | None = None, case_mismatch: str = "error",
                         min_methods: int = 2, units: str = "fraction",
                         compared_tasks: Sequence[str] | None = None) -> PerCase:
    """Segmentation results as one file per method (Touchstone layout).

    ``paths`` maps method -> file, or is a list of files (method = file name without
    extension). Each file has ``case_column`` and one column per task (e.g. organ); every
    file must have the same task columns. An empty cell means the structure is absent in
    that case: it yields no row and is counted in ``notes``. Case sets must agree only
    within the ``compared_tasks`` when given (default: every task).
    """
    files = _method_paths(paths)
    problems: list[Problem] = []
    notes: list[str] = []
    tables, origins = [], []
    expected_tasks = list(tasks) if tasks is not None else None
    given_case_column = case_column
    for method, file in files.items():
        df = read_text_table(file)
        notes += df.attrs["notes"]
        # the case column of the other layouts, case_id, names the cases here too (was
        # "expected a column named 'name'" for a file holding case_id)
        case_column = ("case_id" if given_case_column == "name" and "name" not in df.columns
                       and "case_id" in df.columns else given_case_column)
        miss = _require_columns(df, [case_column], file)
        if miss:
            problems += miss
            continue
        cols = [c for c in df.columns if c != case_column]
        if expected_tasks is None:
            expected_tasks = cols
        missing_tasks = [t for t in expected_tasks if t not in cols]
        extra = [t for t in cols if t not in expected_tasks]
        for t in missing_tasks:
            problems.append(Problem(file, column=t,
                                    expected=f"task column {t!r} like the other methods' files"))
        if extra and tasks is None:
            for t in extra:
                problems.append(Problem(file, column=t,
                                        expected=f"only the task columns {expected_tasks}"))
        use = [t for t in expected_tasks if t in cols]
        long = df.melt(id_vars=[case_column], value_vars=use, var_name="task",
                       value_name="cell", ignore_index=False)
        for t in use:  # per column, so messages name the column
            _parse_numbers(df[t], file, t, problems, allow_empty=True)
        num = pd.to_numeric(long["cell"].where(long["cell"] != ""), errors="coerce")
        empty = long["cell"] == ""
        if empty.any():
            notes.append(f"{method}: {int(empty.sum())} empty cell(s) read as 'structure "
                         f"absent' in {file}")
        keep = ~empty
        tables.append(pd.DataFrame({
            "case_id": long.loc[keep, case_column].to_numpy(),
            "task": long.loc[keep, "task"].to_numpy(),
            "method": method,
            "metric": metric.lower(),
            "value": num[keep].to_numpy(),
        }))
        origins.append(pd.DataFrame({"file": file,
                                     "row": [_line(i) for i in long.index[keep]],
                                     "column": long.loc[keep, "task"].to_numpy()}))
    if problems:
        raise PerCaseValidationError(problems)
    table = pd.concat(tables, ignore_index=True)
    origin = pd.concat(origins, ignore_index=True)
    return _finish("segmentation", table, origin, files, problems, notes,
                   case_mismatch=case_mismatch, min_methods=min_methods, units=units,
                   compared_tasks=compared_tasks)


