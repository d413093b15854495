"""One method's per-case CSV beside another method's nnU-Net summary.

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

from __future__ import annotations

import os
import re
from collections.abc import Sequence

import pandas as pd

from falseclaims.percase.checks import _finish
from falseclaims.percase.errors import PerCaseValidationError
from falseclaims.percase.model import PerCase
from falseclaims.percase.nnunet_layout import (is_nnunet_summary, method_names, pool_folds,
                                               read_nnunet_summaries)
from falseclaims.percase.wide_layout import read_wide_per_method

PathLike = str | os.PathLike

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
    :func:`read_wide_per_method` reads them) and of methods given as nnU-Net summaries."""
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

