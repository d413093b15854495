"""Fig S3/S9: distribution of the top-2 delta per task (box plot + points)."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib.lines import Line2D

from falseclaims.figures.common import METRIC_NAMES, floor_for_markers, panel_letter, \
    panel_tasks, panel_title, panel_width
from falseclaims.io.table_io import numeric, require_columns
from falseclaims.style import MARKER_ALPHA, PALETTE, figure, no_data


def size_category_labels(edges) -> list[str]:
    edges = [int(e) for e in edges]
    labels = [f"< {edges[0]:,}"]
    labels += [f"{a:,}–{b - 1:,}" for a, b in itertools.pairwise(edges)]
    labels.append(f"≥ {edges[-1]:,}")
    return labels


def marker_areas(labels) -> dict[str, float]:
    """Dot area (pt^2) per size category: the diameter grows by a fixed 1.7 pt a category,
    so neighbouring categories (also the large ones) differ visibly; ``unknown`` below the
    smallest."""
    return {lab: (2.5 + 1.7 * i) ** 2 for i, lab in enumerate(labels)} | {"unknown": 4.0}


def delta_data(top2: pd.DataFrame, size_edges) -> pd.DataFrame:
    """top2 rows with a test-set-size category (``unknown`` where n_test is missing)."""
    require_columns(top2, ["venue", "paper_id", "task", "delta", "n_test"], "top2")
    edges = sorted(int(e) for e in size_edges)
    if not edges:
        raise ValueError("figures.size_categories must hold at least one edge")
    labels = size_category_labels(edges)
    d = numeric(top2[["venue", "paper_id", "task", "delta", "n_test"]], ["delta"])
    n = pd.to_numeric(d["n_test"], errors="coerce")
    idx = np.searchsorted(edges, n.fillna(-1).to_numpy(), side="right")
    d["size_category"] = [labels[i] if pd.notna(v) else "unknown" for i, v in zip(idx, n)]
    d["size_rank"] = np.where(n.notna(), idx, -1)
    return d


def delta_summary(data: pd.DataFrame) -> pd.DataFrame:
    g = data.groupby("task")["delta"]
    return pd.DataFrame({"n_papers": g.size(), "mean": g.mean(), "median": g.median(),
                         "q1": g.quantile(0.25), "q3": g.quantile(0.75)}).reset_index()


def figS9_delta_distribution(top2: pd.DataFrame, size_edges=(50, 100, 500, 1000),
                             seed: int = 0, tasks=None):
    """seaborn box plot (Tukey whiskers) of delta per task with the papers as points (jitter
    from ``seed``, sized by test-set-size category); mean solid black, median dashed orange.
    One panel per task of ``tasks`` (:func:`panel_tasks`)."""
    data = delta_data(top2, size_edges)
    summary = delta_summary(data).set_index("task")
    labels = size_category_labels(sorted(int(e) for e in size_edges))
    sizes = marker_areas(labels)
    panels = panel_tasks(tasks)
    fig, axes = figure(panel_width(panels), height=72,
                       ncols=len(panels), squeeze=False)
    rng = np.random.default_rng(seed)
    drawn = []
    for i, (ax, task) in enumerate(zip(axes[0], panels)):
        d = data[data["task"] == task]
        v = d["delta"].to_numpy(float)
        ax.set_title(panel_title(task, v.size))
        if len(panels) > 1:
            panel_letter(ax, i)
        if d.empty:
            no_data(ax)
            continue
        s = summary.loc[task]
        sns.boxplot(y=v, x=np.zeros(v.size), native_scale=True, width=0.5, whis=1.5,
                    showfliers=False, fill=False, color="black", linewidth=0.8,
                    medianprops={"linewidth": 0}, ax=ax)
        ax.scatter(rng.uniform(-0.2, 0.2, v.size), v,
                   s=[sizes[c] for c in d["size_category"]], color=PALETTE["skyblue"],
                   alpha=MARKER_ALPHA, linewidths=0.3, edgecolors="white", zorder=3,
                   clip_on=False)  # a dot at delta = 0 (the axis bottom) stays whole
        ax.hlines(s["mean"], -0.35, 0.35, color=PALETTE["black"], linewidth=1.2, zorder=4)
        ax.hlines(s["median"], -0.35, 0.35, color=PALETTE["orange"], linestyle="--",
                  linewidth=1.4, zorder=4)
        ax.text(0.37, s["mean"], f"mean {s['mean']:.3f}", va="bottom", fontsize="small")
        ax.text(0.37, s["median"], f"median {s['median']:.3f}", va="top", fontsize="small",
                color=PALETTE["orange"])  # the colour of the median line
        ax.set_xlim(-0.5, 1.0)
        ax.set_xticks([])
        ax.set_xlabel("")
        ax.spines["bottom"].set_visible(False)
        ax.set_ylabel(f"Δ {METRIC_NAMES[task]} (top-1 minus top-2)")
        ax.set_ylim(bottom=min(0, float(np.nanmin(v))))
        drawn.append((ax, float(np.nanmin(v)), max(np.sqrt(sizes[c]) / 2
                                                   for c in d["size_category"])))
    present = [lab for lab in [*labels, "unknown"] if (data["size_category"] == lab).any()]
    if present:
        handles = [Line2D([], [], ls="", marker="o", ms=np.sqrt(sizes[lab]),
                          color=PALETTE["gray"], label=lab) for lab in present]
        handles += [Line2D([], [], color="black", label="mean"),
                    Line2D([], [], color=PALETTE["orange"], ls="--", label="median")]
        fig.legend(handles=handles, loc="outside right center", title="Test-set size",
                   alignment="left")
    if drawn:
        fig.draw_without_rendering()  # the final layout, then room for the lowest dot
    for ax, lowest, radius in drawn:
        floor_for_markers(ax, radius, y_min=lowest)
    return fig, data
