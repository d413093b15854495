"""The best of m classifiers of a small accuracy p ([Mollersen2023], eq. 1-2): 1 - p must not
round p away (p = 1e-300: 1 - p = 1.0, no classifier could ever be right), and the mean best
accuracy must not be n minus a mean number of failures close to n (it cancels to 0). Checked
against the eq. 1-2 distribution in mpmath; each case fails on the code before except the
controls."""

import json

import mpmath
import pytest

from falseclaims.cli import main
from falseclaims.multiplicity.best_of_m import sota_distribution


def _exact(m: int, n: int, p: float) -> tuple:
    """Mean and SD of the best observed accuracy in mpmath: F(z) = 1 - S_z^m with S_z the
    survival of the failures X ~ Binomial(n, 1 - p), summed term by term."""
    with mpmath.workdps(700):  # (1 - 1e-300)^m needs more than 300 digits
        p = mpmath.mpf(p)
        q = 1 - p
        terms = [mpmath.binomial(n, x) * q**x * p**(n - x) for x in range(n + 1)]
        surv = [mpmath.fsum(terms[z + 1:]) for z in range(n + 1)]  # S_z, z = 0..n
        big = [mpmath.mpf(1)] + [s**m for s in surv]  # P(Z > z), z = -1..n
        pmf = [big[z] - big[z + 1] for z in range(n + 1)]
        mean = mpmath.fsum(f * (n - z) for z, f in enumerate(pmf)) / n
        var = mpmath.fsum(f * ((n - z) / mpmath.mpf(n) - mean) ** 2 for z, f in enumerate(pmf))
        return float(mean), float(mpmath.sqrt(var))


@pytest.mark.parametrize("m, n, p", [
    (10**15, 1, 1e-300),  # was mean 0.0, SD 0.0 (the brief's case; true 1e-285)
    (10**15, 3, 1e-300),
    (10**15, 2, 1e-200),
    (3, 10, 1e-20),  # was 0.0: 1 - 1e-20 is 1.0
    (1, 1, 5e-324),  # the smallest double
    (40, 60, 0.01),
    (1000, 200, 0.3),
    (1000, 300, 0.9),  # control: an ordinary accuracy (unchanged)
    (1, 50, 0.5),  # control
])
def test_best_of_m_matches_mpmath(m, n, p):
    d = sota_distribution(m, n, p)
    mean, sd = _exact(m, n, p)
    assert d.mean == pytest.approx(mean, rel=1e-10, abs=0)
    assert d.sd == pytest.approx(sd, rel=1e-8, abs=0)


def test_sota_json_gives_the_small_mean(capsys):
    # was "mean": 0.0 (1 - 1e-300 rounds to 1: no classifier could be right on the one case)
    assert main(["sota", "--m", "1e15", "--n", "1", "--p", "1e-300", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)["result"]
    assert result["mean"] == pytest.approx(1e-285, rel=1e-7, abs=0)  # 8 digits
    assert result["sd"] == pytest.approx(1e-285 ** 0.5, rel=1e-7, abs=0)


def test_groups_of_small_accuracies_keep_every_group():
    # two groups both rounded to a failure probability of 1.0 before: one was dropped as
    # "far worse than the best", halving the mean (m p summed over both groups)
    d = sota_distribution(4, 1, (1e-300, 1e-300, 2e-300, 2e-300))
    assert d.mean == pytest.approx(6e-300, rel=1e-12, abs=0)
