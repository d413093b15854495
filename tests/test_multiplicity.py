"""Best of m classifiers ([Mollersen2023]): exact distribution vs enumeration, mpmath, simulation,
and the published numbers of [Mollersen2023] (coin flips Sec. 3.2, Sec. 3.4, Table 1, Sec. 4)."""

from __future__ import annotations

import itertools
import json

import mpmath
import numpy as np
import pytest
from scipy import stats

import falseclaims.multiplicity.best_of_m as mult
from falseclaims.cli import main
from falseclaims.multiplicity.best_of_m import (
    clopper_pearson,
    dependent_distribution,
    prob_beats,
    simulate_dependent,
    sota_distribution,
)


def brute_force_pmf(m, n, p):
    """Enumerate all (n+1)^m failure-count tuples with their probabilities."""
    ps = np.broadcast_to(np.asarray(p, dtype=float), (m,))
    singles = [stats.binom.pmf(np.arange(n + 1), n, 1 - pj) for pj in ps]
    out = np.zeros(n + 1)
    for combo in itertools.product(range(n + 1), repeat=m):
        out[min(combo)] += np.prod([singles[j][x] for j, x in enumerate(combo)])
    return out


def full_pmf(dist):
    out = np.zeros(dist.n + 1)
    out[dist.failures] = dist.pmf
    return out


@pytest.mark.parametrize("m,n,p", [(1, 5, 0.7), (2, 4, 0.5), (3, 5, 0.9), (4, 3, 0.2),
                                   (3, 6, 0.999)])
def test_matches_enumeration(m, n, p):
    np.testing.assert_allclose(full_pmf(sota_distribution(m, n, p)), brute_force_pmf(m, n, p),
                               rtol=1e-12, atol=1e-15)


def test_nonidentical_matches_enumeration():
    ps = [0.6, 0.75, 0.9]
    np.testing.assert_allclose(full_pmf(sota_distribution(3, 5, ps)),
                               brute_force_pmf(3, 5, ps), rtol=1e-12, atol=1e-15)


def test_nonidentical_equal_p_reduces_to_identical():
    a = sota_distribution(40, 3000, [0.9] * 40)
    b = sota_distribution(40, 3000, 0.9)
    np.testing.assert_array_equal(a.failures, b.failures)
    np.testing.assert_allclose(a.pmf, b.pmf, rtol=1e-13, atol=1e-300)


def test_many_distinct_accuracies_recurrence_matches_direct(monkeypatch):
    ps = np.random.default_rng(1).uniform(0.85, 0.9, 200)
    fast = sota_distribution(200, 3000, ps)  # > _MANY_GROUPS: recurrence path
    monkeypatch.setattr(mult, "_MANY_GROUPS", 10**9)
    direct = sota_distribution(200, 3000, ps)
    np.testing.assert_array_equal(fast.failures, direct.failures)
    big = direct.pmf > 1e-200
    np.testing.assert_allclose(fast.pmf[big], direct.pmf[big], rtol=1e-9)
    assert abs(fast.mean - direct.mean) < 1e-14


@pytest.mark.parametrize("m,n,p", [(10**5, 40, 0.99), (10**4, 30, 0.5), (7, 60, 0.2)])
def test_extreme_tails_against_mpmath(m, n, p):
    """Relative accuracy where (1 - P_z)^m underflows or 1 - (1 - P_z)^m cancels."""
    mpmath.mp.dps = 60
    q = mpmath.mpf(float(1 - p))  # the library works with the double 1 - p
    pmf_x = [mpmath.binomial(n, x) * q**x * (1 - q) ** (n - x) for x in range(n + 1)]
    surv = [mpmath.mpf(1) - mpmath.fsum(pmf_x[: z + 1]) for z in range(n + 1)]
    exact = []
    for z in range(n + 1):
        prev = mpmath.mpf(1) if z == 0 else surv[z - 1]
        exact.append(prev**m - surv[z] ** m)
    dist = sota_distribution(m, n, p)
    got = full_pmf(dist)
    for z in range(n + 1):
        e = float(exact[z])
        if e > 1e-290:
            assert got[z] == pytest.approx(e, rel=1e-10), (z, got[z], e)
    assert abs(dist.pmf.sum() - 1) < 1e-12


@pytest.mark.parametrize("m,n,p", [(10**5, 10**6, 0.9), (1, 10**6, 0.5), (1000, 3000, 0.9),
                                   (10**5, 10**6, 1 - 1e-6), (2, 5000, 0.999)])
def test_pmf_sums_to_one_and_support_is_small(m, n, p):
    d = sota_distribution(m, n, p)
    assert abs(d.pmf.sum() - 1) < 1e-12
    assert d.tail_mass < 1e-13
    assert np.all(d.pmf >= 0) and np.all(np.diff(d.cdf) >= -1e-15)
    assert d.failures.size < 20_000


def test_degenerate_accuracies():
    assert sota_distribution(5, 100, 1.0).mean == 1.0
    assert sota_distribution(5, 100, 0.0).mean == 0.0
    assert sota_distribution(1, 1, 0.3).mean == pytest.approx(0.3)


def test_against_simulation_moderate():
    m, n, p, reps = 200, 500, 0.8, 20_000
    rng = np.random.default_rng(11)
    best = rng.binomial(n, 1 - p, size=(reps, m)).min(axis=1)
    d = sota_distribution(m, n, p)
    sim_mean = np.mean((n - best) / n)
    se = np.std((n - best) / n) / np.sqrt(reps)
    assert abs(d.mean - sim_mean) < 4 * se
    assert d.sd == pytest.approx(np.std((n - best) / n), rel=0.03)
    # chi-square style check of the whole pmf on well-populated cells
    vals, counts = np.unique(best, return_counts=True)
    expected = reps * d.pmf[np.searchsorted(d.failures, vals)]
    ok = expected > 20
    chi2 = np.sum((counts[ok] - expected[ok]) ** 2 / expected[ok])
    assert stats.chi2.sf(chi2, ok.sum() - 1) > 1e-3


def test_coin_flip_example_seed003_s3_2():
    # [Mollersen2023], Sec. 3.2: 20 fair flips, one experiment: P(>= 15 heads) = 0.02
    assert prob_beats(0.5, 20, 15 / 20) == pytest.approx(0.0207, abs=5e-4)
    assert round(prob_beats(0.5, 20, 15 / 20), 2) == 0.02
    # ... performed 1000 times: "close to 1"
    assert sota_distribution(1000, 20, 0.5).prob_best_at_least(0.75) > 0.99999999
    # 1000 coin-flip classifiers: P(at least one reaches accuracy 0.9) = 0.18
    p18 = sota_distribution(1000, 20, 0.5).prob_best_at_least(0.9)
    assert round(p18, 2) == 0.18
    assert p18 == pytest.approx(1 - (1 - 211 / 2**20) ** 1000, rel=1e-12)  # hand count


def test_seed003_s3_4_worked_example():
    d = sota_distribution(1000, 3000, 0.9)
    lo, hi = clopper_pearson(2700, 3000)
    assert (round(lo, 4), round(hi, 4)) == (0.8887, 0.9105)
    up = d.upper(0.05)
    assert up.failures == 236 and round(up.accuracy, 4) == 0.9213
    assert round(d.mean, 4) == 0.9173 and round(d.sd, 6) == 0.001817
    # P(p_hat beyond p^m | p = p_{1-a/2}) = 0.0161 (strictly above) and
    # P(p_hat >= E p_SOTA | p = p_{1-a/2}) = 0.0996
    assert round(prob_beats(hi, 3000, up.accuracy, strict=True), 4) == 0.0161
    assert round(prob_beats(hi, 3000, d.mean), 4) == 0.0996


@pytest.mark.parametrize("m,n,p,mean,sd", [
    (1000, 3000, 0.85, 0.8707, 0.002197), (1000, 3000, 0.90, 0.9173, 0.001817),
    (1000, 3000, 0.95, 0.9624, 0.001277), (100, 3000, 0.90, 0.9135, 0.002250),
    (500, 3000, 0.90, 0.9163, 0.001923), (1000, 1000, 0.90, 0.9294, 0.003007),
    (1000, 10000, 0.90, 0.9096, 0.001022)])
def test_seed003_table1(m, n, p, mean, sd):
    d = sota_distribution(m, n, p)
    assert round(d.mean, 4) == mean
    assert d.sd == pytest.approx(sd, abs=6e-7)


def test_quantile_and_upper_consistent():
    d = sota_distribution(50, 200, 0.7)
    assert d.quantile(0.5) >= 0.7
    # quantile(1 - a/2) is the accuracy one failure above the adjusted limit's convention
    z_q = round(200 - 200 * d.quantile(0.975))
    assert 1 - d.cdf[np.searchsorted(d.failures, z_q) - 1] >= 0.975
    up = d.upper(0.05)
    assert up.probability >= 0.025
    assert d.cdf[np.searchsorted(d.failures, up.failures) - 1] < 0.025
    with pytest.raises(ValueError):
        d.quantile(1.5)


@pytest.mark.parametrize("k,n", [(0, 10), (10, 10), (7, 10), (2700, 3000), (1, 500)])
def test_clopper_pearson_vs_scipy(k, n):
    ci = stats.binomtest(k, n).proportion_ci(0.95, method="exact")
    assert clopper_pearson(k, n) == pytest.approx((ci.low, ci.high), abs=1e-12)


def test_bad_inputs_raise():
    for args in [(0, 10, 0.5), (3, 0, 0.5), (3, 10, 1.5), (2.5, 10, 0.5), (3, 10, [0.5, 0.6])]:
        with pytest.raises(ValueError):
            sota_distribution(*args)
    with pytest.raises(ValueError):
        clopper_pearson(11, 10)
    with pytest.raises(ValueError, match="rho"):
        simulate_dependent(10, 100, 0.9, -0.5, 10, 1)


def test_dependent_limits_and_seed003_s4():
    # rho = 1: every classifier copies the reference, best failures = n - k
    s = simulate_dependent(20, 300, 0.9, 1.0, 50, seed=1)
    assert np.all(s.failures == 30)
    # rho = 0 simulation follows the exact independent distribution
    s0 = simulate_dependent(100, 400, 0.85, 0.0, 4000, seed=[5, 3])
    d0 = sota_distribution(100, 400, 0.85)
    assert abs(s0.mean - d0.mean) < 4 * d0.sd / np.sqrt(4000)
    assert s0.sd == pytest.approx(d0.sd, rel=0.06)
    # and its frequencies the exact pmf (chi-square over cells with >= 5 expected, p > 1e-4)
    z, freq = s0.pmf()
    expected = 4000 * np.interp(z, d0.failures, d0.pmf, left=0, right=0)
    keep = expected >= 5
    chi2 = np.sum((freq[keep] * 4000 - expected[keep]) ** 2 / expected[keep])
    assert stats.chi2.sf(chi2, keep.sum() - 1) > 1e-4
    # [Mollersen2023], Sec. 4: m=1000, n=3000, p=0.9, rho=0.6: adjusted upper limit 0.9173 at x=248
    d = dependent_distribution(1000, 3000, 0.9, 0.6)
    assert d.upper(0.05).failures == 248
    assert round(d.upper(0.05).accuracy, 4) == 0.9173
    assert d.sd < sota_distribution(1000, 3000, 0.9).sd  # dependence shrinks the spread


def test_dependent_simulation_matches_exact_and_is_seeded():
    m, n, p, rho, reps = 200, 1000, 0.85, 0.5, 3000
    a = simulate_dependent(m, n, p, rho, reps, seed=7)
    np.testing.assert_array_equal(a.failures, simulate_dependent(m, n, p, rho, reps, 7).failures)
    assert not np.array_equal(a.failures, simulate_dependent(m, n, p, rho, reps, 8).failures)
    small_chunks = simulate_dependent(m, n, p, rho, reps, seed=7, chunk=10_000)
    assert abs(small_chunks.mean - a.mean) < 6 * a.sd / np.sqrt(reps)
    d = dependent_distribution(m, n, p, rho)
    assert abs(a.mean - d.mean) < 4 * d.sd / np.sqrt(reps)
    assert a.sd == pytest.approx(d.sd, rel=0.06)
    # dependent exact given the reference reduces to independent at rho = 0
    np.testing.assert_allclose(full_pmf(dependent_distribution(30, 80, 0.7, 0.0)),
                               full_pmf(sota_distribution(30, 80, 0.7)), atol=1e-13)


def test_random_reference_runs():
    s = simulate_dependent(50, 200, 0.8, 0.3, 500, seed=2, reference="random")
    assert s.failures.shape == (500,) and 0.8 < s.mean < 1.0


def test_cli_json(capsys):
    assert main(["sota", "--m", "1000", "--n", "3000", "--p", "0.9", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)["result"]
    assert set(out) == {"m", "n", "p", "mean", "sd", "ci_single", "upper_multiplicity",
                        "failures_at_upper"}
    assert out["failures_at_upper"] == 236 and round(out["mean"], 4) == 0.9173
    assert [round(v, 4) for v in out["ci_single"]] == [0.8887, 0.9105]


def test_cli_text_and_errors(capsys):
    assert main(["sota", "--m", "10", "--n", "100", "--p", "0.8"]) == 0
    assert "expected best observed accuracy" in capsys.readouterr().out
    for bad in (["--m", "0", "--n", "10", "--p", "0.5"], ["--m", "3", "--n", "10", "--p", "2"],
                ["--m", "3", "--n", "10", "--p", "0.5", "--alpha", "1"]):
        assert main(["sota", *bad]) == 2
        err = capsys.readouterr().err.strip()
        assert err.startswith("falseclaims sota: error:") and "\n" not in err
