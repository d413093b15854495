"""The probability of a false claim against independent computations."""

import mpmath as mp
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from falseclaims.stats import (
    classification_congruence_bounds,
    prob_false_claim_classification,
    prob_false_claim_classification_mc,
    prob_false_claim_segmentation,
)


def test_hand_computed_classification():
    # n=10, acc 0.8 vs 0.7, p11 = 0.6 -> x1 = 2, x2 = 1; P = I_1/2(3, 2) = 4/8 - 3/16
    res = prob_false_claim_classification(10, 0.8, 0.7, 0.6)
    assert res.probability == pytest.approx(0.3125, abs=1e-14)
    assert (res.x1, res.x2) == pytest.approx((2.0, 1.0))
    assert not res.clamped


@pytest.mark.parametrize(
    "n, a, b, c",
    [(50, 0.9, 0.86, 0.8), (500, 0.85, 0.84, 0.67), (100, 0.7, 0.65, 0.5), (20, 0.6, 0.5, 0.3)],
)
def test_closed_form_matches_monte_carlo(n, a, b, c):
    draws = 200_000
    exact = prob_false_claim_classification(n, a, b, c).probability
    mc = prob_false_claim_classification_mc(n, a, b, c, draws=draws, seed=1)
    se = np.sqrt(exact * (1 - exact) / draws)
    assert abs(mc - exact) < 4 * se + 1e-12


def test_monte_carlo_is_seeded_and_vectorised():
    n = np.array([30, 300])
    a1 = prob_false_claim_classification_mc(n, 0.8, 0.75, 0.7, draws=20_000, seed=3)
    a2 = prob_false_claim_classification_mc(n, 0.8, 0.75, 0.7, draws=20_000, seed=3)
    assert a1.shape == (2,)
    np.testing.assert_array_equal(a1, a2)


def _dirichlet_double_integral(n, a, b, c):
    """P(p1 <= p2) by 2-D quadrature of the Dirichlet density (no beta identity used)."""
    mp.mp.dps = 30
    x1, x2 = n * (a - c), n * (b - c)
    al = [mp.mpf(x1) + 1, mp.mpf(x2) + 1, mp.mpf(n) - x1 - x2 + 2]
    norm = mp.gamma(sum(al)) / (mp.gamma(al[0]) * mp.gamma(al[1]) * mp.gamma(al[2]))

    def inner(p2):
        top = min(p2, 1 - p2)
        def f(p1):
            return p1 ** (al[0] - 1) * p2 ** (al[1] - 1) * (1 - p1 - p2) ** (al[2] - 1)

        return mp.quad(f, [0, top])

    return float(norm * mp.quad(inner, [0, 0.25, 0.5, 1]))


@pytest.mark.parametrize("n, a, b, c", [(10, 0.8, 0.7, 0.6), (12, 0.75, 0.5, 0.45)])
def test_closed_form_matches_dirichlet_quadrature_small_n(n, a, b, c):
    exact = prob_false_claim_classification(n, a, b, c).probability
    assert exact == pytest.approx(_dirichlet_double_integral(n, a, b, c), rel=1e-8)


@pytest.mark.parametrize("n", [5_000, 200_000])
def test_closed_form_matches_mpmath_at_large_n(n):
    a, b, c = 0.91, 0.905, 0.85
    x1, x2 = n * (a - c), n * (b - c)
    mp.mp.dps = 60
    al, be = mp.mpf(x1) + 1, mp.mpf(x2) + 1
    # 1-D quadrature of the Beta(al, be) density in log space, split at the mode
    mode = (al - 1) / (al + be - 2)
    logb = mp.loggamma(al) + mp.loggamma(be) - mp.loggamma(al + be)

    def dens(t):
        return mp.e ** ((al - 1) * mp.log(t) + (be - 1) * mp.log(1 - t) - logb)

    width = 12 * mp.sqrt(al * be / ((al + be) ** 2 * (al + be + 1)))
    pts = [max(mp.mpf(0), mode - width), mode - width / 3, mode, mp.mpf("0.5")]
    pts = sorted(p for p in pts if p <= 0.5)
    ref = float(mp.quad(dens, pts))
    got = prob_false_claim_classification(n, a, b, c).probability
    assert got == pytest.approx(ref, rel=1e-9, abs=1e-300)


def test_infeasible_congruence_is_clamped_and_reported():
    lo, hi = classification_congruence_bounds(0.9, 0.8)
    assert (lo, hi) == pytest.approx((0.7, 0.8))
    res = prob_false_claim_classification(100, [0.9, 0.9, 0.9], [0.8, 0.8, 0.8], [0.5, 0.75, 0.95])
    np.testing.assert_allclose(res.congruence_used, [0.7, 0.75, 0.8])
    np.testing.assert_array_equal(res.clamped, [True, False, True])


def test_equal_values_give_exactly_half():
    assert prob_false_claim_classification(100, 0.8, 0.8, 0.7).probability == 0.5
    assert prob_false_claim_segmentation(30, 0.8, 0.8, 0.1, 0.12, 0.6).probability == 0.5


def test_segmentation_formula_by_hand():
    # sd_diff = sqrt(0.01 + 0.01 - 2*0.01*0.5) = 0.1; t = sqrt(25)*(-0.02)/0.1 = -1
    res = prob_false_claim_segmentation(25, 0.82, 0.80, 0.1, 0.1, 0.5)
    assert res.sd_diff == pytest.approx(0.1)
    assert res.statistic == pytest.approx(-1.0)
    from scipy import stats

    assert res.probability == pytest.approx(stats.t.cdf(-1.0, 24))


def test_segmentation_matches_posterior_simulation():
    """Normal model, Jeffreys prior: sigma^2 | s ~ (n-1)s^2/chi2_{n-1}, mu | sigma ~ N(dbar,
    sigma^2/n). P(mu_A - mu_B <= 0) by simulation must match the Student-t formula."""
    n, ma, mb, sa, sb, r = 40, 0.84, 0.82, 0.12, 0.15, 0.67
    s = np.sqrt(sa**2 + sb**2 - 2 * sa * sb * r)
    rng = np.random.default_rng(7)
    k = 400_000
    sigma2 = (n - 1) * s**2 / rng.chisquare(n - 1, size=k)
    mu = rng.normal(ma - mb, np.sqrt(sigma2 / n))
    sim = np.mean(mu <= 0)
    exact = prob_false_claim_segmentation(n, ma, mb, sa, sb, r).probability
    assert abs(sim - exact) < 4 * np.sqrt(exact * (1 - exact) / k)


def test_segmentation_zero_denominator_is_defined():
    res = prob_false_claim_segmentation([10, 10, 10], [0.9, 0.8, 0.8], [0.8, 0.9, 0.8],
                                        0.1, 0.1, 1.0)
    np.testing.assert_array_equal(res.probability, [0.0, 1.0, 0.5])
    np.testing.assert_array_equal(res.degenerate, [True, True, True])


def test_accepts_pandas_series():
    df = pd.DataFrame({"n": [50, 60], "a": [0.9, 0.8], "b": [0.85, 0.79]})
    res = prob_false_claim_classification(df.n, df.a, df.b, 0.67)
    assert res.probability.shape == (2,)


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: prob_false_claim_classification(100, 85.3, 0.8, 0.7), r"acc_a.*\[0, 1\].*85.3"),
        (lambda: prob_false_claim_classification(1, 0.8, 0.7, 0.6), "at least 2"),
        (lambda: prob_false_claim_classification(10, 0.8, 0.7, 1.2), "congruence"),
        (lambda: prob_false_claim_segmentation(10, 0.8, 0.7, -0.1, 0.1, 0.5), "sd_a.*>= 0"),
        (lambda: prob_false_claim_segmentation(10, 0.8, 0.7, 0.1, 0.1, 1.5), r"\[-1, 1\]"),
        (lambda: prob_false_claim_segmentation(10, 0.8, float("nan"), 0.1, 0.1, 0.5), "NaN"),
    ],
)
def test_bad_input_raises_clear_error(call, match):
    with pytest.raises(ValueError, match=match):
        call()


acc = st.floats(0.0, 1.0, allow_nan=False)


@settings(max_examples=150, deadline=None)
@given(n=st.integers(2, 10**6), a=acc, b=acc, c=acc)
def test_classification_properties(n, a, b, c):
    hi, lo = max(a, b), min(a, b)
    p = prob_false_claim_classification(n, hi, lo, c).probability
    assert 0.0 <= p <= 0.5 + 1e-12
    q = prob_false_claim_classification(n, lo, hi, c).probability
    assert p + q == pytest.approx(1.0, abs=1e-9)


@settings(max_examples=150, deadline=None)
@given(n=st.integers(2, 10**5), a=acc, b=acc, sa=st.floats(0, 0.5), sb=st.floats(0, 0.5),
       r=st.floats(-1, 1))
def test_segmentation_properties(n, a, b, sa, sb, r):
    hi, lo = max(a, b), min(a, b)
    p = prob_false_claim_segmentation(n, hi, lo, sa, sb, r).probability
    assert 0.0 <= p <= 0.5
    q = prob_false_claim_segmentation(n, lo, hi, sb, sa, r).probability
    assert p + q == pytest.approx(1.0, abs=1e-9)
