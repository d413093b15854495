"""The same case name, the same reference? Checked through the reference's voxel counts.

Two methods' per-case files pair cases by name. nnU-Net's evaluators write, beside each
case's Dice, the number of reference voxels per label (version 2: ``n_ref``; version 1 and
CSVs written from its evaluator: ``Total Positives Reference``). The reference is the same
for every method evaluated on the same case, so its count must be too: a count that differs
between two methods means the name was reused for another image (a re-exported test set,
a template of another resolution), and pairing the two values would compare different
images. Such a case is refused, naming it; ``--case-mismatch intersect`` leaves it out with
a note, as it does for a case one method lacks.
"""

from __future__ import annotations

import math

import pandas as pd

from falseclaims.percase.errors import PerCaseValidationError

# the reference's voxel count under the names nnU-Net's evaluators give it
REFERENCE_COUNT_KEYS = ("n_ref", "total positives reference")


def reference_count_key(keys) -> str | None:
    """The key (a column or a JSON key) holding the reference's voxel count, if any."""
    return next((k for k in keys if str(k).strip().lower() in REFERENCE_COUNT_KEYS), None)


def as_count(value) -> float | None:
    """A voxel count, or None when absent or not a number (then nothing is checked)."""
    if isinstance(value, bool):
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(number) else number


def check_same_references(table: pd.DataFrame, origin: pd.DataFrame, counts: pd.DataFrame,
                          case_mismatch: str, notes: list[str]
                          ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Refuse (or, with ``intersect``, leave out with a note) the cases whose reference
    count differs between methods for some structure.

    ``counts`` has columns case_id, task, method, count, file (one row per method, case
    and structure that has a count); ``table``/``origin`` are the reader's rows.
    """
    if counts.empty or counts["method"].nunique() < 2:
        return table, origin
    spread = counts.groupby(["case_id", "task"])["count"].agg(["min", "max"])
    differ = spread[spread["min"] != spread["max"]]
    if differ.empty:
        return table, origin
    cases = sorted({str(c) for c, _ in differ.index})
    case, task = differ.index[0]
    at = counts[(counts["case_id"] == case) & (counts["task"] == task)]
    said = "; ".join(f"{r.method}: {r.count:g} in {r.file}" for r in at.itertuples())
    what = (f"{len(cases)} case(s) with the same name but a different reference image "
            f"({', '.join(cases[:6])}{' ...' if len(cases) > 6 else ''}): case {case!r}, "
            f"structure {task!r}, reference voxels {said}")
    if case_mismatch != "intersect":
        raise PerCaseValidationError(
            f"{what}; the reference of one case is the same for every method, so these "
            "are different images under one name and pairing them would compare different "
            "images. Evaluate the methods against the same references, or leave these "
            "cases out with --case-mismatch intersect")
    keep = ~table["case_id"].astype(str).isin(cases)
    notes.append(f"left out {what} (--case-mismatch intersect)")
    return (table[keep].reset_index(drop=True), origin[keep.to_numpy()].reset_index(drop=True))
