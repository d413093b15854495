"""The normalised per-case model: :class:`PerCase` (a long table, or wide arrays built
lazily into one) and the pivots the statistics read from it (docs/percase.md)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from falseclaims.metrics import classify

PathLike = str | os.PathLike
# metric names whose values must lie in [0, 1]
DSC_METRICS = frozenset({"dsc", "dice", "dice similarity coefficient", "mean dsc"})
LABEL_METRIC = "label"
LONG_COLUMNS = ("case_id", "task", "method", "metric", "value")
UNITS = ("fraction", "percent")  # of DSC-like values in per-case files


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


def lower_is_better_refusal(metric: str, option: str = "--metric Dice") -> str | None:
    """Why a metric cannot be compared, when its name says lower is better (a distance such
    as HD95 or ASSD, an error): the comparison ranks the higher mean first and models scores
    where higher is better, so such values would crown the worse method; None otherwise.
    ``option``: how the Dice values are chosen instead (``--subtask dice`` where each
    column of a per-method file is a metric)."""
    kind = classify(str(metric), {"classification": (), "segmentation": ()})
    if kind.direction != "lower":
        return None
    return (f"the metric {metric!r} is lower-is-better (a distance or an error); percase "
            "compares per-case scores where higher is better (DSC, IoU, accuracy), so it "
            f"would rank the worse method first: compare the Dice values ({option})")
