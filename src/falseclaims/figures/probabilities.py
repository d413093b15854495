"""Per-paper probabilities: Fig 4 (delta vs n), Fig 5 / S10 (cumulative shares above each
cutoff), and the venue comparison of Fig 5."""

from __future__ import annotations

import pandas as pd
from matplotlib.lines import Line2D

from falseclaims.figures.common import (
    LEVEL_LABELS,
    METRIC_NAMES,
    TASK_LABELS,
    Headline,
    panel_letter,
    require_columns,
    select_headline,
    select_sd_headline,
)
from falseclaims.style import CYCLE, LEVEL_STYLES, PALETTE, figure

CURVE_KEYS = ["venue", "task", "congruence_source", "congruence_level", "sd_source", "sd_level",
              "cutoff", "n_papers", "n_above", "share_above"]


def fig4_delta_vs_size(probabilities: pd.DataFrame, headline: Headline,
                       threshold: float = 0.05):
    """Fig 4: reported delta vs test-set size (log x); colour/marker by P above threshold."""
    require_columns(probabilities, ["venue", "paper_id", "task", "n_test", "delta",
                                    "probability"], "probabilities")
    data = select_headline(probabilities, headline, "probabilities")
    data = data[["venue", "paper_id", "task", "n_test", "value_a", "value_b", "delta",
                 "congruence_source", "congruence_level", "congruence_used", "sd_source",
                 "sd_level", "probability"]].copy()
    data["above_threshold"] = data["probability"] > threshold
    data["threshold"] = threshold
    tasks = [t for t in TASK_LABELS if t in set(data["task"])] or ["classification"]
    fig, axes = figure("double", height=72, ncols=len(tasks), squeeze=False)
    styles = {True: (PALETTE["vermillion"], "o", f"P > {100 * threshold:g}%"),
              False: (PALETTE["blue"], "^", f"P ≤ {100 * threshold:g}%")}
    for i, (ax, task) in enumerate(zip(axes[0], tasks)):
        d = data[data["task"] == task]
        for above, (colour, marker, label) in styles.items():
            s = d[d["above_threshold"] == above]
            ax.scatter(s["n_test"].astype(float), s["delta"].astype(float), s=14, color=colour,
                       marker=marker, alpha=0.75, linewidths=0.3, edgecolors="white",
                       label=f"{label}: {len(s)} ({100 * len(s) / max(len(d), 1):.0f}%)",
                       zorder=3)
        ax.set_xscale("log")
        ax.set_xlabel("Test-set size (log scale)")
        ax.set_ylabel(f"Δ {METRIC_NAMES[task]} (top-1 minus top-2)")
        ax.set_title(f"{TASK_LABELS[task]} (n = {len(d)} papers)")
        ax.set_ylim(bottom=0)
        ax.legend(loc="upper right", handletextpad=0.2)
        ax.text(0.01, -0.2, headline.describe(task), transform=ax.transAxes, fontsize="x-small",
                color=PALETTE["gray"], va="top")
        panel_letter(ax, i)
    return fig, data


def _style_legend(fig, colours: dict, styles: dict, colour_title: str, style_title: str,
                  ncols: int = 6):
    handles = []
    if len(colours) > 1:
        handles += [Line2D([], [], color=c, label=f"{k}") for k, c in colours.items()]
    if len(styles) > 1:
        handles += [Line2D([], [], color="black", ls=ls,
                           label=f"{LEVEL_LABELS.get(k, k)} {style_title}")
                    for k, ls in styles.items()]
    if handles:
        fig.legend(handles=handles, loc="outside lower center", ncols=min(len(handles), ncols),
                   handlelength=2.2, title=f"colour: {colour_title}" if len(colours) > 1
                   else None)


def _curve_panels(curves, group_col, style_col, panels, title_fn, threshold, n_label,
                  colour_title):
    """Shared drawing for Fig 5 / S10 / venue comparison: one line per group x style."""
    width = "double" if len(panels) > 1 else "single"
    fig, axes = figure(width, height=80 if width == "double" else 90, ncols=len(panels),
                       squeeze=False, sharey=True)
    # one colour per group across all panels, so a source keeps its colour everywhere
    colours = {g: CYCLE[j % len(CYCLE)]
               for j, g in enumerate(dict.fromkeys(curves[group_col]))}
    all_colours, all_styles = {}, {}
    for i, (ax, task) in enumerate(zip(axes[0], panels)):
        d = curves[curves["task"] == task]
        groups = list(dict.fromkeys(d[group_col]))
        levels = [lvl for lvl in LEVEL_STYLES if lvl in set(d[style_col])]
        levels += [lvl for lvl in dict.fromkeys(d[style_col]) if lvl not in levels]
        styles = {lvl: LEVEL_STYLES.get(lvl, "-.") for lvl in levels}
        all_colours.update({g: colours[g] for g in groups})
        all_styles.update(styles)
        for g in groups:
            for lvl in levels:
                c = d[(d[group_col] == g) & (d[style_col] == lvl)].sort_values("cutoff")
                if c.empty:
                    continue
                ax.plot(c["cutoff"], 100 * c["share_above"], color=colours[g],
                        ls=styles[lvl], lw=1.3 if lvl in ("median", "mean") else 1.0,
                        drawstyle="steps-post")
        ax.axvline(threshold, color=PALETTE["gray"], lw=0.6, zorder=0)
        ax.set_xlim(0, float(d["cutoff"].max()) if len(d) else 0.5)
        ax.set_ylim(0, 100)
        ax.set_xlabel("Cutoff of the probability of a false claim")
        ax.set_title(title_fn(task, d))
        if len(panels) > 1:
            panel_letter(ax, i)
    _style_legend(fig, all_colours, all_styles, colour_title, n_label,
                  ncols=6 if width == "double" else 2)
    axes[0][0].set_ylabel("% of papers with P > cutoff")
    return fig


def _n_title(task, d):
    n = d["n_papers"].max() if len(d) else 0
    return f"{TASK_LABELS[task]} (n = {int(n)} papers)"


def fig5_cumulative(curves: pd.DataFrame, headline: Headline, threshold: float = 0.05):
    """Fig 5: % of papers above each cutoff; colour = congruence source, line style = level.
    Segmentation rows use the headline SD assumption."""
    require_columns(curves, CURVE_KEYS, "curves")
    data = select_sd_headline(curves, headline)[CURVE_KEYS]
    panels = [t for t in TASK_LABELS if t in set(data["task"])]
    fig = _curve_panels(data, "congruence_source", "congruence_level", panels, _n_title,
                        threshold, "congruence", "congruence source")
    return fig, data.reset_index(drop=True)


def figS10_sd_sensitivity(curves: pd.DataFrame, headline: Headline, threshold: float = 0.05):
    """Fig S10: segmentation, headline congruence; colour = SD source, style = SD level."""
    require_columns(curves, CURVE_KEYS, "curves")
    data = curves[(curves["task"] == "segmentation")
                  & (curves["congruence_source"] == headline.congruence_source)
                  & (curves["congruence_level"] == headline.congruence_level)][CURVE_KEYS]
    if data.empty:
        raise ValueError("curves: no segmentation rows under the headline congruence "
                         f"({headline.congruence_source}, {headline.congruence_level})")
    fig = _curve_panels(data, "sd_source", "sd_level", ["segmentation"], _n_title, threshold,
                        "imputed SD", "SD model")
    return fig, data.reset_index(drop=True)


def fig5_venues(curves_by_venue: dict[str, pd.DataFrame], headline: Headline,
                labels: dict[str, str] | None = None, threshold: float = 0.05):
    """Venue comparison: one headline curve per venue, panel per task."""
    labels = labels or {}
    parts = []
    for venue, c in curves_by_venue.items():
        require_columns(c, CURVE_KEYS, f"curves ({venue})")
        h = select_headline(c, headline, f"curves ({venue})")
        parts.append(h.assign(venue_label=labels.get(venue, venue)))
    data = pd.concat(parts, ignore_index=True)
    panels = [t for t in TASK_LABELS if t in set(data["task"])]
    fig = _curve_panels(data, "venue_label", "congruence_level", panels,
                        lambda t, d: TASK_LABELS[t], threshold, "congruence", "venue")
    for ax, task in zip(fig.axes, panels):
        ax.text(0.0, -0.2, "Headline: " + headline.describe(task).replace(", ", ",\n"),
                transform=ax.transAxes, fontsize="x-small", color=PALETTE["gray"], va="top")
    return fig, data
