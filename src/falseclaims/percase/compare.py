"""Compare methods on per-case results: ranking, Bayesian probability with empirical inputs,
bootstrap interval of the difference, classical tests and the all-pairs Holm table.

Inputs are wide tables indexed by case id with one column per method:
- segmentation: per-case DSC (fractions);
- classification: per-case correctness (bool), optionally with score columns and binary
  labels for DeLong.

A is the method with the highest mean (DSC or accuracy), B the runner-up ([ClaimsReloaded]). The
probability of a false claim uses the empirical congruence (Pearson r of per-case DSC, or
the share of cases both classify correctly) and empirical SDs in the formulas of
[Christodoulou2025].
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from falseclaims.engine import probability
from falseclaims.stats import underflowed
from falseclaims.percase import paired_tests as pt
from falseclaims.percase.congruence import both_correct_pairs, pearson_pairs
from falseclaims.percase.delong import delong_test
from falseclaims.tasks import TASKS

__all__ = [
    "PairComparison",
    "all_pairs",
    "bootstrap_mean_difference",
    "classification_inputs",
    "compare_pair",
    "holm",
    "rank_methods",
    "segmentation_inputs",
]

PRIMARY_TESTS = {"segmentation": ("wilcoxon", "paired_t"),
                 "classification": ("mcnemar_exact", "mcnemar_midp")}


def rank_methods(values: pd.DataFrame) -> pd.DataFrame:
    """Methods by decreasing mean (DSC or accuracy); ties keep column order, flagged."""
    if values.shape[1] < 2:
        raise ValueError(f"need at least 2 methods to compare; got {list(values.columns)}")
    means = values.astype(float).mean(axis=0)
    order = sorted(range(len(means)), key=lambda i: (-means.iloc[i], i))
    out = pd.DataFrame({"method": [str(values.columns[i]) for i in order],
                        "mean": [float(means.iloc[i]) for i in order]})
    out["rank"] = np.arange(1, len(out) + 1)
    out["tied_with_next"] = np.append(out["mean"].to_numpy()[:-1] == out["mean"].to_numpy()[1:],
                                      False)
    return out


def segmentation_inputs(x, y) -> dict:
    """n, means, per-case SDs (ddof=1) and the Pearson r of two methods' per-case DSC
    (r from :func:`falseclaims.percase.congruence.pearson_pairs`)."""
    x, y = pt.paired_arrays(x, y)
    pair = pearson_pairs(pd.DataFrame({"a": x, "b": y}), min_cases=3).iloc[0]
    return {"n": int(x.size), "mean_a": float(x.mean()), "mean_b": float(y.mean()),
            "sd_a": float(pair["sd_a"]), "sd_b": float(pair["sd_b"]),
            "congruence": float(pair["congruence"]), "congruence_note": str(pair["note"])}


def classification_inputs(correct_a, correct_b) -> dict:
    """n, accuracies, p11 (share both correct, from
    :func:`falseclaims.percase.congruence.both_correct_pairs`) and the discordant counts."""
    ca = np.asarray(correct_a, dtype=bool)
    cb = np.asarray(correct_b, dtype=bool)
    tab = pt.agreement_table(ca, cb)
    pair = both_correct_pairs(pd.DataFrame({"a": ca.astype(float), "b": cb.astype(float)})
                              ).iloc[0]
    n = int(tab.to_numpy().sum())
    both = int(tab.loc["A correct", "B correct"])
    b = int(tab.loc["A correct", "B wrong"])
    c = int(tab.loc["A wrong", "B correct"])
    return {"n": n, "mean_a": float(pair["mean_a"]), "mean_b": float(pair["mean_b"]),
            "congruence": float(pair["congruence"]), "only_a": b, "only_b": c,
            "both_correct": both, "both_wrong": n - both - b - c}


MULTINOMIAL_MAX_DISTINCT = 64  # bootstrap by counts of distinct differences up to this many
APPROXIMATE = "normal approximation with skewness correction"


def bootstrap_mean_difference(x, y, resamples: int, seed: int, level: float = 0.95,
                              chunk: int = 4_000_000, max_draws: int | None = None) -> dict:
    """Percentile bootstrap interval of mean(x - y), resampling cases (pairs kept together).

    When the differences take more than :data:`MULTINOMIAL_MAX_DISTINCT` values and
    cases x resamples exceeds ``max_draws`` (None: no limit), the percentiles of the
    bootstrap distribution are computed instead of sampled: the bootstrap mean of n cases has
    mean d̄, variance s²/n (s² with divisor n) and skewness g/√n (g the skewness of the
    differences); its quantiles follow the one-term Cornish-Fisher expansion
    d̄ + s/√n (z + g (z² - 1) / (6 √n)), whose error is O(1/n) of the interval's width, far
    below the Monte Carlo error of a sampled interval at such n. Then ``method`` is
    :data:`APPROXIMATE` (docs/percase.md, "Bootstrap interval").
    """
    x, y = pt.paired_arrays(x, y)
    if int(resamples) < 100:
        raise ValueError(f"bootstrap resamples must be >= 100; got {resamples!r}")
    if not 0 < level < 1:
        raise ValueError(f"bootstrap level must lie in (0, 1); got {level!r}")
    d = x - y
    n = d.size
    out = {"estimate": float(d.mean())}
    if max_draws is not None and n * int(resamples) > max_draws and _distinct_above(
            d, MULTINOMIAL_MAX_DISTINCT):
        lo, hi = _cornish_fisher_interval(d, level)
        out.update(lower=lo, upper=hi, level=float(level), resamples=int(resamples),
                   seed=int(seed), method=APPROXIMATE)
        return out
    rng = np.random.default_rng(seed)
    values, counts = np.unique(d, return_counts=True)
    if values.size <= MULTINOMIAL_MAX_DISTINCT:
        # cases with equal differences are interchangeable: a resample is fixed by how many
        # of each distinct difference it draws, Multinomial(n, counts / n) -- the same
        # distribution as drawing n case indices, at a cost independent of n
        # (classification: differences of correctness are -1, 0 or 1)
        draws = rng.multinomial(n, counts / n, size=int(resamples))
        boot = draws @ values / n
    else:
        per = max(1, chunk // n)
        stats_ = []
        done = 0
        while done < resamples:
            k = min(per, resamples - done)
            stats_.append(d[rng.integers(0, n, size=(k, n))].mean(axis=1))
            done += k
        boot = np.concatenate(stats_)
    lo, hi = np.quantile(boot, [(1 - level) / 2, (1 + level) / 2])
    out.update(lower=float(lo), upper=float(hi), level=float(level),
               resamples=int(resamples), seed=int(seed))
    return out


def _distinct_above(d: np.ndarray, k: int) -> bool:
    """More than ``k`` distinct values (cheap when the first values already differ)."""
    head = d[: 64 * k]
    return np.unique(head).size > k or np.unique(d).size > k


def _cornish_fisher_interval(d: np.ndarray, level: float) -> tuple[float, float]:
    """Quantiles (1 -+ level)/2 of the bootstrap distribution of the mean of ``d``."""
    from scipy.stats import norm

    n = d.size
    c = d - d.mean()
    s2 = float(c @ c) / n
    g = float(np.mean(c**3)) / s2**1.5
    z = norm.ppf([(1 - level) / 2, (1 + level) / 2])
    q = float(d.mean()) + np.sqrt(s2 / n) * (z + g * (z**2 - 1) / (6 * np.sqrt(n)))
    return float(q[0]), float(q[1])


def holm(pvalues) -> np.ndarray:
    """Holm (1979) step-down adjusted p-values; NaN stays NaN."""
    p = np.asarray(pvalues, dtype=float)
    out = np.full_like(p, np.nan)
    ok = np.flatnonzero(np.isfinite(p))
    m = ok.size
    if m == 0:
        return out
    order = ok[np.argsort(p[ok], kind="stable")]
    adj = np.maximum.accumulate((m - np.arange(m)) * p[order])
    out[order] = np.minimum(adj, 1.0)
    return out


@dataclass
class PairComparison:
    task: str
    a: str
    b: str
    inputs: dict
    probability: float
    congruence_used: float
    interval: dict
    tests: list = field(default_factory=list)
    recommendation: list = field(default_factory=list)
    x: np.ndarray | None = None      # per-case values of A (DSC or correctness)
    y: np.ndarray | None = None
    case_ids: list | None = None
    # the probability 0 is a floating-point underflow (below
    # falseclaims.readout.UNDERFLOW_BELOW), not exact: written as that bound
    probability_underflow: bool = False


def compare_pair(task: str, values: pd.DataFrame, a: str, b: str, *, resamples: int,
                 seed: int, level: float = 0.95, alpha: float = 0.05,
                 truth=None, scores: dict | None = None, positive=None,
                 run_tests: bool = True, max_draws: int | None = None,
                 labels=None, label_positive=None, large_n: int = pt.LARGE_N
                 ) -> PairComparison:
    """Everything about A versus B: Bayesian probability, bootstrap interval, tests.

    ``values`` holds DSC (segmentation) or correctness (classification) per case.
    ``scores`` maps method -> per-case score (binary classification, for DeLong) and
    ``truth`` the binary labels those scores predict. ``max_draws``: see
    :func:`bootstrap_mean_difference`. ``labels`` (binary per-case ground truth) and
    ``label_positive`` add McNemar on sensitivity and specificity ([Rainio2024]); ``large_n``
    goes to :func:`falseclaims.percase.paired_tests.recommend`.
    """
    if task not in TASKS:
        raise ValueError(f"task must be classification or segmentation; got {task!r}")
    for m in (a, b):
        if m not in values.columns:
            raise ValueError(f"method {m!r} not among {list(values.columns)}")
    x = values[a].to_numpy(dtype=float)
    y = values[b].to_numpy(dtype=float)
    if task == "segmentation":
        inp = segmentation_inputs(x, y)
        r = inp["congruence"]
        if not np.isfinite(r):
            if inp["sd_a"] > 0 and inp["sd_b"] > 0:
                raise ValueError(f"Pearson r of {a!r} and {b!r} is undefined: "
                                 f"{inp['congruence_note']}")
            # a constant method: r is undefined but enters the formula only through
            # 2 s_A s_B r = 0, so any r gives the same probability; reported as undefined
            inp["congruence_note"] += ("; it does not enter the probability because that "
                                       "method's SD is 0")
            r = 0.0
        res = probability(task, inp["n"], inp["mean_a"], inp["mean_b"], congruence=r,
                          sd_a=inp["sd_a"], sd_b=inp["sd_b"])
        prob, used = float(res.probability), (r if np.isfinite(inp["congruence"]) else np.nan)
        under = underflowed(task, prob, res.sd_diff, inp["sd_a"], inp["sd_b"])
        tests = pt.segmentation_tests(x, y) if run_tests else []
    else:
        inp = classification_inputs(x.astype(bool), y.astype(bool))
        res = probability(task, inp["n"], inp["mean_a"], inp["mean_b"],
                          congruence=inp["congruence"])
        prob, used = float(res.probability), float(res.congruence_used)
        under = underflowed(task, prob)
        tests = (pt.classification_tests(x.astype(bool), y.astype(bool), labels, label_positive)
                 if run_tests else [])
        if run_tests and scores is not None and a in scores and b in scores:
            if truth is None:
                raise ValueError("DeLong needs the ground truth next to the score columns")
            tests.append(delong_test(truth, scores[a], scores[b], positive).as_test())
    interval = bootstrap_mean_difference(x, y, resamples, seed, level,
                                         max_draws=max_draws)
    rec = pt.recommend(tests, task, alpha, large_n) if run_tests else []
    return PairComparison(task, a, b, inp, prob, used, interval, tests, rec, x, y,
                          values.index.astype(str).tolist(), under)


def all_pairs(task: str, values: pd.DataFrame, *, resamples: int, seed: int,
              level: float = 0.95, max_draws: int | None = None) -> pd.DataFrame:
    """Every pair (A = higher mean), probability, primary test p-values and Holm-adjusted
    p-values over all pairs. The Bayesian probabilities are reported unadjusted."""
    ranking = rank_methods(values)
    methods = list(ranking["method"])
    rows = []
    for i in range(len(methods)):
        for j in range(i + 1, len(methods)):
            cmp_ = compare_pair(task, values, methods[i], methods[j], resamples=resamples,
                                seed=seed, level=level, max_draws=max_draws)
            by = {t.test: t for t in cmp_.tests}
            row = {"a": methods[i], "b": methods[j], "mean_a": cmp_.inputs["mean_a"],
                   "mean_b": cmp_.inputs["mean_b"],
                   "delta": cmp_.inputs["mean_a"] - cmp_.inputs["mean_b"],
                   "congruence": cmp_.congruence_used, "probability": cmp_.probability,
                   "probability_underflow": cmp_.probability_underflow,
                   "ci_lower": cmp_.interval["lower"], "ci_upper": cmp_.interval["upper"]}
            for name in PRIMARY_TESTS[task]:
                row[f"p_{name}"] = by[name].pvalue
            rows.append(row)
    table = pd.DataFrame(rows)
    for name in PRIMARY_TESTS[task]:
        table[f"p_{name}_holm"] = holm(table[f"p_{name}"])
    return table
