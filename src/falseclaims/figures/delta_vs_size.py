"""Fig 4 of [Christodoulou2025]: the reported difference of the top two against the
test-set size, each paper coloured by its probability of a false claim above the cutoff."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib.lines import Line2D

from falseclaims.figures.common import METRIC_NAMES, floor_for_markers, panel_letter, \
    panel_tasks, panel_title, panel_width
from falseclaims.survey.headline import Headline, select_headline
from falseclaims.io.table_io import numeric, require_columns
from falseclaims.style import MARKER_ALPHA, PALETTE, figure, log_ticks, no_data

FIG4_MARKER = 14  # dot area, pt^2
FIG4_COLUMNS = ["venue", "paper_id", "task", "n_test", "value_a", "value_b", "delta",
                "congruence_source", "congruence_level", "congruence_used", "sd_source",
                "sd_level", "probability"]


def fig4_delta_vs_size(probabilities: pd.DataFrame, headline: Headline,
                       cutoff: float = 0.05, tasks=None):
    """Fig 4: reported delta vs test-set size (log x), seaborn scatter with hue and marker by
    P above the cutoff; one panel per task of ``tasks`` (:func:`panel_tasks`: a task without
    papers says so)."""
    require_columns(probabilities, ["venue", "paper_id", "task", "n_test", "delta",
                                    "probability"], "probabilities")
    data = numeric(select_headline(probabilities, headline, "probabilities")[FIG4_COLUMNS],
                   ["n_test", "value_a", "value_b", "delta", "congruence_used", "probability"])
    # the CSV keeps its column names (above_threshold, threshold)
    data["above_threshold"] = data["probability"] > cutoff
    data["threshold"] = cutoff
    panels = panel_tasks(tasks)
    fig, axes = figure(panel_width(panels), height=72,
                       ncols=len(panels), squeeze=False)
    drawn = []
    names = {True: f"P > {100 * cutoff:g}%", False: f"P ≤ {100 * cutoff:g}%"}
    colours = {names[True]: PALETTE["vermillion"], names[False]: PALETTE["blue"]}
    markers = {names[True]: "o", names[False]: "^"}
    for i, (ax, task) in enumerate(zip(axes[0], panels)):
        d = data[data["task"] == task]
        ax.set_title(panel_title(task, len(d)))
        if len(panels) > 1:
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
