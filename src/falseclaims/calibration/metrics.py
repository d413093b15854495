"""Calibration curves, binomial intervals and expected calibration error (ECE).

Input is the additive bin table of :func:`falseclaims.calibration.simulation.bin_comparisons`
(n_comparisons, sum_prob, n_false per bin), merged over chunks by summing.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
from scipy import special

from falseclaims.calibration.simulation import BIN_KEYS, CELL_KEYS, CurveInterval

__all__ = [
    "binomial_interval",
    "calibration_curve",
    "expected_calibration_error",
    "merge_tables",
]

INTERVALS = ("wilson", "clopper_pearson")


def binomial_interval(k, n, confidence: float = 0.95, method: str = "wilson"):
    """Two-sided interval for a binomial proportion k/n (vectorised).

    ``clopper_pearson`` is exact (beta quantiles), ``wilson`` the score interval.
    """
    k, n = np.asarray(k, float), np.asarray(n, float)
    if (n <= 0).any() or (k < 0).any() or (k > n).any():
        raise ValueError("binomial interval needs 0 <= k <= n and n > 0")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must lie in (0, 1); got {confidence!r}")
    alpha = 1 - confidence
    if method == "clopper_pearson":
        from scipy import stats  # here: the default (Wilson) needs no scipy.stats (~0.2 s import)

        lo = np.where(k > 0, stats.beta.ppf(alpha / 2, k, n - k + 1), 0.0)
        hi = np.where(k < n, stats.beta.ppf(1 - alpha / 2, k + 1, n - k), 1.0)
        return lo, hi
    if method == "wilson":
        z = special.ndtri(1 - alpha / 2)  # standard normal quantile
        p = k / n
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z / (1 + z * z / n) * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
        # exact ends at k = 0 and k = n (rounding would put p just outside the interval)
        lo = np.where(k == 0, 0.0, np.clip(centre - half, 0, 1))
        hi = np.where(k == n, 1.0, np.clip(centre + half, 0, 1))
        return lo, hi
    raise ValueError(f"interval method must be one of {INTERVALS}; got {method!r}")


def merge_tables(tables: list[pd.DataFrame], keys: list[str]) -> pd.DataFrame:
    """Sum additive columns over chunks; min/max columns combine by min/max."""
    if not tables:
        raise ValueError("nothing to merge: no chunk tables given")
    df = pd.concat(tables, ignore_index=True)
    agg = {}
    for col in df.columns:
        if col in keys:
            continue
        if col.startswith("min_"):
            agg[col] = "min"
        elif col.startswith("max_"):
            agg[col] = "max"
        elif col in ("bin_lo", "bin_hi"):
            agg[col] = "first"
        else:
            agg[col] = "sum"
    return df.groupby(keys, sort=True).agg(agg).reset_index()


def merge_bins(tables):
    return merge_tables(tables, BIN_KEYS)


def merge_cells(tables):
    return merge_tables(tables, CELL_KEYS)


def calibration_curve(bins: pd.DataFrame, by=("task", "delta_sd", "condition"),
                      confidence: float = 0.95, method: str = "wilson") -> pd.DataFrame:
    """Per bin: mean predicted probability, observed share of false claims, interval."""
    keys = list(by) + ["bin", "bin_lo", "bin_hi"]
    g = bins.groupby(keys, sort=True)[["n_comparisons", "sum_prob", "n_false"]].sum().reset_index()
    g = g[g["n_comparisons"] > 0].copy()
    g["predicted"] = g["sum_prob"] / g["n_comparisons"]
    g["observed"] = g["n_false"] / g["n_comparisons"]
    g["observed_lo"], g["observed_hi"] = binomial_interval(
        g["n_false"], g["n_comparisons"], confidence, method)
    g["interval"] = method
    g["confidence"] = confidence
    return g.drop(columns="sum_prob")


def expected_calibration_error(bins: pd.DataFrame,
                               by=("task", "delta_sd", "condition")) -> pd.DataFrame:
    """ECE = sum_b (n_b / N) |mean predicted_b - observed_b|, plus the signed version
    (positive: predictions too high, i.e. conservative), the overall shares and the ECE a
    perfectly calibrated predictor would show from binomial noise alone (normal
    approximation of E|observed - p| per bin)."""
    curve = calibration_curve(bins, by)
    curve["w_abs"] = curve["n_comparisons"] * (curve["predicted"] - curve["observed"]).abs()
    curve["w_signed"] = curve["n_comparisons"] * (curve["predicted"] - curve["observed"])
    curve["w_pred"] = curve["n_comparisons"] * curve["predicted"]
    # a perfectly calibrated predictor still shows E|binomial noise| per bin
    curve["w_floor"] = curve["n_comparisons"] * np.sqrt(
        2 / np.pi * curve["predicted"] * (1 - curve["predicted"]) / curve["n_comparisons"])
    g = curve.groupby(list(by), sort=True).agg(
        n_comparisons=("n_comparisons", "sum"), n_false=("n_false", "sum"),
        w_abs=("w_abs", "sum"), w_signed=("w_signed", "sum"), w_pred=("w_pred", "sum"),
        w_floor=("w_floor", "sum"),
    ).reset_index()
    g["ece"] = g["w_abs"] / g["n_comparisons"]
    g["signed_error"] = g["w_signed"] / g["n_comparisons"]
    g["mean_predicted"] = g["w_pred"] / g["n_comparisons"]
    g["share_false"] = g["n_false"] / g["n_comparisons"]
    g["ece_noise_floor"] = g["w_floor"] / g["n_comparisons"]
    return g.drop(columns=["w_abs", "w_signed", "w_pred", "w_floor"])


def calibration_tables(bin_tables: list[pd.DataFrame], cell_tables: list[pd.DataFrame],
                       interval: CurveInterval | Mapping) -> dict[str, pd.DataFrame]:
    """Merge chunk tables and derive the study's tables.

    ``interval``: the observed share's interval (:class:`CurveInterval`, as in
    ``CalibrationSettings.interval``), or the config blocks the rule passes
    (``calibration.confidence`` and ``.interval``), read here once.
    Returns ``bins`` and ``cells`` (merged counts), ``curve`` (per task, delta_sd,
    condition, bin; pooled over n_test), ``ece`` (pooled over n_test) and ``ece_by_n``.
    """
    if not isinstance(interval, CurveInterval):
        interval = CurveInterval.from_config(interval)
    bins, cells = merge_bins(bin_tables), merge_cells(cell_tables)
    kw = {"confidence": interval.confidence, "method": interval.method}
    cells = cells.assign(
        latent_mean=cells["sum_latent"] / cells["n_comparisons"],
        true_congruence_mean=cells["sum_true_congruence"] / cells["n_comparisons"],
        share_false=cells["n_false"] / cells["n_comparisons"],
    )
    return {
        "bins": bins,
        "cells": cells,
        "curve": calibration_curve(bins, **kw),
        "ece": expected_calibration_error(bins),
        "ece_by_n": expected_calibration_error(
            bins, by=("task", "delta_sd", "n_test", "condition")),
    }
