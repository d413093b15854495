"""The exceedance stage: the share of papers whose probability exceeds each cutoff, at the
configured cutoffs (summary.csv, the headline numbers) and on a dense grid (exceedance.csv,
the exceedance curves of Fig 5 and Fig S10)."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from falseclaims.config import ExceedanceGrid, from_params
from falseclaims.survey.headline import Headline, select_headline
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


def mark_headline(summary: pd.DataFrame, headline: Headline) -> pd.DataFrame:
    """``summary`` with a column ``headline``: True on the rows of the headline assumption
    (:func:`~falseclaims.figures.common.select_headline`, the rows the report's front page
    and the run's closing lines state), False on the sensitivity analyses."""
    chosen = select_headline(summary, headline, "summary").index
    return summary.assign(headline=summary.index.isin(chosen))


# what share_above and exceedance_curve read of probabilities.csv
SHARE_COLUMNS = ["venue", "task", *KEYS, "probability"]


def read_for_shares(path) -> pd.DataFrame:
    """The columns of probabilities.csv that :func:`share_above` and :func:`exceedance_curve`
    use, the texts as categoricals (10^6 rows: a third of the memory of the whole table)."""
    return read_table(path, columns=SHARE_COLUMNS, categories=SHARE_COLUMNS[:-1])


def exceedance_curve(probs: pd.DataFrame, grid: ExceedanceGrid | Mapping) -> pd.DataFrame:
    """The exceedance curve: the share of papers whose probability exceeds each cutoff of a
    dense grid in [0, 0.5] (``analysis.exceedance_grid``, or that block as the exceedance
    rule's params; Fig 5 / Fig S10)."""
    grid = from_params(grid, ExceedanceGrid)
    cut = np.round(np.linspace(grid.start, grid.stop, grid.num), 10)
    return share_above(probs, cut)
