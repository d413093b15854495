"""Per-method prediction files plus one label file, as in the ISIC data."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence

import numpy as np
import pandas as pd

from falseclaims.percase.checks import _finish, _line, _lines, _parse_numbers, _require_columns
from falseclaims.percase.errors import PerCaseValidationError, Problem
from falseclaims.percase.model import LABEL_METRIC, PerCase
from falseclaims.percase.text_table import (BY_ORDER_COLUMN, CASE_HEADER, paired_by_order_note,
                                            read_text_table, require_file, split_items)
from falseclaims.percase.wide_layout import _method_paths

PathLike = str | os.PathLike


def read_predictions_with_labels(predictions: Mapping[str, PathLike] | Iterable[PathLike],
                                 labels: PathLike, task: str = "task",
                                 case_column: str = "image",
                                 prediction_column: str = "predicted_lesion",
                                 label_column: str = "lesion",
                                 classes: Sequence[str] | None = None,
                                 case_mismatch: str = "error", min_methods: int = 2,
                                 finding: str | None = None, by_order: bool = False) -> PerCase:
    """Per-method prediction files plus one ground-truth file (ISIC layout).

    Each prediction file has ``case_column``, ``prediction_column`` and optionally one score
    column per class; the label file has ``case_column`` and ``label_column`` (other columns
    are ignored; it may hold more cases than the predictions). The class set is ``classes``,
    else the score columns, else every label in the ground truth or the predictions. Every
    predicted case must have a label.

    Files without these columns but with one column per finding (CheXpert's ``Study,
    Atelectasis, Cardiomegaly, ...`` in the label file and in every prediction file) are
    read one finding at a time: ``finding`` (``--subtask``) names the column compared in
    all the files, matched by name (the files may order their columns differently); the
    case column is the one named like ``Study``, ``case``, ``image``, ``id``
    (:func:`_one_column_per_finding`).

    ``by_order`` (``--paired-by-order``, declared): files without a case column paired by
    their rows' position, said in a note (:func:`~.text_table.paired_by_order_note`).
    """
    files = _method_paths(predictions)
    label_file = str(labels)
    problems: list[Problem] = []
    said_order = ([paired_by_order_note([label_file, *files.values()], (case_column,))]
                  if by_order else [])
    case_column = BY_ORDER_COLUMN if by_order else case_column
    case_column, prediction_column, label_column, task, said = _one_column_per_finding(
        files, label_file, (case_column, prediction_column, label_column), task, finding,
        by_order)
    truth, truth_row, notes = _read_truth(labels, case_column, label_column, problems, by_order)
    notes += said_order + said
    tables, origins, scores = [], [], []
    score_cols_ref = None
    for method, file in files.items():
        df = read_text_table(file, by_order=by_order)
        notes += df.attrs["notes"]
        miss = _require_columns(df, [case_column, prediction_column], file)
        if miss:
            problems += miss
            continue
        score_cols = ([] if said else  # one column per finding: the others are not scores
                      [c for c in df.columns if c not in (case_column, prediction_column,
                                                          BY_ORDER_COLUMN)])
        if score_cols_ref is None:
            score_cols_ref = score_cols
        elif score_cols != score_cols_ref:
            problems.append(Problem(file, value=score_cols,
                                    expected=f"the same score columns as the other files "
                                    f"{score_cols_ref}"))
        problems += _row_problems(df, file, (case_column, prediction_column), truth.index,
                                  label_file)
        cases = df[case_column]
        gt = cases.map(truth[label_column]).fillna("").astype(str)
        tables.append(pd.DataFrame({"case_id": cases.to_numpy(), "task": task,
                                    "method": method, "metric": LABEL_METRIC,
                                    "value": df[prediction_column].to_numpy(),
                                    "ground_truth": gt.to_numpy()}))
        origins.append(pd.DataFrame({
            "file": file, "row": _lines(df.index), "column": prediction_column,
            "gt_file": label_file, "gt_column": label_column,
            "gt_row": cases.map(truth_row).fillna(-1).astype(int).to_numpy()}))
        if score_cols:
            scores.append(_class_scores(df, score_cols, file, task, method, cases, problems))
    if problems:
        raise PerCaseValidationError(problems)
    if classes is None and score_cols_ref:
        classes = tuple(score_cols_ref)
    table = pd.concat(tables, ignore_index=True)
    origin = pd.concat(origins, ignore_index=True)
    if by_order:
        _better_than_chance(table, files)
    return _finish("classification", table, origin, files, problems, notes, classes=classes,
                   scores=pd.concat(scores, ignore_index=True) if scores else None,
                   case_mismatch=case_mismatch, min_methods=min_methods)


def _row_problems(df: pd.DataFrame, file: str, columns: tuple[str, str], known: pd.Index,
                  label_file: str) -> list[Problem]:
    """An empty predicted label, a case the label file does not list: one problem each."""
    case_column, prediction_column = columns
    out = [Problem(file, row=_line(df.index[i]), column=prediction_column, value="",
                   expected="a predicted label")
           for i in np.flatnonzero((df[prediction_column] == "").to_numpy())]
    cases = df[case_column]
    return out + [Problem(file, row=_line(df.index[i]), column=case_column,
                          value=cases.iloc[i],
                          expected=f"a case listed in the label file {label_file}")
                  for i in np.flatnonzero((~cases.isin(known)).to_numpy())]


# --paired-by-order: a method whose predictions agree with the labels no more often than
# chance (one-sided binomial p above this) is taken as rows in another order, not as a
# model; a strict level so that a weak but real model is not refused
_CHANCE_P = 0.001


def _better_than_chance(table: pd.DataFrame, files: Mapping[str, str]) -> None:
    """Refuse files paired by position whose predictions agree with the labels no more
    often than chance would (the agreement expected from the label and prediction
    frequencies alone): the telltale of rows written in another order (each run of a model
    writing its test set shuffled), which pairing by position cannot otherwise notice. A
    method predicting one label only is not checked (any order agrees equally)."""
    from scipy.stats import binomtest

    for method, sub in table.groupby("method", sort=False):
        truth = sub["ground_truth"].value_counts(normalize=True)
        pred = sub["value"].value_counts(normalize=True)
        chance = float((truth * pred.reindex(truth.index, fill_value=0.0)).sum())
        hits = int((sub["value"] == sub["ground_truth"]).sum())
        n = len(sub)
        if len(pred) == 1:  # one predicted label: agrees by chance in any order
            continue
        if chance < 1.0 and binomtest(hits, n, chance, "greater").pvalue > _CHANCE_P:
            raise PerCaseValidationError(
                f"--paired-by-order: {files[method]} agrees with the labels in {hits:,} of "
                f"{n:,} rows ({hits / n:.3f}), no more often than chance ({chance:.3f}, from "
                "the label and prediction frequencies): its rows are likely in another order "
                "than the label file's; expected the same cases in the same order (or write "
                "case ids in every file)")


def _columns_not_named(label_file: str, header: list, heads: dict, case_column: str,
                       isic: tuple[str, str]) -> str:
    """The label file and the prediction files share no column but their cases and do not
    use ISIC's names: what each file holds, and the --columns that names the true and the
    predicted label (filled in when each side has one column beside the cases; was a
    message about "the ISIC columns" only)."""
    own = [str(c) for c in header if c not in (case_column, BY_ORDER_COLUMN)]
    first, first_head = next(iter(heads.items()))
    predicted = [str(c) for c in first_head if c not in (case_column, BY_ORDER_COLUMN)
                 and all(c in h for h in heads.values())]
    truth = own[0] if len(own) == 1 else "COLUMN"
    value = predicted[0] if len(predicted) == 1 else "COLUMN"
    return (f"{label_file}: the label file's columns {header[:8]} and the prediction files' "
            f"({first}: {list(first_head)[:8]}) share no column but the cases "
            f"({case_column!r}), and are not named as in the ISIC data ({isic[0]!r} in the "
            f"label file, {isic[1]!r} in each prediction file); name the true and the "
            f"predicted label's columns: --columns case_id={case_column},ground_truth={truth},"
            f"value={value} (or give every file the same finding columns)")


def _one_column_per_finding(files: Mapping[str, str], label_file: str, names: tuple,
                            task: str, finding: str | None, by_order: bool = False) -> tuple:
    """(case, prediction and label column, task name, notes) for files with one 0/1 column
    per finding; ``names`` (the case, prediction, label column) unchanged, with no note,
    when the label file has the label column."""
    case_column, prediction_column, label_column = names
    header = list(read_text_table(label_file, nrows=0, by_order=by_order).columns)
    if label_column in header and label_column == prediction_column:  # --columns, a finding
        return (*names, label_column, [
            f"one column per finding: {label_column!r} compared (the label file's and each "
            "prediction file's); the other columns are not read as class scores"])
    if label_column in header:
        return (*names, task, [])
    heads = {f: list(read_text_table(f, nrows=0, by_order=by_order).columns)
             for f in files.values()}
    if any(prediction_column in h for h in heads.values()):
        return (*names, task, [])  # the label column is missing: the reader says so
    if case_column not in header:
        found = [c for c in header if CASE_HEADER.match(str(c))]
        if len(found) != 1:
            raise PerCaseValidationError(
                f"{label_file}: no column names the cases among {header[:8]}"
                f"{' ...' if len(header) > 8 else ''} (expected one such as 'Study', 'case', "
                "'image', 'id'; or name it with --columns case_id=COLUMN): the rows of "
                "different files are paired by case id, never by their position unless "
                "declared (--paired-by-order: every file lists the same cases in one order)")
        case_column = found[0]
    for f, h in heads.items():
        if case_column not in h:
            raise PerCaseValidationError(
                f"{f}: no case column {case_column!r} (the label file's) among {h[:8]}; "
                "expected the same case column in every file: the rows are paired by it, "
                "never by their position")
    shared = [c for c in header if c not in (case_column, BY_ORDER_COLUMN)
              and all(c in h for h in heads.values())]
    if not shared:
        raise PerCaseValidationError(_columns_not_named(label_file, header, heads, case_column,
                                                        (label_column, prediction_column)))
    if finding is None and len(shared) > 1:
        raise PerCaseValidationError(
            f"the files hold one column per finding ({', '.join(shared)}): choose the one "
            "compared with --subtask")
    finding = finding if finding is not None else shared[0]
    if finding not in shared:
        raise PerCaseValidationError(
            f"--subtask {finding}: not a finding column of every file; expected one of "
            f"{', '.join(shared)}")
    others = len(shared) - 1
    return case_column, finding, finding, finding, [
        f"one column per finding: {finding!r} compared (the label file's and each "
        f"prediction file's, matched by name; cases by {case_column!r})"
        + (f"; {others} other finding(s) not compared" if others else "")]


# ------------------------------------------------------------------ dispatch



def _read_truth(labels: PathLike, case_column: str, label_column: str,
                problems: list[Problem], by_order: bool = False
                ) -> tuple[pd.DataFrame, pd.Series, list[str]]:
    """The label file indexed by case id, the line of each case, and the reading notes."""
    label_file = str(labels)
    lab = read_text_table(labels, by_order=by_order)
    problems += _require_columns(lab, [case_column, label_column], label_file)
    if case_column not in lab.columns and not any(CASE_HEADER.match(str(c)) for c in lab):
        problems.append(Problem(label_file, expected=(
            "case ids in every file: rows without them are paired by their position only "
            "when declared (--paired-by-order)")))
    if problems:
        raise PerCaseValidationError(problems)
    dup = lab[case_column].duplicated()
    for i in np.flatnonzero(dup.to_numpy()):
        problems.append(Problem(label_file, row=_line(lab.index[i]), column=case_column,
                                value=lab[case_column].iloc[i], expected="each case id once"))
    for i in np.flatnonzero((lab[label_column] == "").to_numpy()):
        problems.append(Problem(label_file, row=_line(lab.index[i]), column=label_column, value="",
                                expected="a ground-truth label"))
    truth = lab.drop_duplicates(case_column).set_index(case_column)
    truth_row = pd.Series([_line(i) for i in truth.index.map(
        dict(zip(lab[case_column], lab.index)).get)], index=truth.index)
    return truth, truth_row, list(lab.attrs["notes"])


def _class_scores(df: pd.DataFrame, score_cols: list[str], file: str, task: str, method: str,
                  cases: pd.Series, problems: list[Problem]) -> pd.DataFrame:
    """One row per case x class score (``case_id, task, method, label, score``)."""
    nums = {c: _parse_numbers(df[c], file, c, problems, allow_empty=False) for c in score_cols}
    s = pd.DataFrame(nums)
    s.insert(0, "case_id", cases.to_numpy())
    s = s.melt(id_vars="case_id", var_name="label", value_name="score")
    s.insert(1, "task", task)
    s.insert(2, "method", method)
    return s


def score_files_option(text: str | None) -> dict[str, str] | None:
    """``--scores METHOD=FILE,METHOD=FILE`` as {method: file}; None for one score file (a
    path that exists, or text without ``=``)."""
    if text is None or "=" not in text or os.path.isfile(text):
        return None
    out = {}
    for item in split_items(text):
        method, eq, file = (x.strip() for x in item.partition("="))
        if not eq or not method or not file:
            raise ValueError(f"--scores: item {item.strip()!r}: expected METHOD=FILE (one "
                             "score file per method) or one FILE")
        out[method] = file
    return out


def read_finding_scores(files: Mapping[str, str], finding: str) -> pd.DataFrame:
    """Cases x methods: each method's score of ``finding`` from its own file, with a case
    column and one score column per finding (CheXpert's model predictions); the cases are
    the files' own ids (matched to the predictions' by the caller)."""
    out, problems = {}, []
    for method, file in files.items():
        require_file(file)
        df = read_text_table(file)
        cols = [str(c) for c in df.columns]
        case = "case_id" if "case_id" in cols else next(
            (c for c in cols if CASE_HEADER.match(c)), None)
        if case is None or finding not in cols:
            raise PerCaseValidationError(
                f"{file}: " + (f"no column names the cases among {cols[:8]}" if case is None
                               else f"no score column {finding!r} (the finding compared, "
                               f"--subtask) among {cols[:8]}")
                + "; expected a case column and one score column per finding")
        for i in np.flatnonzero(df[case].duplicated().to_numpy()):
            problems.append(Problem(file, row=_line(df.index[i]), column=case,
                                    value=df[case].iloc[i], expected="each case id once"))
        values = _parse_numbers(df[finding], file, finding, problems, allow_empty=False)
        out[method] = pd.Series(values.to_numpy(), index=df[case].to_numpy())
    if problems:
        raise PerCaseValidationError(problems)
    return pd.DataFrame(out)
