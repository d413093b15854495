"""Wide per-method files (one file per method, one column per task), as in Touchstone;
also beside other methods' nnU-Net summaries (:func:`read_csv_beside_summaries`)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import pandas as pd

from falseclaims.percase.checks import (
    _finish,
    _line,
    _parse_numbers,
    _written_otherwise,
    as_count,
    check_same_references,
    reference_count_key,
)
from falseclaims.percase.errors import PerCaseValidationError, Problem
from falseclaims.percase.model import PerCase
from falseclaims.percase.nnunet_layout import (case_name, is_nnunet_summary, method_names,
                                               pool_folds, read_nnunet_summaries)
from falseclaims.percase.text_table import (BY_ORDER_COLUMN, CASE_HEADER, paired_by_order_note,
                                            read_text_table)

PathLike = str | os.PathLike

# a column naming the structure of each row: a file with one row per case AND structure
# (as nnU-Net's evaluator, or a script after it, writes: reference, label, Dice, ...)
STRUCTURE_COLUMNS = ("segment_id", "label", "region", "structure", "class")
# case columns after the given one: the other layouts' case_id, nnU-Net's reference paths
CASE_COLUMNS = ("case_id", "case", "reference", "reference_file")
# beside a reference path, the prediction's path (nnU-Net v1's evaluator: reference, test)
PREDICTION_PATH_COLUMNS = ("test", "prediction", "prediction_file")
OVERLAP_COLUMNS = ("dice", "dsc")
# a predicted class label's column: a classification file given where Dice was looked for
PREDICTED_LABEL_COLUMNS = ("prediction", "predicted", "pred", "predicted_label",
                           "prediction_label", "y_pred")


def _method_paths(paths) -> dict[str, str]:
    """{method: its file}, named as :func:`_method_files` names them (no folds pooled)."""
    return {m: fs[0] for m, fs in _method_files(paths, pool=False)[0].items()}


def _method_files(paths, pool: bool = True) -> tuple[dict[str, list[str]], str | None]:
    """{method: its files} and a note. A method is named by its file's name; files of one
    name in different folders (each run's ``validation_results.csv``) by the folders that
    differ, as nnU-Net summaries are, and (``pool``) cross-validation folds pooled per
    method."""
    if isinstance(paths, Mapping):  # method -> its file, or its files (folds)
        out = {str(k): [str(v)] if isinstance(v, (str, os.PathLike)) else [str(x) for x in v]
               for k, v in paths.items()}
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
                         compared_tasks: Sequence[str] | None = None,
                         by_order: bool = False) -> PerCase:
    """Segmentation results as one file per method (Touchstone layout).

    ``paths`` maps method -> file, or is a list of files (method = file name without
    extension; files of one name in different folders: the folders that differ, with
    cross-validation folds ``fold_N`` pooled per method). Each file has ``case_column`` and one column per task (e.g. organ); every
    file must have the same task columns. An empty cell means the structure is absent in
    that case: it yields no row and is counted in ``notes``. Case sets must agree only
    within the ``compared_tasks`` when given (default: every task), and only those columns
    must be in every file (the others are left out with a note). ``by_order``
    (``--paired-by-order``, declared): files without a case column paired by their rows'
    position (:func:`~falseclaims.percase.text_table.paired_by_order_note`).
    """
    by_method, pooled = _method_files(paths)
    problems: list[Problem] = []
    notes: list[str] = [pooled] if pooled else []
    if by_order:
        notes.append(paired_by_order_note([f for fs in by_method.values() for f in fs],
                                          CASE_COLUMNS))
        case_column = BY_ORDER_COLUMN
    tables, origins, counts = [], [], []
    expected_tasks = list(tasks) if tasks is not None else None
    given_case_column = case_column
    for method, file in ((m, f) for m, fs in by_method.items() for f in fs):
        df = read_text_table(file, by_order=by_order)
        notes += df.attrs["notes"]
        # the case column of the other layouts, case_id, names the cases here too (was
        # "expected a column named 'name'" for a file holding case_id)
        case_column = _case_column(df, given_case_column)
        if (structure := _structure_column(df)) is not None:
            got = _structure_rows(df, file, method, (case_column, given_case_column),
                                  structure, problems, notes)
            for part, rows in zip((tables, origins, counts), got or (), strict=False):
                part.append(rows)
            continue
        if case_column not in df.columns:
            problems.append(_no_case_column(df, file, given_case_column))
            continue
        df = _cases_by_reference(df, case_column, file, method, notes)
        cols = [c for c in df.columns if c != case_column]
        if expected_tasks is None:
            expected_tasks = cols
        use = _task_columns(cols, expected_tasks, (tasks, compared_tasks), file, method,
                            (problems, notes))
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
    table, origin = _paired_alike(table, origin, by_method, counts, case_mismatch, notes)
    files = {m: fs[0] if len(fs) == 1 else f"{fs[0]} (and {len(fs) - 1} more folds)"
             for m, fs in by_method.items()}
    return _finish("segmentation", table, origin, files, problems, notes,
                   case_mismatch=case_mismatch, min_methods=min_methods, units=units,
                   compared_tasks=compared_tasks)




def _task_columns(cols: list, expected: list, given: tuple, file: str, method: str,
                  said: tuple[list, list]) -> list:
    """The structure columns of one per-method file to read: problems for a column the
    other files have and this one lacks, or the reverse; with --subtask (``given``: the
    tasks, the compared tasks) only the compared column must be in every file and the
    others are left out with a note."""
    tasks, compared = given
    problems, notes = said
    if compared is not None and not set(compared) & set(cols):
        problems.append(Problem(file, column=", ".join(compared), expected=(
            f"the compared structure (--subtask) among its columns "
            f"{', '.join(map(str, cols[:8]))}{' ...' if len(cols) > 8 else ''}")))
        return []
    missing = [t for t in expected if t not in cols]
    extra = [t for t in cols if t not in expected]
    if compared is not None:  # --subtask: only its column must be in every file
        missing = [t for t in missing if t in compared]
        extra = [t for t in extra if t in compared]
    for t in missing:
        problems.append(Problem(file, column=t,
                                expected=f"task column {t!r} like the other methods' files"))
    if extra and tasks is None:
        for t in extra:
            problems.append(Problem(file, column=t,
                                    expected=f"only the task columns {expected} "
                                    "(or choose the column compared with --subtask)"))
    use = [t for t in expected if t in cols]
    if compared is not None and [t for t in use if t not in compared]:
        # the other columns (other metrics, a fold number) are not validated
        left = [t for t in cols if t not in compared]
        use = [t for t in use if t in compared]
        notes.append(f"{method}: {len(left)} column(s) of {file} not compared (--subtask "
                     f"{', '.join(compared)}): {', '.join(left)}")
    return use


def _cases_by_reference(df: pd.DataFrame, case_column: str, file: str, method: str,
                        notes: list[str]) -> pd.DataFrame:
    """A case column of reference paths (nnU-Net v1's evaluator: ``reference, test, 1, 2``)
    names each case by the reference's file name, as an nnU-Net summary does; the
    prediction-path column beside it is left out, with a note."""
    if case_column.strip().lower() not in ("reference", "reference_file"):
        return df
    df = df.copy()
    df[case_column] = df[case_column].map(case_name)
    paths = [c for c in df.columns if c.strip().lower() in PREDICTION_PATH_COLUMNS]
    if paths:
        notes.append(f"{method}: cases named by the file name of {case_column!r} in {file}; "
                     f"the prediction paths ({', '.join(paths)}) left out")
    return df.drop(columns=paths)


def _case_column(df: pd.DataFrame, given: str) -> str:
    """The given case column, or (for the default ``name`` absent) the first of
    :data:`CASE_COLUMNS` the file has, else its one column named like a case column
    (``Case``, ``subject_id``: :data:`~falseclaims.percase.text_table.CASE_HEADER`; ``Ids``)."""
    if given != "name" or "name" in df.columns:
        return given
    found = next((c for c in CASE_COLUMNS if c in df.columns), None)
    if found is None:
        # 'Ids' (a Swin UNETR export) only here: in a lone file's --columns suggestion the
        # columns beside it would be offered as methods, and they are its regions
        named = [c for c in df.columns if CASE_HEADER.match(str(c)) or str(c).lower() == "ids"]
        found = named[0] if len(named) == 1 else None
    return found or given


def _structure_rows(df: pd.DataFrame, file: str, method: str, case_columns: tuple[str, str],
                    structure: str, problems: list, notes: list[str]):
    """(rows, origin, reference counts) of a file with one row per case and structure: the
    Dice column is compared, the structure column names the task (``--subtask``), a
    reference path names the case by its file name (as in an nnU-Net summary).
    ``case_columns``: the file's case column and the one the caller was given."""
    case_column, given = case_columns
    overlap = [c for c in df.columns if c.strip().lower() in OVERLAP_COLUMNS]
    if not overlap:  # checked first: without a Dice column a case column would not help
        problems.append(Problem(file, column=structure, expected=_no_dice_column(df, structure)))
        return None
    if case_column not in df.columns:
        problems.append(Problem(file, column=structure, expected=(
            f"a case column ({', '.join((given, *CASE_COLUMNS))}) beside {structure!r}: "
            "its rows are structures, not cases (a table of means per structure cannot be "
            "compared per case); if another column names the cases, say so with "
            "--columns case_id=COLUMN")))
        return None
    if len(overlap) != 1:
        problems.append(Problem(file, column=", ".join(overlap) or None, expected=(
            f"one Dice column beside {structure!r} (one row per case and structure)")))
        return None
    dice = _parse_numbers(df[overlap[0]], file, overlap[0], problems, allow_empty=True)
    paths = case_column.lower() in ("reference", "reference_file")
    cases = df[case_column].map(case_name) if paths else df[case_column]
    keep = dice.notna().to_numpy()
    if (~keep).any():
        notes.append(f"{method}: {int((~keep).sum())} empty Dice cell(s) left out (reference "
                     f"and prediction both empty) in {file}")
    others = [c for c in df.columns if c not in (case_column, structure, overlap[0])]
    notes.append(f"{method}: one row per case and {structure!r} in {file}: {overlap[0]} "
                 f"compared, {len(others)} other column(s) not")
    rows = pd.DataFrame({"case_id": cases[keep].to_numpy(),
                         "task": df.loc[keep, structure].str.strip().to_numpy(),
                         "method": method, "metric": "dsc", "value": dice[keep].to_numpy()})
    origin = pd.DataFrame({"file": file, "row": [_line(i) for i in df.index[keep]],
                           "column": overlap[0]})
    key = reference_count_key(df.columns)
    count = (df[key].map(as_count) if key is not None
             else pd.Series(None, index=df.index, dtype=float))
    has = count.notna().to_numpy()
    refs = pd.DataFrame({"case_id": cases[has].to_numpy(),
                         "task": df.loc[has, structure].str.strip().to_numpy(),
                         "method": method, "count": count[has].astype(float).to_numpy(),
                         "file": file})
    return rows, origin, refs


def _no_case_column(df: pd.DataFrame, file: str, given: str) -> Problem:
    """A per-method file without a case column: what it holds and the two ways to go on
    (was "expected a column named 'name'", which hid --paired-by-order)."""
    cols = [str(c) for c in df.columns]
    return Problem(file, expected=(
        f"a case column ({', '.join(map(repr, dict.fromkeys((given, *CASE_COLUMNS))))}) "
        "among its "
        f"columns {cols[:8]}{' ...' if len(cols) > 8 else ''}: the files' rows are paired by "
        "case id; if every file lists the same cases in one order, say so with "
        "--paired-by-order; if another column names the cases, --columns case_id=COLUMN"))


def _no_dice_column(df: pd.DataFrame, structure: str) -> str:
    """What a file with a structure-like column (``label``) but no Dice column looks like:
    predicted labels beside their ground truth (classification), or a per-structure table
    lacking its Dice column (was "expected one Dice column beside 'label'" only)."""
    cols = [str(c) for c in df.columns]
    shown = f"{cols[:8]}{' ...' if len(cols) > 8 else ''}"
    predicted = [c for c in cols if c.strip().lower() in PREDICTED_LABEL_COLUMNS]
    if predicted:
        return (f"per-case Dice for segmentation; its columns {shown} look like predicted "
                f"labels ({predicted[0]!r}) beside the ground truth ({structure!r}): for "
                "classification give the ground truth in its own file (--labels FILE, a case "
                "column and the true label), each method's predictions in its own file, and "
                "--task classification")
    return (f"one Dice column ({', '.join(OVERLAP_COLUMNS)}) beside {structure!r} (one row "
            f"per case and structure); its columns: {shown}")


def _structure_column(df: pd.DataFrame) -> str | None:
    return next((c for c in df.columns if c.strip().lower() in STRUCTURE_COLUMNS), None)


def _paired_alike(table: pd.DataFrame, origin: pd.DataFrame, by_method, counts: list,
                  case_mismatch: str, notes: list[str]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The methods share cases, and a shared case name is one reference image."""
    _share_cases(table, by_method)
    if not counts:
        return table, origin
    return check_same_references(table, origin, pd.concat(counts), case_mismatch, notes)


def _share_cases(table: pd.DataFrame, by_method: Mapping[str, list[str]]) -> None:
    """One line when the methods have no case in common (two test sets): the per-structure
    case-set problems would say it once per structure."""
    sets = table.groupby("method")["case_id"].agg(lambda c: set(map(str, c)))
    if len(sets) < 2 or set.intersection(*sets.to_list()):
        return
    first, *others = sets.to_list()
    if any(_written_otherwise(sorted(o), first) for o in others):
        return  # the case-set check names the ids written otherwise (la_007_0000 for la_007)
    said = "; ".join(f"{m} ({by_method[m][0]}): {len(c)} cases, e.g. {', '.join(sorted(c)[:2])}"
                     for m, c in sets.items())
    raise PerCaseValidationError(f"the methods have no case in common ({said}): results on "
                                 "different test sets cannot be compared case by case")


# ------------------------------------------ per-case CSVs beside nnU-Net summaries

# nnU-Net's name of an input image: the case, the 4-digit channel, the image extension
_CHANNEL_FILE = re.compile(r"^(?P<case>.+)_\d{4}(?:\.nii\.gz|\.nii|\.nrrd|\.mha|\.mhd|\.png|"
                           r"\.tiff?|\.bmp|\.jpe?g)$", re.I)


def is_mixed(files: Sequence[PathLike]) -> bool:
    """Some files are nnU-Net summaries (``.json``) and some are tables."""
    kinds = {is_nnunet_summary(f) for f in files}
    return len(files) > 1 and kinds == {True, False}


def _methods(files: list[str]) -> tuple[dict[str, list[str]], str | None]:
    """{method: its files} named by the path parts that differ between all the files (the
    file's own name dropped when the folders alone tell the methods apart), folds pooled."""
    names = method_names(files)
    short = [n.rsplit("/", 1)[0] if "/" in n else n for n in names]
    if len(set(short)) == len(set(names)):
        names = short
    names, pooled = pool_folds(names)
    by = {n: [f for f, m in zip(files, names, strict=True) if m == n] for n in names}
    mixed = [m for m, fs in by.items() if is_mixed(fs)]
    if mixed:
        raise PerCaseValidationError(
            f"method {mixed[0]!r} is given both as a table and as an nnU-Net summary "
            f"({', '.join(by[mixed[0]])}); expected each method's results in one kind of file")
    return by, pooled


def read_csv_beside_summaries(paths: Sequence[PathLike], case_column: str = "name",
                              metric: str | None = None, case_mismatch: str = "error",
                              compared_tasks: Sequence[str] | None = None,
                              units: str = "fraction") -> PerCase:
    """Segmentation results of methods given as per-case CSVs (one file per method, as
    :func:`read_wide_per_method` reads them) beside methods given as nnU-Net summaries
    (``--layout nnunet`` with both kinds of file).

    A method evaluated outside nnU-Net (MedSAM2's ``validation_results.csv``, an nnU-Net v1
    evaluator's ``results.csv``) is compared with nnU-Net trainers whose results are their
    ``summary.json`` files. Each file is read by its own layout's reader (the CSVs as one file
    per method, the summaries as nnU-Net summaries); the methods are named by the path parts
    that differ between all the files, with cross-validation folds pooled per method; the
    Dice of both is compared per case.

    Case ids: a summary names a case by its reference image without extension (``la_007``);
    a CSV may name it by nnU-Net's input file, the case id plus the channel suffix and the
    extension (``la_007_0000.nii.gz``). nnU-Net's dataset format defines that name
    (``{case}_{channel:04d}.{ext}``, [Isensee2021]), so when *every* id of a CSV method is so
    written and the ids so read are exactly the summaries' cases, they are read as those
    cases, with a note. Anything less (some ids without the suffix, other cases) is left as
    written, and the case-set check names the difference.
    """
    files = [str(p) for p in paths]
    if metric is not None and metric.lower() not in ("dice", "dsc"):
        raise PerCaseValidationError(
            f"--metric {metric}: a per-case CSV beside nnU-Net summaries is compared on the "
            "Dice score (the CSV's one value per structure); expected --metric Dice or none")
    by, pooled = _methods(files)
    csv = {m: fs for m, fs in by.items() if not is_nnunet_summary(fs[0])}
    summaries = {m: fs for m, fs in by.items() if is_nnunet_summary(fs[0])}
    kw = {"case_mismatch": "intersect", "min_methods": 1, "units": units}
    got = [read_nnunet_summaries(summaries, **kw),
           read_wide_per_method(csv, case_column=case_column, metric="dice", **kw)]
    notes = [pooled] if pooled else []
    for pc in got:
        notes += [n for n in pc.notes if "pairs use the cases" not in n]
    table = pd.concat([pc.table for pc in got], ignore_index=True)
    table["metric"] = "dice"
    table = _shared_structures(table, notes)
    table = _channel_files_as_cases(table, set(csv), notes)
    named = {m: fs[0] if len(fs) == 1 else f"{fs[0]} (and {len(fs) - 1} more folds)"
             for m, fs in by.items()}
    origin = pd.DataFrame({"file": table["method"].map(named), "row": None,
                           "column": table["task"]})
    notes.append(f"methods read from per-case CSV files ({', '.join(csv)}) and from nnU-Net "
                 f"summaries ({', '.join(summaries)}): Dice compared")
    return _finish("segmentation", table, origin, named, [], notes,
                   case_mismatch=case_mismatch, compared_tasks=compared_tasks)


def _shared_structures(table: pd.DataFrame, notes: list[str]) -> pd.DataFrame:
    """The structures every method has (a v1 summary holds the background label 0, the CSV
    of the same evaluation does not); the others are left out, with a note."""
    per_method = table.groupby("method")["task"].agg(set)
    shared = set.intersection(*per_method.to_list())
    if not shared:
        said = "; ".join(f"{m}: {', '.join(sorted(t)[:6])}" for m, t in per_method.items())
        raise PerCaseValidationError(f"the methods have no structure (label or column) in "
                                     f"common ({said}); expected the same structure names in "
                                     "the CSV columns and the summaries' labels")
    left = sorted(set(table["task"]) - shared)
    if left:
        notes.append(f"structure(s) {', '.join(left)} not held by every method, left out")
    return table[table["task"].isin(shared)].reset_index(drop=True)


def _channel_files_as_cases(table: pd.DataFrame, csv_methods: set[str],
                            notes: list[str]) -> pd.DataFrame:
    """The CSV methods' ids written as nnU-Net input files (``la_007_0000.nii.gz``) read as
    the summaries' case ids (``la_007``) when every such id is so written and the ids so
    read are exactly the summaries' cases (the module's docstring says why)."""
    summary_cases = set(table.loc[~table["method"].isin(csv_methods), "case_id"].astype(str))
    for method in sorted(csv_methods):
        rows = table["method"] == method
        ids = table.loc[rows, "case_id"].astype(str)
        if set(ids) <= summary_cases:
            continue
        matched = ids.map(lambda i: m.group("case") if (m := _CHANNEL_FILE.match(i)) else None)
        unique = ids.drop_duplicates()
        cases = unique.map(lambda i: m.group("case") if (m := _CHANNEL_FILE.match(i)) else None)
        if (cases.isna().any() or cases.duplicated().any()
                or set(cases) != summary_cases):
            continue
        table.loc[rows, "case_id"] = matched.to_numpy()
        notes.append(f"{method}: its {len(unique)} case ids are nnU-Net input file names "
                     f"(e.g. {unique.iloc[0]!r}, case + channel suffix + extension): read as "
                     f"the nnU-Net summaries' cases ({cases.iloc[0]!r}), every one of which "
                     "they match")
    return table

