"""Synthetic pipeline outputs with exactly the columns of docs/architecture.md, for the
figure tests (small) and for looking at the figures (MICCAI-sized)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from falseclaims import stats
from falseclaims.sd_model import SDModel

SD_MODEL = SDModel(0.142720, 0.547372, -0.690092, 0.541290, 1.178179, 0.005, "anchored",
                   "msd_reference")
CONGRUENCE = {"paper": {"classification": {"q1": 0.47, "median": 0.67, "q3": 0.83},
                        "segmentation": {"q1": 0.44, "median": 0.67, "q3": 0.82}},
              "msd": {"classification": {"q1": 0.5, "median": 0.7, "q3": 0.85},
                      "segmentation": {"q1": 0.5, "median": 0.7, "q3": 0.85}}}
UNC = ["none", "sd_test", "sd_cv", "sd_runs", "sd_unclear", "ci"]
SPLITS = ["train_test", "train_val_test", "cv_only", "cv_plus_test", "unclear"]
METRICS = {"classification": ["accuracy", "auc", "f1", "sensitivity", "specificity"],
           "segmentation": ["dsc", "iou", "hd", "hd95", "asd"]}


def papers(venue="v1", n=(30, 60), seed=0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    rows = []
    for task, k in zip(("classification", "segmentation"), n):
        for i in range(k):
            split = SPLITS[rng.integers(len(SPLITS))]
            total = int(10 ** rng.uniform(1.3, 4))
            folds = int(rng.choice([4, 5, 10])) if split.startswith("cv") else pd.NA
            ms = [m for m in METRICS[task] if rng.random() < (0.9 if m in ("accuracy", "dsc")
                                                             else 0.35)]
            rows.append({
                "venue": venue, "paper_id": f"{task[:3]}{i:03d}", "title": f"Paper {i}",
                "task": task, "in_scope": bool(rng.random() > 0.05),
                "claims_outperformance": bool(rng.random() < 0.85),
                "bold_best": bool(rng.random() < 0.8) if rng.random() > 0.05 else pd.NA,
                "statistical_test": bool(rng.random() < 0.12),
                "values_only_in_figures": bool(rng.random() < 0.06),
                "split": split, "cv_folds": folds,
                "n_train": int(total * 0.7),
                "n_val": int(total * 0.1) if split == "train_val_test" else pd.NA,
                "n_test": int(total * 0.2) if split != "cv_only" else pd.NA,
                "uncertainty": UNC[rng.choice(6, p=[0.5, 0.05, 0.2, 0.1, 0.1, 0.05])],
                "metrics_reported": ";".join(ms) if ms else pd.NA,
                "source_file": "sheet.xlsx", "source_sheet": "papers", "source_row": i + 2,
            })
    df = pd.DataFrame(rows)
    for c in ("in_scope", "claims_outperformance", "bold_best", "statistical_test",
              "values_only_in_figures"):
        df[c] = df[c].astype("boolean")
    for c in ("cv_folds", "n_train", "n_val", "n_test"):
        df[c] = df[c].astype("Int64")
    return df


def top2(venue="v1", n=(30, 60), seed=0) -> pd.DataFrame:
    rng = np.random.default_rng(seed + 1)
    rows = []
    for task, k in zip(("classification", "segmentation"), n):
        med = 500 if task == "classification" else 62
        for i in range(k):
            a = rng.uniform(0.75, 0.95)
            d = float(np.round(rng.gamma(1.2, 0.015) + 0.001, 3))
            rows.append({"venue": venue, "paper_id": f"{task[:3]}{i:03d}", "task": task,
                         "metric": "accuracy" if task == "classification" else "dsc",
                         "method_a": "ours", "method_b": "sota", "value_a": round(a, 3),
                         "value_b": round(a - d, 3), "delta": d, "tie": False,
                         "n_test": int(med * 10 ** rng.normal(0, 0.7)) + 2,
                         "sd_a_reported": np.nan, "sd_b_reported": np.nan})
    return pd.DataFrame(rows)


def probabilities(t2: pd.DataFrame, sources=("paper", "msd"),
                  sd_sources=("msd_reference",)) -> pd.DataFrame:
    rows = []
    for _, r in t2.iterrows():
        for src in sources:
            for lvl, c in CONGRUENCE[src][r["task"]].items():
                sd_opts = [("none", "none")] if r["task"] == "classification" else [
                    (s, sl) for s in sd_sources for sl in ("q1", "mean", "q3")]
                for sd_src, sd_lvl in sd_opts:
                    rec = {"venue": r["venue"], "paper_id": r["paper_id"], "task": r["task"],
                           "n_test": r["n_test"], "value_a": r["value_a"],
                           "value_b": r["value_b"], "delta": r["delta"],
                           "congruence_source": src, "congruence_level": lvl,
                           "congruence_assumed": c, "sd_source": sd_src, "sd_level": sd_lvl}
                    if r["task"] == "classification":
                        res = stats.prob_false_claim_classification(
                            r["n_test"], r["value_a"], r["value_b"], c)
                        rec.update(congruence_used=float(res.congruence_used),
                                   congruence_clamped=bool(res.clamped), sd_a=np.nan,
                                   sd_b=np.nan, sd_a_imputed=False, sd_b_imputed=False,
                                   sd_floored=False, probability=float(res.probability))
                    else:
                        scale = 1.0 if sd_src == "msd_reference" else 0.8
                        sa = float(SD_MODEL.predict(r["value_a"], sd_lvl)[0]) * scale
                        sb = float(SD_MODEL.predict(r["value_b"], sd_lvl)[0]) * scale
                        p = stats.prob_false_claim_segmentation(
                            r["n_test"], r["value_a"], r["value_b"], sa, sb, c).probability
                        rec.update(congruence_used=c, congruence_clamped=False, sd_a=sa,
                                   sd_b=sb, sd_a_imputed=True, sd_b_imputed=True,
                                   sd_floored=False, probability=float(p))
                    rows.append(rec)
    return pd.DataFrame(rows)


KEYS = ["venue", "task", "congruence_source", "congruence_level", "sd_source", "sd_level"]


def curves(prob: pd.DataFrame, cutoffs) -> pd.DataFrame:
    """Direct count: share of papers with probability strictly above each cutoff."""
    rows = []
    for key, g in prob.groupby(KEYS, sort=False):
        p = g["probability"].to_numpy()
        for c in cutoffs:
            k = int((p > c).sum())
            rows.append(dict(zip(KEYS, key), cutoff=float(c), n_papers=len(p), n_above=k,
                             share_above=k / len(p)))
    return pd.DataFrame(rows)


def flow(venue="v1") -> pd.DataFrame:
    steps = [("found", "Papers found"), ("in_scope", "Main task in scope"),
             ("values_in_text", "Values reported in tables/text"),
             ("test_set", "Distinct test set"), ("two_methods", "Metric for ≥ 2 methods"),
             ("test_size", "Test-set size reported")]
    counts = {"classification": [133, 126, 117, 76, 50, 43],
              "segmentation": [252, 221, 210, 168, 140, 131]}
    return pd.DataFrame([{"venue": venue, "task": t, "step": s, "label": lab, "n_papers": n}
                         for t, ns in counts.items() for (s, lab), n in zip(steps, ns)])
