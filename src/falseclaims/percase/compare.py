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

from falseclaims import stats as fstats
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
    x, y = pt._paired(x, y)
    pair = pearson_pairs(pd.DataFrame({"a": x, "b": y}), min_cases=3).iloc[0]
    return {"n": int(x.size), "mean_a": float(x.mean()), "mean_b": float(y.mean()),
            "sd_a": float(x.std(ddof=1)), "sd_b": float(y.std(ddof=1)),
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


def bootstrap_mean_difference(x, y, resamples: int, seed: int, level: float = 0.95,
                              chunk: int = 4_000_000) -> dict:
    """Percentile bootstrap interval of mean(x - y), resampling cases (pairs kept together)."""
    x, y = pt._paired(x, y)
    if int(resamples) < 100:
        raise ValueError(f"bootstrap resamples must be >= 100; got {resamples!r}")
    if not 0 < level < 1:
        raise ValueError(f"bootstrap level must lie in (0, 1); got {level!r}")
    d = x - y
    n = d.size
    rng = np.random.default_rng(seed)
    per = max(1, chunk // n)
    stats_ = []
    done = 0
    while done < resamples:
        k = min(per, resamples - done)
        stats_.append(d[rng.integers(0, n, size=(k, n))].mean(axis=1))
        done += k
    boot = np.concatenate(stats_)
    lo, hi = np.quantile(boot, [(1 - level) / 2, (1 + level) / 2])
    return {"estimate": float(d.mean()), "lower": float(lo), "upper": float(hi),
            "level": float(level), "resamples": int(resamples), "seed": int(seed)}


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

    def tests_table(self) -> pd.DataFrame:
        return pt.as_table(self.tests)


def compare_pair(task: str, values: pd.DataFrame, a: str, b: str, *, resamples: int,
                 seed: int, level: float = 0.95, alpha: float = 0.05,
                 truth=None, scores: dict | None = None, positive=None,
                 run_tests: bool = True) -> PairComparison:
    """Everything about A versus B: Bayesian probability, bootstrap interval, tests.

    ``values`` holds DSC (segmentation) or correctness (classification) per case.
    ``scores`` maps method -> per-case score (binary classification, for DeLong) and
    ``truth`` the binary labels those scores predict.
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
            raise ValueError(f"Pearson r of {a!r} and {b!r} is undefined: "
                             f"{inp['congruence_note']}")
        res = fstats.prob_false_claim_segmentation(inp["n"], inp["mean_a"], inp["mean_b"],
                                                   inp["sd_a"], inp["sd_b"], r)
        prob, used = float(res.probability), r
        tests = pt.segmentation_tests(x, y) if run_tests else []
    else:
        inp = classification_inputs(x.astype(bool), y.astype(bool))
        res = fstats.prob_false_claim_classification(inp["n"], inp["mean_a"], inp["mean_b"],
                                                     inp["congruence"])
        prob, used = float(res.probability), float(res.congruence_used)
        tests = pt.classification_tests(x.astype(bool), y.astype(bool)) if run_tests else []
        if run_tests and scores is not None and a in scores and b in scores:
            if truth is None:
                raise ValueError("DeLong needs the ground truth next to the score columns")
            tests.append(delong_test(truth, scores[a], scores[b], positive).as_test())
    interval = bootstrap_mean_difference(x, y, resamples, seed, level)
    rec = pt.recommend(tests, task, alpha) if run_tests else []
    return PairComparison(task, a, b, inp, prob, used, interval, tests, rec, x, y,
                          [str(i) for i in values.index])


def all_pairs(task: str, values: pd.DataFrame, *, resamples: int, seed: int,
              level: float = 0.95) -> pd.DataFrame:
    """Every pair (A = higher mean), probability, primary test p-values and Holm-adjusted
    p-values over all pairs. The Bayesian probabilities are reported unadjusted."""
    ranking = rank_methods(values)
    methods = list(ranking["method"])
    rows = []
    for i in range(len(methods)):
        for j in range(i + 1, len(methods)):
            cmp_ = compare_pair(task, values, methods[i], methods[j], resamples=resamples,
                                seed=seed, level=level)
            by = {t.test: t for t in cmp_.tests}
            row = {"a": methods[i], "b": methods[j], "mean_a": cmp_.inputs["mean_a"],
                   "mean_b": cmp_.inputs["mean_b"],
                   "delta": cmp_.inputs["mean_a"] - cmp_.inputs["mean_b"],
                   "congruence": cmp_.congruence_used, "probability": cmp_.probability,
                   "ci_lower": cmp_.interval["lower"], "ci_upper": cmp_.interval["upper"]}
            for name in PRIMARY_TESTS[task]:
                row[f"p_{name}"] = by[name].pvalue
            rows.append(row)
    table = pd.DataFrame(rows)
    for name in PRIMARY_TESTS[task]:
        table[f"p_{name}_holm"] = holm(table[f"p_{name}"])
    return table
