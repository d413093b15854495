"""Claims Reloaded CSVs ([ClaimsReloaded]): ``case_id, alg_*`` and
``case_id, ground_truth, alg_*``."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from falseclaims.percase import claims_fast
from falseclaims.percase.checks import _check_kind, _finish, _line, _lines, _parse_numbers
from falseclaims.percase.checks import _require_columns
from falseclaims.percase.errors import PerCaseValidationError, Problem
from falseclaims.percase.model import LABEL_METRIC, PerCase
from falseclaims.percase.text_table import read_text_table, column_mapping

PathLike = str | os.PathLike


def _other_column(file: str, df: pd.DataFrame, c: str, kind: str) -> Problem:
    """A column that is no role of the layout; one with an empty header cell (pandas names
    it 'Unnamed: 3') by its position."""
    unnamed = re.fullmatch(r"Unnamed: (\d+)", str(c))
    if not unnamed:
        gt = "ground_truth, " if kind == "classification" else ""
        return Problem(file, column=c, expected=f"only case_id, {gt}and alg_* columns")
    filled = int((df[c].astype(str).str.strip() != "").sum())
    return Problem(file, row=1, message=(
        f"column {int(unnamed.group(1)) + 1} has no name in the header ("
        + ("empty in every row: a ',' at the end of each line? remove it" if not filled
           else f"{filled} value(s) below it: name it alg_<method>") + ")"))


def read_claims_reloaded(path: PathLike, kind: str | None = None, task: str = "task",
                         classes: Sequence[str] | None = None, metric: str | None = None,
                         case_mismatch: str = "error", min_methods: int = 2,
                         units: str = "fraction",
                         columns: Mapping[str, str] | None = None) -> PerCase:
    """Claims Reloaded upload layout ([ClaimsReloaded]).

    Segmentation: ``case_id, alg_<name>...`` with DSC in [0, 1]. Classification:
    ``case_id, ground_truth, alg_<name>...`` with predicted labels. The kind follows the
    presence of ``ground_truth`` unless given. Method names drop the ``alg_`` prefix. Every
    cell must be filled: a missing result is a problem, not a silent omission. Clean files
    take a fast typed read (:mod:`falseclaims.percase.claims_fast`) with the same result.
    ``columns``: {role: column in the file} (``{"case_id": "ID", "alg_a": "pred_A"}``).
    """
    _check_kind(kind)
    if case_mismatch in ("error", "intersect"):  # one row per case: no mismatch possible
        clean = claims_fast.read_clean(path, kind, task, classes, metric, min_methods, units,
                                       column_mapping(columns))
        if clean is not None:
            return clean
    file = str(path)
    df = read_text_table(path, columns=columns)
    if kind is None:
        kind = "classification" if "ground_truth" in df.columns else "segmentation"
    need = ["case_id"] + (["ground_truth"] if kind == "classification" else [])
    problems = _require_columns(df, need, file)
    alg = [c for c in df.columns if c.startswith("alg_")]
    if len(alg) < min_methods:
        problems.append(Problem(file, column="alg_*", value=alg,
                                expected=f"at least {min_methods} method columns named alg_<name>"))
    other = [c for c in df.columns if c not in need and c not in alg]
    notes = list(df.attrs["notes"])
    if other and any(role.startswith("alg_") for role in (columns or {})):
        # the mapping names the methods: the columns it leaves out (another metric of the
        # same methods, a column of differences) are the user's choice, said in a note
        left = [c for c in other if not re.fullmatch(r"Unnamed: \d+", str(c))]
        notes.append(f"{file}: column(s) {', '.join(map(repr, left))} not in the column "
                     "mapping: left out")
        other = [c for c in other if c not in left]
    problems += [_other_column(file, df, c, kind) for c in other]
    if problems:
        raise PerCaseValidationError(problems)
    names = {c: c[len("alg_"):] for c in alg}
    for c, n in names.items():
        if n == "":
            problems.append(Problem(file, column=c, expected="a method name after 'alg_'"))
    metric = (metric or ("dsc" if kind == "segmentation" else LABEL_METRIC)).lower()
    tables, origins = [], []
    for c in alg:
        if kind == "segmentation":
            value = _parse_numbers(df[c], file, c, problems, allow_empty=False)
        else:
            value = df[c]
            for i in np.flatnonzero((value == "").to_numpy()):
                problems.append(Problem(file, row=_line(df.index[i]), column=c, value="",
                                        expected="a predicted label"))
        part = pd.DataFrame({"case_id": df["case_id"].to_numpy(), "task": task,
                             "method": names[c], "metric": metric, "value": value.to_numpy()})
        if kind == "classification":
            part["ground_truth"] = df["ground_truth"].to_numpy()
        tables.append(part)
        origins.append(pd.DataFrame({"file": file, "row": _lines(df.index),
                                     "column": c, "gt_column": "ground_truth"}))
    if kind == "classification":
        for i in np.flatnonzero((df["ground_truth"] == "").to_numpy()):
            problems.append(Problem(file, row=_line(df.index[i]), column="ground_truth", value="",
                                    expected="a ground-truth label"))
    table = pd.concat(tables, ignore_index=True)
    origin = pd.concat(origins, ignore_index=True)
    if not problems:
        # one row per case in this layout: repeated ids are duplicates of the whole row
        dup = df["case_id"].duplicated()
        for i in np.flatnonzero(dup.to_numpy()):
            problems.append(Problem(file, row=_line(df.index[i]), column="case_id",
                                    value=df["case_id"].iloc[i],
                                    expected="each case id once"))
    files = {n: file for n in names.values()}
    return _finish(kind, table, origin, files, problems, notes,
                   classes=classes, case_mismatch=case_mismatch, min_methods=min_methods,
                   units=units)


