"""SD imputation: the SD of both top-2 methods of every segmentation paper, per SD
source and level (vectorised over papers; one tidy DataFrame)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from falseclaims.levels import SD_LEVELS
from falseclaims.sd_model import SDModel


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
