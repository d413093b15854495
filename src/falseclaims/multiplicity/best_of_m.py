"""How optimistic is the best of m classifiers? ([Mollersen2023], `docs/multiplicity.md`).

Møllersen & Holsbø, *What is the state of the art? Accounting for multiplicity in machine
learning benchmark performance* ([Mollersen2023]). m classifiers of true accuracy p are scored on
the same n test cases; X ~ Binomial(n, 1 - p) is one classifier's number of failures with
CDF P_z and survival S_z = 1 - P_z. The best classifier's failures Z have ([Mollersen2023], eq. 1-2)

    F(z) = P(Z <= z) = 1 - S_z^m,     f(z) = S_{z-1}^m - S_z^m,

and the best observed accuracy is (n - Z)/n.

Numerics: nothing is expanded binomially. Everything goes through G(z) = P(Z > z) =
exp(m log S_z), with log S_z = log1p(-P_z) in the lower tail and log(S_z) elsewhere (both
P_z and S_z come from Boost via scipy, accurate to relative precision in their own tail),
and f(z) = G(z-1) * -expm1(m log(S_z / S_{z-1})) with log(S_z/S_{z-1}) = -log1p(p_z/S_z),
so neither (1 - P_z)^m underflow nor 1 - (1 - P_z)^m cancellation loses precision. The
support is restricted to where Z has mass above ~1e-18 (found from binomial quantiles);
the mass left outside is computed and reported (``tail_mass``). Below p = 1/2 the tails
come from the successes n - X ~ Binomial(n, p) instead, since 1 - p rounds a small p away
(p = 1e-300 gives q = 1.0), and the mean accuracy from the successes when Z is mostly
near n (n minus a mean of failures close to n cancels); checked against mpmath in
tests/test_best_of_m_small_accuracy.py.

Non-identical classifiers (an extension beyond [Mollersen2023]): G(z) = prod_j S_j(z), computed as
a sum of logs over the distinct accuracies.

Dependent classifiers ([Mollersen2023], Sec. 4, after [Boland1989]): a reference Y0 with
P(Y0 = 1) = p; each classifier's correctness Y_j has corr(Y_j, Y0) = rho and the Y_j are
independent given Y0, so P(Y_j = 1 | Y0 = 1) = p + rho (1 - p) and
P(Y_j = 1 | Y0 = 0) = p (1 - rho). [Mollersen2023] fixes the reference at exactly k = round(p n)
correct predictions and simulates; given that reference a classifier's failures are
Binomial(k, (1-p)(1-rho)) + Binomial(n-k, 1-p(1-rho)), which the simulation draws directly
(same law as drawing the n Bernoulli variables) and ``dependent_distribution`` evaluates
exactly.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from scipy import stats

# Z-mass left outside the computed support is below this (checked, reported as tail_mass)
_TAIL = 1e-18
# support smaller than this many points is just taken whole
_SMALL_N = 2000
# above this many distinct accuracies, use the recurrence (2 incomplete betas per accuracy)
_MANY_GROUPS = 32


class UpperLimit(NamedTuple):
    """Multiplicity-adjusted upper limit: accuracy, failures and P(best >= accuracy)."""

    accuracy: float
    failures: int
    probability: float


@dataclass(frozen=True)
class BestOfM:
    """Distribution of the best classifier's failures Z (and accuracy (n - Z)/n).

    ``failures`` is the support kept (consecutive integers), ``pmf``/``cdf`` are
    P(Z = z) and P(Z <= z) on it; ``tail_mass`` is the probability outside it.
    """

    m: int
    n: int
    p: float | tuple[float, ...]
    failures: np.ndarray
    pmf: np.ndarray
    cdf: np.ndarray
    tail_mass: float

    @property
    def accuracy(self) -> np.ndarray:
        return (self.n - self.failures) / self.n

    @property
    def mean_failures(self) -> float:
        return float(np.sum(self.pmf * self.failures) / np.sum(self.pmf))

    @property
    def sd_failures(self) -> float:
        w = self.pmf / np.sum(self.pmf)
        d = self.failures - self.mean_failures
        return float(np.sqrt(np.sum(w * d * d)))

    @property
    def mean(self) -> float:
        """Expected best observed accuracy (E p_SOTA in [Mollersen2023]).

        From the failures when they are the fewer, else from the successes n - Z: n minus
        a mean of failures near n would cancel (m = 10^15, n = 1, p = 1e-300: 1e-285, not
        0)."""
        if self.mean_failures <= self.n / 2:
            return (self.n - self.mean_failures) / self.n
        return float(np.sum(self.pmf * (self.n - self.failures)) / np.sum(self.pmf)) / self.n

    @property
    def sd(self) -> float:
        """Standard deviation of the best observed accuracy."""
        return self.sd_failures / self.n

    def _prob_at_most(self, z: int) -> float:
        """P(Z <= z) for any integer z (0 / 1 beyond the kept support)."""
        if z < self.failures[0]:
            return 0.0
        if z > self.failures[-1]:
            return 1.0
        return float(self.cdf[z - self.failures[0]])

    def quantile(self, q: float) -> float:
        """q-quantile of the best observed accuracy: min{a : P(best <= a) >= q}."""
        q = float(q)
        if not 0.0 < q < 1.0:
            raise ValueError(f"quantile level must be in (0, 1); got {q!r}")
        # P(best <= (n - z)/n) = P(Z >= z) = 1 - F(z - 1): largest z with P(Z >= z) >= q
        at_least = 1.0 - np.concatenate(([0.0], self.cdf[:-1]))
        ok = np.nonzero(at_least >= q * (1 - 1e-12))[0]
        z = self.failures[ok[-1]] if ok.size else self.failures[0]
        return float((self.n - z) / self.n)

    def upper(self, alpha: float = 0.05) -> UpperLimit:
        """Multiplicity-adjusted upper limit p^m_{1-alpha/2} ([Mollersen2023], Sec. 3.4).

        The highest accuracy that at least one of the m classifiers still reaches with
        probability >= alpha/2: the smallest z with P(Z <= z) >= alpha/2. For m = 1000,
        n = 3000, p = 0.9 this gives z = 236, accuracy 0.9213, as in
        [Mollersen2023], Secs. 3.4 and 4.
        """
        alpha = float(alpha)
        if not 0.0 < alpha < 1.0:
            raise ValueError(f"alpha must be in (0, 1); got {alpha!r}")
        idx = int(np.searchsorted(self.cdf, alpha / 2 * (1 - 1e-12), side="left"))
        idx = min(idx, self.failures.size - 1)
        z = int(self.failures[idx])
        return UpperLimit((self.n - z) / self.n, z, float(self.cdf[idx]))

    def prob_best_at_least(self, accuracy: float) -> float:
        """P(best observed accuracy >= accuracy)."""
        return self._prob_at_most(_max_failures(accuracy, self.n))


# ---------------------------------------------------------------- single classifier


def _check_n(n) -> int:
    if isinstance(n, bool) or not float(n).is_integer() or int(n) < 1:
        raise ValueError(f"n (test-set size) must be a positive integer; got {n!r}")
    return int(n)


def _check_m(m) -> int:
    if isinstance(m, bool) or not float(m).is_integer() or int(m) < 1:
        raise ValueError(f"m (number of classifiers) must be a positive integer; got {m!r}")
    return int(m)


def _check_prob(p, name="p") -> float:
    p = float(p)
    if not 0.0 <= p <= 1.0 or np.isnan(p):
        raise ValueError(f"{name} (accuracy) must be in [0, 1]; got {p!r}")
    return p


def _max_failures(accuracy: float, n: int) -> int:
    """Largest failure count x with (n - x)/n >= accuracy (tolerant to float rounding)."""
    return int(np.floor(n * (1.0 - float(accuracy)) + 1e-9 * max(1, n)))


def clopper_pearson(k: int, n: int, alpha: float = 0.05) -> tuple[float, float]:
    """Exact (Clopper–Pearson) two-sided 1 - alpha interval for k successes out of n."""
    n = _check_n(n)
    if isinstance(k, bool) or not float(k).is_integer() or not 0 <= int(k) <= n:
        raise ValueError(f"k (successes) must be an integer in [0, n={n}]; got {k!r}")
    k = int(k)
    if not 0.0 < float(alpha) < 1.0:
        raise ValueError(f"alpha must be in (0, 1); got {alpha!r}")
    lo = 0.0 if k == 0 else float(stats.beta.ppf(alpha / 2, k, n - k + 1))
    hi = 1.0 if k == n else float(stats.beta.ppf(1 - alpha / 2, k + 1, n - k))
    return lo, hi


def prob_beats(p: float, n: int, threshold: float, strict: bool = False) -> float:
    """P(observed accuracy >= threshold) (or > if ``strict``) for a classifier of accuracy p.

    [Mollersen2023], Sec. 3.4: a classifier at the single-CI upper limit beats the
    multiplicity-adjusted limit with probability 0.0161 and E p_SOTA with probability 0.0996.
    """
    p, n = _check_prob(p), _check_n(n)
    x = _max_failures(threshold, n)
    if strict and np.isclose((n - x) / n, threshold, rtol=0, atol=1e-9):
        x -= 1
    if x < 0:
        return 0.0
    return float(stats.binom.cdf(x, n, 1.0 - p))


# ---------------------------------------------------------------- core: best of m


def _binom_tails(z, n: int, p) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """P(X <= z), P(X > z) and P(X = z) for the failures X ~ Binomial(n, 1 - p) of a
    classifier of accuracy p. From the failure probability q = 1 - p where that subtraction
    is exact (p >= 1/2, Sterbenz's lemma); else from the successes n - X ~ Binomial(n, p),
    so that a small p is not lost in 1 - p (p = 1e-300: q = 1.0 exactly, no failure-free
    classifier at all)."""
    z, p = np.broadcast_arrays(np.asarray(z), np.asarray(p, dtype=float))
    cdf, sf, pmf = (np.empty(z.shape) for _ in range(3))
    big = p >= 0.5
    cdf[big] = stats.binom.cdf(z[big], n, 1.0 - p[big])
    sf[big] = stats.binom.sf(z[big], n, 1.0 - p[big])
    pmf[big] = stats.binom.pmf(z[big], n, 1.0 - p[big])
    small = ~big
    cdf[small] = stats.binom.sf(n - z[small] - 1, n, p[small])
    sf[small] = stats.binom.cdf(n - z[small] - 1, n, p[small])
    pmf[small] = stats.binom.pmf(n - z[small], n, p[small])
    return cdf, sf, pmf


def _log_survival(z: np.ndarray, n: int, p) -> tuple[np.ndarray, np.ndarray]:
    """log S_z = log P(X > z) and log p_z for the failures X of a classifier of accuracy p
    (:func:`_binom_tails`), accurate in both tails."""
    cdf, sf, pmf = _binom_tails(z, n, p)
    with np.errstate(divide="ignore"):
        log_s = np.where(cdf < 0.5, np.log1p(-np.minimum(cdf, 0.5)), np.log(sf))
        log_pmf = np.log(pmf)
    return log_s, log_pmf


def _log_survival_many(zz: np.ndarray, n: int, q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``_log_survival`` for many failure probabilities q (column vector) on consecutive zz.

    Only two incomplete-beta evaluations per row (P at zz[0]-1, S at zz[-1]); the pmf follows
    from the ratio recurrence p_{z+1}/p_z = (n-z)/(z+1) * q/(1-q) (shared part summed in long
    double), and P_z, S_z from running sums of positive terms (no cancellation).
    Rows need 0 < q < 1.
    """
    q = np.asarray(q, dtype=float).reshape(-1, 1)
    first = max(int(zz[0]), 0)
    zv = np.arange(first, int(zz[-1]) + 1)
    ratio = np.log((n - zv[:-1]).astype(np.longdouble) / (zv[:-1] + 1))
    shared = np.concatenate(([0.0], np.cumsum(ratio, dtype=np.longdouble))).astype(float)
    with np.errstate(divide="ignore"):
        lp0 = np.log(stats.binom.pmf(first, n, q))
        lp0 = np.where(np.isneginf(lp0), stats.binom.logpmf(first, n, q), lp0)
        log_pmf = lp0 + shared[None, :] + (zv - first)[None, :] * (np.log(q) - np.log1p(-q))
        pmf = np.exp(log_pmf)  # terms below 1e-308 do not move P or S at double precision
        cdf = stats.binom.cdf(first - 1, n, q) + np.cumsum(pmf, axis=1)
        sf = stats.binom.sf(zv[-1], n, q) + np.concatenate(
            (np.cumsum(pmf[:, :0:-1], axis=1)[:, ::-1], np.zeros((q.shape[0], 1))), axis=1)
        low = cdf < 0.5
        log_s = np.empty_like(cdf)
        log_s[low] = np.log1p(-cdf[low])
        log_s[~low] = np.log(sf[~low])
    if zz[0] < 0:  # S_{-1} = 1, p_{-1} = 0
        log_s = np.concatenate((np.zeros((q.shape[0], 1)), log_s), axis=1)
        log_pmf = np.concatenate((np.full((q.shape[0], 1), -np.inf), log_pmf), axis=1)
    return log_s, log_pmf


def _log_step(log_s: np.ndarray, log_pmf: np.ndarray) -> np.ndarray:
    """log(S_z / S_{z-1}) = -log1p(p_z / S_z); -inf where S_z = 0."""
    with np.errstate(invalid="ignore", over="ignore"):
        out = -np.logaddexp(0.0, log_pmf - log_s)
    return np.where(np.isneginf(log_s), -np.inf, np.where(np.isneginf(log_pmf), 0.0, out))


def _assemble(m, n, p, z, log_g, log_g_prev0, step) -> BestOfM:
    """Build the result from log G(z) on z, log G(z[0]-1) and log G(z)-log G(z-1)."""
    log_g_prev = np.concatenate(([log_g_prev0], log_g[:-1]))
    with np.errstate(invalid="ignore"):
        pmf = np.exp(log_g_prev) * -np.expm1(step)
    pmf = np.where(np.isneginf(log_g_prev), 0.0, pmf)
    cdf = -np.expm1(log_g)
    tail = float(-np.expm1(log_g_prev0) + np.exp(log_g[-1]))
    return BestOfM(m=m, n=n, p=p, failures=z, pmf=pmf, cdf=cdf, tail_mass=tail)


def _window(n: int, qs: np.ndarray, cs: np.ndarray) -> tuple[int, int]:
    """Failure range [lo, hi] outside which Z has mass below ~_TAIL."""
    if n <= _SMALL_N:
        return 0, n
    m = int(cs.sum())
    # F(lo-1) <= sum_j P_j(lo-1) < _TAIL;  G(hi) <= S_j(hi)^c_j < _TAIL for every group j
    lo = np.nan_to_num(stats.binom.ppf(_TAIL / m, n, qs), nan=0.0).min()
    u = np.exp(np.log(_TAIL) / cs)  # S_j(hi) <= u  =>  S_j(hi)^c_j <= _TAIL
    hi_lower = stats.binom.ppf(-np.expm1(np.log(_TAIL) / cs), n, qs)
    # S_X(n - y) = P(n - X <= y - 1) < u for y = ppf(u) of n - X ~ Bin(n, 1 - q); scipy's
    # binom.isf returns n for levels as small as 1e-18, the ppf of the mirror does not
    hi_upper = n - stats.binom.ppf(u, n, 1.0 - qs)
    hi = np.nan_to_num(np.where(u < 0.5, hi_upper, hi_lower), nan=n).min()
    lo, hi = int(lo), int(hi)
    return max(0, lo - 1), min(n, max(hi + 1, lo))


def _best_of_groups(n: int, ps: np.ndarray, cs: np.ndarray, p_label,
                    block: int = 2_000_000) -> BestOfM:
    """Best of m classifiers in groups (accuracy ps[j], count cs[j])."""
    m = int(cs.sum())
    qs = 1.0 - ps
    lo, hi = _window(n, qs, cs)
    for _ in range(2):
        zz = np.arange(lo - 1, hi + 1)
        # groups far worse than the best barely move G on this window: c P(hi) < 1e-20
        # bounds their effect on log G (relative error of G and of each pmf term)
        keep = cs * _binom_tails(hi, n, ps)[0] >= 1e-20
        keep[np.argmax(ps)] = True
        gp, gc = ps[keep], cs[keep]
        log_g = np.zeros(zz.size)
        step = np.zeros(zz.size - 1)
        rows = max(1, block // zz.size)
        for a in range(0, gp.size, rows):
            p = gp[a:a + rows, None]
            c = gc[a:a + rows, None]
            # the recurrence works on q = 1 - p: only where that is exact and 0 < q < 1
            if gp.size > _MANY_GROUPS and np.all((p >= 0.5) & (p < 1)):
                log_s, log_pmf = _log_survival_many(zz, n, 1.0 - p)
            else:
                log_s, log_pmf = _log_survival(zz[None, :], n, p)
            log_g += (c * log_s).sum(axis=0)
            step += (c * _log_step(log_s[:, 1:], log_pmf[:, 1:])).sum(axis=0)
        res = _assemble(m, n, p_label, zz[1:], log_g[1:], log_g[0], step)
        if res.tail_mass <= 1e-13 or (lo == 0 and hi == n):
            return res
        lo, hi = 0, n  # quantile-based window was too narrow: take everything
    return res  # pragma: no cover


def sota_distribution(m: int, n: int, p) -> BestOfM:
    """Distribution of the best of m independent classifiers on n test cases.

    [Mollersen2023], eq. 1-2.

    ``p`` is one accuracy shared by all m classifiers, or a vector of m accuracies p_j
    (non-identical classifiers: P(Z > z) = prod_j S_j(z), exact).
    """
    m, n = _check_m(m), _check_n(n)
    p_arr = np.asarray(p, dtype=float)
    if p_arr.ndim == 0:
        p_val = _check_prob(p_arr)
        return _best_of_groups(n, np.array([p_val]), np.array([m]), p_val)
    if p_arr.ndim != 1 or p_arr.size != m:
        raise ValueError(f"p must be one accuracy or a vector of m={m} accuracies; "
                         f"got shape {p_arr.shape}")
    for j, pj in enumerate(p_arr):
        _check_prob(pj, name=f"p[{j}]")
    values, counts = np.unique(p_arr, return_counts=True)
    return _best_of_groups(n, values, counts.astype(np.int64),
                           tuple(float(v) for v in p_arr))


# ---------------------------------------------------------------- dependent classifiers


def _check_rho(p: float, rho: float) -> float:
    rho = float(rho)
    lo = -1.0 if p in (0.0, 1.0) else max(-p / (1 - p), -(1 - p) / p)
    if np.isnan(rho) or not lo - 1e-12 <= rho <= 1.0:
        raise ValueError(f"rho must be in [{lo:.4g}, 1] for p={p} (so that the conditional "
                         f"accuracies stay in [0, 1]); got {rho!r}")
    return rho


def _conditional_failure_probs(p: float, rho: float) -> tuple[float, float]:
    """P(Y_j = 0 | Y0 = 1) and P(Y_j = 0 | Y0 = 0) ([Boland1989], [Mollersen2023], Sec. 4)."""
    q_right = min(1.0, max(0.0, (1.0 - p) * (1.0 - rho)))
    q_wrong = min(1.0, max(0.0, 1.0 - p * (1.0 - rho)))
    return q_right, q_wrong


def _reference_correct(n: int, p: float, k) -> int:
    k = round(p * n) if k is None else k
    if isinstance(k, bool) or not float(k).is_integer() or not 0 <= int(k) <= n:
        raise ValueError(f"k (reference correct predictions) must be in [0, {n}]; got {k!r}")
    return int(k)


def dependent_distribution(m: int, n: int, p: float, rho: float, k: int | None = None
                           ) -> BestOfM:
    """Exact best-of-m distribution given a fixed reference with k correct (default round(p n)).

    Given the reference, classifiers are independent with failures A + B,
    A ~ Bin(k, (1-p)(1-rho)), B ~ Bin(n-k, 1-p(1-rho)); the pmf of A + B is a direct
    (non-FFT, tail-accurate) convolution on the supports where each has mass > 1e-30.
    """
    m, n, p = _check_m(m), _check_n(n), _check_prob(p)
    rho = _check_rho(p, rho)
    k = _reference_correct(n, p, k)
    q_right, q_wrong = _conditional_failure_probs(p, rho)

    def piece(size, q):
        if size == 0:
            return 0, np.array([1.0])
        lo = int(stats.binom.ppf(1e-30, size, q)) if size > _SMALL_N else 0
        hi = int(stats.binom.isf(1e-30, size, q)) + 1 if size > _SMALL_N else size
        lo, hi = max(0, lo - 1), min(size, hi)
        return lo, stats.binom.pmf(np.arange(lo, hi + 1), size, q)

    lo_a, pa = piece(k, q_right)
    lo_b, pb = piece(n - k, q_wrong)
    pmf_x = np.convolve(pa, pb)
    z = np.arange(lo_a + lo_b, lo_a + lo_b + pmf_x.size)
    # lower tail from cumsum (accurate where small), upper from reversed cumsum
    cdf_x = np.cumsum(pmf_x)
    sf_x = np.concatenate((np.cumsum(pmf_x[::-1])[::-1][1:], [0.0]))
    with np.errstate(divide="ignore"):
        log_s = np.where(cdf_x < 0.5, np.log1p(-np.minimum(cdf_x, 0.5)), np.log(sf_x))
        log_pmf = np.log(pmf_x)
    log_g = m * log_s
    step = m * _log_step(log_s, log_pmf)
    # P(X < z[0]) is 0 or below the 1e-30 truncation, so log G(z[0] - 1) = 0
    res = _assemble(m, n, p, z, log_g, 0.0, step)
    # trim to where Z has mass (keeps arrays small for large n)
    keep = np.nonzero(res.pmf > 1e-300)[0]
    if keep.size:
        a, b = keep[0], keep[-1] + 1
        res = BestOfM(m=m, n=n, p=p, failures=res.failures[a:b], pmf=res.pmf[a:b],
                      cdf=res.cdf[a:b],
                      tail_mass=float(res.tail_mass + res.pmf[:a].sum() + res.pmf[b:].sum()))
    return res


@dataclass(frozen=True)
class SimulatedBest:
    """Simulated best-of-m failures, one per replicate ([Mollersen2023], Sec. 4, Fig 5)."""

    m: int
    n: int
    p: float
    rho: float
    reference: str
    failures: np.ndarray

    @property
    def accuracy(self) -> np.ndarray:
        return (self.n - self.failures) / self.n

    @property
    def mean(self) -> float:
        return float(np.mean(self.accuracy))

    @property
    def sd(self) -> float:
        return float(np.std(self.accuracy, ddof=1)) if self.failures.size > 1 else 0.0

    def pmf(self) -> tuple[np.ndarray, np.ndarray]:
        """(failure values, relative frequencies) over the observed range."""
        lo, hi = int(self.failures.min()), int(self.failures.max())
        counts = np.bincount(self.failures - lo, minlength=hi - lo + 1)
        return np.arange(lo, hi + 1), counts / counts.sum()

    def upper(self, alpha: float = 0.05) -> UpperLimit:
        """Empirical counterpart of ``BestOfM.upper``: smallest z with share(Z <= z) >= alpha/2."""
        z, f = self.pmf()
        cdf = np.cumsum(f)
        idx = min(int(np.searchsorted(cdf, alpha / 2 * (1 - 1e-12))), z.size - 1)
        return UpperLimit((self.n - int(z[idx])) / self.n, int(z[idx]), float(cdf[idx]))


def simulate_dependent(m: int, n: int, p: float, rho: float, reps: int, seed,
                       reference: str = "fixed", k: int | None = None,
                       chunk: int = 4_000_000) -> SimulatedBest:
    """Simulate the best of m classifiers correlated rho with a common reference Y0.

    ``reference="fixed"`` ([Mollersen2023], Sec. 4): Y0 has exactly k = round(p n) correct
    predictions;
    ``"random"``: Y0 ~ Bernoulli(p) per case, redrawn each replicate. With rho = 0 the
    reference does not matter and each classifier's failures are one Bin(n, 1 - p) draw.
    ``seed`` goes to
    ``np.random.default_rng`` (an int or a sequence of ints). Work is done in chunks of about
    ``chunk`` binomial draws.
    """
    m, n, p = _check_m(m), _check_n(n), _check_prob(p)
    rho = _check_rho(p, rho)
    if isinstance(reps, bool) or not float(reps).is_integer() or int(reps) < 1:
        raise ValueError(f"reps must be a positive integer; got {reps!r}")
    reps = int(reps)
    if reference not in ("fixed", "random"):
        raise ValueError(f"reference must be 'fixed' or 'random'; got {reference!r}")
    k_fixed = _reference_correct(n, p, k)
    rng = np.random.default_rng(seed)
    out = np.empty(reps, dtype=np.int64)
    per = max(1, chunk // m)
    for start in range(0, reps, per):
        r = min(per, reps - start)
        out[start:start + r] = draw_failures(rng, r, m, n, p, rho, reference, k_fixed).min(axis=1)
    return SimulatedBest(m=m, n=n, p=p, rho=rho, reference=reference, failures=out)


def draw_failures(rng, reps: int, m: int, n: int, p: float, rho: float, reference: str,
                  k_fixed: int) -> np.ndarray:
    """Failures of each of m classifiers in ``reps`` replicates, shape (reps, m).

    The draws of :func:`simulate_dependent` (its best is the row minimum); one replicate
    is [Mollersen2023], Fig 4.
    """
    q_right, q_wrong = _conditional_failure_probs(p, rho)
    if q_right == q_wrong:
        # independent of the reference (rho = 0): failures ~ Bin(n, q), one draw per
        # classifier instead of two (a sum of two binomials with equal q, same law)
        return rng.binomial(n, q_right, size=(reps, m))
    if reference == "fixed":
        kk = np.full((reps, 1), k_fixed)
    else:
        kk = rng.binomial(n, p, size=(reps, 1))
    return rng.binomial(kk, q_right, size=(reps, m)) + rng.binomial(n - kk, q_wrong,
                                                                     size=(reps, m))
