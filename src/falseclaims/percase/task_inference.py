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

__all__ = ["infer_task"]

# rows read to decide: enough for the values' kind, without reading a large file twice
HEAD_ROWS = 2000


def infer_task(files: list[str], layout: str = "auto", labels: str | None = None,
               columns: dict[str, str] | None = None, *, classification_options: bool = False,
               percent: bool = False) -> tuple[str, str | None]:
    """(task, note or None). ``classification_options``: options only classification reads
    were given (``--classes``, ``--scores``, ``--positive``); ``percent``: ``--units
    percent`` (segmentation only). Raises ValueError naming the file and asking for
    ``--task`` when the input does not tell."""
    if labels is not None or layout == "predictions":
        return "classification", None  # predicted labels against --labels
    if classification_options:
        return "classification", None
    if percent:
        return "segmentation", None
    if len(files) > 1 or layout == "wide_per_method":
        return "segmentation", ("task: segmentation (one file of per-case scores per method); "
                                "give --task to say otherwise")
    path = files[0]
    if layout == "auto":
        layout = readers.detect_layout(path, columns=columns)
    head = readers.read_text_table(Path(path), nrows=HEAD_ROWS, columns=columns)
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
        raise ask(f"{what} hold text (labels?) but there is no ground_truth column to "
                  "compare them with")
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
    raise ask(f"{what} hold numbers outside [0, 1] such as {numbers[numbers.abs() > 1].iloc[0]:g}")
