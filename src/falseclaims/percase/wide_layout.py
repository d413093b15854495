"""Wide per-method files (one file per method, one column per task), as in Touchstone."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import pandas as pd

from falseclaims.percase.checks import _finish, _line, _parse_numbers, _require_columns
from falseclaims.percase.errors import PerCaseValidationError, Problem
from falseclaims.percase.model import PerCase
from falseclaims.percase.nnunet_layout import method_names, pool_folds
from falseclaims.percase.text_table import read_text_table

PathLike = str | os.PathLike


def _method_paths(paths) -> dict[str, str]:
    """{method: its file}, named as :func:`_method_files` names them (no folds pooled)."""
    return {m: fs[0] for m, fs in _method_files(paths, pool=False)[0].items()}


def _method_files(paths, pool: bool = True) -> tuple[dict[str, list[str]], str | None]:
    """{method: its files} and a note. A method is named by its file's name; files of one
    name in different folders (each run's ``validation_results.csv``) by the folders that
    differ, as nnU-Net summaries are, and (``pool``) cross-validation folds pooled per
    method."""
    if isinstance(paths, Mapping):
        out = {str(k): [str(v)] for k, v in paths.items()}
        if not out:
            raise ValueError("no per-method files given")
        return out, None
    paths = [str(p) for p in paths]
    if not paths:
        raise ValueError("no per-method files given")
    stems = [Path(p).stem for p in paths]
    if len(set(stems)) == len(stems):
        return {n: [p] for n, p in zip(stems, paths, strict=True)}, None
    twice = [os.path.realpath(p) for p in paths]
    names, pooled = pool_folds(method_names(paths)) if pool else (method_names(paths), None)
    if len(set(twice)) < len(twice) or (pooled is None and len(set(names)) < len(names)):
        name = next(n for n in stems if stems.count(n) > 1)
        first, second = [p for p, n in zip(paths, stems, strict=True) if n == name][:2]
        raise PerCaseValidationError(f"two files give method name {name!r}: {first} and "
                                     f"{second}")
    return {n: [p for p, m in zip(paths, names, strict=True) if m == n] for n in names}, pooled


def read_wide_per_method(paths: Mapping[str, PathLike] | Iterable[PathLike],
                         case_column: str = "name", metric: str = "dsc",
                         tasks: Sequence[str] | None = None, case_mismatch: str = "error",
                         min_methods: int = 2, units: str = "fraction",
                         compared_tasks: Sequence[str] | None = None) -> PerCase:
    """Segmentation results as one file per method (Touchstone layout).

    ``paths`` maps method -> file, or is a list of files (method = file name without
    extension; files of one name in different folders: the folders that differ, with
    cross-validation folds ``fold_N`` pooled per method). Each file has ``case_column`` and one column per task (e.g. organ); every
    file must have the same task columns. An empty cell means the structure is absent in
    that case: it yields no row and is counted in ``notes``. Case sets must agree only
    within the ``compared_tasks`` when given (default: every task).
    """
    by_method, pooled = _method_files(paths)
    problems: list[Problem] = []
    notes: list[str] = [pooled] if pooled else []
    tables, origins = [], []
    expected_tasks = list(tasks) if tasks is not None else None
    given_case_column = case_column
    for method, file in ((m, f) for m, fs in by_method.items() for f in fs):
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
    files = {m: fs[0] if len(fs) == 1 else f"{fs[0]} (and {len(fs) - 1} more folds)"
             for m, fs in by_method.items()}
    return _finish("segmentation", table, origin, files, problems, notes,
                   case_mismatch=case_mismatch, min_methods=min_methods, units=units,
                   compared_tasks=compared_tasks)


