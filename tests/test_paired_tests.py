"""Classical paired tests against scipy primitives and hand computations."""

from math import comb

import numpy as np
import pytest
from scipy import stats

from falseclaims.percase import paired_tests as pt
from falseclaims.percase.compare import holm


@pytest.mark.parametrize("b,c", [(0, 0), (0, 5), (3, 9), (12, 12), (25, 10), (40, 61)])
def test_mcnemar_exact_matches_binomtest(b, c):
    res = pt.mcnemar_exact(b, c)
    expected = 1.0 if b + c == 0 else stats.binomtest(b, b + c, 0.5).pvalue
    assert res.pvalue == pytest.approx(expected, rel=1e-12)
    assert res.statistic == min(b, c)


def test_mcnemar_midp_by_hand():
    # b=2, c=8: exact = 2*(1+10+45)/1024, mid-p = exact - C(10,2)/1024 = 67/1024
    assert pt.mcnemar_exact(2, 8).pvalue == pytest.approx(112 / 1024, rel=1e-12)
    assert pt.mcnemar_midp(2, 8).pvalue == pytest.approx(67 / 1024, rel=1e-12)
    # symmetric tables: both 1
    assert pt.mcnemar_midp(5, 5).pvalue == pytest.approx(1.0)
    assert pt.mcnemar_exact(5, 5).pvalue == pytest.approx(1.0)


def test_mcnemar_midp_matches_formula_over_grid():
    for b in range(0, 15):
        for c in range(0, 15):
            n, k = b + c, min(b, c)
            if n == 0:
                continue
            below = sum(comb(n, i) for i in range(k)) / 2**n
            mid = 2 * (below + 0.5 * comb(n, k) / 2**n)
            assert pt.mcnemar_midp(b, c).pvalue == pytest.approx(min(mid, 1.0), abs=1e-12)


def test_mcnemar_chi2_by_hand():
    res = pt.mcnemar_chi2(25, 10)
    assert res.statistic == pytest.approx(14**2 / 35)
    assert res.pvalue == pytest.approx(stats.chi2.sf(5.6, 1))
    assert "use the exact" in pt.mcnemar_chi2(3, 9).note


def test_mcnemar_rejects_bad_counts():
    with pytest.raises(ValueError, match="non-negative integer"):
        pt.mcnemar_exact(-1, 3)
    with pytest.raises(ValueError, match="non-negative integer"):
        pt.mcnemar_midp(1.5, 3)


def test_sign_test_by_hand_and_equals_mcnemar_on_correctness():
    x = np.array([0.9, 0.8, 0.7, 0.6, 0.95, 0.5, 0.4])
    y = np.array([0.8, 0.8, 0.6, 0.7, 0.90, 0.4, 0.3])
    res = pt.sign_test(x, y)  # 5 positive, 1 negative, 1 tie
    hand = 2 * sum(comb(6, i) for i in range(0, 2)) / 2**6
    assert res.statistic == 5
    assert res.pvalue == pytest.approx(hand)
    rng = np.random.default_rng(3)
    a, b = rng.random(80) < 0.8, rng.random(80) < 0.7
    tests = {t.test: t for t in pt.classification_tests(a, b)}
    assert tests["sign_test"].pvalue == pytest.approx(tests["mcnemar_exact"].pvalue)


def test_paired_t_by_hand():
    rng = np.random.default_rng(1)
    x = rng.normal(0.8, 0.1, 30)
    y = x - 0.02 + rng.normal(0, 0.03, 30)
    d = x - y
    t = d.mean() / (d.std(ddof=1) / np.sqrt(d.size))
    res = pt.paired_t(x, y)
    assert res.statistic == pytest.approx(t)
    assert res.pvalue == pytest.approx(2 * stats.t.sf(abs(t), d.size - 1))


def test_wilcoxon_exact_by_enumeration():
    d = np.array([0.31, -0.12, 0.05, 0.22, -0.4, 0.17, 0.09, 0.26, -0.03, 0.14])
    x, y = d + 0.5, np.full(d.size, 0.5)
    ranks = stats.rankdata(np.abs(x - y))
    t_plus = ranks[(x - y) > 0].sum()
    signs = (np.arange(2**d.size)[:, None] >> np.arange(d.size)) & 1
    null = (signs * ranks).sum(axis=1)
    p = min(1.0, 2 * min((null <= t_plus).mean(), (null >= t_plus).mean()))
    res = pt.wilcoxon(x, y)
    assert res.statistic == pytest.approx(min(t_plus, ranks.sum() - t_plus))
    assert res.pvalue == pytest.approx(p, rel=1e-9)


def test_wilcoxon_normal_approximation_with_ties_by_hand():
    rng = np.random.default_rng(7)
    d = np.round(rng.normal(0.01, 0.05, 80), 2)
    d = d[d != 0]
    x, y = np.full(d.size, 0.5), np.full(d.size, 0.5) - d
    d = x - y  # the differences the test sees (exact ties kept)
    r = stats.rankdata(np.abs(d))
    n = d.size
    t_plus = r[d > 0].sum()
    _, counts = np.unique(np.abs(d), return_counts=True)
    var = n * (n + 1) * (2 * n + 1) / 24 - (counts**3 - counts).sum() / 48
    z = (t_plus - n * (n + 1) / 4) / np.sqrt(var)
    assert pt.wilcoxon(x, y).pvalue == pytest.approx(2 * stats.norm.sf(abs(z)), rel=1e-6)


def test_shapiro_wilk_published_example():
    # Shapiro & Wilk (1965), Biometrika 52:591, worked example (weights of 11 men): W = 0.79
    w = np.array([148, 154, 158, 160, 161, 162, 166, 170, 182, 195, 236], float)
    res = pt.shapiro_differences(w, np.zeros_like(w))
    assert res.statistic == pytest.approx(0.79, abs=0.005)
    assert res.pvalue < 0.01


def test_shapiro_wilk_close_to_shapiro_francia():
    # W is close to the Shapiro-Francia W' built from Blom normal scores
    rng = np.random.default_rng(11)
    d = np.sort(rng.gamma(2.0, 1.0, 60))
    n = d.size
    m = stats.norm.ppf((np.arange(1, n + 1) - 0.375) / (n + 0.25))
    w_sf = (m @ d) ** 2 / ((m @ m) * ((d - d.mean()) ** 2).sum())
    res = pt.shapiro_differences(d, np.zeros(n))
    assert res.statistic == pytest.approx(w_sf, abs=0.01)


def test_variance_tests_by_hand():
    rng = np.random.default_rng(5)
    x = rng.normal(0, 1.0, 40)
    y = 0.6 * x + rng.normal(0, 1.2, 40)
    n = x.size
    va, vb = x.var(ddof=1), y.var(ddof=1)
    f = va / vb
    res_f = pt.f_test_variances(x, y)
    assert res_f.statistic == pytest.approx(f)
    assert res_f.pvalue == pytest.approx(2 * min(stats.f.cdf(f, n - 1, n - 1),
                                                 stats.f.sf(f, n - 1, n - 1)))
    # Bartlett (k = 2, equal sizes)
    sp = (va + vb) / 2
    num = (2 * n - 2) * np.log(sp) - (n - 1) * (np.log(va) + np.log(vb))
    den = 1 + (2 / (n - 1) - 1 / (2 * n - 2)) / 3
    res_b = pt.bartlett(x, y)
    assert res_b.statistic == pytest.approx(num / den)
    assert res_b.pvalue == pytest.approx(stats.chi2.sf(num / den, 1))
    # Levene / Brown-Forsythe: one-way ANOVA on absolute deviations from the median
    za, zb = np.abs(x - np.median(x)), np.abs(y - np.median(y))
    anova = stats.f_oneway(za, zb)
    res_l = pt.levene(x, y)
    assert res_l.statistic == pytest.approx(anova.statistic)
    assert res_l.pvalue == pytest.approx(anova.pvalue)
    # Pitman-Morgan, written through F and r = corr(x, y)
    r = np.corrcoef(x, y)[0, 1]
    t = (f - 1) * np.sqrt(n - 2) / (2 * np.sqrt(f * (1 - r**2)))
    res_pm = pt.pitman_morgan(x, y)
    assert res_pm.statistic == pytest.approx(t)
    assert res_pm.pvalue == pytest.approx(2 * stats.t.sf(abs(t), n - 2))


def test_tidy_table_and_recommendation():
    rng = np.random.default_rng(2)
    x = rng.beta(9, 1, 60)
    y = np.clip(x - rng.exponential(0.03, 60) + 0.02, 0, 1)
    res = pt.segmentation_tests(x, y)
    table = pt.as_table(res)
    assert list(table.columns) == ["test", "statistic", "pvalue", "n", "assumption", "note"]
    assert set(table["test"]) == {"paired_t", "wilcoxon", "sign_test", "shapiro_wilk",
                                  "f_test", "bartlett", "levene", "pitman_morgan"}
    assert table["assumption"].str.len().min() > 0
    rec = " ".join(pt.recommend(res, "segmentation"))
    sw = {r.test: r for r in res}["shapiro_wilk"].pvalue
    assert sw < 0.05 and "Wilcoxon signed-rank test rather than the paired t-test" in rec
    normal = pt.segmentation_tests(rng.normal(0.8, 0.05, 50), rng.normal(0.79, 0.05, 50))
    assert "acceptable" in " ".join(pt.recommend(normal, "segmentation"))
    few = pt.classification_tests([1, 1, 0, 1, 1, 0], [1, 0, 0, 1, 0, 1])
    assert "exact or mid-p" in " ".join(pt.recommend(few, "classification"))


def test_degenerate_inputs_do_not_crash():
    x = np.array([0.8, 0.7, 0.9])
    assert np.isnan(pt.paired_t(x, x - 0.1).pvalue)  # constant differences
    assert np.isnan(pt.wilcoxon(x, x).pvalue)
    assert pt.sign_test(x, x).pvalue == 1.0
    with pytest.raises(ValueError, match="equal length"):
        pt.paired_t([1, 2, 3], [1, 2])
    with pytest.raises(ValueError, match="NaN"):
        pt.wilcoxon([1, np.nan, 3], [1, 2, 3])


def test_holm_by_hand():
    adj = holm([0.01, 0.04, 0.03, 0.005])
    np.testing.assert_allclose(adj, [0.03, 0.06, 0.06, 0.02])
    adj = holm([0.5, np.nan, 0.2])
    np.testing.assert_allclose(adj, [0.5, np.nan, 0.4])
    # capped at 1: 2 * 0.8 = 1.6 -> 1 for both (hand-computed)
    np.testing.assert_array_equal(holm([0.9, 0.8]), [1.0, 1.0])


@pytest.mark.parametrize("seed", range(5))
def test_holm_matches_statsmodels(seed):
    """Independent reference: statsmodels' Holm step-down (a dependency of scikit-posthocs)."""
    multitest = pytest.importorskip("statsmodels.stats.multitest")
    rng = np.random.default_rng(seed)
    p = np.concatenate([rng.uniform(0, 0.05, 4), rng.uniform(0, 1, 6)])
    expected = multitest.multipletests(p, method="holm")[1]
    np.testing.assert_allclose(holm(p), expected, rtol=1e-12)
