"""DeLong test against a direct implementation of the published covariance formula."""

import numpy as np
import pytest
from scipy import stats
from sklearn.metrics import roc_auc_score

from falseclaims.percase.delong import binary_labels, delong_test


def _direct_delong(y, s1, s2):
    """DeLong, DeLong & Clarke-Pearson (1988), eqs. for V10, V01, S10, S01, straight from
    the definition with the kernel psi(X, Y) = 1 if X > Y, 1/2 if equal, 0 otherwise."""
    y = np.asarray(y, bool)
    out = []
    for s in (s1, s2):
        X, Y = s[y], s[~y]  # positives, negatives
        psi = np.array([[1.0 if xi > yj else 0.5 if xi == yj else 0.0 for yj in Y] for xi in X])
        out.append((psi.mean(axis=1), psi.mean(axis=0), psi.mean()))
    m, n = y.sum(), (~y).sum()
    v10 = np.array([o[0] for o in out])
    v01 = np.array([o[1] for o in out])
    theta = np.array([o[2] for o in out])
    s10 = np.array([[np.sum((v10[r] - theta[r]) * (v10[q] - theta[q])) / (m - 1)
                     for q in range(2)] for r in range(2)])
    s01 = np.array([[np.sum((v01[r] - theta[r]) * (v01[q] - theta[q])) / (n - 1)
                     for q in range(2)] for r in range(2)])
    S = s10 / m + s01 / n
    z = (theta[0] - theta[1]) / np.sqrt(S[0, 0] + S[1, 1] - 2 * S[0, 1])
    return theta, S, z, 2 * stats.norm.sf(abs(z))


def test_small_case_with_ties_matches_direct_formula():
    y = np.array([1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 1])
    s1 = np.array([0.9, 0.8, 0.8, 0.55, 0.4, 0.5, 0.3, 0.8, 0.2, 0.1, 0.4, 0.7])
    s2 = np.array([0.7, 0.9, 0.6, 0.6, 0.3, 0.6, 0.35, 0.5, 0.3, 0.3, 0.2, 0.65])
    theta, S, z, p = _direct_delong(y, s1, s2)
    res = delong_test(y, s1, s2)
    assert res.auc_a == pytest.approx(theta[0])
    assert res.auc_b == pytest.approx(theta[1])
    assert res.var_a == pytest.approx(S[0, 0])
    assert res.var_b == pytest.approx(S[1, 1])
    assert res.cov == pytest.approx(S[0, 1])
    assert res.z == pytest.approx(z)
    assert res.pvalue == pytest.approx(p)


def test_random_case_matches_direct_formula_and_sklearn_auc():
    rng = np.random.default_rng(4)
    y = rng.random(90) < 0.4
    s1 = np.round(y * 1.0 + rng.normal(0, 1, 90), 1)  # rounding creates ties
    s2 = np.round(y * 0.7 + 0.5 * s1 + rng.normal(0, 1, 90), 1)
    theta, S, z, p = _direct_delong(y, s1, s2)
    res = delong_test(y.astype(int), s1, s2)
    assert res.auc_a == pytest.approx(roc_auc_score(y, s1))
    assert res.auc_b == pytest.approx(roc_auc_score(y, s2))
    assert res.z == pytest.approx(z)
    assert res.pvalue == pytest.approx(p)
    assert res.as_test().test == "delong"


def test_identical_scores_give_p_one():
    y = np.array([0, 1, 0, 1, 1, 0])
    s = np.array([0.1, 0.8, 0.3, 0.7, 0.4, 0.5])
    res = delong_test(y, s, s)
    assert res.z == 0 and res.pvalue == 1.0


def test_labels():
    assert binary_labels(["0", "1", "1"]).tolist() == [False, True, True]
    assert binary_labels(["neg", "pos"], positive="pos").tolist() == [False, True]
    with pytest.raises(ValueError, match="name the positive class"):
        binary_labels(["neg", "pos"])
    with pytest.raises(ValueError, match="exactly two"):
        binary_labels(["a", "b", "c"])
    with pytest.raises(ValueError, match="at least 2 cases per class"):
        delong_test([1, 0, 0, 0], [0.1, 0.2, 0.3, 0.4], [0.2, 0.1, 0.3, 0.4])
