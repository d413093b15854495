"""Congruence assignment: the congruence of every eligible paper, per congruence source
and level, clamped to the feasible range in classification (vectorised over papers; one
tidy DataFrame)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from falseclaims.levels import CONGRUENCE_LEVELS
from falseclaims.stats import classification_congruence_bounds


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
