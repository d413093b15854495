"""Readers for per-case results, normalised to one long table (architecture: ``percase/``).

Every reader returns a :class:`PerCase`:

- ``table``: one row per case x task x method x metric with columns
  ``case_id, task, method, metric, value`` (+ ``ground_truth`` for classification).
  Segmentation: ``value`` is a float (e.g. DSC in [0, 1]). Classification: ``value`` is the
  predicted label (string), ``metric`` is ``"label"`` and ``ground_truth`` the true label.
- ``scores`` (classification, optional): ``case_id, task, method, label, score`` with one
  row per class score, e.g. softmax outputs.
- ``classes``: the class set (classification), ``notes``: everything accepted but changed
  or left out (e.g. empty cells read as "structure absent"), one line each.

Supported layouts (`docs/percase.md`):

- long table ``case_id, task, method, metric, value[, ground_truth]`` (:func:`read_long`);
- wide per-method files, one file per method with a case column and one column per task,
  as in Touchstone (:func:`read_wide_per_method`);
- Claims Reloaded CSVs ([ClaimsReloaded]): segmentation ``case_id, alg_*``, classification
  ``case_id, ground_truth, alg_*`` (:func:`read_claims_reloaded`);
- per-method prediction files plus one label file, as in the ISIC data
  (:func:`read_predictions_with_labels`).

Bad input raises :class:`PerCaseValidationError` (a ``ValueError``) listing every problem with
file, row (the line number in the file, header = line 1), column, value and what was
expected.
"""

from __future__ import annotations

import operator
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from falseclaims.errors import FalseclaimsInputError
from falseclaims.sheets.errors import Problem as SheetProblem
from falseclaims.sheets.io import semicolon_separated
from falseclaims.tasks import TASKS

__all__ = [
    "PerCase",
    "Wide",
    "PerCaseValidationError",
    "Problem",
    "read_long",
    "read_wide_per_method",
    "read_claims_reloaded",
    "read_predictions_with_labels",
    "read_percase",
    "detect_layout",
    "DSC_METRICS",
]

# metric names whose values must lie in [0, 1]
DSC_METRICS = frozenset({"dsc", "dice", "dice similarity coefficient", "mean dsc"})
LABEL_METRIC = "label"
LONG_COLUMNS = ("case_id", "task", "method", "metric", "value")
UNITS = ("fraction", "percent")  # of DSC-like values in per-case files
MAX_LISTED = 30  # problems listed in the message; all are kept in .problems

PathLike = str | os.PathLike
_TEXT_COLUMNS = frozenset({"case_id", "ground_truth", "task", "method", "metric"})  # ids, labels
_NOT_UTF8 = "UTF-8 or UTF-16 text (save the file as 'CSV UTF-8')"


def Problem(file, row, column, value, expected) -> SheetProblem:  # noqa: N802
    """A located problem in a per-case file (same form as the sheet readers', no sheet)."""
    return SheetProblem(str(file), None, row, column, value, expected)


class PerCaseValidationError(FalseclaimsInputError):
    """All problems found in per-case input; ``problems`` holds :class:`Problem` items."""

    def __init__(self, problems: Sequence[Problem], hint: str | None = None):
        self.problems = list(problems)
        self.hint = hint
        if len(self.problems) == 1:  # one line, e.g. the percent hint
            super().__init__(str(self.problems[0]) + (f"; {hint}" if hint else ""))
            return
        lines = [str(p) for p in self.problems[:MAX_LISTED]]
        more = len(self.problems) - MAX_LISTED
        if more > 0:
            lines.append(f"... and {more} more problem(s)")
        if hint:
            lines.append(f"hint: {hint}")
        super().__init__(
            f"{len(self.problems)} problem(s) in per-case input:\n  " + "\n  ".join(lines)
        )


class Deferred:
    """A long table built on first use (see :class:`Wide`)."""

    def __init__(self, build):
        self.build = build


class _LazyTable:
    """``PerCase.table``: a frame, or a :class:`Deferred` one built (once) when first read."""

    def __set_name__(self, owner, name):
        self.slot = "_" + name

    def __get__(self, obj, owner=None):
        if obj is None:
            raise AttributeError("table")  # no default: a required field
        value = obj.__dict__[self.slot]
        if isinstance(value, Deferred):
            value = obj.__dict__[self.slot] = value.build()
        return value

    def __set__(self, obj, value):
        obj.__dict__[self.slot] = value


@dataclass(frozen=True)
class Wide:
    """One task and metric as cases x methods arrays, as a wide file holds them: the
    :class:`PerCase` answers ``matrix``, ``correctness`` and ``truth`` from it without the
    long table (4 x 10^6 rows for 10^6 cases of 4 methods)."""

    task: str
    metric: str
    case_ids: np.ndarray   # object, sorted, unique
    methods: np.ndarray    # object, sorted, unique
    values: np.ndarray     # cases x methods: float, or predicted labels (object)
    truth: np.ndarray | None = None  # ground truth per case (classification)

    def index(self) -> pd.Index:
        return pd.Index(self.case_ids, dtype=text_dtype(), name="case_id")

    def columns(self) -> pd.Index:
        return pd.Index(self.methods, dtype=text_dtype(), name="method")


def text_dtype():
    """The dtype pandas gives a column of Python strings (``str`` in pandas 3, else object),
    so frames built from arrays match frames built by inference."""
    return pd.Series(np.array(["x"], dtype=object)).dtype


@dataclass(frozen=True)
class PerCase:
    """Normalised per-case results of one kind (segmentation or classification).

    ``wide`` (optional) holds the same results as cases x methods arrays (fast reader of
    clean Claims Reloaded files); then ``table`` is built only when read.
    """

    kind: str
    table: pd.DataFrame = _LazyTable()
    classes: tuple[str, ...] | None = None
    scores: pd.DataFrame | None = None
    notes: tuple[str, ...] = field(default_factory=tuple)
    wide: Wide | None = field(default=None, repr=False, compare=False)

    @property
    def methods(self) -> list[str]:
        if self.wide is not None:
            return sorted(self.wide.methods.tolist())
        return sorted(self.table["method"].unique())

    @property
    def tasks(self) -> list[str]:
        if self.wide is not None:
            return [self.wide.task]
        return sorted(self.table["task"].unique())

    @property
    def metrics(self) -> list[str]:
        if self.wide is not None:
            return [self.wide.metric]
        return sorted(self.table["metric"].unique())

    def task_metrics(self, task: str) -> list[str]:
        """The metrics of one task."""
        if self.wide is not None and task == self.wide.task:
            return [self.wide.metric]
        return sorted(self.table.loc[self.table["task"] == task, "metric"].unique())

    def _wide_for(self, task: str, metric: str | None = None) -> Wide | None:
        w = self.wide
        if w is not None and task == w.task and metric in (None, w.metric):
            return w
        return None

    def truth(self, task: str) -> pd.Series:
        """Ground truth per case of one task (classification), indexed by case id."""
        w = self._wide_for(task)
        if w is not None and w.truth is not None:
            return pd.Series(w.truth, index=w.index(), name="ground_truth",
                             dtype=text_dtype())
        sub = _rows(self.table, "task", task).drop_duplicates("case_id")
        return sub.set_index("case_id")["ground_truth"]

    def matrix(self, task: str, metric: str | None = None) -> pd.DataFrame:
        """Cases x methods values of one task (NaN where a method lacks a case)."""
        w = self._wide_for(task, metric)
        if w is not None and self.kind == "segmentation":
            return pd.DataFrame(w.values, index=w.index(), columns=w.columns(), copy=True)
        sub = _rows(self.table, "task", task)
        if metric is None:
            metrics = sub["metric"].unique()
            if len(metrics) != 1:
                raise ValueError(f"task {task!r} has metrics {sorted(metrics)}; pass metric=")
            metric = metrics[0]
        sub = _rows(sub, "metric", metric)
        if sub.empty:
            raise ValueError(f"no rows for task {task!r}, metric {metric!r}")
        return _pivot(sub, sub["value"].to_numpy(dtype=float))

    def correctness(self, task: str) -> pd.DataFrame:
        """Cases x methods booleans (prediction == ground truth); NaN-free only where a
        method has the case (classification only)."""
        if self.kind != "classification":
            raise ValueError("correctness() needs classification results")
        w = self._wide_for(task)
        if w is not None:
            correct = (w.values == w.truth[:, None]).astype(float)
            return pd.DataFrame(correct, index=w.index(), columns=w.columns())
        sub = _rows(self.table, "task", task)
        if sub.empty:
            raise ValueError(f"no rows for task {task!r}")
        correct = (sub["value"] == sub["ground_truth"]).to_numpy(dtype=float)
        return _pivot(sub, correct)

    @staticmethod
    def concat(parts: Sequence["PerCase"]) -> "PerCase":
        """Join results of the same kind (e.g. several tasks read from separate files)."""
        if not parts:
            raise ValueError("nothing to concatenate")
        kinds = {p.kind for p in parts}
        if len(kinds) != 1:
            raise ValueError(f"cannot join per-case results of different kinds {sorted(kinds)}")
        table = pd.concat([p.table for p in parts], ignore_index=True)
        key = ["case_id", "task", "method", "metric"]
        dup = table.duplicated(key, keep=False)
        if dup.any():
            first = table.loc[dup, key].iloc[0].to_dict()
            raise ValueError(f"joined per-case results repeat case/task/method/metric {first}")
        classes = None
        if parts[0].kind == "classification":
            classes = tuple(sorted({c for p in parts for c in (p.classes or ())}))
        scores = [p.scores for p in parts if p.scores is not None]
        return PerCase(
            kind=parts[0].kind,
            table=table,
            classes=classes,
            scores=pd.concat(scores, ignore_index=True) if scores else None,
            notes=tuple(n for p in parts for n in p.notes),
        )


# ------------------------------------------------------------------ low-level helpers


def _rows(table: pd.DataFrame, column: str, value) -> pd.DataFrame:
    """Rows of ``table`` where ``column == value`` (the table itself when all are)."""
    keep = (table[column] == value).to_numpy(dtype=bool)
    return table if keep.all() else table[keep]


def _pivot(sub: pd.DataFrame, values: np.ndarray) -> pd.DataFrame:
    """``sub.pivot(index="case_id", columns="method")`` of ``values`` (float), built from
    sorted codes: the same frame, without pandas' reshaping of 10^6-row tables."""
    blocks = _method_blocks(sub)
    if blocks is not None:  # the usual sorted table: a reshape gives the same frame
        n, starts = blocks
        out = np.asarray(values, dtype=float).reshape(len(starts), n).T.copy()
        # labels taken from the columns keep their dtype, as factorize's would
        return pd.DataFrame(out, index=pd.Index(sub["case_id"].iloc[:n], name="case_id"),
                            columns=pd.Index(sub["method"].iloc[starts], name="method"))
    cases, case_ids = pd.factorize(sub["case_id"], sort=True)
    methods, names = pd.factorize(sub["method"], sort=True)
    cell = cases.astype(np.int64) * len(names) + methods
    if len(cell) and np.bincount(cell).max() > 1:  # pandas raises its own error
        return sub.assign(_v=values).pivot(index="case_id", columns="method", values="_v")
    out = np.full((len(case_ids), len(names)), np.nan)
    out[cases, methods] = values
    return pd.DataFrame(out, index=pd.Index(case_ids, name="case_id"),
                        columns=pd.Index(names, name="method"))


def _method_blocks(sub: pd.DataFrame):
    """(cases, block starts) when ``sub``'s rows are consecutive blocks of increasing
    method names, each holding the same strictly increasing case ids; else None."""
    if sub.empty:
        return None
    method = sub["method"].to_numpy(dtype=object)
    starts = np.flatnonzero(method[1:] != method[:-1]) + 1
    names = method[np.r_[0, starts]]
    n = len(method) // len(names)
    if (len(method) != n * len(names) or (starts != n * np.arange(1, len(names))).any()
            or not (names[1:] > names[:-1]).all()):
        return None
    ids = sub["case_id"].to_numpy(dtype=object)
    first = ids[:n]
    if not (first[1:] > first[:-1]).all():
        return None
    if not all((ids[i * n:(i + 1) * n] == first).all() for i in range(1, len(names))):
        return None
    return n, np.r_[0, starts]


def _codes(table: pd.DataFrame, cols: Sequence[str], sort: bool = False) -> np.ndarray | None:
    """One int64 per row, equal exactly where the rows agree on ``cols`` (ordered like the
    rows' values when ``sort``); None if the code space would overflow."""
    code = np.zeros(len(table), dtype=np.int64)
    size = 1
    for c in cols:
        k, uniq = pd.factorize(table[c], sort=sort)
        size *= max(len(uniq), 1) + 1
        if size >= 2**62:
            return None
        code = code * (len(uniq) + 1) + (k + 1)  # NaN (-1) -> 0
    return code


def _read_text_table(path: PathLike, nrows: int | None = None) -> pd.DataFrame:
    """All cells as stripped strings ('' for empty), so every cell can be checked.

    The separator is a tab for .tsv/.tab, else ',' or ';' (a header with more ';' than ',',
    as the sheet reader decides); in a ';'-separated file decimal commas (0,85) are read as
    points (not in id or label columns). Such changes are listed in ``df.attrs["notes"]``.
    ``nrows=0`` reads the header only.
    """
    p = Path(path)
    if not p.is_file():
        raise FileNotFoundError(f"per-case file not found: {p}")
    file = str(p)
    if p.suffix.lower() in (".xlsx", ".xlsm", ".xls", ".ods"):
        raise PerCaseValidationError([Problem(file, None, None, None,
                                              "a CSV file; save the workbook as 'CSV UTF-8'")])
    notes = []
    with open(p, "rb") as fh:
        utf16 = fh.read(2) in (b"\xff\xfe", b"\xfe\xff")  # BOM of "Unicode text" exports
    encoding = "utf-16" if utf16 else "utf-8-sig"
    if utf16:
        notes.append(f"{file}: read as UTF-16 (byte order mark)")
    try:
        with open(p, encoding=encoding, newline="") as fh:
            header = fh.readline()
    except UnicodeDecodeError:
        raise PerCaseValidationError([Problem(file, None, None, None, _NOT_UTF8)]) from None
    if p.suffix.lower() in (".tsv", ".tab"):
        sep = "\t"
    elif semicolon_separated(header):
        sep = ";"
        notes.append(f"{file}: ';'-separated (the header has more ';' than ',')")
    else:
        sep = ","
    try:
        df = pd.read_csv(p, sep=sep, dtype=str, keep_default_na=False, na_filter=False,
                         encoding=encoding, nrows=nrows)
    except pd.errors.EmptyDataError as exc:
        raise PerCaseValidationError([Problem(file, None, None, None, "a header row")]) from exc
    except UnicodeDecodeError:
        raise PerCaseValidationError([Problem(file, None, None, None, _NOT_UTF8)]) from None
    except pd.errors.ParserError as exc:
        m = re.search(r"Expected (\d+) fields in line (\d+), saw (\d+)", str(exc))
        if m is None:
            raise PerCaseValidationError([Problem(file, None, None, None,
                                                  f"a readable CSV table ({exc})")]) from None
        shown = "tab" if sep == "\t" else repr(sep)
        raise PerCaseValidationError([Problem(
            file, int(m[2]), None, f"{m[3]} fields",
            f"{m[1]} fields like the header (a {shown} inside a value? quote the value)")]
        ) from None
    df.columns = [str(c).strip() for c in df.columns]
    for c in df.columns:
        df[c] = _stripped(df[c])
        if sep == ";" and c not in _TEXT_COLUMNS:
            decimal = df[c].str.fullmatch(r"[+-]?\d*,\d+")
            if decimal.any():
                df[c] = df[c].where(~decimal, df[c].str.replace(",", ".", regex=False))
                notes.append(f"{file}: column {c!r}: {int(decimal.sum())} decimal comma(s) "
                             "read as decimal point(s)")
    df.attrs["notes"] = notes
    return df


def _stripped(col: pd.Series) -> pd.Series:
    """``col.str.strip()``, rebuilt only when a cell changes (str.strip returns the same
    object for a clean cell; most files have no padding, and rebuilding costs)."""
    vals = col.to_numpy(dtype=object)
    out = list(map(str.strip, vals))  # cells are str (read with dtype=str, no NA filter)
    if all(map(operator.is_, vals, out)):
        return col
    return pd.Series(out, index=col.index, dtype=col.dtype)


def _line(i) -> int:
    return int(i) + 2  # header is line 1


def _lines(index: pd.Index) -> np.ndarray:
    """:func:`_line` of a whole (default, integer) index."""
    return np.asarray(index, dtype=np.int64) + 2


def _require_columns(df: pd.DataFrame, cols: Iterable[str], file: str) -> list[Problem]:
    missing = [c for c in cols if c not in df.columns]
    return [
        Problem(file, None, c, None, f"a column named {c!r} (found {list(df.columns)})")
        for c in missing
    ]


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
        problems.append(Problem(file, _line(cells.index[i]), column, cells.iloc[i], "a number"))
    return num


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
    if units == "percent" and (dsc <= 1).all():
        problems.append(Problem(files, None, None, f"all {len(dsc)} DSC values <= 1",
                                "percent with --units percent; values look like fractions: "
                                "drop --units percent"))
        return
    if (units == "fraction" and dsc.between(0, 100).all()
            and (dsc > 1).sum() >= 0.5 * max(1, (dsc > 0).sum())):
        problems.append(Problem(files, None, None,
                                f"{int((dsc > 1).sum())} of {len(dsc)} DSC values > 1 "
                                f"(max {dsc.max():g})",
                                "fractions in [0, 1]; values look like percent: divide by "
                                "100 or pass --units percent"))
        return
    bad = is_dsc & v.notna() & ((v < 0) | (v > top))
    what = ("a DSC in [0, 100] (--units percent)" if units == "percent"
            else "a DSC in [0, 1] (fractions, not percent)")
    for i in np.flatnonzero(bad.to_numpy()):
        o = origin.iloc[i]
        problems.append(Problem(o["file"], o["row"], o["column"], float(v.iloc[i]), what))
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
        problems.append(Problem(o["file"], o["row"], "case_id", r["case_id"],
                                f"each case once per task/method/metric (duplicate for method "
                                f"{r['method']!r}, task {r['task']!r})"))


CASE_SET_EXPECTED = "the same case ids for every method"


def _check_case_sets(table: pd.DataFrame, files: Mapping[str, str], problems: list[Problem],
                     notes: list[str], case_mismatch: str,
                     compared_tasks: Sequence[str] | None = None) -> None:
    """Every method must have the same cases within a task and metric.

    With ``case_mismatch="intersect"`` differing case sets are allowed (pairwise analyses
    then use the cases both methods have); each difference is written to ``notes``. Only the
    ``compared_tasks`` are checked when given (the others are read but not compared).
    """
    if case_mismatch not in ("error", "intersect"):
        raise ValueError(f"case_mismatch must be 'error' or 'intersect'; got {case_mismatch!r}")
    for (task, metric), sub in table.groupby(["task", "metric"], sort=True):
        if compared_tasks is not None and task not in compared_tasks:
            continue
        if _same_cases_in_order(sub):
            continue
        sets = {m: set(g["case_id"]) for m, g in sub.groupby("method", sort=True)}
        union = set().union(*sets.values())
        for method, cases in sets.items():
            missing = sorted(union - cases)
            if not missing:
                continue
            shown = ", ".join(missing[:5]) + (" ..." if len(missing) > 5 else "")
            msg = (f"method {method!r}, task {task!r}, metric {metric!r} lacks "
                   f"{len(missing)} case(s) that other methods have: {shown}")
            if case_mismatch == "error":
                problems.append(Problem(files.get(method, "?"), None, None, None,
                                        f"{CASE_SET_EXPECTED} ({msg})"))
            else:
                notes.append(msg + "; pairs use the cases both methods have")


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
            problems.append(Problem(file, None, "method", sorted(sub["method"].unique()),
                                    f"at least {min_methods} methods for task {task!r}"))
    if table.empty:
        problems.append(Problem(file, None, None, None, "at least one result row"))


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
            problems.append(Problem(file, row, column, table[col].iloc[i],
                                    f"a {what} in the class set {{{shown}}}"))


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
    problems.append(Problem(file, None, None, f"{len(fractional):,} distinct predicted values "
                            f"such as {fractional.iloc[0]!r}",
                            "predicted labels (classes of the ground truth such as "
                            f"{sorted(truth)[0]!r}); these look like scores or probabilities: "
                            "threshold them into labels, or give them with --scores FILE "
                            "(DeLong test of the AUCs) next to a file of predicted labels"))
    return True


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
            units: str = "fraction", compared_tasks: Sequence[str] | None = None) -> PerCase:
    """Shared validation of a normalised table, then build the :class:`PerCase`."""
    file_desc = ", ".join(sorted(set(files.values()))) if files else "?"
    order = ["task", "method", "metric", "case_id"]
    code = None
    if not problems:
        if (table["case_id"] == "").any():
            for i in np.flatnonzero((table["case_id"] == "").to_numpy()):
                o = origin.iloc[i]
                problems.append(Problem(o["file"], o["row"], "case_id", "", "a case id"))
        code = _codes(table, order, sort=True)  # the checks below leave the keys alone
        _check_duplicates(table, origin, problems, code)
        if kind == "segmentation":
            _check_unit(table, origin, problems, units, notes)
        elif not _scores_as_labels(table, files, problems):
            classes = _class_set(table, classes, notes)
            _check_labels(table, origin, classes, problems)
        _check_methods(table, file_desc, problems, min_methods)
        _check_case_sets(table, files, problems, notes, case_mismatch, compared_tasks)
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


def read_long(path: PathLike, kind: str | None = None, classes: Sequence[str] | None = None,
              case_mismatch: str = "error", min_methods: int = 2,
              units: str = "fraction", compared_tasks: Sequence[str] | None = None) -> PerCase:
    """Long table ``case_id, task, method, metric, value[, ground_truth]``.

    The kind is classification when a ``ground_truth`` column is present (then ``value``
    holds predicted labels), else segmentation (numeric values; DSC-like metrics in [0, 1]).
    Empty values are problems: a long table lists only results that exist. Case sets must
    agree only within the ``compared_tasks`` when given (default: every task).
    """
    _check_kind(kind)
    file = str(path)
    df = _read_text_table(path)
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
            problems.append(Problem(file, _line(df.index[i]), col, "", f"a non-empty {col}"))
    table["metric"] = table["metric"].str.lower()
    if kind == "segmentation":
        table["value"] = _parse_numbers(df["value"], file, "value", problems, allow_empty=False)
    else:
        for col in ("value", "ground_truth"):
            for i in np.flatnonzero((table[col] == "").to_numpy()):
                problems.append(Problem(file, _line(df.index[i]), col, "",
                                        "a label (empty cells are not allowed)"))
        # one truth per case and task, whatever the method
        if not problems:
            n_truth = table.groupby(["task", "case_id"])["ground_truth"].nunique()
            for (task, case), k in n_truth[n_truth > 1].items():
                problems.append(Problem(file, None, "ground_truth", case,
                                        f"one ground truth per case in task {task!r} "
                                        f"(found {k} different labels)"))
        origin["gt_column"] = "ground_truth"
    files = {m: file for m in table["method"].unique()}
    return _finish(kind, table, origin, files, problems, list(df.attrs["notes"]),
                   classes=classes, case_mismatch=case_mismatch, min_methods=min_methods,
                   units=units, compared_tasks=compared_tasks)


def _method_paths(paths) -> dict[str, str]:
    if isinstance(paths, Mapping):
        out = {str(k): str(v) for k, v in paths.items()}
    else:
        out = {}
        for p in paths:
            name = Path(p).stem
            if name in out:
                raise ValueError(f"two files give method name {name!r}: {out[name]} and {p}")
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
    for method, file in files.items():
        df = _read_text_table(file)
        notes += df.attrs["notes"]
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
            problems.append(Problem(file, None, t, None,
                                    f"task column {t!r} like the other methods' files"))
        if extra and tasks is None:
            for t in extra:
                problems.append(Problem(file, None, t, None,
                                        f"only the task columns {expected_tasks}"))
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


def read_claims_reloaded(path: PathLike, kind: str | None = None, task: str = "task",
                         classes: Sequence[str] | None = None, metric: str | None = None,
                         case_mismatch: str = "error", min_methods: int = 2,
                         units: str = "fraction") -> PerCase:
    """Claims Reloaded upload layout ([ClaimsReloaded]).

    Segmentation: ``case_id, alg_<name>...`` with DSC in [0, 1]. Classification:
    ``case_id, ground_truth, alg_<name>...`` with predicted labels. The kind follows the
    presence of ``ground_truth`` unless given. Method names drop the ``alg_`` prefix. Every
    cell must be filled: a missing result is a problem, not a silent omission. Clean files
    take a fast typed read (:mod:`falseclaims.percase.claims_fast`) with the same result.
    """
    _check_kind(kind)
    if case_mismatch in ("error", "intersect"):  # one row per case: no mismatch possible
        from falseclaims.percase.claims_fast import read_clean

        clean = read_clean(path, kind, task, classes, metric, min_methods, units)
        if clean is not None:
            return clean
    file = str(path)
    df = _read_text_table(path)
    if kind is None:
        kind = "classification" if "ground_truth" in df.columns else "segmentation"
    need = ["case_id"] + (["ground_truth"] if kind == "classification" else [])
    problems = _require_columns(df, need, file)
    alg = [c for c in df.columns if c.startswith("alg_")]
    if len(alg) < min_methods:
        problems.append(Problem(file, None, "alg_*", alg,
                                f"at least {min_methods} method columns named alg_<name>"))
    other = [c for c in df.columns if c not in need and c not in alg]
    for c in other:
        problems.append(Problem(file, None, c, None,
                                "only case_id, " + ("ground_truth, " if kind == "classification"
                                                    else "") + "and alg_* columns"))
    if problems:
        raise PerCaseValidationError(problems)
    names = {c: c[len("alg_"):] for c in alg}
    for c, n in names.items():
        if n == "":
            problems.append(Problem(file, None, c, None, "a method name after 'alg_'"))
    metric = (metric or ("dsc" if kind == "segmentation" else LABEL_METRIC)).lower()
    tables, origins = [], []
    for c in alg:
        if kind == "segmentation":
            value = _parse_numbers(df[c], file, c, problems, allow_empty=False)
        else:
            value = df[c]
            for i in np.flatnonzero((value == "").to_numpy()):
                problems.append(Problem(file, _line(df.index[i]), c, "", "a predicted label"))
        part = pd.DataFrame({"case_id": df["case_id"].to_numpy(), "task": task,
                             "method": names[c], "metric": metric, "value": value.to_numpy()})
        if kind == "classification":
            part["ground_truth"] = df["ground_truth"].to_numpy()
        tables.append(part)
        origins.append(pd.DataFrame({"file": file, "row": _lines(df.index),
                                     "column": c, "gt_column": "ground_truth"}))
    if kind == "classification":
        for i in np.flatnonzero((df["ground_truth"] == "").to_numpy()):
            problems.append(Problem(file, _line(df.index[i]), "ground_truth", "",
                                    "a ground-truth label"))
    table = pd.concat(tables, ignore_index=True)
    origin = pd.concat(origins, ignore_index=True)
    if not problems:
        # one row per case in this layout: repeated ids are duplicates of the whole row
        dup = df["case_id"].duplicated()
        for i in np.flatnonzero(dup.to_numpy()):
            problems.append(Problem(file, _line(df.index[i]), "case_id", df["case_id"].iloc[i],
                                    "each case id once"))
    files = {n: file for n in names.values()}
    return _finish(kind, table, origin, files, problems, list(df.attrs["notes"]),
                   classes=classes, case_mismatch=case_mismatch, min_methods=min_methods,
                   units=units)


def read_predictions_with_labels(predictions: Mapping[str, PathLike] | Iterable[PathLike],
                                 labels: PathLike, task: str = "task",
                                 case_column: str = "image",
                                 prediction_column: str = "predicted_lesion",
                                 label_column: str = "lesion",
                                 classes: Sequence[str] | None = None,
                                 case_mismatch: str = "error", min_methods: int = 2) -> PerCase:
    """Per-method prediction files plus one ground-truth file (ISIC layout).

    Each prediction file has ``case_column``, ``prediction_column`` and optionally one score
    column per class; the label file has ``case_column`` and ``label_column`` (other columns
    are ignored; it may hold more cases than the predictions). The class set is ``classes``,
    else the score columns, else every label in the ground truth or the predictions. Every
    predicted case must have a label.
    """
    files = _method_paths(predictions)
    label_file = str(labels)
    problems: list[Problem] = []
    lab = _read_text_table(labels)
    notes = list(lab.attrs["notes"])
    problems += _require_columns(lab, [case_column, label_column], label_file)
    if problems:
        raise PerCaseValidationError(problems)
    dup = lab[case_column].duplicated()
    for i in np.flatnonzero(dup.to_numpy()):
        problems.append(Problem(label_file, _line(lab.index[i]), case_column,
                                lab[case_column].iloc[i], "each case id once"))
    for i in np.flatnonzero((lab[label_column] == "").to_numpy()):
        problems.append(Problem(label_file, _line(lab.index[i]), label_column, "",
                                "a ground-truth label"))
    truth = lab.drop_duplicates(case_column).set_index(case_column)
    truth_row = pd.Series([_line(i) for i in truth.index.map(
        dict(zip(lab[case_column], lab.index)).get)], index=truth.index)
    tables, origins, scores = [], [], []
    score_cols_ref = None
    for method, file in files.items():
        df = _read_text_table(file)
        notes += df.attrs["notes"]
        miss = _require_columns(df, [case_column, prediction_column], file)
        if miss:
            problems += miss
            continue
        score_cols = [c for c in df.columns if c not in (case_column, prediction_column)]
        if score_cols_ref is None:
            score_cols_ref = score_cols
        elif score_cols != score_cols_ref:
            problems.append(Problem(file, None, None, score_cols,
                                    f"the same score columns as the other files "
                                    f"{score_cols_ref}"))
        for i in np.flatnonzero((df[prediction_column] == "").to_numpy()):
            problems.append(Problem(file, _line(df.index[i]), prediction_column, "",
                                    "a predicted label"))
        cases = df[case_column]
        unknown = ~cases.isin(truth.index)
        for i in np.flatnonzero(unknown.to_numpy()):
            problems.append(Problem(file, _line(df.index[i]), case_column, cases.iloc[i],
                                    f"a case listed in the label file {label_file}"))
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
            nums = {c: _parse_numbers(df[c], file, c, problems, allow_empty=False)
                    for c in score_cols}
            s = pd.DataFrame(nums)
            s.insert(0, "case_id", cases.to_numpy())
            s = s.melt(id_vars="case_id", var_name="label", value_name="score")
            s.insert(1, "task", task)
            s.insert(2, "method", method)
            scores.append(s)
    if problems:
        raise PerCaseValidationError(problems)
    if classes is None and score_cols_ref:
        classes = tuple(score_cols_ref)
    table = pd.concat(tables, ignore_index=True)
    origin = pd.concat(origins, ignore_index=True)
    return _finish("classification", table, origin, files, problems, notes, classes=classes,
                   scores=pd.concat(scores, ignore_index=True) if scores else None,
                   case_mismatch=case_mismatch, min_methods=min_methods)


# ------------------------------------------------------------------ dispatch


def detect_layout(path: PathLike) -> str:
    """``long`` or ``claims_reloaded`` from a single file's header."""
    p = Path(path)
    if not p.is_file():
        raise FileNotFoundError(f"per-case file not found: {p}")
    header = _read_text_table(p, nrows=0).columns
    if {"case_id", "method", "value"} <= set(header):
        return "long"
    if "case_id" in header and any(c.startswith("alg_") for c in header):
        return "claims_reloaded"
    raise ValueError(
        f"{p}: cannot tell the layout from its columns {list(header)}; expected a long table "
        "(case_id, task, method, metric, value[, ground_truth]) or the Claims Reloaded layout "
        "(case_id[, ground_truth], alg_*)"
    )


def read_percase(path: PathLike, layout: str = "auto", **kwargs) -> PerCase:
    """Read a single per-case file (``long`` or ``claims_reloaded``; ``auto`` detects)."""
    if layout == "auto":
        layout = detect_layout(path)
    if layout == "long":
        return read_long(path, **kwargs)
    if layout == "claims_reloaded":
        return read_claims_reloaded(path, **kwargs)
    raise ValueError(f"layout must be 'auto', 'long' or 'claims_reloaded'; got {layout!r} "
                     "(wide per-method and prediction+label layouts need several files: use "
                     "read_wide_per_method / read_predictions_with_labels)")
