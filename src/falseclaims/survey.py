"""Survey stages after selection: SD imputation, congruence assignment, probabilities,
summaries. Each stage is vectorised over papers and returns a tidy DataFrame."""

from __future__ import annotations

import numpy as np
import pandas as pd

from falseclaims.config import CONGRUENCE_LEVELS
from falseclaims.sd_model import LEVELS as SD_LEVELS
from falseclaims.sd_model import SDModel
from falseclaims.stats import (
    classification_congruence_bounds,
    prob_false_claim_classification,
    prob_false_claim_segmentation,
)

KEYS = ["congruence_source", "congruence_level", "sd_source", "sd_level"]


def impute_sd(top2: pd.DataFrame, models: dict[str, SDModel],
              use_reported_over=("test",)) -> pd.DataFrame:
    """One row per segmentation paper x SD source x SD level (q1, mean, q3 of the PI).

    An SD reported over the independent test set is used as reported; any other SD is
    imputed from the mean DSC. ``sd_floored`` marks imputations raised to the floor.
    """
    seg = top2[top2["task"] == "segmentation"]
    frames = []
    for source, model in models.items():
        for level in SD_LEVELS:
            out = seg[["venue", "paper_id"]].copy()
            out["sd_source"], out["sd_level"] = source, level
            floored = np.zeros(len(seg), dtype=bool)
            for side in ("a", "b"):
                imputed, fl = model.predict(seg[f"value_{side}"].to_numpy(float), level)
                reported = seg[f"sd_{side}_reported"].to_numpy(float)
                over = seg[f"sd_{side}_over"].astype("object").to_numpy()
                use = np.isfinite(reported) & np.isin(over, list(use_reported_over))
                out[f"sd_{side}"] = np.where(use, reported, imputed)
                out[f"sd_{side}_imputed"] = ~use
                floored |= fl & ~use
            out["sd_floored"] = floored
            frames.append(out)
    cols = ["venue", "paper_id", "sd_source", "sd_level", "sd_a", "sd_b", "sd_a_imputed",
            "sd_b_imputed", "sd_floored"]
    return pd.concat(frames, ignore_index=True)[cols] if frames else pd.DataFrame(columns=cols)


def assign_congruence(top2: pd.DataFrame,
                      sources: dict[str, dict[str, dict[str, float]]]) -> pd.DataFrame:
    """One row per paper x congruence source x level covering the paper's task.

    Classification congruence is moved to the nearer feasible bound for the paper's two
    accuracies ([Christodoulou2025], Methods); ``congruence_clamped`` records where.
    """
    frames = []
    for source, by_task in sources.items():
        for task, levels in by_task.items():
            sub = top2[top2["task"] == task]
            if sub.empty:
                continue
            for level in CONGRUENCE_LEVELS:
                out = sub[["venue", "paper_id"]].copy()
                out["congruence_source"], out["congruence_level"] = source, level
                assumed = float(levels[level])
                out["congruence_assumed"] = assumed
                if task == "classification":
                    lo, hi = classification_congruence_bounds(sub["value_a"], sub["value_b"])
                    used = np.clip(assumed, lo, hi)
                else:
                    used = np.full(len(sub), assumed)
                out["congruence_used"] = np.asarray(used, dtype=float)
                out["congruence_clamped"] = out["congruence_used"] != assumed
                frames.append(out)
    cols = ["venue", "paper_id", "congruence_source", "congruence_level",
            "congruence_assumed", "congruence_used", "congruence_clamped"]
    return pd.concat(frames, ignore_index=True)[cols] if frames else pd.DataFrame(columns=cols)


PROB_COLUMNS = [
    "venue", "paper_id", "task", "n_test", "value_a", "value_b", "delta",
    "congruence_source", "congruence_level", "congruence_assumed", "congruence_used",
    "congruence_clamped", "sd_source", "sd_level", "sd_a", "sd_b", "sd_a_imputed",
    "sd_b_imputed", "sd_floored", "probability",
]


def compute_probabilities(top2: pd.DataFrame, congruence: pd.DataFrame,
                          sds: pd.DataFrame) -> pd.DataFrame:
    """One row per paper x congruence (source, level) x SD (source, level)."""
    base = top2[["venue", "paper_id", "task", "n_test", "value_a", "value_b", "delta"]]
    rows = base.merge(congruence, on=["venue", "paper_id"], how="inner", validate="1:m")
    cls = rows[rows["task"] == "classification"].copy()
    cls["sd_source"], cls["sd_level"] = "none", "none"
    for col in ("sd_a", "sd_b"):
        cls[col] = np.nan
    for col in ("sd_a_imputed", "sd_b_imputed", "sd_floored"):
        cls[col] = False
    if len(cls):
        # congruence_used is already feasible; the library would clamp identically
        cls["probability"] = prob_false_claim_classification(
            cls["n_test"].to_numpy(float), cls["value_a"].to_numpy(float),
            cls["value_b"].to_numpy(float), cls["congruence_used"].to_numpy(float),
        ).probability
    seg = rows[rows["task"] == "segmentation"].merge(
        sds, on=["venue", "paper_id"], how="inner", validate="m:m"
    )
    if len(seg):
        seg["probability"] = prob_false_claim_segmentation(
            seg["n_test"].to_numpy(float), seg["value_a"].to_numpy(float),
            seg["value_b"].to_numpy(float), seg["sd_a"].to_numpy(float),
            seg["sd_b"].to_numpy(float), seg["congruence_used"].to_numpy(float),
        ).probability
    else:
        seg = seg.assign(probability=pd.Series(dtype=float))
    out = pd.concat([cls[PROB_COLUMNS], seg[PROB_COLUMNS]], ignore_index=True)
    return out.sort_values(["paper_id", *KEYS], kind="mergesort").reset_index(drop=True)


def _share_above(probs: pd.DataFrame, cutoffs) -> pd.DataFrame:
    cut = np.asarray(cutoffs, dtype=float)
    group = ["venue", "task", *KEYS]
    frames = []
    for key, g in probs.groupby(group, sort=True, dropna=False):
        p = g["probability"].to_numpy(float)
        above = (p[None, :] > cut[:, None]).sum(axis=1)
        frame = pd.DataFrame(dict(zip(group, key)), index=range(len(cut)))
        frame["cutoff"] = cut
        frame["n_papers"] = len(p)
        frame["n_above"] = above
        frame["share_above"] = above / len(p)
        frames.append(frame)
    cols = [*group, "cutoff", "n_papers", "n_above", "share_above"]
    return pd.concat(frames, ignore_index=True)[cols] if frames else pd.DataFrame(columns=cols)


def summarise(probs: pd.DataFrame, cutoffs) -> pd.DataFrame:
    """Share of papers whose probability exceeds each cutoff (the headline numbers)."""
    return _share_above(probs, cutoffs)


def curves(probs: pd.DataFrame, grid: dict) -> pd.DataFrame:
    """Share above every cutoff on a dense grid in [0, 0.5] (Fig 5 / Fig S10)."""
    cut = np.round(np.linspace(grid["start"], grid["stop"], int(grid["num"])), 10)
    return _share_above(probs, cut)


def headline(summary: pd.DataFrame, congruence_level="median", sd_level="mean") -> pd.DataFrame:
    """Headline rows: the headline congruence level with the central SD."""
    keep = (summary["congruence_level"] == congruence_level) & summary["sd_level"].isin(
        [sd_level, "none"]
    )
    return summary[keep].reset_index(drop=True)
