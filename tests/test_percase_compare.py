"""Author-mode library: empirical inputs, probabilities, bootstrap, all pairs."""

import numpy as np
import pandas as pd
import pytest
from scipy import special, stats

from falseclaims.percase import compare
from falseclaims.figures.percase import accuracy_difference_density


def _seg(n=50, seed=0):
    rng = np.random.default_rng(seed)
    z = rng.normal(size=n)
    return pd.DataFrame({"m1": special.expit(1.9 + z + 0.4 * rng.normal(size=n)),
                         "m2": special.expit(2.0 + z + 0.4 * rng.normal(size=n)),
                         "m3": special.expit(1.5 + z + 0.4 * rng.normal(size=n))},
                        index=[f"c{i}" for i in range(n)])


def test_segmentation_probability_by_hand():
    v = _seg()
    rank = compare.rank_methods(v)
    a, b = rank["method"][0], rank["method"][1]
    assert rank["mean"][0] >= rank["mean"][1] >= rank["mean"][2]
    res = compare.compare_pair("segmentation", v, a, b, resamples=500, seed=1)
    x, y = v[a].to_numpy(), v[b].to_numpy()
    r = stats.pearsonr(x, y).statistic
    sd = np.sqrt(x.var(ddof=1) + y.var(ddof=1) - 2 * x.std(ddof=1) * y.std(ddof=1) * r)
    p = stats.t.cdf(np.sqrt(x.size) * (y.mean() - x.mean()) / sd, x.size - 1)
    assert res.inputs["congruence"] == pytest.approx(r)
    assert res.probability == pytest.approx(p)
    # with empirical inputs the formula is the one-sided paired t-test p-value
    t = {t.test: t for t in res.tests}["paired_t"]
    assert res.probability == pytest.approx(t.pvalue / 2)


def test_classification_probability_is_incomplete_beta_of_discordant_counts():
    rng = np.random.default_rng(3)
    a = rng.random(150) < 0.8
    b = rng.random(150) < 0.72
    v = pd.DataFrame({"A": a.astype(float), "B": b.astype(float)})
    res = compare.compare_pair("classification", v, "A", "B", resamples=500, seed=1)
    x1, x2 = int((a & ~b).sum()), int((~a & b).sum())
    assert (res.inputs["only_a"], res.inputs["only_b"]) == (x1, x2)
    assert res.inputs["congruence"] == pytest.approx((a & b).mean())
    assert res.probability == pytest.approx(special.betainc(x1 + 1, x2 + 1, 0.5))
    assert {t.test for t in res.tests} == {"mcnemar_exact", "mcnemar_midp", "mcnemar_chi2",
                                           "sign_test"}


def test_exact_posterior_density_of_accuracy_difference():
    g = np.linspace(-0.6, 0.8, 2801)
    for n, x1, x2 in [(240, 37, 29), (50, 3, 1)]:
        d = accuracy_difference_density(n, x1, x2, g)
        assert np.trapezoid(d, g) == pytest.approx(1.0, abs=1e-6)
        m = g <= 0
        assert np.trapezoid(d[m], g[m]) == pytest.approx(special.betainc(x1 + 1, x2 + 1, 0.5),
                                                         abs=1e-4)
    # and against Dirichlet sampling
    rng = np.random.default_rng(0)
    p = rng.dirichlet([38, 30, 240 - 66 + 2], size=200_000)
    assert np.mean(p[:, 0] - p[:, 1]) == pytest.approx(
        np.trapezoid(g * accuracy_difference_density(240, 37, 29, g), g), abs=1e-3)


def test_bootstrap_is_seeded_and_sensible():
    v = _seg(80, seed=2)
    x, y = v["m1"].to_numpy(), v["m2"].to_numpy()
    b1 = compare.bootstrap_mean_difference(x, y, 4000, seed=7)
    b2 = compare.bootstrap_mean_difference(x, y, 4000, seed=7)
    assert b1 == b2
    d = x - y
    assert b1["lower"] < d.mean() < b1["upper"]
    half = 1.96 * d.std(ddof=1) / np.sqrt(d.size)
    assert (b1["upper"] - b1["lower"]) / 2 == pytest.approx(half, rel=0.15)
    # chunking does not change the draws' distribution materially, only memory
    b3 = compare.bootstrap_mean_difference(x, y, 4000, seed=7, chunk=1000)
    assert b3["lower"] == pytest.approx(b1["lower"], abs=half * 0.15)
    with pytest.raises(ValueError, match="resamples"):
        compare.bootstrap_mean_difference(x, y, 10, seed=1)


def test_all_pairs_holm_table():
    v = _seg(60, seed=4)
    table = compare.all_pairs("segmentation", v, resamples=200, seed=1)
    assert len(table) == 3
    assert (table["mean_a"] >= table["mean_b"]).all()
    np.testing.assert_allclose(table["p_wilcoxon_holm"], compare.holm(table["p_wilcoxon"]))
    assert (table["p_wilcoxon_holm"] >= table["p_wilcoxon"]).all()


def test_rank_needs_two_methods_and_flags_ties():
    with pytest.raises(ValueError, match="at least 2 methods"):
        compare.rank_methods(pd.DataFrame({"only": [0.5, 0.6]}))
    r = compare.rank_methods(pd.DataFrame({"a": [0.5, 0.7], "b": [0.7, 0.5], "c": [0.1, 0.2]}))
    assert list(r["method"][:2]) == ["a", "b"] and bool(r["tied_with_next"][0])
