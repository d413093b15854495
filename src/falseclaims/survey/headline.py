"""The headline assumption: which congruence source and level, and for segmentation which
SD source and level, the headline numbers use (:class:`falseclaims.config.Headline`, read
from config ``analysis`` / ``congruence`` / ``sd_model``; named here too, as the figure and
table code knows it), and the rows of a probabilities / summary / exceedance table under it."""

from __future__ import annotations

import pandas as pd

from falseclaims.config import Headline
from falseclaims.io.table_io import require_columns

__all__ = ["Headline", "select_headline", "select_sd_headline"]


def _sd_mask(df: pd.DataFrame, sd_source: str, sd_level: str) -> pd.Series:
    seg = df["task"] == "segmentation"
    return (~seg & (df["sd_source"] == "none")) | (
        seg & (df["sd_source"] == sd_source) & (df["sd_level"] == sd_level)
    )


def select_headline(df: pd.DataFrame, headline: Headline, name: str = "table") -> pd.DataFrame:
    """Rows of probabilities / summary / exceedance under the headline assumption."""
    require_columns(df, ["task", "congruence_source", "congruence_level", "sd_source",
                         "sd_level"], name)
    mask = (
        (df["congruence_source"] == headline.congruence_source)
        & (df["congruence_level"] == headline.congruence_level)
        & _sd_mask(df, headline.sd_source, headline.sd_level)
    )
    return df.loc[mask.fillna(False).astype(bool)].copy()


def select_sd_headline(df: pd.DataFrame, headline: Headline) -> pd.DataFrame:
    """Rows with the headline SD assumption (all congruence sources and levels)."""
    return df.loc[_sd_mask(df, headline.sd_source, headline.sd_level).fillna(False)
                  .astype(bool)].copy()
