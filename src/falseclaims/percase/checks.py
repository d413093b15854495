"""Checks shared by the per-case layouts: columns, numbers, units, duplicates, case sets,
one reference image per case name, labels; :func:`_finish` builds the :class:`PerCase`
after all of them."""

from __future__ import annotations

import math
import os
import re
from collections.abc import Iterable, Mapping, Sequence

import numpy as np
import pandas as pd

from falseclaims.percase.errors import PerCaseValidationError, Problem
from falseclaims.percase.model import DSC_METRICS, LONG_COLUMNS, UNITS, PerCase, _codes
from falseclaims.tasks import TASKS
from falseclaims.io.textio import DECIMAL_COMMA, DECIMAL_COMMA_EXPECTED

PathLike = str | os.PathLike


def _line(i) -> int:
    return int(i) + 2  # header is line 1


def _lines(index: pd.Index) -> np.ndarray:
    """:func:`_line` of a whole (default, integer) index."""
    return np.asarray(index, dtype=np.int64) + 2


def _require_columns(df: pd.DataFrame, cols: Iterable[str], file: str) -> list[Problem]:
    missing = [c for c in cols if c not in df.columns]
    return [
        Problem(file, column=c, expected=f"a column named {c!r} (found {list(df.columns)})")
        for c in missing
    ]


# '85.3%': the unit is declared in the cell, but per-case files declare it once (--units)
# (digits after the point only after a point: '\d+\.?\d*' took quadratic time on a cell of
# 100,000 digits)
PERCENT_SIGN = re.compile(r"\s*[-+]?(\d+(?:\.\d*)?|\.\d+)\s*%\s*")
SHOWN_CHARACTERS = 40
PERCENT_SIGN_EXPECTED = ("a number without '%' (per-case DSC in percent: write the numbers "
                         "and pass --units percent)")


def _parse_numbers(
    cells: pd.Series, file: str, column: str, problems: list[Problem], allow_empty: bool
) -> pd.Series:
    """Numeric parse of string cells; non-numeric (and, unless allowed, empty) cells are
    recorded as problems."""
    num = pd.to_numeric(cells.where(cells != ""), errors="coerce").astype(float)
    bad = num.isna() & (cells != "")
    if not allow_empty:
        bad |= cells == ""
    for i in np.flatnonzero(bad.to_numpy()):
        cell = cells.iloc[i]
        # left by the text reader only in a ','-separated file (textio's policy)
        expected = (DECIMAL_COMMA_EXPECTED if DECIMAL_COMMA.fullmatch(cell)
                    else PERCENT_SIGN_EXPECTED if PERCENT_SIGN.fullmatch(cell) else "a number")
        problems.append(Problem(file, row=_line(cells.index[i]), column=column,
                                value=shown_cell(cell), expected=expected))
    return num


def shown_cell(cell: str) -> str:
    """A cell as a message quotes it: at most :data:`SHOWN_CHARACTERS`, then its length (a
    5 MB cell was printed whole)."""
    if len(cell) <= SHOWN_CHARACTERS:
        return cell
    return f"{cell[:SHOWN_CHARACTERS]}... ({len(cell):,} characters)"


def _check_unit(table: pd.DataFrame, origin: pd.DataFrame, problems: list[Problem],
                units: str, notes: list[str]) -> None:
    """DSC-like metrics must be fractions in [0, 1], or percent in [0, 100] with
    ``units="percent"`` (then divided by 100). Values that all look like the other unit give
    one hint, not one problem per cell."""
    if units not in UNITS:
        raise ValueError(f"units must be one of {UNITS}; got {units!r}")
    is_dsc = table["metric"].str.lower().isin(DSC_METRICS)
    v = table["value"].astype(float)
    dsc = v[is_dsc & v.notna()]
    if dsc.empty:
        return
    files = ", ".join(sorted(origin.loc[dsc.index, "file"].unique()))
    top = 100.0 if units == "percent" else 1.0
    by_method = dsc.groupby(table.loc[dsc.index, "method"])
    peak, above = by_method.max(), (dsc > 1).groupby(table.loc[dsc.index, "method"]).mean()
    # a method in fractions (all <= 1) beside one in percent (most > 1; one typo is a cell)
    low, high = sorted(peak.index[peak <= 1]), sorted(above.index[above > 0.5])
    if low and high:  # one unit cannot fit both: --units would divide the fractions too
        problems.append(Problem(files, value=f"method(s) {low} with every DSC <= 1 and "
                                f"{high} with DSC up to {peak.max():g}",
                                expected="every method's DSC in one unit (fractions, or "
                                "percent with --units percent): convert the methods in the "
                                "other unit"))
        return
    if units == "percent" and (dsc <= 1).all():
        problems.append(Problem(files, value=f"all {len(dsc)} DSC values <= 1",
                                expected="percent with --units percent; values look like "
                                "fractions: drop --units percent"))
        return
    if (units == "fraction" and dsc.between(0, 100).all()
            and (dsc > 1).sum() >= 0.5 * max(1, (dsc > 0).sum())):
        problems.append(Problem(files, value=f"{int((dsc > 1).sum())} of {len(dsc)} DSC values > 1 "
                                f"(max {dsc.max():g})",
                                expected="fractions in [0, 1]; values look like percent: divide by "
                                "100 or pass --units percent"))
        return
    bad = is_dsc & v.notna() & ((v < 0) | (v > top))
    what = ("a DSC in [0, 100] (--units percent)" if units == "percent"
            else "a DSC in [0, 1] (fractions, not percent)")
    for i in np.flatnonzero(bad.to_numpy()):
        o = origin.iloc[i]
        problems.append(Problem(o["file"], row=o["row"], column=o["column"],
                                value=float(v.iloc[i]), expected=what))
    if units == "percent" and not bad.any():
        table.loc[dsc.index, "value"] = dsc / 100.0
        notes.append(f"{len(dsc)} DSC value(s) in percent divided by 100 (--units percent)")


def _check_duplicates(table: pd.DataFrame, origin: pd.DataFrame, problems: list[Problem],
                      code: np.ndarray | None = None) -> None:
    """``code``: :func:`_codes` of the key columns in any order, if already computed."""
    key = ["case_id", "task", "method", "metric"]
    if code is None:
        code = _codes(table, key)
    dup = table.duplicated(key, keep="first") if code is None else \
        pd.Series(code).duplicated(keep="first")
    for i in np.flatnonzero(dup.to_numpy()):
        o = origin.iloc[i]
        r = table.iloc[i]
        problems.append(Problem(o["file"], row=o["row"], column="case_id",
                                value=shown_cell(str(r["case_id"])),
                                expected="each case once per task/method/metric (duplicate "
                                f"for method {r['method']!r}, task {r['task']!r})"))


CASE_SET_EXPECTED = "the same case ids for every method"


def _check_case_sets(table: pd.DataFrame, files: Mapping[str, str], problems: list[Problem],
                     notes: list[str], case_mismatch: str,
                     compared_tasks: Sequence[str] | None = None,
                     compared_metrics: Sequence[str] | None = None,
                     undefined: Mapping[tuple[str, str], set] | None = None) -> None:
    """Every method must have the same cases within a task and metric.

    With ``case_mismatch="intersect"`` differing case sets are allowed (pairwise analyses
    then use the cases both methods have); each difference is written to ``notes``. Only the
    ``compared_tasks`` are checked when given (the others are read but not compared), and
    only the ``compared_metrics`` (lower case) when given. A case a method's file gives as
    undefined (``undefined[(task, method)]``, NaN) is named as such, not as missing.
    """
    if case_mismatch not in ("error", "intersect"):
        raise ValueError(f"case_mismatch must be 'error' or 'intersect'; got {case_mismatch!r}")
    for (task, metric), sub in table.groupby(["task", "metric"], sort=True):
        if compared_tasks is not None and task not in compared_tasks:
            continue
        if compared_metrics is not None and metric not in compared_metrics:
            continue
        if _same_cases_in_order(sub):
            continue
        sets = {m: set(g["case_id"]) for m, g in sub.groupby("method", sort=True)}
        union = set().union(*sets.values())
        for method, cases in sets.items():
            nan = (undefined or {}).get((task, method), set())
            for msg in _lacking(method, task, metric, sorted(union - cases), cases, nan):
                if case_mismatch == "error":
                    problems.append(Problem(files.get(method, "?"),
                                            expected=f"{CASE_SET_EXPECTED} ({msg})"))
                else:
                    notes.append(msg + "; pairs use the cases both methods have")


def _lacking(method: str, task: str, metric: str, missing: list, cases: set,
             nan: set) -> list[str]:
    """What a method lacks: cases absent from its file, and cases its file gives as undefined
    (NaN: reference and prediction both empty) that another method has a value for: there
    that method predicted something where the reference is empty (Dice 0), so leaving the
    case out hides a false positive; whether to is the user's call."""
    said = []
    absent, empty = [c for c in missing if c not in nan], [c for c in missing if c in nan]
    if absent:
        said.append(f"method {method!r}, task {task!r}, metric {metric!r} lacks "
                    f"{len(absent)} case(s) that other methods have: {_show(absent)}"
                    + _written_otherwise(absent, cases))
    if empty:
        said.append(f"method {method!r}, task {task!r}, metric {metric!r} has an undefined "
                    f"value (NaN: reference and prediction both empty) for {len(empty)} "
                    f"case(s) that other methods have a value for (they predicted something "
                    f"where the reference is empty: a false positive): {_show(empty)}")
    return said


def _show(cases: list) -> str:
    return ", ".join(map(str, cases[:5])) + (" ..." if len(cases) > 5 else "")


# what one tool adds to a case id and another does not: nnU-Net's channel suffix (_0000)
# and an image file's extension
_ID_DECORATION = re.compile(r"(?:_\d{4})?(?:\.nii\.gz|\.nii|\.nrrd|\.mha|\.mhd|\.png|\.jpe?g|"
                            r"\.tiff?|\.npz|\.npy)?$", re.I)


def _written_otherwise(missing: list, cases: set) -> str:
    """A hint when the missing ids are the method's own ids written otherwise
    (``la_003_0000.nii.gz`` for ``la_003``): the cases are not paired by a guess."""
    own = {_ID_DECORATION.sub("", str(c)): c for c in cases}
    pairs = [(m, own[b]) for m in missing if (b := _ID_DECORATION.sub("", str(m))) in own]
    if len(pairs) < max(1, len(missing) // 2):
        return ""
    m, c = pairs[0]
    return (f" (the same cases written otherwise? {m!r} here is {c!r}: nnU-Net's channel "
            "suffix _0000 or a file extension; write the case ids alike in every file)")


def _same_cases_in_order(sub: pd.DataFrame) -> bool:
    """True when the methods' rows are consecutive blocks with identical case ids (the
    usual case: one column or file per method); then no method lacks a case."""
    method = sub["method"].to_numpy(dtype=object)
    starts = np.flatnonzero(method[1:] != method[:-1]) + 1
    blocks = np.split(sub["case_id"].to_numpy(dtype=object), starts)
    if len({method[0], *method[starts]}) != len(blocks):
        return False
    first = blocks[0]
    return all(b.size == first.size and (b == first).all() for b in blocks[1:])


def _check_methods(table: pd.DataFrame, file: str, problems: list[Problem],
                   min_methods: int) -> None:
    for task, sub in table.groupby("task", sort=True):
        n = sub["method"].nunique()
        if n < min_methods:
            problems.append(Problem(file, column="method", value=sorted(sub["method"].unique()),
                                    expected=f"at least {min_methods} methods for task {task!r}"))
    if table.empty:
        problems.append(Problem(file, expected="at least one result row"))


def _check_labels(table: pd.DataFrame, origin: pd.DataFrame, classes: Sequence[str],
                  problems: list[Problem]) -> None:
    allowed = set(classes)
    shown = ", ".join(sorted(allowed))
    for col, what in (("value", "predicted label"), ("ground_truth", "ground-truth label")):
        bad = ~table[col].isin(allowed)
        for i in np.flatnonzero(bad.to_numpy()):
            o = origin.iloc[i]
            column = o["column"] if col == "value" else o.get("gt_column", "ground_truth")
            row = o["row"] if col == "value" else o.get("gt_row", o["row"])
            file = o["file"] if col == "value" else o.get("gt_file", o["file"])
            problems.append(Problem(file, row=row, column=column,
                                    value=shown_cell(str(table[col].iloc[i])),
                                    expected=f"a {what} in the class set {{{shown}}}"))


def _scores_as_labels(table: pd.DataFrame, files: Mapping[str, str],
                      problems: list[Problem]) -> bool:
    """True (one problem added) when the prediction columns hold scores such as 0.873
    where labels are expected: fractional numbers that are not ground-truth labels."""
    truth = set(table["ground_truth"].unique())
    predicted = pd.Series(table["value"].unique())
    numbers = pd.to_numeric(predicted, errors="coerce")
    fractional = predicted[numbers.notna() & (numbers != numbers.round())
                           & ~predicted.isin(truth)]
    if len(fractional) == 0 or len(fractional) < 0.5 * len(predicted):
        return False
    file = ", ".join(sorted(set(files.values()))) if files else "?"
    problems.append(Problem(file, value=f"{len(fractional):,} distinct predicted values "
                            f"such as {fractional.iloc[0]!r}",
                            expected="predicted labels (classes of the ground truth such as "
                            f"{sorted(truth)[0]!r}); these look like scores or probabilities: "
                            "threshold them into labels, or give them with --scores FILE "
                            "(DeLong test of the AUCs) next to a file of predicted labels"))
    return True


_TRUE_WORDS = {"true", "yes", "y", "t", "1", "1.0"}
_FALSE_WORDS = {"false", "no", "n", "f", "0", "0.0"}


def _label_key(label) -> str:
    """A label as compared across spellings: case and padding ignored, true/yes/1 alike."""
    text = str(label).strip().lower()
    if text in _TRUE_WORDS or text in _FALSE_WORDS:
        return "\x00true" if text in _TRUE_WORDS else "\x00false"
    try:  # '2' and '2.0'
        return f"\x00{float(text)!r}"
    except ValueError:
        return text


def spelt_otherwise(predicted, truth) -> dict[str, str]:
    """{predicted label: ground-truth label} for predicted labels that are no ground-truth
    label but one written otherwise ('True' for 'TRUE', '1' for 'yes'): counted as wrong
    predictions they would make a method look worse for no reason."""
    truth = sorted(map(str, truth))
    keys = {_label_key(t): t for t in truth}
    return {str(p): keys[_label_key(p)] for p in sorted(map(str, predicted))
            if str(p) not in truth and _label_key(p) in keys}


def _spelling_problems(table: pd.DataFrame, origin: pd.DataFrame,
                       problems: list[Problem]) -> None:
    """One problem per predicted label written otherwise than its ground-truth label, at
    its first cell."""
    pairs = spelt_otherwise(table["value"].unique(), table["ground_truth"].unique())
    for pred, truth in pairs.items():
        o = origin.iloc[int(np.flatnonzero((table["value"] == pred).to_numpy())[0])]
        problems.append(Problem(o["file"], row=o["row"], column=o["column"],
                                value=shown_cell(pred),
                                expected=f"a ground-truth label ({truth!r} is one: the same "
                                "label written otherwise? write each label alike in every "
                                "column)"))


def _class_set(table: pd.DataFrame, classes, notes: list[str]) -> tuple[str, ...]:
    """The given classes, else every label in the ground truth or the predictions (a test
    set of positives only still has 'negative' predictions). Predicted labels that never
    occur in the ground truth are noted: often a misspelt class."""
    truth, predicted = set(table["ground_truth"].unique()), set(table["value"].unique())
    if classes is not None:
        return tuple(str(c) for c in classes)
    only_predicted = sorted(predicted - truth)
    if only_predicted:
        notes.append(f"predicted label(s) {only_predicted} never occur in the ground truth; "
                     "class set = labels of both (pass --classes to fix it)")
    return tuple(sorted(truth | predicted))


def _finish(kind: str, table: pd.DataFrame, origin: pd.DataFrame, files: Mapping[str, str],
            problems: list[Problem], notes: list[str], *, classes=None, scores=None,
            case_mismatch: str = "error", min_methods: int = 2,
            units: str = "fraction", compared_tasks: Sequence[str] | None = None,
            compared_metrics: Sequence[str] | None = None,
            undefined: Mapping[tuple[str, str], set] | None = None) -> PerCase:
    """Shared validation of a normalised table, then build the :class:`PerCase`.
    ``undefined``: {(task, method): cases whose value the file gives as undefined (NaN)}."""
    file_desc = ", ".join(sorted(set(files.values()))) if files else "?"
    order = ["task", "method", "metric", "case_id"]
    code = None
    if not problems:
        if (table["case_id"] == "").any():
            said = set()  # a wide row is one long row per method: say its cell once
            for i in np.flatnonzero((table["case_id"] == "").to_numpy()):
                o = origin.iloc[i]
                if (o["file"], o["row"]) in said:
                    continue
                said.add((o["file"], o["row"]))
                problems.append(Problem(o["file"], row=o["row"], column="case_id", value="",
                                        expected="a case id"))
        code = _codes(table, order, sort=True)  # the checks below leave the keys alone
        _check_duplicates(table, origin, problems, code)
        if kind == "segmentation":
            _check_unit(table, origin, problems, units, notes)
        elif not _scores_as_labels(table, files, problems):
            if classes is None:
                _spelling_problems(table, origin, problems)
            classes = _class_set(table, classes, notes)
            _check_labels(table, origin, classes, problems)
        _check_methods(table, file_desc, problems, min_methods)
        _check_case_sets(table, files, problems, notes, case_mismatch, compared_tasks,
                         compared_metrics, undefined or {})
    if problems:
        raise PerCaseValidationError(problems)
    cols = list(LONG_COLUMNS) + (["ground_truth"] if kind == "classification" else [])
    # rows are unique here: any exact sort agrees
    table = (table[cols].sort_values(order) if code is None
             else table[cols].iloc[np.argsort(code, kind="stable")]).reset_index(drop=True)
    if kind == "segmentation":
        table["value"] = table["value"].astype(float)
    return PerCase(kind=kind, table=table,
                   classes=tuple(classes) if classes is not None else None,
                   scores=scores, notes=tuple(notes))


def _check_kind(kind: str | None) -> None:
    if kind is not None and kind not in TASKS:
        raise ValueError(f"kind must be one of {TASKS} or None; got {kind!r}")


# ------------------------------------------------------------------ layouts


# ------------------------------------------------ the same case name, the same reference?
# Two methods' per-case files pair cases by name. nnU-Net's evaluators write, beside each
# case's Dice, the number of reference voxels per label (version 2: ``n_ref``; version 1
# and CSVs written from its evaluator: ``Total Positives Reference``). The reference is the
# same for every method evaluated on the same case, so its count must be too: a count that
# differs between two methods means the name was reused for another image (a re-exported
# test set, a template of another resolution), and pairing the two values would compare
# different images. Such a case is refused, naming it; ``--case-mismatch intersect`` leaves
# it out with a note, as it does for a case one method lacks.

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
