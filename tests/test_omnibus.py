"""Friedman / Iman–Davenport / Nemenyi / Holm for K >= 3 methods, against hand-computed values
([Demsar2006] formulas), Demšar's table of q_alpha and Cochran's Q (statsmodels)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from falseclaims.percase.omnibus import friedman_omnibus

# 4 cases x 3 methods, no ties; within-case ranks (1 = best):
# A 1,2,1,1 -> 1.25; B 2,1,3,2 -> 2.00; C 3,3,2,3 -> 2.75
TINY = pd.DataFrame({"A": [0.9, 0.8, 0.9, 0.9], "B": [0.8, 0.9, 0.7, 0.8],
                     "C": [0.7, 0.7, 0.8, 0.7]})


def test_friedman_and_iman_davenport_by_hand():
    res = friedman_omnibus(TINY)
    assert res.mean_ranks == {"A": 1.25, "B": 2.0, "C": 2.75}
    # chi2_F = 12 J / (K (K+1)) [sum R^2 - K (K+1)^2 / 4] = 4 (13.125 - 12) = 4.5
    assert res.friedman_chi2 == pytest.approx(4.5, rel=1e-12)
    assert res.friedman_p == pytest.approx(np.exp(-2.25), rel=1e-12)  # chi2(2) sf = e^{-x/2}
    # F_F = (J - 1) chi2 / (J (K - 1) - chi2) = 13.5 / 3.5 on (2, 6) df
    assert res.iman_davenport_f == pytest.approx(13.5 / 3.5, rel=1e-12)
    assert res.iman_davenport_p == pytest.approx(stats.f.sf(13.5 / 3.5, 2, 6), rel=1e-12)


def test_critical_difference_uses_demsar_q_alpha():
    """q_0.05 = 2.343 for K = 3 and 2.569 for K = 4 ([Demsar2006], Table 5a)."""
    res = friedman_omnibus(TINY)
    assert res.critical_difference == pytest.approx(2.343 * np.sqrt(3 * 4 / (6 * 4)), abs=1e-3)
    four = TINY.assign(D=[0.1, 0.2, 0.3, 0.4])
    assert friedman_omnibus(four).critical_difference == pytest.approx(
        2.569 * np.sqrt(4 * 5 / (6 * 4)), abs=1e-3)


def test_post_hoc_p_values_by_hand():
    res = friedman_omnibus(TINY)
    pairs = res.pairs.set_index(["a", "b"])
    se = np.sqrt(3 * 4 / (6 * 4))  # sqrt(K (K+1) / (6 J)) = sqrt(0.5)
    # Nemenyi A vs C: |R_A - R_C| / sqrt(K (K+1) / (12 J)) = 1.5 / 0.5 = 3
    assert pairs.loc[("A", "C"), "p_nemenyi"] == pytest.approx(
        stats.studentized_range.sf(3.0, 3, np.inf), rel=1e-4)
    # Holm over z-tests of the rank differences 0.75, 1.5, 0.75
    p_raw = {k: 2 * stats.norm.sf(d / se) for k, d in
             ((("A", "B"), 0.75), (("A", "C"), 1.5), (("B", "C"), 0.75))}
    assert pairs.loc[("A", "C"), "p_holm"] == pytest.approx(3 * p_raw[("A", "C")], rel=1e-12)
    assert pairs.loc[("A", "B"), "p_holm"] == pytest.approx(
        min(1.0, 2 * p_raw[("A", "B")]), rel=1e-12)
    assert not pairs["differ"].any()  # 1.5 < CD = 1.657


def test_binary_correctness_friedman_is_cochrans_q():
    """With 0/1 values the tie-corrected Friedman statistic is Cochran's Q."""
    contingency = pytest.importorskip("statsmodels.stats.contingency_tables")
    rng = np.random.default_rng(5)
    x = pd.DataFrame((rng.random((200, 4)) < [0.8, 0.75, 0.7, 0.72]).astype(float),
                     columns=list("abcd"))
    res = friedman_omnibus(x)
    q = contingency.cochrans_q(x.to_numpy())
    assert res.friedman_chi2 == pytest.approx(q.statistic, rel=1e-10)
    assert res.friedman_p == pytest.approx(q.pvalue, rel=1e-8)


def test_detects_a_real_difference_and_refuses_bad_input():
    rng = np.random.default_rng(2)
    x = pd.DataFrame(rng.normal(0.8, 0.05, (80, 3)), columns=["a", "b", "c"])
    x["a"] += 0.05
    res = friedman_omnibus(x)
    assert res.iman_davenport_p < 1e-4 and res.friedman_p < 1e-4
    assert res.iman_davenport_p < res.friedman_p  # chi2_F is conservative ([Rainio2024])
    assert bool(res.pairs.set_index(["a", "b"]).loc[("a", "c"), "differ"])
    with pytest.raises(ValueError, match="at least 3 methods"):
        friedman_omnibus(x[["a", "b"]])
    same = pd.DataFrame({"a": [0.5, 0.6], "b": [0.5, 0.6], "c": [0.5, 0.6]})
    out = friedman_omnibus(same)
    assert np.isnan(out.friedman_chi2) and "not computed" in out.notes[0]
    assert out.as_dict()["friedman"]["statistic"] is None
