"""The task of a per-case input when ``percase`` is run without ``--task``: read from what the
input holds, asked for only when the values leave it open.

Classification compares predicted labels with a ground truth, so an input with a
``ground_truth`` column (or ``--labels``) whose predictions are labels (0/1 or names) is
classification. Segmentation compares per-case scores such as DSC, so numbers in [0, 1]
without a ground truth are segmentation, with a note (they could be other scores). Anything
else (0/1 values without a ground truth, scores beside a ground truth, percent-looking
numbers, text without a ground truth) is a one-line request for ``--task``.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from falseclaims.percase import readers
from falseclaims.percase.checks import PERCENT_SIGN
from falseclaims.percase.long_layout import metric_columns_as_rows
from falseclaims.percase.model import DSC_METRICS, lower_is_better_refusal

__all__ = ["infer_task"]

# rows read to decide: enough for the values' kind, without reading a large file twice
HEAD_ROWS = 2000
# words a spreadsheet or a program writes for a missing number
MISSING_WORDS = {"nan", "na", "n/a", "null", "none", "-", "?", "inf", "-inf"}


def infer_task(files: list[str], layout: str = "auto", labels: str | None = None,
               columns: dict[str, str] | None = None, *, classification_options: bool = False,
               percent: bool = False, metric: str | None = None,
               subtask: str | None = None) -> tuple[str, str | None]:
    """(task, note or None). ``classification_options``: options only classification reads
    were given (``--classes``, ``--scores``, ``--positive``); ``percent``: ``--units
    percent`` (segmentation only). Raises ValueError naming the file and asking for
    ``--task`` when the input does not tell. ``metric``/``subtask`` (long layout): only
    the rows of that metric/task are looked at; several metrics and no ``metric`` is asked."""
    if labels is not None or layout == "predictions":
        return "classification", None  # predicted labels against --labels
    if classification_options:
        return "classification", None
    if percent:
        return "segmentation", None
    if layout == "nnunet" or (
            layout == "auto" and any(map(readers.is_nnunet_summary, files))):
        return "segmentation", None  # nnU-Net evaluates segmentations
    if len(files) > 1 or layout == "wide_per_method":
        return "segmentation", ("task: segmentation (one file of per-case scores per method); "
                                "give --task to say otherwise")
    readers.no_json_among_tables(files, layout)
    path = files[0]
    if layout == "auto":
        layout = readers.detect_layout(path, columns=columns)
    head = readers.read_text_table(Path(path), nrows=HEAD_ROWS, columns=columns)
    if layout == "long":
        head = _rows_compared(metric_columns_as_rows(head, path, []), metric, subtask)
    value_columns = (["value"] if layout == "long"
                     else [c for c in head.columns if str(c).startswith("alg_")])
    cells = head[[c for c in value_columns if c in head.columns]].stack()
    cells = cells[cells.astype(str).str.strip() != ""]
    numbers = pd.to_numeric(cells, errors="coerce")
    numeric = len(cells) > 0 and bool(numbers.notna().all())
    binary = numeric and bool(numbers.isin([0, 1]).all())
    what = "the value column" if layout == "long" else "the alg_* columns"

    def ask(why: str) -> ValueError:
        return ValueError(f"{path}: cannot tell the task: {why}; give --task classification "
                          "or --task segmentation")

    if "ground_truth" in head.columns:
        if numeric and not binary and bool((numbers.round() != numbers).any()):
            raise ask(f"it has a ground_truth column, but {what} hold scores such as "
                      f"{numbers[numbers.round() != numbers].iloc[0]:g}, not predicted labels")
        return "classification", None
    if not numeric:
        if cells.empty:
            raise ask(f"{what} hold no value in the first {HEAD_ROWS} rows")
        first = str(cells[numbers.isna()].iloc[0])
        if PERCENT_SIGN.fullmatch(first):
            raise ask(f"{what} hold percentages such as {first!r}: write the numbers without "
                      "'%' and pass --task segmentation --units percent for DSC in percent")
        missing = " (a missing value?)" if first.lower() in MISSING_WORDS else ""
        raise ask(f"{what} hold text (labels?) such as {first!r}{missing} but there is no "
                  "ground_truth column to compare them with")
    if binary:
        raise ask(f"{what} hold only 0 and 1 and there is no ground_truth column (predicted "
                  "labels need one; per-case DSC would be segmentation)")
    if bool(((numbers >= 0) & (numbers <= 1)).all()):
        return "segmentation", (f"task: segmentation ({what} are scores in [0, 1], read as "
                                "per-case DSC; there is no ground_truth column); give --task "
                                "to say otherwise")
    if bool(((numbers >= 0) & (numbers <= 100)).all()):
        raise ask(f"{what} hold numbers up to {numbers.max():g}, percent? (--task segmentation "
                  "--units percent)")
    negative = numbers[numbers < 0]
    if len(negative):  # no per-case result is negative: a column of differences
        raise ask(f"{what} hold numbers outside [0, 1] such as {negative.iloc[0]:g} (negative: "
                  "a column of differences between methods? per-case DSC and predicted labels "
                  "are not negative)")
    raise ask(f"{what} hold numbers outside [0, 1] such as {numbers[numbers > 1].iloc[0]:g}")


def _rows_compared(head: pd.DataFrame, metric: str | None, subtask: str | None):
    """The long table's rows of the metric and task compared: the values of another metric
    (HD95 in mm next to DSC) say nothing about the task of the compared one."""
    if subtask is not None and "task" in head.columns:
        head = head[head["task"].astype(str).str.strip() == subtask]
    if "metric" not in head.columns:
        return head
    names = head["metric"].astype(str).str.strip().str.lower()  # as the reader compares them
    found = sorted(set(names))
    dice = [m for m in found if m in DSC_METRICS]
    if len(dice) > 1:  # one method's rows under 'DSC', another's under 'Dice': nothing paired
        raise ValueError(f"the metric names {dice} all mean the Dice coefficient (DSC): write "
                         "one name in the metric column")
    if metric is not None and metric.strip().lower() not in found and found:
        raise ValueError(f"--metric {metric}: no such metric in the first {HEAD_ROWS} rows; "
                         f"the metric column holds {found}")
    for name in ([metric.strip().lower()] if metric is not None else found[:1] if len(found) == 1
                 else []):
        if (why := lower_is_better_refusal(name)) is not None:
            raise ValueError(why)  # before any question about percent: no unit makes it DSC
    if metric is not None:
        return head[names == metric.strip().lower()]
    if len(found) > 1:
        raise ValueError(f"the input has several metrics {found}: choose one with --metric")
    return head
