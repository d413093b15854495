"""The headline assumption: which congruence source and level, and for segmentation which
SD source and level, the headline numbers use (config ``analysis`` / ``congruence`` /
``sd_model``), and the rows of a probabilities / summary / exceedance table under it."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from falseclaims.config import headline_assumption
from falseclaims.io.table_io import require_columns

LEVEL_LABELS = {"q1": "Q1", "median": "median", "mean": "mean", "q3": "Q3", "given": "given"}


@dataclass(frozen=True)
class Headline:
    """Which assumption the headline numbers use (config ``analysis`` / ``congruence`` /
    ``sd_model``): congruence source + level and, for segmentation, SD source + level."""

    congruence_source: str
    congruence_level: str
    sd_source: str
    sd_level: str

    @classmethod
    def from_config(cls, cfg: dict) -> Headline:
        return cls(**headline_assumption(cfg))

    def describe(self, task: str) -> str:
        text = f"{LEVEL_LABELS.get(self.congruence_level, self.congruence_level)} congruence " \
               f"({self.congruence_source})"
        if task == "segmentation":
            text += f", {LEVEL_LABELS.get(self.sd_level, self.sd_level)} imputed SD " \
                    f"({self.sd_source})"
        return text


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
