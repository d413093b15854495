"""Survey probabilities and their summaries: one probability per paper x congruence x SD
assumption, and the share of papers above each cutoff. Vectorised over papers."""

from __future__ import annotations

import numpy as np
import pandas as pd

from falseclaims.stats import prob_false_claim_classification, prob_false_claim_segmentation

KEYS = ["congruence_source", "congruence_level", "sd_source", "sd_level"]
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
    cls["probability"] = np.nan  # a venue without classification papers keeps the column
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


def summarize(probs: pd.DataFrame, cutoffs) -> pd.DataFrame:
    """Share of papers whose probability exceeds each cutoff (the headline numbers)."""
    return _share_above(probs, cutoffs)


def curves(probs: pd.DataFrame, grid: dict) -> pd.DataFrame:
    """Share above every cutoff on a dense grid in [0, 0.5] (Fig 5 / Fig S10)."""
    cut = np.round(np.linspace(grid["start"], grid["stop"], int(grid["num"])), 10)
    return _share_above(probs, cut)
