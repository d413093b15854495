"""Selection flow diagram from ``flow.csv`` (boxes and arrows, one column per task)."""

from __future__ import annotations

import textwrap

import pandas as pd
from matplotlib.patches import FancyBboxPatch

from falseclaims.tasks import TASK_LABELS
from falseclaims.io.table_io import require_columns
from falseclaims.style import PALETTE, TASK_COLOURS, figure, no_data

# steps whose box label does not say why papers leave; shown under the removed count
REMOVED_WHY = {"valid_cells": "unreadable cell", "results_recorded": "design-only"}


def flow_data(flow: pd.DataFrame) -> pd.DataFrame:
    """flow.csv in selection order with the number removed at each step."""
    require_columns(flow, ["venue", "task", "step", "label", "n_papers"], "flow")
    parts = []
    for task, g in flow.groupby("task", sort=False):
        g = g.copy()
        g["order"] = range(len(g))
        n = pd.to_numeric(g["n_papers"], errors="raise").astype(int)
        if (n.diff().dropna() > 0).any():
            bad = g.loc[n.diff() > 0].iloc[0]
            raise ValueError(f"flow: task {task!r} step {bad['step']!r} has more papers "
                             f"({bad['n_papers']}) than the step before")
        g["n_papers"] = n
        g["n_removed"] = (-n.diff()).fillna(0).astype(int)
        parts.append(g)
    if not parts:
        return pd.DataFrame(columns=[*flow.columns, "order", "n_removed"])
    return pd.concat(parts, ignore_index=True)


def flow_diagram(flow: pd.DataFrame):
    """Boxes (papers left after each step) and arrows (papers removed), one column per task."""
    data = flow_data(flow)
    tasks = [t for t in TASK_LABELS if t in set(data["task"])]
    if not tasks:
        fig, ax = figure("double", height=40)
        no_data(ax, "no papers in the sheet")
        return fig, data
    # a venue of one task (a classification-only review) draws that column only, one
    # column wide, as its other per-task figures do (not a column of n = 0 boxes)
    found = data.groupby("task")["n_papers"].max()
    tasks = [t for t in tasks if found[t] > 0] or tasks
    n_steps = int(data.groupby("task").size().max())
    fig, ax = figure("double" if len(tasks) > 1 else "single", height=16 + 19 * n_steps)
    ax.set_axis_off()
    ax.set_xlim(0, 2 * len(tasks) + 0.06)  # room for the last removed-count label
    ax.set_ylim(n_steps - 0.3, -0.8)
    box_w, box_h = 1.3, 0.62
    for i, task in enumerate(tasks):
        d = data[data["task"] == task]
        x0 = 2 * i + 0.08
        ax.text(x0 + box_w / 2, -0.65, TASK_LABELS[task], ha="center", va="center",
                fontweight="bold", color=TASK_COLOURS[task], fontsize="large")
        for k, (_, r) in enumerate(d.iterrows()):
            y = k
            ax.add_patch(FancyBboxPatch((x0, y - box_h / 2), box_w, box_h,
                                        boxstyle="round,pad=0.02,rounding_size=0.06",
                                        facecolor="white", edgecolor=TASK_COLOURS[task],
                                        linewidth=1.0))
            ax.text(x0 + box_w / 2, y - 0.01, textwrap.fill(_capitalise(str(r["label"])), 30),
                    ha="center", va="bottom", linespacing=1.0)
            ax.text(x0 + box_w / 2, y + 0.09, f"n = {r['n_papers']}", ha="center",
                    va="top", fontweight="bold")
            if k > 0:
                ax.annotate("", xy=(x0 + box_w / 2, y - box_h / 2),
                            xytext=(x0 + box_w / 2, y - 1 + box_h / 2),
                            arrowprops={"arrowstyle": "-|>", "color": "black", "lw": 0.8})
                if r["n_removed"]:
                    why = REMOVED_WHY.get(r["step"], "")
                    ax.annotate(f"− {r['n_removed']} removed" + (f"\n({why})" if why else ""),
                                xy=(x0 + box_w / 2, y - 0.5),
                                xytext=(x0 + box_w + 0.08, y - 0.5), va="center",
                                color=PALETTE["vermillion"],
                                arrowprops={"arrowstyle": "<-", "color": PALETTE["vermillion"],
                                            "lw": 0.6})
    return fig, data


def _capitalise(text: str) -> str:
    return text[:1].upper() + text[1:]
