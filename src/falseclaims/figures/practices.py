"""Reporting practices: Fig 3 (claims, bold, statistical test) and Fig S7 (uncertainty)."""

from __future__ import annotations

import textwrap

import numpy as np
import pandas as pd
from matplotlib.patches import Patch

from falseclaims.figures.common import NO_PAPERS, label_first_drawn, panel_letter, \
    panel_tasks, panel_title, panel_width
from falseclaims.style import PALETTE, TASK_COLOURS, figure, no_data
from falseclaims.survey.reporting import (  # noqa: F401 (the data of Fig 3 / S7, re-exported)
    DENOMINATORS,
    PRACTICE_COLUMNS,
    PRACTICES,
    SD_KINDS,
    UNCERTAINTY,
    UNCERTAINTY_COLUMNS,
    practices_data,
    uncertainty_data,
)
from falseclaims.tasks import task_panels

_ANSWER_COLOURS = {"yes": PALETTE["blue"], "no": "#D9D9D9", "not recorded": "#FFFFFF"}


def _not_recorded_label(ax, y: float) -> None:
    """A row the sheet records for no paper: nothing to take a share of, so no percentage
    (not "0%") but the words, in Fig 3 and Fig S7 alike."""
    ax.text(50, y, "not recorded", va="center", ha="center", color=PALETTE["gray"])


def _share_label(ax, y: float, share: float, yes: int, recorded: int, n: int):
    """The yes share at the end of its bar: inside (white) when it fits, else just after it;
    "(k of m recorded)" when the sheet lacks the answer for some papers. The label when it
    is after the bar, else None."""
    text = f"{100 * share:.0f}%" + (f" ({yes} of {recorded} recorded)" if recorded < n else "")
    if recorded == n:
        inside = share > 0.15
    else:
        probe = ax.text(0, y, text, fontweight="bold")
        fig = ax.figure
        width = probe.get_window_extent(fig.canvas.get_renderer()).width
        probe.remove()
        x0, x1 = ax.transData.transform([(0, y), (100 * share, y)])[:, 0]
        inside = width + 6 < 0.85 * (x1 - x0)  # margin: the layout still narrows the axes
    label = ax.text(100 * share - 1.5 if inside else 100 * share + 1.5, y, text, va="center",
                    ha="right" if inside else "left", color="white" if inside else "black",
                    fontweight="bold")
    return None if inside else label


def _fit_after_bars(fig, labels, within_figure: bool = False) -> None:
    """A count written after its bar that runs past the axes' end (a one-column figure: the
    layout narrowed the axes after the label was placed): the count below the share, smaller.
    Drawing the layout here changes the PDF's bytes (not the PNG's): only one-column figures
    call it, so the two-panel figures stay as they were."""
    if not labels:
        return
    fig.draw_without_rendering()  # the final layout
    for label in labels:
        # Fig S7's labels may run past the axes (its x-axis leaves them room): the figure's
        # edge is theirs
        edge = fig.bbox.x1 if within_figure else label.axes.bbox.x1
        if label.get_window_extent().x1 > edge:
            # "18% (27 of 154 recorded)": the count under the share; "1416 of 1416 papers":
            # "1416 of 1416", as the other rows count (two lines crossed the dashed line)
            text = label.get_text()
            label.set_text(text.replace(" (", "\n(", 1) if " (" in text
                           else text.removesuffix(" papers"))
            label.set_fontsize("small")


def fig3_reporting_practices(papers: pd.DataFrame, which: str = "in_scope", tasks=None):
    """Fig 3: stacked bars (yes / no) per practice as % of the papers where it is recorded,
    one panel per task of ``tasks`` (:func:`panel_tasks`); a practice recorded for no paper
    is a "not recorded" bar."""
    data = practices_data(papers, which)
    panels = panel_tasks(tasks, task_panels(data["task"]))
    fig, axes = figure(panel_width(panels), height=44, ncols=len(panels), sharey=True,
                       squeeze=False)
    label_first_drawn(axes[0], [(data["task"] == t).any() for t in panels])
    partly = bool((data["n_recorded"] < data["n_papers"]).any())
    after = []  # the share labels after their bar
    for i, (ax, task) in enumerate(zip(axes[0], panels)):
        d = data[data["task"] == task].iloc[::-1]
        if len(panels) > 1:
            panel_letter(ax, i)
        if d.empty:
            ax.set_title(panel_title(task, 0))
            no_data(ax, NO_PAPERS)
            continue
        y = np.arange(len(d))
        n = d["n_papers"].iloc[0]
        rec = d["n_recorded"].to_numpy()
        ax.set_xlim(0, 100)  # before the labels, which measure the bars
        left = np.zeros(len(d))
        widths = {"yes": np.where(rec > 0, 100 * d["n_yes"].to_numpy() / np.maximum(rec, 1), 0),
                  "no": np.where(rec > 0, 100 * d["n_no"].to_numpy() / np.maximum(rec, 1), 0),
                  "not recorded": np.where(rec > 0, 0.0, 100.0)}
        for key, width in widths.items():
            ax.barh(y, width, left=left, color=_ANSWER_COLOURS[key], edgecolor="black",
                    linewidth=0.4, label=key, height=0.65)
            left += width
        for yi, share, yes, r in zip(y, d["share_yes"], d["n_yes"], rec):
            if not r:
                _not_recorded_label(ax, yi)
            else:
                after.append(_share_label(ax, yi, share, int(yes), int(r), int(n)))
        ax.set_yticks(y, d["label"])
        ax.set_xlabel("% of papers where recorded" if partly else "% of papers")
        ax.set_title(panel_title(task, n))
    handles = [Patch(facecolor=c, edgecolor="black", linewidth=0.4, label=k)
               for k, c in _ANSWER_COLOURS.items()]
    fig.legend(handles=handles, loc="outside lower center", ncols=3, handlelength=1.2)
    if len(panels) == 1:  # two panels: the paper's layout, whose labels fit as placed
        _fit_after_bars(fig, [a for a in after if a is not None])
    return fig, data


def _pct(share: float) -> str:
    """1 of 221 is not "0%", 220 of 221 not "100%"."""
    return "<1" if 0 < share < 0.005 else ">99" if 0.995 <= share < 1 else f"{100 * share:.0f}"


def _figS7_bar(ax, y: float, row, task: str):
    """One row of Fig S7: the bar and "share (k of m)" after it; white bars for the rows
    that are not a way of reporting ("none" hatched, "not recorded" plain)."""
    k, m, s = int(row["n"]), int(row["n_denominator"]), row["share"]
    kind = row.name
    if not m:
        ax.barh(y, 100, color="white", edgecolor="black", linewidth=0.4, height=0.65)
        _not_recorded_label(ax, y)
        return None
    style = {"height": 0.65, "edgecolor": "black", "linewidth": 0.4}
    if kind == "not_recorded":
        style["color"] = _ANSWER_COLOURS["not recorded"]
    elif kind == "none":
        style["color"] = "#D9D9D9"
    elif kind == "sd_any":
        style.update(color="white", edgecolor=TASK_COLOURS[task], linewidth=1.2)
    else:
        style.update(color=TASK_COLOURS[task], linewidth=0)
    ax.barh(y, 100 * s, **style)
    text = f"{k} of {m} papers" if kind == "not_recorded" else f"{_pct(s)}% ({k} of {m})"
    return ax.annotate(text, (100 * s, y), xytext=(3, 0), textcoords="offset points",
                       va="center")


def figS7_uncertainty(papers: pd.DataFrame, which: str = "in_scope", tasks=None):
    """Fig S7: how performance uncertainty is reported, per task, in the paper's populations:
    "None reported" as % of the papers whose sheet records it and "Not recorded in sheet"
    (when present) as % of all papers; below the dashed line, each way of reporting (the
    SDs, their sum, CI, other) as % of the papers that report some uncertainty. Every label
    names its denominator ("k of m"). One panel per task of ``tasks`` (:func:`panel_tasks`).
    """
    data = uncertainty_data(papers, which)
    keys = [key for key in UNCERTAINTY if key in set(data["uncertainty"])]
    labels = [UNCERTAINTY[key] for key in keys]
    panels = panel_tasks(tasks, task_panels(data["task"]))
    fig, axes = figure(panel_width(panels), height=16 + 6.5 * max(len(labels), 4), ncols=len(panels),
                       sharey=bool(labels), squeeze=False)
    label_first_drawn(axes[0], [(data["task"] == t).any() for t in panels])
    after = []  # the counts after their bars
    for i, (ax, task) in enumerate(zip(axes[0], panels)):
        if len(panels) > 1:
            panel_letter(ax, i)
        if not (data["task"] == task).any():
            ax.set_title(panel_title(task, 0))
            no_data(ax, NO_PAPERS)
            continue
        d = data[data["task"] == task].set_index("uncertainty").reindex(keys)
        n = int(d["n_papers"].dropna().iloc[0])
        if "not_recorded" in keys and pd.isna(d.loc["not_recorded", "n"]):
            d.loc["not_recorded", ["n", "n_denominator", "share"]] = [0, n, 0.0]  # other task
        y = np.arange(len(labels))[::-1]
        after += [_figS7_bar(ax, yi, d.loc[key], task) for yi, key in zip(y, keys)]
        above = sum(k in DENOMINATORS for k in keys)
        ax.axhline(y[above - 1] - 0.5, color=PALETTE["gray"], linestyle="--", linewidth=0.6)
        ax.set_yticks(y, labels)
        ax.set_xlim(0, 130)
        ax.set_xticks([0, 25, 50, 75, 100])
        ax.set_xlabel("% of papers (k of m: the denominator)")
        rep = int(d["n_reporting"].dropna().iloc[0])
        rec = int(d["n_recorded"].dropna().iloc[0])
        ax.set_title(f"{panel_title(task, n)[:-1]};\n{rep} report uncertainty)" if rec
                     else panel_title(task, n))
    note = ("Above the dashed line: % of the papers where recorded (not recorded: of all "
            "papers); below it: % of the papers reporting uncertainty.")
    # one panel (one column wide): the note in lines of that width
    fig.supxlabel(note if len(panels) > 1 else textwrap.fill(note, 64), fontsize="small",
                  color=PALETTE["gray"])
    if len(panels) == 1:  # "1416 of 1416 papers" ran off a one-column figure
        _fit_after_bars(fig, [a for a in after if a is not None], within_figure=True)
    return fig, data
