"""Fig S10: sensitivity of the segmentation headline to the imputed SD.

Panel a is the paper's figure ([Christodoulou2025], Fig S10): the headline SD model (the
first of ``sd_model.use``, the gamma GLM by default) at Q1, mean and Q3 of its prediction
interval. Panel b sets the other SD models of ``sd_model.use`` (anchored and OLS quadratics,
log link, estimated sources) beside it, each at its mean imputed SD, with the headline mean
in black for reference; their Q1/Q3 rows stay in ``exceedance.csv``.
"""

from __future__ import annotations

import pandas as pd
import seaborn as sns
from matplotlib.lines import Line2D

from falseclaims.levels import LEVEL_LABELS, SD_LEVELS
from falseclaims.survey.headline import Headline
from falseclaims.io.table_io import numeric, require_columns
from falseclaims.figures.common import note_figure, panel_letter
from falseclaims.figures.exceedance import EXCEEDANCE_KEYS, EXCEEDANCE_NUMBERS
from falseclaims.style import LEVEL_STYLES, PALETTE, figure, level_dashes, no_data, \
    source_colours

__all__ = ["NO_SEGMENTATION", "figS10_sd_sensitivity"]

NO_SEGMENTATION = ("no segmentation papers: the SD model applies to segmentation (mean Dice) "
                   "only")


def _panel_data(exceedance: pd.DataFrame, headline: Headline) -> pd.DataFrame:
    """Rows drawn, with ``panel``: a = headline model at every level, b = every SD model at
    its mean (the headline's mean drawn again as the reference)."""
    e = exceedance
    seg = e[(e["task"] == "segmentation")
            & (e["congruence_source"] == headline.congruence_source)
            & (e["congruence_level"] == headline.congruence_level)][EXCEEDANCE_KEYS]
    seg = numeric(seg, EXCEEDANCE_NUMBERS)
    a = seg[seg["sd_source"] == headline.sd_source].assign(panel="a")
    b = seg[seg["sd_level"] == "mean"].assign(panel="b")
    if (b["sd_source"] == headline.sd_source).all():
        b = b.iloc[0:0]
    return pd.concat([a, b], ignore_index=True)


def _draw(ax, d, colours, levels, sizes):
    tidy = d.assign(percent_above=100 * d["share_above"]).sort_values(
        ["sd_source", "sd_level", "cutoff"], kind="stable")
    sns.lineplot(data=tidy, x="cutoff", y="percent_above", hue="sd_source", style="sd_level",
                 hue_order=list(dict.fromkeys(tidy["sd_source"])), style_order=levels,
                 palette=colours, dashes=level_dashes(levels), size="sd_source", sizes=sizes,
                 estimator=None, units=None, drawstyle="steps-post", legend=False, ax=ax)


def figS10_sd_sensitivity(exceedance: pd.DataFrame, headline: Headline,
                          cutoff: float = 0.05):
    """Fig S10: % of segmentation papers above each cutoff at the headline congruence;
    a: headline SD model at Q1 / mean / Q3, b: the alternative SD models at their mean."""
    require_columns(exceedance, EXCEEDANCE_KEYS, "exceedance")
    data = _panel_data(exceedance, headline)
    if not (exceedance["task"] == "segmentation").any():
        # a classification-only venue: no empty axis and legend, the reason once
        return note_figure(NO_SEGMENTATION), data
    panels = ["a", "b"] if (data["panel"] == "b").any() else ["a"]
    fig, axes = figure("double" if len(panels) > 1 else "single", height=82,
                       ncols=len(panels), squeeze=False, sharey=True)
    sources = list(dict.fromkeys(data["sd_source"]))
    # the headline model in black; the others in their colour of every figure
    others = source_colours([s for s in sources if s != headline.sd_source])
    colours = {s: PALETTE["black"] if s == headline.sd_source else others[s] for s in sources}
    sizes = {s: 1.4 if s == headline.sd_source else 1.1 for s in sources}
    n = int(data["n_papers"].max()) if len(data) else 0
    titles = {"a": f"{headline.sd_source} (headline): Q1, mean, Q3",
              "b": "other SD models: mean imputed SD"}
    for i, (ax, panel) in enumerate(zip(axes[0], panels)):
        d = data[data["panel"] == panel]
        ax.set_title(titles[panel])
        if len(panels) > 1:
            panel_letter(ax, i)
        if d.empty:
            no_data(ax)
        else:
            levels = [lvl for lvl in SD_LEVELS if lvl in set(d["sd_level"])]
            _draw(ax, d, colours, levels, sizes)
            ax.set_xlim(0, float(d["cutoff"].max()))
        ax.axvline(cutoff, color=PALETTE["gray"], lw=0.6, zorder=0)
        ax.set_ylim(0, 100)
        ax.set_xlabel("Cutoff of the probability of a false claim")
        ax.set_ylabel("")
    axes[0, 0].set_ylabel("% of papers with P > cutoff")
    sep = ", " if len(panels) > 1 else "\n"
    fig.suptitle(f"Segmentation (n = {n} papers){sep}{headline.congruence_level} congruence "
                 f"({headline.congruence_source})", fontsize="medium")
    _legend(fig, colours, len(panels) > 1)
    return fig, data


def _legend(fig, colours: dict, wide: bool) -> None:
    """SD models (colours) and imputed-SD levels (line styles), each group led by its name."""
    models = [Line2D([], [], ls="", label="SD model:")] + [
        Line2D([], [], color=c, lw=1.3, label=s) for s, c in colours.items()]
    levels = [Line2D([], [], ls="", label="imputed SD:")] + [
        Line2D([], [], color="black", ls=LEVEL_STYLES[lvl], label=LEVEL_LABELS[lvl])
        for lvl in SD_LEVELS]
    size = max(len(models), len(levels))
    groups = [g + [Line2D([], [], ls="", label="")] * (size - len(g)) for g in (models, levels)]
    if wide:  # one row per group: legends fill column by column
        handles, ncols = [g[j] for j in range(size) for g in groups], size
    else:
        handles, ncols = groups[0] + groups[1], 2
    fig.legend(handles=handles, loc="outside lower center", ncols=ncols, handlelength=2.2,
               columnspacing=1.2 if wide else 2.0)
