"""The exceedance stage: the share of papers whose probability exceeds each cutoff, at the
configured cutoffs (summary.csv, the headline numbers) and on a dense grid (exceedance.csv,
the exceedance curves of Fig 5 and Fig S10)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from falseclaims.survey.probabilities import KEYS
from falseclaims.io.table_io import read_table


def share_above(probs: pd.DataFrame, cutoffs) -> pd.DataFrame:
    """Share of papers whose probability exceeds each cutoff, per venue, task and assumption
    (at the configured cutoffs: the headline numbers of summary.csv)."""
    cut = np.asarray(cutoffs, dtype=float)
    group = ["venue", "task", *KEYS]
    frames = []
    for key, g in probs.groupby(group, sort=True, dropna=False, observed=True):
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


# what share_above and exceedance_curve read of probabilities.csv
SHARE_COLUMNS = ["venue", "task", *KEYS, "probability"]


def read_for_shares(path) -> pd.DataFrame:
    """The columns of probabilities.csv that :func:`share_above` and :func:`exceedance_curve`
    use, the texts as categoricals (10^6 rows: a third of the memory of the whole table)."""
    return read_table(path, columns=SHARE_COLUMNS, categories=SHARE_COLUMNS[:-1])


def exceedance_curve(probs: pd.DataFrame, grid: dict) -> pd.DataFrame:
    """The exceedance curve: the share of papers whose probability exceeds each cutoff of a
    dense grid in [0, 0.5] (``analysis.exceedance_grid``; Fig 5 / Fig S10)."""
    cut = np.round(np.linspace(grid["start"], grid["stop"], int(grid["num"])), 10)
    return share_above(probs, cut)
