"""Empirical congruence of method pairs from per-case results.

Definitions of [Christodoulou2025], Supplementary C (see `docs/method.md`).

- Segmentation: Pearson r of the two methods' per-case values (DSC) within a task, on the
  cases both methods have.
- Classification: p11, the proportion of cases both methods classify correctly, with the
  pair's feasible range max(acc_a + acc_b - 1, 0) <= p11 <= min(acc_a, acc_b).

:func:`pairwise_congruence` returns one row per method pair and task (a single pair is just
``methods=[a, b]``); :func:`congruence_quartiles` summarises the pairs into Q1/median/Q3, the
shape of the config's ``congruence:`` block.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

import numpy as np
import pandas as pd

from falseclaims.levels import CONGRUENCE_LEVELS
from falseclaims.percase.readers import PerCase
from falseclaims.stats import classification_congruence_bounds

__all__ = [
    "PAIR_COLUMNS",
    "pairwise_congruence",
    "pearson_pairs",
    "both_correct_pairs",
    "congruence_quartiles",
    "quartiles_block",
]

PAIR_COLUMNS = ["kind", "task", "metric", "method_a", "method_b", "n", "congruence",
                "mean_a", "mean_b", "sd_a", "sd_b", "lower", "upper", "note"]


def pearson_pairs(values: pd.DataFrame, min_cases: int = 3) -> pd.DataFrame:
    """Pearson r for every column pair of a cases x methods frame, on shared cases.

    Columns: method_a, method_b, n, congruence (r), mean_a, mean_b, sd_a, sd_b (ddof=1), note.
    r is NaN with a note when fewer than ``min_cases`` shared cases exist or a method's values
    are constant on them (the correlation is undefined).
    """
    rows = []
    cols = sorted(values.columns)
    for a, b in combinations(cols, 2):
        x, y = values[a].to_numpy(float), values[b].to_numpy(float)
        ok = np.isfinite(x) & np.isfinite(y)
        x, y = x[ok], y[ok]
        n = int(ok.sum())
        r, note = np.nan, ""
        # constant values: exactly 0 (the mean of equal floats can differ from them in the
        # last bit, which left an SD of ~1e-17 and an arbitrary r such as +-1)
        sa = (0.0 if np.ptp(x) == 0 else float(x.std(ddof=1))) if n > 1 else np.nan
        sb = (0.0 if np.ptp(y) == 0 else float(y.std(ddof=1))) if n > 1 else np.nan
        if n < min_cases:
            note = f"only {n} shared case(s); need {min_cases}"
        elif sa == 0 or sb == 0:
            note = "constant values for " + (a if sa == 0 else b) + ": r undefined"
        else:
            xc, yc = x - x.mean(), y - y.mean()
            r = float(np.clip(xc @ yc / np.sqrt((xc @ xc) * (yc @ yc)), -1.0, 1.0))
        rows.append({"method_a": a, "method_b": b, "n": n, "congruence": r,
                     "mean_a": float(x.mean()) if n else np.nan,
                     "mean_b": float(y.mean()) if n else np.nan,
                     "sd_a": sa, "sd_b": sb, "note": note})
    return pd.DataFrame(rows, columns=["method_a", "method_b", "n", "congruence", "mean_a",
                                       "mean_b", "sd_a", "sd_b", "note"])


def both_correct_pairs(correct: pd.DataFrame, min_cases: int = 1) -> pd.DataFrame:
    """p11 for every column pair of a cases x methods frame of 0/1 correctness (NaN = case
    missing for that method), on shared cases.

    Columns: method_a, method_b, n, congruence (p11), mean_a (acc_a), mean_b (acc_b),
    lower, upper (feasible range of p11 given the two accuracies), note.
    """
    rows = []
    cols = sorted(correct.columns)
    for a, b in combinations(cols, 2):
        x, y = correct[a].to_numpy(float), correct[b].to_numpy(float)
        ok = np.isfinite(x) & np.isfinite(y)
        x, y = x[ok] > 0.5, y[ok] > 0.5
        n = int(ok.sum())
        if n < min_cases:
            rows.append({"method_a": a, "method_b": b, "n": n, "congruence": np.nan,
                         "mean_a": np.nan, "mean_b": np.nan, "lower": np.nan,
                         "upper": np.nan, "note": f"only {n} shared case(s)"})
            continue
        acc_a, acc_b = float(x.mean()), float(y.mean())
        lo, hi = classification_congruence_bounds(acc_a, acc_b)
        rows.append({"method_a": a, "method_b": b, "n": n,
                     "congruence": float((x & y).mean()), "mean_a": acc_a, "mean_b": acc_b,
                     "lower": float(lo), "upper": float(hi), "note": ""})
    return pd.DataFrame(rows, columns=["method_a", "method_b", "n", "congruence", "mean_a",
                                       "mean_b", "lower", "upper", "note"])


def pairwise_congruence(percase: PerCase, methods: Sequence[str] | None = None,
                        tasks: Sequence[str] | None = None, metric: str | None = None,
                        min_cases: int = 3) -> pd.DataFrame:
    """Congruence of every method pair within each task of ``percase``.

    ``methods``/``tasks`` restrict the pairs (e.g. ``methods=[a, b]`` for one pair); for
    segmentation ``metric`` picks the metric when a task has several. Returns
    :data:`PAIR_COLUMNS`: for segmentation ``congruence`` is Pearson r and mean/sd are the
    per-case mean and SD on the shared cases; for classification ``congruence`` is p11,
    mean_a/mean_b the accuracies, lower/upper the feasible range of p11.
    """
    if methods is not None:
        unknown = sorted(set(methods) - set(percase.methods))
        if unknown:
            raise ValueError(f"unknown method(s) {unknown}; available {percase.methods}")
        if len(set(methods)) < 2:
            raise ValueError("need at least two different methods to form a pair")
    todo = list(tasks) if tasks is not None else percase.tasks
    unknown = sorted(set(todo) - set(percase.tasks))
    if unknown:
        raise ValueError(f"unknown task(s) {unknown}; available {percase.tasks}")
    parts = []
    for task in todo:
        if percase.kind == "segmentation":
            mets = [metric] if metric else sorted(
                percase.table.loc[percase.table["task"] == task, "metric"].unique())
            for met in mets:
                wide = percase.matrix(task, met)
                if methods is not None:
                    wide = wide[[m for m in methods if m in wide.columns]]
                p = pearson_pairs(wide, min_cases=min_cases)
                p.insert(0, "metric", met)
                p.insert(0, "task", task)
                parts.append(p)
        else:
            wide = percase.correctness(task)
            if methods is not None:
                wide = wide[[m for m in methods if m in wide.columns]]
            p = both_correct_pairs(wide, min_cases=1)
            p.insert(0, "metric", "accuracy")
            p.insert(0, "task", task)
            parts.append(p)
    out = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()
    out.insert(0, "kind", percase.kind)
    for c in PAIR_COLUMNS:
        if c not in out.columns:
            out[c] = np.nan
    return out[PAIR_COLUMNS]


def congruence_quartiles(pairs: pd.DataFrame, by: Sequence[str] = ("kind", "task")
                         ) -> pd.DataFrame:
    """Q1/median/Q3 of ``congruence`` per group (default per kind and task).

    Pairs with undefined congruence (NaN, see the ``note`` column) are left out of the
    quartiles and counted in ``n_undefined``. Quantiles use numpy's default (linear).
    """
    by = list(by)
    missing = [c for c in by + ["congruence"] if c not in pairs.columns]
    if missing:
        raise ValueError(f"pairs table lacks column(s) {missing}")
    rows = []
    for key, sub in pairs.groupby(by, sort=True):
        key = key if isinstance(key, tuple) else (key,)
        v = sub["congruence"].to_numpy(float)
        ok = np.isfinite(v)
        q = np.quantile(v[ok], [0.25, 0.5, 0.75]) if ok.any() else [np.nan] * 3
        rows.append({**dict(zip(by, key)), "n_pairs": int(ok.sum()),
                     "n_undefined": int((~ok).sum()),
                     "q1": float(q[0]), "median": float(q[1]), "q3": float(q[2])})
    return pd.DataFrame(rows, columns=by + ["n_pairs", "n_undefined", *CONGRUENCE_LEVELS])


def quartiles_block(pairs: pd.DataFrame, ndigits: int = 4) -> dict[str, dict[str, float]]:
    """``{kind: {q1, median, q3}}`` pooled over all tasks of each kind: the shape of a
    source in the config's ``congruence:`` block."""
    q = congruence_quartiles(pairs, by=["kind"])
    out = {}
    for _, r in q.iterrows():
        if r["n_pairs"] == 0:
            raise ValueError(f"no pair with a defined congruence for {r['kind']!r}")
        out[str(r["kind"])] = {lvl: round(float(r[lvl]), ndigits) for lvl in CONGRUENCE_LEVELS}
    return out
