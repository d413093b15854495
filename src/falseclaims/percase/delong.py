"""DeLong test of two correlated ROC AUCs on the same cases (binary tasks).

The AUC is the Mann-Whitney statistic; its variance and the covariance of two AUCs follow
from the structural components (placement values) of DeLong, DeLong & Clarke-Pearson
(1988, Biometrics 44:837). The placement values are computed with midranks in
O(N log N) as in Sun & Xu (2014, IEEE Signal Process Lett 21:1389). Under H0 (equal AUCs)
z = (AUC_A - AUC_B) / sqrt(var_A + var_B - 2 cov) is standard normal.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import stats

from falseclaims.percase.paired_tests import TestResult

__all__ = ["DeLongResult", "binary_labels", "delong_test", "placement_values"]


@dataclass(frozen=True)
class DeLongResult:
    auc_a: float
    auc_b: float
    var_a: float
    var_b: float
    cov: float
    z: float
    pvalue: float
    n_pos: int
    n_neg: int

    def as_test(self) -> TestResult:
        return TestResult(
            "delong", self.z, self.pvalue,
            "binary labels; asymptotic normality of the AUC difference (enough cases per class)",
            f"AUC_A={self.auc_a:.4f}, AUC_B={self.auc_b:.4f}; {self.n_pos} positive, "
            f"{self.n_neg} negative cases")


def binary_labels(y_true, positive=None) -> np.ndarray:
    """Boolean "is positive" vector; ``positive`` names the positive label when not 0/1."""
    y = np.asarray(y_true)
    levels = list(dict.fromkeys(y.tolist()))
    if len(levels) != 2:
        raise ValueError(
            f"DeLong needs exactly two ground-truth classes; got {len(levels)}: {levels[:10]}")
    if positive is None:
        as_text = {str(v) for v in levels}
        if as_text == {"0", "1"} or as_text == {"False", "True"} or set(levels) <= {0, 1}:
            positive = 1 if "1" in as_text else True
        else:
            raise ValueError(
                f"ground-truth labels {sorted(map(str, levels))} are not 0/1: name the positive "
                "class")
    if positive not in levels and str(positive) not in {str(v) for v in levels}:
        raise ValueError(f"positive label {positive!r} not among the ground truth {levels}")
    pos = str(positive)
    return np.array([str(v) == pos or (pos == "True" and str(v) == "1")
                     or (pos == "1" and str(v) == "True") for v in y.tolist()])


def _midrank(x: np.ndarray) -> np.ndarray:
    return stats.rankdata(x, method="average")


def placement_values(is_pos: np.ndarray, score: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """V10 (per positive) and V01 (per negative) of DeLong et al., via midranks (Sun & Xu).

    V10_i = share of negatives scored below positive i (ties count 1/2);
    V01_j = share of positives scored above negative j (ties count 1/2).
    """
    pos, neg = score[is_pos], score[~is_pos]
    m, n = pos.size, neg.size
    r_all = _midrank(np.concatenate([pos, neg]))
    r_pos, r_neg = _midrank(pos), _midrank(neg)
    v10 = (r_all[:m] - r_pos) / n
    v01 = 1.0 - (r_all[m:] - r_neg) / m
    return v10, v01


def delong_test(y_true, score_a, score_b, positive=None) -> DeLongResult:
    """DeLong test of AUC_A = AUC_B; higher scores mean "more likely positive"."""
    is_pos = binary_labels(y_true, positive)
    sa = np.asarray(score_a, dtype=float)
    sb = np.asarray(score_b, dtype=float)
    if sa.shape != is_pos.shape or sb.shape != is_pos.shape:
        raise ValueError("labels and both score vectors must have equal length")
    if not (np.isfinite(sa).all() and np.isfinite(sb).all()):
        raise ValueError("scores contain NaN or infinite entries")
    m, n = int(is_pos.sum()), int((~is_pos).sum())
    if m < 2 or n < 2:
        raise ValueError(f"DeLong needs at least 2 cases per class; got {m} positive, {n} negative")
    v10 = np.empty((2, m))
    v01 = np.empty((2, n))
    for k, s in enumerate((sa, sb)):
        v10[k], v01[k] = placement_values(is_pos, s)
    auc = v10.mean(axis=1)
    cov = np.cov(v10) / m + np.cov(v01) / n
    var_diff = cov[0, 0] + cov[1, 1] - 2.0 * cov[0, 1]
    diff = auc[0] - auc[1]
    if var_diff <= 1e-15:
        z = 0.0 if diff == 0 else float(np.sign(diff) * np.inf)
        p = 1.0 if diff == 0 else 0.0
    else:
        z = float(diff / np.sqrt(var_diff))
        p = float(2.0 * stats.norm.sf(abs(z)))
    return DeLongResult(float(auc[0]), float(auc[1]), float(cov[0, 0]), float(cov[1, 1]),
                        float(cov[0, 1]), z, p, m, n)
