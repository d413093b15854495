"""Helpers shared by the figure modules: headline selection, populations, labels."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from falseclaims.config import headline_assumption
from falseclaims.survey.eligibility import unreadable

TASK_LABELS = {"classification": "Classification", "segmentation": "Segmentation",
               "not_recorded": "Task not recorded"}  # tasks.NOT_RECORDED: design-only sheets
METRIC_NAMES = {"classification": "Accuracy", "segmentation": "DSC"}
# what an empty reporting-practice panel says (these figures count papers in scope)
NO_PAPERS = "no papers in scope"
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


def require_columns(df: pd.DataFrame, columns, name: str) -> None:
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise ValueError(f"{name}: missing columns {missing}; has {list(df.columns)}")


def numeric(df: pd.DataFrame, columns) -> pd.DataFrame:
    """A copy with ``columns`` as numbers: a table read from an empty CSV (header only) has
    text columns, which cannot be summarised."""
    return df.assign(**{c: pd.to_numeric(df[c]) for c in columns if c in df})


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


def population(papers: pd.DataFrame, which: str) -> pd.DataFrame:
    """Papers a reporting-practice figure or table counts: the boxes of the selection flow
    diagram (``survey.eligibility``), so a population has one count everywhere.

    ``all``: every paper found; ``in_scope``: readable (no unreadable cell, venues read with
    ``on_bad_cell: exclude``) and main task classification or segmentation;
    ``quantitative``: in scope and not reporting values only in figures/supplements
    ([Christodoulou2025], Methods, "Data analysis subset").
    """
    require_columns(papers, ["task", "in_scope", "values_only_in_figures"], "papers")
    in_scope = papers["in_scope"].astype("boolean").fillna(False).astype(bool) \
        & ~unreadable(papers)
    if which == "in_scope":
        mask = in_scope
    elif which == "quantitative":
        only_fig = papers["values_only_in_figures"].astype("boolean").fillna(False).astype(bool)
        mask = in_scope & ~only_fig
    elif which == "all":
        mask = pd.Series(True, index=papers.index)
    else:
        raise ValueError(f"population must be 'all', 'in_scope' or 'quantitative'; got {which!r}")
    return papers.loc[mask].copy()


def label_first_drawn(axes, drawn, ylabel: str = "") -> None:
    """Panels sharing y show tick labels on the first panel only; when that panel is empty
    ("no eligible papers"), put the y tick labels and ``ylabel`` on the first drawn panel."""
    first = next((ax for ax, d in zip(axes, drawn) if d), None)
    if first is None:
        return
    first.tick_params(labelleft=True)
    if ylabel:
        for ax in axes:
            ax.set_ylabel("")
        first.set_ylabel(ylabel)
        first.yaxis.label.set_visible(True)  # hidden on inner panels of shared axes


def panel_letter(ax, i: int, y: float = 1.02) -> None:
    """Bold a, b, c, ... at the top left, just above the axes (``y``, axes fraction: small
    panels need a larger one to keep the letter off the top tick label)."""
    ax.text(-0.02, y, "abcdefgh"[i], transform=ax.transAxes, fontweight="bold",
            ha="right", va="bottom")


def pct(x: float) -> str:
    return "–" if x is None or not np.isfinite(x) else f"{100 * x:.0f}%"


def floor_for_markers(ax, radius_pt: float, y_min: float = 0.0, pad_px: float = 1.0) -> None:
    """Lower the bottom of the y-axis until a marker of ``radius_pt`` at ``y_min`` (the
    lowest point, e.g. a tie at delta 0) lies wholly inside the axes. Needs the final
    layout (a drawn figure); keeps the top."""
    lo, hi = ax.get_ylim()
    r = radius_pt * ax.figure.dpi / 72 + pad_px
    height = ax.bbox.height
    if hi <= y_min or height <= 2 * r:
        return
    # y_min lies r pixels above the bottom: (y_min - lo) / (hi - lo) = r / height
    needed = (y_min * height - r * hi) / (height - r)
    if lo > needed:
        ax.set_ylim(needed, hi)
