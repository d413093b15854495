"""Per-paper probabilities: Fig 4 (delta vs n), Fig 5 (cumulative shares above each
cutoff), and the venue comparison of Fig 5 (Fig S10: ``sd_sensitivity``)."""

from __future__ import annotations

import math
import textwrap

import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib.lines import Line2D

from falseclaims.figures.common import (
    LEVEL_LABELS,
    METRIC_NAMES,
    TASK_LABELS,
    TASKS,
    Headline,
    floor_for_markers,
    label_first_drawn,
    numeric,
    panel_letter,
    require_columns,
    select_headline,
    select_sd_headline,
)
from falseclaims.style import (
    CYCLE,
    LEVEL_STYLES,
    MARKER_ALPHA,
    MM,
    NO_DATA,
    PALETTE,
    figure,
    level_dashes,
    log_ticks,
    no_data,
    source_colours,
)
from falseclaims.style import settings as figure_settings

CURVE_KEYS = ["venue", "task", "congruence_source", "congruence_level", "sd_source", "sd_level",
              "cutoff", "n_papers", "n_above", "share_above"]
CURVE_NUMBERS = ["cutoff", "n_papers", "n_above", "share_above"]
FIG4_MARKER = 14  # dot area, pt^2
FIG4_COLUMNS = ["venue", "paper_id", "task", "n_test", "value_a", "value_b", "delta",
                "congruence_source", "congruence_level", "congruence_used", "sd_source",
                "sd_level", "probability"]


def fig4_delta_vs_size(probabilities: pd.DataFrame, headline: Headline,
                       threshold: float = 0.05):
    """Fig 4: reported delta vs test-set size (log x), seaborn scatter with hue and marker by
    P above the threshold; one panel per task (a task without papers says so)."""
    require_columns(probabilities, ["venue", "paper_id", "task", "n_test", "delta",
                                    "probability"], "probabilities")
    data = numeric(select_headline(probabilities, headline, "probabilities")[FIG4_COLUMNS],
                   ["n_test", "value_a", "value_b", "delta", "congruence_used", "probability"])
    data["above_threshold"] = data["probability"] > threshold
    data["threshold"] = threshold
    fig, axes = figure("double", height=72, ncols=len(TASKS), squeeze=False)
    drawn = []
    names = {True: f"P > {100 * threshold:g}%", False: f"P ≤ {100 * threshold:g}%"}
    colours = {names[True]: PALETTE["vermillion"], names[False]: PALETTE["blue"]}
    markers = {names[True]: "o", names[False]: "^"}
    for i, (ax, task) in enumerate(zip(axes[0], TASKS)):
        d = data[data["task"] == task]
        ax.set_title(f"{TASK_LABELS[task]} (n = {len(d)} papers)")
        panel_letter(ax, i)
        if d.empty:
            no_data(ax)
            continue
        d = d.assign(n_test=d["n_test"].astype(float), delta=d["delta"].astype(float),
                     group=d["above_threshold"].map(names))
        order = [names[True], names[False]]
        sns.scatterplot(data=d, x="n_test", y="delta", hue="group", style="group",
                        hue_order=order, style_order=order, palette=colours, markers=markers,
                        s=FIG4_MARKER, alpha=MARKER_ALPHA, linewidth=0.3, edgecolor="white", zorder=3,
                        legend=False, ax=ax)
        counts = d["group"].value_counts()
        legend = ax.legend(
            handles=[Line2D([], [], ls="", marker=markers[g], color=colours[g], ms=4,
                            alpha=MARKER_ALPHA, markeredgewidth=0,
                            label=f"{g}: {counts.get(g, 0)} "
                                  f"({100 * counts.get(g, 0) / len(d):.0f}%)")
                     for g in order], loc="upper right", handletextpad=0.2)
        ax.set_xscale("log")
        x_min = float(d.loc[d["n_test"] > 0, "n_test"].min())
        if x_min > 0:  # a labelled decade tick left of the smallest test set
            ax.set_xlim(left=min(ax.get_xlim()[0], 10 ** math.floor(math.log10(x_min / 1.05))))
        log_ticks(ax.xaxis)
        ax.set_xlabel("Test-set size (log scale)")
        ax.set_ylabel(f"Δ {METRIC_NAMES[task]} (top-1 minus top-2)")
        ax.set_ylim(bottom=0)
        ax.text(0.01, -0.2, headline.describe(task), transform=ax.transAxes, fontsize="x-small",
                color=PALETTE["gray"], va="top")
        drawn.append((ax, legend, d[["n_test", "delta"]].to_numpy(float)))
    if drawn:
        fig.draw_without_rendering()  # the final layout: legends and axes in pixels, once
    radius = math.sqrt(FIG4_MARKER) / 2
    for ax, legend, points in drawn:
        # a tie (delta 0) sits on the axis: room below 0 for the whole dot, then headroom
        floor_for_markers(ax, radius)
        _headroom_for_legend(ax, legend, points, marker_radius_pt=radius)
        floor_for_markers(ax, radius)
    return fig, data


def _headroom_for_legend(ax, legend, points, marker_radius_pt: float, pad_px: float = 2.0,
                         tries: int = 6) -> None:
    """Raise the top of the y-axis until no data point lies under the legend (upper right):
    the legend keeps its place in every panel and covers no point. Needs a drawn figure;
    the legend is anchored to the axes, so its pixels stay while the y-limits change."""
    fig = ax.figure
    points = points[np.isfinite(points).all(axis=1)]
    box = legend.get_window_extent().padded(pad_px)
    r = marker_radius_pt * fig.dpi / 72
    for _ in range(tries):
        xy = ax.transData.transform(points)
        under = (xy[:, 0] + r >= box.x0) & (xy[:, 0] - r <= box.x1) & (xy[:, 1] + r >= box.y0)
        if not under.any():
            return
        lo, hi = ax.get_ylim()
        # the highest point in the legend's columns goes just below the legend
        room = (box.y0 - r - ax.bbox.y0) / ax.bbox.height
        top = float(points[under, 1].max())
        new_hi = lo + (top - lo) / room if 0 < room < 1 else hi * 1.2
        ax.set_ylim(lo, max(new_hi, hi * 1.02))


def _style_legend(fig, colours: dict, styles: dict, colour_title: str, style_title: str,
                  wide: bool = True):
    """One group of legend entries per encoding, each led by its name: the colours
    ("congruence source: paper, msd, ...") and the line styles ("congruence: Q1, median,
    Q3"). ``wide`` (double-width figure): one row per group; else one column per group (a
    row would not fit). Legends fill column by column, so rows are interleaved, and short
    groups are padded with blank entries."""
    groups = []
    if len(colours) > 1:
        groups.append([_row_name(colour_title)]
                      + [Line2D([], [], color=c, label=f"{k}") for k, c in colours.items()])
    if len(styles) > 1:
        groups.append([_row_name(style_title)]
                      + [Line2D([], [], color="black", ls=ls, label=LEVEL_LABELS.get(k, k))
                         for k, ls in styles.items()])
    if not groups:
        return
    size = max(len(g) for g in groups)
    groups = [g + [_row_name("")] * (size - len(g)) for g in groups]
    if wide:
        handles, ncols = [g[j] for j in range(size) for g in groups], size
    else:
        handles, ncols = [h for g in groups for h in g], len(groups)
    fig.legend(handles=handles, loc="outside lower center", ncols=ncols, handlelength=2.2,
               columnspacing=1.2 if wide else 2.0)


def _row_name(text: str) -> Line2D:
    """A legend entry without a line: the name leading a row (or a blank filler)."""
    return Line2D([], [], ls="", marker="", label=f"{text}:" if text else "")


def _curve_panels(curves, group_col, style_col, panels, title_fn, threshold, n_label,
                  colour_title, colours: dict | None = None):
    """Fig 5 / S10 / venue comparison: seaborn ``lineplot`` of the share above each cutoff,
    hue = ``group_col``, line style = ``style_col`` (steps, one line per group x level).
    ``colours``: {group: colour}; default: the colour cycle in order of appearance."""
    width = "double" if len(panels) > 1 else "single"
    fig, axes = figure(width, height=80 if width == "double" else 90, ncols=len(panels),
                       squeeze=False, sharey=True)
    # one colour per group across all panels, so a source keeps its colour everywhere
    colours = colours or {g: CYCLE[j % len(CYCLE)]
                          for j, g in enumerate(dict.fromkeys(curves[group_col]))}
    all_colours, all_styles = {}, {}
    for i, (ax, task) in enumerate(zip(axes[0], panels)):
        d = curves[curves["task"] == task]
        ax.set_title(title_fn(task, d))
        if len(panels) > 1:
            panel_letter(ax, i)
        ax.set_ylim(0, 100)
        if d.empty:
            no_data(ax)
            continue
        groups = list(dict.fromkeys(d[group_col]))
        levels = [lvl for lvl in LEVEL_STYLES if lvl in set(d[style_col])]
        levels += [lvl for lvl in dict.fromkeys(d[style_col]) if lvl not in levels]
        all_colours.update({g: colours[g] for g in groups})
        all_styles.update({lvl: LEVEL_STYLES.get(lvl, "-.") for lvl in levels})
        tidy = d.assign(percent_above=100 * d["share_above"]).sort_values(
            [group_col, style_col, "cutoff"], kind="stable")
        sns.lineplot(data=tidy, x="cutoff", y="percent_above", hue=group_col, style=style_col,
                     hue_order=groups, style_order=levels, palette=colours,
                     dashes=level_dashes(levels), size=style_col, size_order=levels,
                     sizes={lvl: 1.3 if lvl in ("median", "mean") else 1.0 for lvl in levels},
                     estimator=None, units=None, sort=True, drawstyle="steps-post",
                     legend=False, ax=ax)
        ax.axvline(threshold, color=PALETTE["gray"], lw=0.6, zorder=0)
        ax.set_xlim(0, float(d["cutoff"].max()))
        ax.set_ylim(0, 100)
        ax.set_xlabel("Cutoff of the probability of a false claim")
        ax.set_ylabel("")
    _style_legend(fig, all_colours, all_styles, colour_title, n_label,
                  wide=width == "double")
    drawn = [(curves["task"] == t).any() for t in panels]
    label_first_drawn(axes[0], drawn, "% of papers with P > cutoff")
    return fig


def _n_title(task, d):
    n = d["n_papers"].max() if len(d) else 0
    return f"{TASK_LABELS[task]} (n = {int(n)} papers)"


def fig5_cumulative(curves: pd.DataFrame, headline: Headline, threshold: float = 0.05):
    """Fig 5 as [Christodoulou2025] draws it: % of papers above each cutoff at the Q1,
    median and Q3 of the headline congruence source (line style), one panel per task.
    Segmentation rows use the headline SD assumption. The other congruence sources:
    :func:`falseclaims.figures.sources.fig5_congruence_sources`."""
    require_columns(curves, CURVE_KEYS, "curves")
    data = select_sd_headline(curves, headline)
    data = numeric(data[data["congruence_source"] == headline.congruence_source][CURVE_KEYS],
                   CURVE_NUMBERS)
    fig = _curve_panels(data, "congruence_source", "congruence_level", list(TASKS), _n_title,
                        threshold, f"congruence ({headline.congruence_source})",
                        "congruence source",
                        colours=source_colours([headline.congruence_source]))
    return fig, data.reset_index(drop=True)


def fig5_venues(curves_by_venue: dict[str, pd.DataFrame], headline: Headline,
                labels: dict[str, str] | None = None, threshold: float = 0.05):
    """Venue comparison: one headline curve per venue, panel per task."""
    labels = labels or {}
    parts = []
    for venue, c in curves_by_venue.items():
        require_columns(c, CURVE_KEYS, f"curves ({venue})")
        h = select_headline(c, headline, f"curves ({venue})")
        parts.append(numeric(h, CURVE_NUMBERS).assign(venue_label=labels.get(venue, venue)))
    data = pd.concat(parts, ignore_index=True) if parts else \
        pd.DataFrame(columns=[*CURVE_KEYS, "venue_label"])
    fig = _curve_panels(data, "venue_label", "congruence_level", list(TASKS),
                        lambda t, d: TASK_LABELS[t], threshold, "congruence", "venue")
    for ax, task in zip(fig.axes, TASKS):
        ax.text(0.0, -0.2, "Headline: " + headline.describe(task).replace(", ", ",\n"),
                transform=ax.transAxes, fontsize="x-small", color=PALETTE["gray"], va="top")
    return fig, data


def fig5_venue_facets(curves_by_venue: dict[str, pd.DataFrame], headline: Headline,
                      labels: dict[str, str] | None = None, threshold: float = 0.05):
    """Fig 5 of every venue side by side: seaborn ``relplot`` faceted by task (rows) and venue
    (columns), hue = congruence source, line style = level; segmentation at the headline SD."""
    labels = labels or {}
    parts = [numeric(select_sd_headline(c, headline)[CURVE_KEYS], CURVE_NUMBERS)
             .assign(venue_label=labels.get(v, v)) for v, c in curves_by_venue.items()]
    data = pd.concat(parts, ignore_index=True) if parts else \
        pd.DataFrame(columns=[*CURVE_KEYS, "venue_label"])
    venues = [labels.get(v, v) for v in curves_by_venue]
    sources = list(dict.fromkeys(data["congruence_source"]))
    levels = [lvl for lvl in LEVEL_STYLES if lvl in set(data["congruence_level"])]
    levels += [lvl for lvl in dict.fromkeys(data["congruence_level"]) if lvl not in levels]
    shown = {lvl: f"{LEVEL_LABELS.get(lvl, lvl)} congruence" for lvl in levels}
    tidy = data.assign(percent_above=100 * data["share_above"].astype(float),
                       task_label=data["task"].map(TASK_LABELS),
                       level=data["congruence_level"].map(shown)).rename(
        columns={"congruence_source": "congruence source"})
    style_settings = figure_settings()
    width = style_settings["double_width_mm"] * MM
    ncols = max(len(venues), 1)
    facet = min(width / (ncols + 0.45), 55 * MM)  # room for the legend on the right
    grid = sns.relplot(
        data=tidy, kind="line", x="cutoff", y="percent_above", hue="congruence source",
        style="level", row="task_label", col="venue_label",
        row_order=[TASK_LABELS[t] for t in TASKS], col_order=venues, hue_order=sources,
        style_order=[shown[lvl] for lvl in levels],
        palette=source_colours(sources),
        dashes={shown[lvl]: d for lvl, d in level_dashes(levels).items()}, estimator=None,
        drawstyle="steps-post", linewidth=1.0, height=facet * 0.9, aspect=1 / 0.9,
        facet_kws={"sharex": True, "sharey": True, "margin_titles": True})
    for (task_label, venue), ax in grid.axes_dict.items():
        ax.axvline(threshold, color=PALETTE["gray"], lw=0.6, zorder=0)
        ax.set_ylim(0, 100)
        if tidy[(tidy["task_label"] == task_label) & (tidy["venue_label"] == venue)].empty:
            ax.text(0.5, 0.5, NO_DATA, transform=ax.transAxes, ha="center", va="center",
                    color=PALETTE["gray"])
    grid.set_titles(row_template="{row_name}", col_template="")
    for i, ax in enumerate(grid.axes.flat):  # a, b, c along the first row, then the next
        panel_letter(ax, i, y=1.05)  # short facets: 1.02 would touch the "100" tick label
    for ax, venue in zip(grid.axes[0], venues):  # long venue names wrap above their column
        ax.set_title(textwrap.fill(venue, max(12, int(facet / MM / 2.3))))  # ~2.3 mm a char
    # Fig 5's axis labels, once for the grid (too long for one facet)
    grid.set_axis_labels("", "")
    if grid.legend is not None:
        grid.legend.set_title(None)
    _fit_width(grid, width, "Cutoff of the probability of a false claim",
               "% of papers with P > cutoff")
    return grid.figure, data


def _fit_width(grid, width: float, xlabel: str, ylabel: str) -> None:
    """relplot widens the figure by its legend: back to ``width`` (inches, the style's
    double width), the panels narrowed to leave the legend its room on the right; the axis
    labels centred under / beside the panels."""
    fig = grid.figure
    fig.set_size_inches(width, fig.get_size_inches()[1])
    right = 1.0
    if grid.legend is not None:
        fig.canvas.draw()
        right -= grid.legend.get_window_extent().width / fig.bbox.width + 0.02
    line = 1.6 * figure_settings()["font_size"] / 72  # one text line, inches
    w, h = fig.get_size_inches()
    fig.tight_layout(rect=(line / w, line / h, right, 1))
    boxes = [ax.get_position() for ax in grid.axes.flat]
    x0, x1 = min(b.x0 for b in boxes), max(b.x1 for b in boxes)
    y0, y1 = min(b.y0 for b in boxes), max(b.y1 for b in boxes)
    fig.text((x0 + x1) / 2, 0.01, xlabel, ha="center", va="bottom")
    fig.text(0.01, (y0 + y1) / 2, ylabel, ha="left", va="center", rotation=90)
