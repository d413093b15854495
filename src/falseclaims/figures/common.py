"""Helpers shared by the figure modules: labels, panel letters, axis limits."""

from __future__ import annotations

import textwrap
from string import ascii_lowercase

import numpy as np

from falseclaims.style import PALETTE, figure
from falseclaims.tasks import TASK_LABELS, TASKS

METRIC_NAMES = {"classification": "Accuracy", "segmentation": "DSC"}
# what an empty reporting-practice panel says (these figures count papers in scope)
NO_PAPERS = "no papers in scope"


def papers_text(n: int) -> str:
    """``n = 1 paper``, ``n = 43 papers``: the count every panel title gives."""
    return f"n = {int(n)} paper" + ("" if int(n) == 1 else "s")


def panel_title(task: str, n: int) -> str:
    """A task panel's title in every survey figure: ``Classification (n = 43 papers)``."""
    return f"{TASK_LABELS[task]} ({papers_text(n)})"


def panel_tasks(tasks=None, panels=TASKS) -> list[str]:
    """The panels a per-task figure draws, in the order of ``panels``: the tasks of
    ``tasks`` (a venue's tasks with papers: a classification-only venue draws no empty
    segmentation panel) and any other group of ``panels`` (papers whose task is not
    recorded); every panel when ``tasks`` is None or names no task (a venue without papers:
    each panel says it is empty)."""
    chosen = {t for t in TASKS if tasks is not None and t in set(tasks)} or set(TASKS)
    return [p for p in panels if p in chosen or p not in TASKS]


def panel_width(panels) -> str:
    """The style's figure width for these panels side by side: one panel, one column."""
    return "double" if len(panels) > 1 else "single"


def label_first_drawn(axes, drawn, ylabel: str = "") -> None:
    """Panels sharing y show tick labels on the first panel only; when that panel is empty
    ("no analysed papers"), put the y tick labels and ``ylabel`` on the first drawn panel."""
    first = next((ax for ax, d in zip(axes, drawn) if d), None)
    if first is None:
        return
    first.tick_params(labelleft=True)
    if ylabel:
        for ax in axes:
            ax.set_ylabel("")
        first.set_ylabel(ylabel)
        first.yaxis.label.set_visible(True)  # hidden on inner panels of shared axes


def letter(i: int) -> str:
    """The ``i``-th panel letter: a ... z, then aa, ab, ... (a comparison of many venues has
    more than 26 panels)."""
    return letter(i // 26 - 1) + ascii_lowercase[i % 26] if i >= 26 else ascii_lowercase[i]


def panel_letter(ax, i: int, y: float = 1.02) -> None:
    """Bold a, b, c, ... at the top left, just above the axes (``y``, axes fraction: small
    panels need a larger one to keep the letter off the top tick label)."""
    ax.text(-0.02, y, letter(i), transform=ax.transAxes, fontweight="bold",
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


def note_figure(text: str):
    """A figure holding one note in place of its panels (a venue's study-design sheet
    draws no comparison or probability: one line says so, no empty panel per task)."""
    fig, ax = figure("double", height=30)
    ax.set_axis_off()
    ax.text(0.5, 0.5, textwrap.fill(text, 80), transform=ax.transAxes, ha="center",
            va="center", color=PALETTE["gray"], fontsize="large")
    return fig
