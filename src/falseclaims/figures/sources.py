"""The congruence sources compared: the companion of Fig 5.

Fig 5 ([Christodoulou2025]) draws the paper's own congruence only. This figure puts every
congruence source of ``congruence.use`` side by side: one panel per task (rows) and
congruence level (columns, Q1 / median / Q3), one line per source in the source's colour
(:func:`falseclaims.style.source_colours`). A classification congruence outside its feasible
range [A + B - 1, min(A, B)] is moved to the nearer bound ([Christodoulou2025], Methods); the
legend gives, per source, the share of classification papers where that happened, because a
source clamped for nearly every paper (``sklearn``: to min(A, B)) no longer varies with its
own values.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib.lines import Line2D

from falseclaims.config import source_label
from falseclaims.levels import CONGRUENCE_LEVELS, LEVEL_LABELS
from falseclaims.survey.headline import Headline, select_sd_headline
from falseclaims.io.table_io import numeric, require_columns
from falseclaims.figures.common import panel_letter, panel_tasks, panel_title
from falseclaims.figures.exceedance import EXCEEDANCE_KEYS, EXCEEDANCE_NUMBERS
from falseclaims.style import LEVEL_STYLES, PALETTE, figure, level_dashes, no_data, \
    source_colours

CLAMP_COLUMNS = ["n_rows", "n_clamped", "n_clamped_upper", "n_clamped_lower",
                 "share_clamped"]
KEYS = ["task", "congruence_source", "congruence_level"]
HALO = 0.6  # line width step between sources (pt): a curve hidden by another still shows


def clamp_shares(probabilities: pd.DataFrame, headline: Headline) -> pd.DataFrame:
    """Per task x congruence source x level: papers (``n_rows``), how many had their assumed
    congruence moved to a bound, to the upper bound min(A, B), to the lower bound
    A + B - 1, and the share moved. Segmentation rows (a correlation, never moved) at the
    headline SD, so each paper counts once."""
    require_columns(probabilities, [*KEYS, "paper_id", "value_a", "value_b",
                                    "congruence_used", "congruence_clamped", "sd_source",
                                    "sd_level"], "probabilities")
    d = select_sd_headline(probabilities, headline)
    clamped = d["congruence_clamped"].astype("boolean").fillna(False).astype(bool)
    used = pd.to_numeric(d["congruence_used"])
    upper = np.minimum(pd.to_numeric(d["value_a"]), pd.to_numeric(d["value_b"]))
    d = d.assign(clamped=clamped, upper=clamped & np.isclose(used, upper, rtol=0, atol=1e-12))
    d["lower"] = d["clamped"] & ~d["upper"]
    g = d.groupby(KEYS, sort=False)
    out = pd.DataFrame({"n_rows": g.size(), "n_clamped": g["clamped"].sum(),
                        "n_clamped_upper": g["upper"].sum(),
                        "n_clamped_lower": g["lower"].sum()}).reset_index()
    out["share_clamped"] = out["n_clamped"] / out["n_rows"]
    return out.astype({c: int for c in CLAMP_COLUMNS[:-1]})


def clamp_label(source: str, shares: pd.DataFrame) -> str:
    """Legend entry of a source: its name and the range over the levels of the share of
    classification papers whose congruence was clamped, with the bound most of them hit."""
    c = shares[(shares["task"] == "classification") & (shares["congruence_source"] == source)]
    if c.empty or not (c["n_rows"] > 0).any():
        return f"{source_label(source)}: segmentation only"
    lo, hi = 100 * c["share_clamped"].min(), 100 * c["share_clamped"].max()
    if hi == 0:
        return f"{source_label(source)}: never clamped"
    span = f"{lo:.0f}%" if round(lo) == round(hi) else f"{lo:.0f}–{hi:.0f}%"
    bound = "min(A, B)" if c["n_clamped_upper"].sum() >= c["n_clamped_lower"].sum() \
        else "A + B − 1"
    return f"{source_label(source)}: clamped for {span}, mostly to {bound}"


def fig5_congruence_sources(exceedance: pd.DataFrame, probabilities: pd.DataFrame,
                            headline: Headline, cutoff: float = 0.05, tasks=None):
    """Every congruence source side by side (see module docstring); segmentation at the
    headline SD; a row of panels per task of ``tasks`` (:func:`panel_tasks`). Data: the exceedance curves with the clamping counts of their (task, source,
    level)."""
    require_columns(exceedance, EXCEEDANCE_KEYS, "exceedance")
    data = numeric(select_sd_headline(exceedance, headline)[EXCEEDANCE_KEYS],
                   EXCEEDANCE_NUMBERS)
    shares = clamp_shares(probabilities, headline)
    data = data.merge(shares, on=KEYS, how="left", validate="m:1")
    data[CLAMP_COLUMNS[:-1]] = data[CLAMP_COLUMNS[:-1]].fillna(0).astype(int)
    # the headline source (the paper's) first, then the others as listed
    sources = list(dict.fromkeys([headline.congruence_source, *data["congruence_source"]]))
    sources = [s for s in sources if (data["congruence_source"] == s).any()]
    colours = source_colours(sources)
    levels = [lvl for lvl in LEVEL_STYLES if lvl in set(data["congruence_level"])]
    levels += [lvl for lvl in dict.fromkeys(data["congruence_level"]) if lvl not in levels]
    levels = levels or list(CONGRUENCE_LEVELS)
    rows = panel_tasks(tasks)
    # one row of panels: the height of a row of the two-row figure, and its legend
    fig, axes = figure("double", height=130 if len(rows) > 1 else 80, nrows=len(rows),
                       ncols=len(levels), squeeze=False, sharex=True, sharey=True)
    dashes = level_dashes(levels)
    for i, task in enumerate(rows):
        for j, lvl in enumerate(levels):
            ax = axes[i, j]
            panel_letter(ax, i * len(levels) + j)
            d = data[(data["task"] == task) & (data["congruence_level"] == lvl)]
            if i == 0:
                ax.set_title(f"{LEVEL_LABELS.get(lvl, lvl)} congruence")
            _panel(ax, d, sources, colours, dashes[lvl], lvl, cutoff,
                   float(data["cutoff"].max()) if len(data) else 1.0)
            if j == 0:
                n = int(d["n_papers"].max()) if len(d) else 0
                ax.set_ylabel(f"{panel_title(task, n)}\n"
                              "% of papers with P > cutoff")
                ax.tick_params(labelleft=True)
        axes[-1, len(levels) // 2].set_xlabel("Cutoff of the probability of a false claim")
    handles = [Line2D([], [], color=colours[s], lw=1.5, label=clamp_label(s, shares))
               for s in sources]
    if handles:
        fig.legend(handles=handles, loc="outside lower center", ncols=min(len(handles), 2),
                   title=CLAMP_NOTE, title_fontsize="small", alignment="left")
    return fig, data.reset_index(drop=True)


CLAMP_NOTE = ("congruence source; clamped: share of classification papers whose assumed "
              "congruence lay outside [A + B − 1, min(A, B)]\nand was moved to the nearer bound "
              "(range over Q1, median, Q3; a segmentation correlation is never moved)")


def _panel(ax, d, sources, colours, dash, lvl, cutoff, x_max) -> None:
    """One task x level: a step line per source (seaborn), the cutoff in gray."""
    ax.set_ylim(0, 100)
    if d.empty:
        no_data(ax)
        return
    tidy = d.assign(percent_above=100 * d["share_above"]).sort_values(
        ["congruence_source", "cutoff"], kind="stable")
    # the headline source drawn last (on top, thinnest), the others below it, wider
    drawn = [s for s in reversed(sources) if (tidy["congruence_source"] == s).any()]
    sns.lineplot(data=tidy, x="cutoff", y="percent_above", hue="congruence_source",
                 hue_order=drawn, palette=colours, estimator=None, units=None, sort=True,
                 drawstyle="steps-post", legend=False, ax=ax)
    for k, line in enumerate(ax.lines):
        # sources giving the same curve: each drawn thinner than the one below, so all show
        line.set_linewidth(1.0 + HALO * (len(drawn) - 1 - k))
        if dash:  # the level's line style, as in Fig 5
            line.set_dashes(dash)
    ax.axvline(cutoff, color=PALETTE["gray"], lw=0.6, zorder=0)
    ax.set_xlim(0, x_max)
    ax.set_ylim(0, 100)
    ax.set_xlabel("")
    ax.set_ylabel("")
