"""Fig S10: sensitivity of the segmentation headline to the imputed SD.

:func:`figS10_sd_sensitivity` is the paper's figure ([Christodoulou2025], Fig S10: "for a
variety of predicted standard deviation values (mean, Q1 or Q3)"): one panel, the headline
SD model (the first of ``sd_model.use``, the gamma GLM by default) at Q1, mean and Q3 of its
prediction interval. Its companion :func:`figS10_sd_models` (our addition, as the congruence
sources beside Fig 5) sets the other SD models of ``sd_model.use`` (anchored and OLS
quadratics, log link, estimated sources) beside the headline, each at its mean imputed SD,
with the headline mean in black; their Q1/Q3 rows stay in ``exceedance.csv``.
"""

from __future__ import annotations

import pandas as pd
import seaborn as sns
from matplotlib.lines import Line2D

from falseclaims.config import source_label
from falseclaims.levels import LEVEL_LABELS, SD_LEVELS
from falseclaims.survey.headline import Headline
from falseclaims.io.table_io import numeric, require_columns
from falseclaims.figures.common import note_figure, panel_title
from falseclaims.figures.exceedance import EXCEEDANCE_KEYS, EXCEEDANCE_NUMBERS
from falseclaims.style import LEVEL_STYLES, PALETTE, figure, level_dashes, no_data, \
    source_colours

__all__ = ["NO_SEGMENTATION", "ONE_SD_MODEL", "figS10_sd_models", "figS10_sd_sensitivity"]

NO_SEGMENTATION = ("no segmentation papers: the SD model applies to segmentation (mean Dice) "
                   "only")
ONE_SD_MODEL = "one SD model in sd_model.use: no other model to compare with the headline"


def _segmentation(exceedance: pd.DataFrame, headline: Headline) -> pd.DataFrame:
    """The segmentation curves at the headline congruence (every SD model and level)."""
    require_columns(exceedance, EXCEEDANCE_KEYS, "exceedance")
    e = exceedance
    seg = e[(e["task"] == "segmentation")
            & (e["congruence_source"] == headline.congruence_source)
            & (e["congruence_level"] == headline.congruence_level)][EXCEEDANCE_KEYS]
    return numeric(seg, EXCEEDANCE_NUMBERS)


def _draw(ax, d, colours, levels, sizes):
    tidy = d.assign(percent_above=100 * d["share_above"]).sort_values(
        ["sd_source", "sd_level", "cutoff"], kind="stable")
    sns.lineplot(data=tidy, x="cutoff", y="percent_above", hue="sd_source", style="sd_level",
                 hue_order=list(dict.fromkeys(tidy["sd_source"])), style_order=levels,
                 palette=colours, dashes=level_dashes(levels), size="sd_source", sizes=sizes,
                 estimator=None, units=None, drawstyle="steps-post", legend=False, ax=ax)


def _panel(data: pd.DataFrame, headline: Headline, cutoff: float, title: str):
    """One panel of % of papers above each cutoff, the headline SD model in black and every
    other in its colour of every figure; the figure and the colours drawn."""
    fig, ax = figure("single", height=82)
    # the headline first (legend), then the others as listed
    sources = sorted(dict.fromkeys(data["sd_source"]), key=lambda x: x != headline.sd_source)
    others = source_colours([s for s in sources if s != headline.sd_source])
    colours = {s: PALETTE["black"] if s == headline.sd_source else others[s] for s in sources}
    sizes = {s: 1.4 if s == headline.sd_source else 1.1 for s in sources}
    if data.empty:
        no_data(ax)
    else:
        levels = [lvl for lvl in SD_LEVELS if lvl in set(data["sd_level"])]
        _draw(ax, data, colours, levels, sizes)
        ax.set_xlim(0, float(data["cutoff"].max()))
    ax.axvline(cutoff, color=PALETTE["gray"], lw=0.6, zorder=0)
    ax.set_ylim(0, 100)
    ax.set_xlabel("Cutoff of the probability of a false claim")
    ax.set_ylabel("% of papers with P > cutoff")
    n = int(data["n_papers"].max()) if len(data) else 0
    # sources named in words ("MSD reference"), as Fig 4 and the front page name them
    level = LEVEL_LABELS.get(headline.congruence_level, headline.congruence_level)
    ax.set_title(f"{panel_title('segmentation', n)}\n{level} congruence "
                 f"({source_label(headline.congruence_source)})\n{title}", fontsize="medium")
    return fig, colours


def figS10_sd_sensitivity(exceedance: pd.DataFrame, headline: Headline,
                          cutoff: float = 0.05):
    """Fig S10 as the paper draws it: % of segmentation papers above each cutoff at the
    headline congruence, the headline SD model at Q1 / mean / Q3 (line style)."""
    seg = _segmentation(exceedance, headline)
    data = seg[seg["sd_source"] == headline.sd_source].reset_index(drop=True)
    if not (exceedance["task"] == "segmentation").any():
        # a classification-only venue: no empty axis and legend, the reason once
        return note_figure(NO_SEGMENTATION), data
    fig, colours = _panel(data, headline, cutoff,
                          f"SD model {source_label(headline.sd_source)}")
    _legend(fig, {headline.sd_source: colours.get(headline.sd_source, PALETTE["black"])},
            models=False)
    return fig, data


def figS10_sd_models(exceedance: pd.DataFrame, headline: Headline, cutoff: float = 0.05):
    """Companion of Fig S10 (our addition): every SD model of ``sd_model.use`` at its mean
    imputed SD, the headline's in black, at the headline congruence."""
    seg = _segmentation(exceedance, headline)
    data = seg[seg["sd_level"] == "mean"].reset_index(drop=True)
    if not (exceedance["task"] == "segmentation").any():
        return note_figure(NO_SEGMENTATION), data
    if (data["sd_source"] == headline.sd_source).all() and len(data):
        return note_figure(ONE_SD_MODEL), data.iloc[0:0]
    fig, colours = _panel(data, headline, cutoff, "mean imputed SD")
    _legend(fig, colours, levels=False)
    return fig, data


def _legend(fig, colours: dict, models: bool = True, levels: bool = True) -> None:
    """SD models (colours) and imputed-SD levels (line styles), each group led by its name,
    below the panel."""
    handles = []
    if models:
        handles += [Line2D([], [], ls="", label="SD model:")] + [
            Line2D([], [], color=c, lw=1.3, label=source_label(s)) for s, c in colours.items()]
    if levels:
        handles += [Line2D([], [], ls="", label="imputed SD:")] + [
            Line2D([], [], color="black", ls=LEVEL_STYLES[lvl], label=LEVEL_LABELS[lvl])
            for lvl in SD_LEVELS]
    fig.legend(handles=handles, loc="outside lower center", ncols=2 if models else 4,
               handlelength=2.2, columnspacing=1.2)
