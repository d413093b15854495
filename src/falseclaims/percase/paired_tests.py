"""Classical paired tests for two methods evaluated on the same cases ([Rainio2024]).

Every test returns a :class:`TestResult` (statistic, p-value, the assumption it needs, a
note); :func:`classification_tests` and :func:`segmentation_tests` bundle the tests that
apply to a task and :func:`as_table` turns them into one tidy DataFrame (pingouin-style,
one row per test). All p-values are two-sided.

Conventions: ``x`` are method A's per-case values, ``y`` method B's; differences are
``x - y``. For classification ``b`` counts cases only A got right, ``c`` cases only B got
right (the discordant pairs of the 2x2 agreement table).
"""

from __future__ import annotations

import warnings
from dataclasses import asdict, dataclass

import numpy as np
import pandas as pd
from scipy import stats

__all__ = [
    "TestResult",
    "agreement_table",
    "as_table",
    "bartlett",
    "classification_tests",
    "f_test_variances",
    "levene",
    "mcnemar_chi2",
    "mcnemar_exact",
    "mcnemar_midp",
    "mcnemar_per_class",
    "paired_t",
    "pitman_morgan",
    "recommend",
    "segmentation_tests",
    "shapiro_differences",
    "sign_test",
    "wilcoxon",
    "TEST_LABELS",
    "label_of",
    "labels_for",
]

# default of claim_check.large_n: above this many paired cases the t-test is not
# second-guessed from Shapiro-Wilk: the mean difference is then close to normal (CLT) and
# Shapiro-Wilk flags departures too small to matter (docs/percase.md)
LARGE_N = 1000

OVERALL_MCNEMAR = ("mcnemar_exact", "mcnemar_midp", "mcnemar_chi2")

# human-readable names of the tests (reports and text output)
TEST_LABELS = {
    "mcnemar_sensitivity": "McNemar, sensitivity (among positives)",
    "mcnemar_specificity": "McNemar, specificity (among negatives)",
    "mcnemar_exact": "McNemar exact, overall accuracy",
    "mcnemar_midp": "McNemar mid-p, overall accuracy",
    "mcnemar_chi2": "McNemar chi-square, overall accuracy",
    "sign_test": "Sign test",
    "paired_t": "Paired t-test",
    "wilcoxon": "Wilcoxon signed-rank",
    "shapiro_wilk": "Shapiro–Wilk (normality of differences)",
    "f_test": "F-test (equal variances)",
    "bartlett": "Bartlett (equal variances)",
    "levene": "Levene (equal variances)",
    "pitman_morgan": "Pitman–Morgan (equal variances, paired)",
    "delong": "DeLong (AUC)",
}


def label_of(name: str) -> str:
    """The human-readable name of a test identifier (the identifier if unknown)."""
    return TEST_LABELS.get(name, name)


def labels_for(results: list[TestResult]) -> list[str]:
    """Labels of a list of tests; next to McNemar on sensitivity and specificity the
    overall-accuracy tests are marked as extras ([Rainio2024])."""
    per_class = any(r.test == "mcnemar_sensitivity" for r in results)
    return [label_of(r.test) + (" (extra)" if per_class and r.test in OVERALL_MCNEMAR else "")
            for r in results]


@dataclass(frozen=True)
class TestResult:
    test: str
    statistic: float
    pvalue: float
    assumption: str
    note: str = ""
    n: int | None = None  # observations that inform the test (e.g. discordant pairs)
    # per-class McNemar: the continuity-corrected chi-square shown beside the exact p-value
    chi2_statistic: float | None = None
    chi2_pvalue: float | None = None

    def as_dict(self) -> dict:
        return asdict(self)


def paired_arrays(x, y) -> tuple[np.ndarray, np.ndarray]:
    """x and y as 1-D float arrays of one length, finite, at least 2 cases (else ValueError)."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    if x.ndim != 1 or x.shape != y.shape:
        raise ValueError(f"paired values must be 1-D of equal length; got {x.shape} and {y.shape}")
    if not (np.isfinite(x).all() and np.isfinite(y).all()):
        raise ValueError("paired values contain NaN or infinite entries")
    if x.size < 2:
        raise ValueError(f"need at least 2 paired cases; got {x.size}")
    return x, y


def _counts(b, c) -> tuple[int, int]:
    out = []
    for name, v in (("b", b), ("c", c)):
        if int(v) != v or v < 0:
            raise ValueError(f"discordant count {name} must be a non-negative integer; got {v!r}")
        out.append(int(v))
    return out[0], out[1]


# ---------------------------------------------------------------- classification
def agreement_table(correct_a, correct_b) -> pd.DataFrame:
    """2x2 table of per-case correctness: rows A correct/wrong, columns B correct/wrong."""
    a = np.asarray(correct_a, dtype=bool)
    b = np.asarray(correct_b, dtype=bool)
    if a.shape != b.shape:
        raise ValueError("correctness vectors must have equal length")
    counts = [[int((a & b).sum()), int((a & ~b).sum())], [int((~a & b).sum()), int((~a & ~b).sum())]]
    return pd.DataFrame(counts, index=["A correct", "A wrong"], columns=["B correct", "B wrong"])


def mcnemar_exact(b, c) -> TestResult:
    """Exact McNemar test: under H0 the b of b + c discordant pairs are Binomial(b+c, 1/2).

    The statistic is min(b, c) (as in statsmodels); p = min(1, 2 P(X <= min(b, c))).
    """
    b, c = _counts(b, c)
    n, k = b + c, min(b, c)
    p = 1.0 if n == 0 else min(1.0, 2.0 * stats.binom.cdf(k, n, 0.5))
    return TestResult("mcnemar_exact", float(k), float(p),
                      "independent cases; only discordant pairs inform the test",
                      f"b={b} (only A correct), c={c} (only B correct)", n)


def mcnemar_midp(b, c) -> TestResult:
    """Mid-p McNemar: the exact p-value minus the point probability of the observed table.

    Less conservative than the exact test with close to nominal size (Fagerland, Lydersen
    & Laake 2013, BMC Med Res Methodol 13:91).
    """
    b, c = _counts(b, c)
    n, k = b + c, min(b, c)
    if n == 0:
        p = 1.0
    else:
        p = 2.0 * stats.binom.cdf(k, n, 0.5) - stats.binom.pmf(k, n, 0.5)
        p = min(1.0, p)
    return TestResult("mcnemar_midp", float(k), float(p),
                      "independent cases; only discordant pairs inform the test",
                      "exact p minus the probability of the observed table", n)


def mcnemar_chi2(b, c) -> TestResult:
    """Asymptotic McNemar with continuity correction, (|b - c| - 1)^2 / (b + c) ~ chi2(1).

    [Rainio2024]: use it only when b + c >= 20, the exact test otherwise.
    """
    b, c = _counts(b, c)
    n = b + c
    if n == 0:
        return TestResult("mcnemar_chi2", 0.0, 1.0, "b + c >= 20 (chi-square approximation)",
                          "no discordant pairs", 0)
    stat = (abs(b - c) - 1.0) ** 2 / n if abs(b - c) >= 1 else 0.0
    note = "" if n >= 20 else f"b + c = {n} < 20: use the exact or mid-p test"
    return TestResult("mcnemar_chi2", float(stat), float(stats.chi2.sf(stat, 1)),
                      "b + c >= 20 (chi-square approximation)", note, n)


def mcnemar_per_class(correct_a, correct_b, truth, positive) -> list[TestResult]:
    """McNemar's test on sensitivity (cases of class ``positive``) and on specificity (the
    other cases) separately, as [Rainio2024] advises for binary classification (comparing
    overall accuracy mixes the two error types). Within each class b and c count the cases
    only A / only B got right. The p-value is the exact binomial test at any b + c: it is
    the default of statsmodels' ``mcnemar``, which [Rainio2024] uses, and it reproduces the
    tutorial's published p-values; the continuity-corrected chi-square (which the tutorial's
    text states for b + c >= 20) is carried beside it (``chi2_statistic``,
    ``chi2_pvalue``)."""
    a = np.asarray(correct_a, dtype=bool)
    b_ = np.asarray(correct_b, dtype=bool)
    t = np.asarray(truth).astype(str)
    if not a.shape == b_.shape == t.shape:
        raise ValueError("correctness and ground truth must have equal length")
    classes = sorted(set(t))
    if len(classes) != 2 or str(positive) not in classes:
        raise ValueError(f"per-class McNemar needs binary ground truth containing the positive "
                         f"class {positive!r}; got classes {classes[:10]}")
    out = []
    for name, rate, sel in (("mcnemar_sensitivity", "sensitivity", t == str(positive)),
                            ("mcnemar_specificity", "specificity", t != str(positive))):
        b = int((a[sel] & ~b_[sel]).sum())
        c = int((~a[sel] & b_[sel]).sum())
        exact, chi2 = mcnemar_exact(b, c), mcnemar_chi2(b, c)
        cls = str(positive) if rate == "sensitivity" else ", ".join(
            x for x in classes if x != str(positive))
        small = "" if b + c >= 20 else " (b + c < 20: the chi-square is unreliable)"
        out.append(TestResult(
            name, exact.statistic, exact.pvalue,
            "independent cases; only discordant pairs of the class inform the test",
            f"{rate} of A {a[sel].mean():.4f} vs B {b_[sel].mean():.4f} on {int(sel.sum())} "
            f"cases of class {cls}; b={b}, c={c}; exact binomial p, continuity-corrected "
            f"chi-square beside it{small}", b + c,
            chi2_statistic=chi2.statistic, chi2_pvalue=chi2.pvalue))
    return out


# ---------------------------------------------------------------- per-case scores
def sign_test(x, y) -> TestResult:
    """Sign test: the number of cases where A beats B is Binomial(n_nonzero, 1/2) under H0.

    Ties (zero differences) are dropped. Statistic: the number of positive differences.
    On 0/1 correctness it equals the exact McNemar test.
    """
    x, y = paired_arrays(x, y)
    d = x - y
    pos, neg = int((d > 0).sum()), int((d < 0).sum())
    n = pos + neg
    p = 1.0 if n == 0 else float(stats.binomtest(pos, n, 0.5).pvalue)
    return TestResult("sign_test", float(pos), p,
                      "independent cases; no distributional assumption (low power)",
                      f"{pos} cases A > B, {neg} cases A < B, {d.size - n} ties dropped", n)


# differences equal but for float rounding (0.51 - 0.41 vs 0.50 - 0.40) are constant: scipy
# would warn of "catastrophic cancellation" on stderr and return a meaningless t
CONSTANT_SPREAD = 1e-12


def paired_t(x, y) -> TestResult:
    """Paired t-test of mean difference 0 (scipy.stats.ttest_rel)."""
    x, y = paired_arrays(x, y)
    d = x - y
    if np.ptp(d) <= CONSTANT_SPREAD:
        return TestResult("paired_t", float("nan"), float("nan"),
                          "normally distributed differences, no strong outliers",
                          "not computed: all differences are equal, so their SD is 0 and t "
                          "is undefined")
    res = stats.ttest_rel(x, y)
    return TestResult("paired_t", float(res.statistic), float(res.pvalue),
                      "normally distributed differences, no strong outliers",
                      f"df={d.size - 1}", int(d.size))


def wilcoxon(x, y) -> TestResult:
    """Wilcoxon signed-rank test (scipy.stats.wilcoxon, zero differences dropped).

    Statistic: the smaller of the positive- and negative-rank sums (scipy's two-sided T).
    """
    x, y = paired_arrays(x, y)
    d = x - y
    nz = int((d != 0).sum())
    if nz == 0:
        return TestResult("wilcoxon", float("nan"), float("nan"),
                          "differences symmetric about their median",
                          "not computed: all differences are zero")
    res = stats.wilcoxon(x, y, zero_method="wilcox")
    return TestResult("wilcoxon", float(res.statistic), float(res.pvalue),
                      "differences symmetric about their median",
                      f"{nz} non-zero differences", nz)


def shapiro_differences(x, y) -> TestResult:
    """Shapiro-Wilk normality test of the paired differences (checks the t-test's assumption)."""
    x, y = paired_arrays(x, y)
    d = x - y
    if d.size < 3 or np.ptp(d) <= CONSTANT_SPREAD:
        return TestResult("shapiro_wilk", float("nan"), float("nan"), "n >= 3",
                          "not computed: fewer than 3 or constant differences")
    with warnings.catch_warnings():  # n > 5000: said in the note instead
        warnings.filterwarnings("ignore", message=".*computed p-value may not be accurate")
        res = stats.shapiro(d)
    note = "H0: differences are normal"
    if d.size > 5000:
        note += "; n > 5000: p-value approximate"
    return TestResult("shapiro_wilk", float(res.statistic), float(res.pvalue), "n >= 3", note,
                      int(d.size))


def f_test_variances(x, y) -> TestResult:
    """F = s_A^2 / s_B^2 against F(n-1, n-1), two-sided ([Rainio2024]).

    Assumes two independent normal samples; paired values violate independence, see
    :func:`pitman_morgan` for the paired version.
    """
    x, y = paired_arrays(x, y)
    va, vb = np.var(x, ddof=1), np.var(y, ddof=1)
    df = x.size - 1
    if np.ptp(x) == 0 or np.ptp(y) == 0:  # exact: np.var of equal floats can be 1e-33
        return TestResult("f_test", float("nan"), float("nan"),
                          "independent normal samples",
                          "not computed: a method's values are constant (variance 0)")
    f = va / vb
    p = min(1.0, 2.0 * min(stats.f.cdf(f, df, df), stats.f.sf(f, df, df)))
    return TestResult("f_test", float(f), float(p), "independent normal samples",
                      "ignores the pairing")


def bartlett(x, y) -> TestResult:
    """Bartlett's test of equal variances (scipy.stats.bartlett); normal-theory like F."""
    x, y = paired_arrays(x, y)
    if np.ptp(x) == 0 or np.ptp(y) == 0:
        return TestResult("bartlett", float("nan"), float("nan"),
                          "independent normal samples",
                          "not computed: a method's values are constant (variance 0)")
    res = stats.bartlett(x, y)
    return TestResult("bartlett", float(res.statistic), float(res.pvalue),
                      "independent normal samples", "ignores the pairing")


def levene(x, y) -> TestResult:
    """Levene's test with median centring (Brown-Forsythe), robust to non-normality."""
    x, y = paired_arrays(x, y)
    assumption = "independent samples; robust to non-normality"
    dev = [np.abs(v - np.median(v)) for v in (x, y)]
    if np.ptp(dev[0]) == 0 and np.ptp(dev[1]) == 0:
        return TestResult("levene", float("nan"), float("nan"), assumption,
                          "not computed: the absolute deviations from the median are constant "
                          "within both methods, so Levene's F is undefined")
    res = stats.levene(x, y, center="median")
    stat, p = float(res.statistic), float(res.pvalue)
    return TestResult("levene", stat, p, assumption,
                      "median-centred (Brown-Forsythe); ignores the pairing")


def pitman_morgan(x, y) -> TestResult:
    """Pitman-Morgan test of equal variances for *paired* samples.

    Var(x) = Var(y) iff corr(x + y, x - y) = 0, tested with t = r sqrt(n-2)/sqrt(1-r^2)
    on n - 2 df (Pitman 1939, Morgan 1939).
    """
    x, y = paired_arrays(x, y)
    n = x.size
    s, d = x + y, x - y
    if np.ptp(x) == 0 or np.ptp(y) == 0:
        return TestResult("pitman_morgan", float("nan"), float("nan"), "bivariate normal pairs",
                          "not computed: " + ("A" if np.ptp(x) == 0 else "B") + "'s values are "
                          "constant (variance 0), so the variances differ trivially")
    if n < 3 or np.ptp(s) == 0 or np.ptp(d) == 0:
        return TestResult("pitman_morgan", float("nan"), float("nan"),
                          "bivariate normal pairs",
                          "not computed: too few cases or constant sums/differences")
    r = float(np.corrcoef(s, d)[0, 1])
    r = max(min(r, 1.0), -1.0)
    if abs(r) == 1.0:
        return TestResult("pitman_morgan", float(np.sign(r) * np.inf), 0.0,
                          "bivariate normal pairs", "perfect correlation of sums and differences")
    t = r * np.sqrt(n - 2) / np.sqrt(1.0 - r * r)
    return TestResult("pitman_morgan", float(t), float(2.0 * stats.t.sf(abs(t), n - 2)),
                      "bivariate normal pairs", f"df={n - 2}; accounts for the pairing")


# ---------------------------------------------------------------- bundles
def classification_tests(correct_a, correct_b, truth=None, positive=None) -> list[TestResult]:
    """Binary ground truth (``truth`` with two classes, ``positive`` one of them): McNemar on
    sensitivity and on specificity first ([Rainio2024]); then, as extras, McNemar on overall
    correctness (exact, mid-p, chi-square) and the sign test."""
    tab = agreement_table(correct_a, correct_b)
    b, c = int(tab.loc["A correct", "B wrong"]), int(tab.loc["A wrong", "B correct"])
    a = np.asarray(correct_a, dtype=float)
    bb = np.asarray(correct_b, dtype=float)
    first = [] if truth is None else mcnemar_per_class(correct_a, correct_b, truth, positive)
    return first + [mcnemar_exact(b, c), mcnemar_midp(b, c), mcnemar_chi2(b, c),
                    sign_test(a, bb)]


def segmentation_tests(x, y) -> list[TestResult]:
    """Tests on per-case DSC: location (t, Wilcoxon, sign), normality, equal variances."""
    return [paired_t(x, y), wilcoxon(x, y), sign_test(x, y), shapiro_differences(x, y),
            f_test_variances(x, y), bartlett(x, y), levene(x, y), pitman_morgan(x, y)]


def as_table(results: list[TestResult]) -> pd.DataFrame:
    """Tidy table: one row per test with statistic, p-value, informative n, assumption, note."""
    return pd.DataFrame([r.as_dict() for r in results],
                        columns=["test", "statistic", "pvalue", "n", "assumption", "note"])


def recommend(results: list[TestResult], task: str, alpha: float = 0.05,
              large_n: int = LARGE_N) -> list[str]:
    """Short advice on which test fits ([Rainio2024]), from the assumption checks in ``results``;
    above ``large_n`` cases Shapiro-Wilk does not overrule the t-test (config
    ``claim_check.large_n``)."""
    by = {r.test: r for r in results}
    out: list[str] = []
    if task == "segmentation":
        sw = by.get("shapiro_wilk")
        n = sw.n if sw is not None and sw.n else 0
        if sw is not None and np.isfinite(sw.pvalue) and n > large_n:
            # at large n the mean difference is close to normal whatever the differences
            # (central limit theorem), while Shapiro-Wilk rejects tiny departures
            out.append(
                f"With {n:,} cases the paired t-test is valid by the central limit theorem even "
                f"if the differences are not normal (Shapiro-Wilk p = {sw.pvalue:.3g} detects "
                "departures too small to matter at this size); the Wilcoxon signed-rank test "
                "answers a different question (median of the differences), not a safer one.")
        elif sw is not None and np.isfinite(sw.pvalue) and sw.pvalue < alpha:
            out.append(
                f"The paired differences are not normal (Shapiro-Wilk p = {sw.pvalue:.3g} < "
                f"{alpha:g}): use the Wilcoxon signed-rank test rather than the paired t-test "
                "([Rainio2024]).")
        elif sw is not None and np.isfinite(sw.pvalue):
            out.append(
                f"No evidence against normal differences (Shapiro-Wilk p = {sw.pvalue:.3g}): "
                "the paired t-test is acceptable; the Wilcoxon signed-rank test remains the "
                "safer choice with outliers ([Rainio2024]).")
        if sw is not None and np.isfinite(sw.pvalue) and sw.pvalue < alpha:
            out.append(
                "For equal variances prefer Levene's test (robust); F and Bartlett assume "
                "normal data.")
        out.append("The sign test is valid without assumptions but has low power.")
        out.append("F, Bartlett and Levene treat the two methods as independent samples; "
                   "the Pitman-Morgan test accounts for the pairing.")
    elif task == "classification":
        if "mcnemar_sensitivity" in by:
            out.append("McNemar's test on sensitivity (among positives) and on specificity "
                       "(among negatives) are the tests to read ([Rainio2024]); the overall-"
                       "accuracy McNemar mixes the two error types and is shown only as an "
                       "extra.")
        ex = by.get("mcnemar_exact")
        if ex is not None:
            nd = int(ex.n)
            what = "overall accuracy: " if "mcnemar_sensitivity" in by else ""
            if nd < 20:
                out.append(f"{what.capitalize()}Only {nd} discordant cases (b + c < 20): use "
                           "the exact or mid-p McNemar test, not the chi-square version "
                           "([Rainio2024]); mid-p is less conservative.")
            else:
                out.append(f"{what.capitalize()}{nd} discordant cases (b + c >= 20): the "
                           "chi-square McNemar test is adequate ([Rainio2024]); the exact and "
                           "mid-p versions are valid too.")
        out.append("The sign test on per-case correctness is the exact McNemar test.")
        if "delong" in by:
            out.append("DeLong compares AUCs and does not depend on the decision threshold "
                       "([Rainio2024]).")
    else:
        raise ValueError(f"task must be classification or segmentation; got {task!r}")
    return out
