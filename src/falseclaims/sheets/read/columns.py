"""Column vocabularies of the sheet format (see data/README.md) and metric scales."""

from __future__ import annotations

import math
import re
from functools import lru_cache

from falseclaims.tasks import TASK_ALIASES, TASKS

SPLITS = ("train_test", "train_val_test", "cv_only", "cv_plus_test", "unclear")
UNCERTAINTY = ("none", "sd_test", "sd_cv", "sd_runs", "sd_unclear", "ci", "other")
SD_OVER = ("test", "cv", "runs", "unclear")
ENUMS = {"task": TASKS, "split": SPLITS, "uncertainty": UNCERTAINTY, "sd_over": SD_OVER}

# forgiving spellings, keyed by the normalised form (lower case, non-alphanumerics -> "_")
ALIASES = {
    "task": TASK_ALIASES,
    "split": {
        "train_validation_test": "train_val_test", "train_valid_test": "train_val_test",
        "cv": "cv_only", "cross_validation": "cv_only", "k_fold_cv": "cv_only",
        "cv_test": "cv_plus_test", "cv_and_test": "cv_plus_test",
        "train_val": "train_test", "train_validation": "train_test",
    },
    "uncertainty": {"sd_over_test": "sd_test", "sd_over_cv": "sd_cv", "sd_over_runs": "sd_runs",
                    "confidence_interval": "ci", "no": "none"},
    "sd_over": {"test_set": "test", "folds": "cv", "cv_folds": "cv", "seeds": "runs"},
}

# kind of each column: id, text, enum, bool, size, list, metric, measure, number, compared
PAPERS = {
    "paper_id": "id", "title": "text", "task": "enum", "in_scope": "bool",
    "claims_outperformance": "bool", "bold_best": "bool", "statistical_test": "bool",
    "values_only_in_figures": "bool", "split": "enum", "cv_folds": "size",
    "n_train": "size", "n_val": "size", "n_test": "size", "uncertainty": "enum",
    "metrics_reported": "list",
}
RESULTS = {
    "paper_id": "id", "method": "text", "metric": "metric", "value": "measure",
    "sd": "number", "sd_over": "enum", "n_test": "size",
}
WIDE_EXTRA = {
    "metric": "metric", "value_proposed": "measure", "sd_proposed": "number",
    "value_best_prior": "measure", "sd_best_prior": "number", "name_proposed": "text",
    "name_best_prior": "text", "sd_over": "enum", "n_test_proposed": "size",
    "n_test_best_prior": "size", "values_compared": "compared",
}
WIDE = {**PAPERS, **WIDE_EXTRA}

REQUIRED = {
    "papers": ("paper_id", "task"),
    "results": ("paper_id", "method", "metric", "value"),
    "wide": ("paper_id", "task"),  # value columns: see wide.py
}
SPECS = {"papers": PAPERS, "results": RESULTS, "wide": WIDE}

PAPERS_OUT = ["venue", *PAPERS, "source_file", "source_sheet", "source_row"]
RESULTS_OUT = ["venue", "paper_id", "method", "metric", "value", "sd", "sd_over", "n_test",
               "source_file", "source_sheet", "source_row"]
NOTES_OUT = ["venue", "file", "sheet", "row", "column", "value", "note", "kind"]

WIDE_METHODS = ("proposed", "best_prior")

_DISTANCE = re.compile(
    r"^(hd|hd95|hd_?9[05]|asd|assd|masd|mssd|msd|mae|mse|rmse|nll)\b|hausdorff|"
    r"(?<!normalized )(?<!normalised )surface distance|distance error"
)
_SIGNED = re.compile(r"kappa|^(w?ck|mcc)$|matthews")
# signal levels in decibels (PSNR of an image-reconstruction review): no fraction, no percent
_DECIBEL = re.compile(r"^(p?snr|cnr)\b|signal[- ]to[- ]noise|\(db\)|\bin db\b")

# range of each scale and how a message names it; only "fraction" values are read as
# percent (units:, '%' signs); kappa/MCC and distances keep the number as written
SCALE_RANGES = {"fraction": (0.0, 1.0, "a fraction in [0, 1] (after unit conversion)"),
                "signed": (-1.0, 1.0, "a value in [-1, 1]"),
                "distance": (0.0, math.inf, "a distance >= 0"),
                "decibel": (-math.inf, math.inf, "a level in dB")}


@lru_cache(maxsize=4096)  # called per results row; metric names repeat
def metric_scale(metric: str) -> str:
    """'fraction' (in [0, 1], unit-converted), 'signed' ([-1, 1], kappa/MCC, never
    converted), 'distance' (>= 0, mm or other units, never converted) or 'decibel'
    (PSNR, SNR: any number, never converted)."""
    m = metric.lower()
    if _DISTANCE.search(m):
        return "distance"
    if _DECIBEL.search(m):
        return "decibel"
    if _SIGNED.search(m):
        return "signed"
    return "fraction"
