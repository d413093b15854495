"""One SYNTHETIC paper of the example survey (``survey_sheet``): its papers row (split,
sizes, uncertainty, metrics reported) and its results rows, drawn from the task-level draws
in :class:`TaskDraws`. Nothing here is real data."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from falseclaims.examples.sampling import quantile_sizes
from falseclaims.sd_model import SDModel

PAPER_COLUMNS = ["paper_id", "title", "task", "in_scope", "claims_outperformance", "bold_best",
                 "statistical_test", "values_only_in_figures", "split", "cv_folds", "n_train",
                 "n_val", "n_test", "uncertainty", "metrics_reported"]
DELTA_MEDIAN, DELTA_MEAN = 0.01, 0.02  # [Christodoulou2025], Fig S9


@dataclass(frozen=True)
class TaskSpec:
    """The marginals one task of the synthetic survey is drawn from (counts per eligibility
    branch, test-size quartiles, value ranges, metric shares, method names)."""
    prefix: str
    found: int
    in_scope: int
    figures_only: int
    eligible: int
    cv_only: int
    unclear: int
    few_methods: int
    no_n_test: int
    n_quartiles: tuple[int, int, int]
    n_range: tuple[int, int]
    primary: str
    primary_alias: str
    primary_share: float
    statistical_test: float
    sd_share: float
    ci_share: float
    sd_test_papers: int
    target_above_5pct: float
    target_above_30pct: float
    value_range: tuple[float, float]
    value_beta: tuple[float, float]
    ties: int
    other_metrics: dict[str, float]  # metric -> share of papers reporting it
    methods: list[str]


@dataclass
class TaskDraws:
    """What every paper of one task is drawn from (the task-level draws, already made)."""
    name: str
    spec: TaskSpec
    sd_model: SDModel
    eligible: dict[int, tuple]  # paper index -> (n_test, value A, value B)
    no_primary: set[int]
    claims: set[int]
    bold: set[int]
    stat: set[int]
    uncertainty: dict[int, str]
    sizes_u: np.ndarray


def paper_row(t: TaskDraws, i: int, pid: str, cat: str, rng):
    """(papers row, primary metric name, metrics reported) of paper ``i``."""
    row = dict.fromkeys(PAPER_COLUMNS)
    row.update(paper_id=pid, task=t.name,
               title=f"Synthetic {t.name} paper {pid} (not a real publication)")
    if cat == "out_of_scope":
        row["in_scope"] = "no"
        return row, None, []
    row.update(in_scope="yes", claims_outperformance=_yn(i in t.claims),
               bold_best=_yn(i in t.bold), statistical_test=_yn(i in t.stat),
               values_only_in_figures=_yn(cat == "figures_only"))
    _split_and_sizes(t, i, cat, row, rng)
    u = t.uncertainty.get(i, "none")
    if u == "sd_other":
        u = str(rng.choice(["sd_runs", "sd_unclear"]
                           + (["sd_cv"] * 2 if row["cv_folds"] else [])))
    row["uncertainty"] = u
    primary_name, metrics = _metrics_reported(t.spec, i not in t.no_primary, rng)
    row["metrics_reported"] = ";".join(metrics)
    return row, primary_name, metrics


def _split_and_sizes(t: TaskDraws, i: int, cat: str, row: dict, rng) -> None:
    """The split, CV folds and train/val/test sizes of paper ``i``, into ``row``."""
    spec = t.spec
    if cat == "cv_only":
        split = "cv_only"
    elif cat == "unclear":
        split = "unclear"
    else:
        split = rng.choice(["train_test", "train_val_test", "cv_plus_test"],
                           p=[0.35, 0.45, 0.20])
    row["split"] = str(split)
    if i in t.eligible:
        n_test = int(t.eligible[i][0])
    else:
        n_test = int(quantile_sizes(np.array([t.sizes_u[i]]), spec.n_quartiles,
                                    spec.n_range)[0])
    if split in ("cv_only", "cv_plus_test"):
        row["cv_folds"] = int(rng.choice([3, 4, 5, 5, 5, 10]))
    if split == "unclear":
        pass  # sizes unknown
    elif split == "cv_only":
        k_f = row["cv_folds"]
        total = n_test * k_f  # Fig S8: test = N/k, train = (k-1)N/k
        row.update(n_train=total - n_test, n_test=n_test)
    else:
        row["n_train"] = int(round(n_test * rng.uniform(2.0, 6.0)))
        if split == "train_val_test":
            row["n_val"] = int(round(n_test * rng.uniform(0.3, 1.0)))
        row["n_test"] = n_test
    if cat == "no_n_test":
        row["n_test"] = None


def _metrics_reported(spec: TaskSpec, has_primary: bool, rng) -> tuple[str, list[str]]:
    """(name the primary metric is written under, every metric the paper reports)."""
    others = [m for m, s in spec.other_metrics.items() if rng.uniform() < s]
    if not has_primary and not others:
        others = [next(iter(spec.other_metrics))]
    alias = rng.uniform() < 0.1
    primary_name = spec.primary_alias if alias else spec.primary
    return primary_name, ([primary_name] if has_primary else []) + others


def paper_results(t: TaskDraws, i: int, row: dict, cat: str, primary_name: str,
                   metrics: list[str], rng) -> list[dict]:
    """Results rows of paper ``i``: the two top methods and 1-6 weaker ones."""
    spec = t.spec
    if i in t.eligible:
        a, b = float(t.eligible[i][1]), float(t.eligible[i][2])
    else:
        lo_v, hi_v = spec.value_range
        a = round(float(lo_v + (hi_v - lo_v) * rng.beta(*spec.value_beta)), 3)
        b = round(a - float(np.clip(DELTA_MEDIAN * np.exp(1.18 * rng.standard_normal()),
                                    0, 0.2)), 3)
    n_methods = int(rng.integers(3, 9))
    base_names = list(rng.choice(spec.methods, size=n_methods - 1, replace=False))
    names = ["Ours"] + [str(x) for x in base_names]
    gaps = np.concatenate([[0.0, a - b], a - b + np.cumsum(rng.uniform(0.002, 0.04,
                                                                       n_methods - 2))])
    prim_vals = np.round(np.maximum(a - gaps, 0.2), 3)
    if rng.uniform() < 0.08 and i not in t.eligible:
        names[0], names[1] = names[1], names[0]  # proposed method not the best
    per_method_n = i in t.eligible and rng.uniform() < 0.15
    sd_over = {"sd_test": "test", "sd_cv": "cv", "sd_runs": "runs",
               "sd_unclear": "unclear"}.get(row["uncertainty"])
    results = []
    for j, name in enumerate(names):
        for metric in metrics:
            is_primary = metric == primary_name
            if is_primary and cat == "few_methods" and j > 0:
                continue  # the primary metric for one method only
            v = _metric_value(metric, float(prim_vals[j]), rng) if not is_primary \
                else float(prim_vals[j])
            sd = None
            if sd_over is not None:
                sd = _metric_sd(t.name, metric, v, sd_over, t.sd_model, rng)
            results.append({
                "paper_id": row["paper_id"], "method": name, "metric": metric, "value": v,
                "sd": sd, "sd_over": sd_over if sd is not None else None,
                "n_test": row["n_test"] if per_method_n else None,
            })
    return results


def _metric_value(metric: str, primary: float, rng) -> float:
    """A plausible value of a secondary metric, loosely tied to the primary one."""
    if metric in ("hd", "hd95", "asd", "mssd"):
        scale = {"hd": 25.0, "hd95": 12.0, "asd": 3.0, "mssd": 30.0}[metric]
        return round(float(scale * (1.2 - primary) * rng.uniform(0.6, 1.6)), 2)
    if metric == "iou":
        return round(primary / (2 - primary), 3)  # IoU = DSC / (2 - DSC)
    if metric == "ece":
        return round(float(rng.uniform(0.02, 0.15)), 3)
    if metric == "kappa":
        return round(float(np.clip(2 * primary - 1 + rng.normal(0, 0.05), -1, 1)), 3)
    return round(float(np.clip(primary + rng.normal(0, 0.04), 0.3, 0.999)), 3)


def _metric_sd(task, metric, value, sd_over, sd_model: SDModel, rng) -> float:
    if metric in ("hd", "hd95", "asd", "mssd"):
        return round(value * float(rng.uniform(0.4, 1.2)), 2)
    if sd_over == "test" and task == "segmentation":
        return round(float(sd_model.predict(min(value, 1.0))[0] * rng.uniform(0.6, 1.4)), 3)
    # SD over folds / runs: small spread of the mean
    return round(float(rng.uniform(0.003, 0.03)), 3)


def _yn(x: bool) -> str:
    return "yes" if x else "no"
