"""Figures of the calibration study. Each function takes the tidy tables of
:func:`falseclaims.calibration.metrics.calibration_tables` and returns ``(figure, data)``."""

from __future__ import annotations

import numpy as np
import pandas as pd

from falseclaims.figures.common import panel_letter
from falseclaims.style import CYCLE, PALETTE, figure
from falseclaims.tasks import TASKS

OBSERVED_LABEL = "observed share of truly false claims"
# a condition simulated for one task only (the SD conditions: classification has no SD)
NOT_APPLICABLE = "n/a"
TASK_LABELS = {"classification": "Classification (Accuracy)",
               "segmentation": "Segmentation (DSC)"}


def condition_labels(shift: dict | None = None) -> dict[str, str]:
    """Legend labels; ``shift`` ({task: value}) adds the size of the congruence shifts."""
    shift = shift or {}
    both = [f"{shift[t]:g}" for t in TASKS if t in shift]
    low = f" (−{' / −'.join(both)})" if both else ""
    high = f" (+{' / +'.join(both)})" if both else ""
    return {
        "true": "true congruence (and true SD)",
        "congruence_low": f"congruence too low{low}",
        "congruence_high": f"congruence too high{high}",
        "congruence_sample": "congruence from the test cases",
        "sd_sample": "SD of the test cases",
        "sd_imputed": "SD imputed (SD model)",
        "survey": "survey: paper median congruence, imputed SD",
    }


CONDITION_COLOURS = {
    "true": PALETTE["black"],
    "congruence_low": PALETTE["blue"],
    "congruence_high": PALETTE["vermillion"],
    "congruence_sample": PALETTE["green"],
    "sd_sample": PALETTE["skyblue"],
    "sd_imputed": PALETTE["orange"],
    "survey": PALETTE["purple"],
}
CONGRUENCE_PANEL = ["true", "congruence_low", "congruence_high", "congruence_sample", "survey"]
SD_PANEL = ["true", "sd_sample", "sd_imputed", "survey"]


def _curve_axes(ax, ymax):
    ax.plot([0, 0.5], [0, 0.5], color=PALETTE["gray"], lw=0.8, ls="--", zorder=0)
    ax.set_xlim(0, 0.5)
    ax.set_ylim(0, ymax)
    ax.set_xlabel("predicted probability")
    ax.set_xticks([0, 0.1, 0.2, 0.3, 0.4, 0.5])


def _plot_curve(ax, d, colour, label, offset=0.0):
    x = d["predicted"].to_numpy() + offset
    y = d["observed"].to_numpy()
    err = np.vstack([y - d["observed_lo"].to_numpy(), d["observed_hi"].to_numpy() - y])
    ax.errorbar(x, y, yerr=err, color=colour, label=label, marker="o", ms=2.2, lw=0.9,
                elinewidth=0.6, capsize=0)


def _ymax(d):
    return float(min(1.0, max(0.5, np.ceil(d["observed_hi"].max() * 10) / 10)))


def calibration_curves(curve: pd.DataFrame, delta_sd: float, shift: dict | None = None):
    """Calibration curves at one truth distribution: congruence conditions per task, and
    the SD conditions for segmentation."""
    panels = [("classification", CONGRUENCE_PANEL, "congruence"),
              ("segmentation", CONGRUENCE_PANEL, "congruence"),
              ("segmentation", SD_PANEL, "SD")]
    d_all = curve[np.isclose(curve["delta_sd"], delta_sd)]
    if d_all.empty:
        raise ValueError(f"no calibration curve for delta_sd={delta_sd}; is it in the grid?")
    labels = condition_labels(shift)
    fig, axes = figure("double", height=85, ncols=3, sharey=True)
    ymax = _ymax(d_all)
    rows, handles = [], {}
    for i, (ax, (task, conds, what)) in enumerate(zip(axes, panels)):
        panel_letter(ax, i)
        present = [c for c in conds if c in set(d_all["condition"])]
        for k, cond in enumerate(present):
            d = d_all[(d_all["task"] == task) & (d_all["condition"] == cond)]
            off = (k - (len(present) - 1) / 2) * 0.002
            _plot_curve(ax, d, CONDITION_COLOURS[cond], labels[cond], off)
            rows.append(d.assign(panel=f"{task}: {what}"))
        _curve_axes(ax, ymax)
        ax.set_title(f"{TASK_LABELS[task]}\nvarying the {what}", fontsize=7)
        for h, lab in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(lab, h)
    axes[0].set_ylabel(OBSERVED_LABEL)
    fig.legend(handles.values(), handles.keys(), loc="outside lower center", ncols=3,
               fontsize=6.5)
    return fig, pd.concat(rows, ignore_index=True)


def calibration_by_truth(curve: pd.DataFrame, condition: str = "true"):
    """Calibration under one condition for every truth distribution (delta_sd)."""
    d_all = curve[curve["condition"] == condition]
    fig, axes = figure("double", height=80, ncols=2)
    ymax = _ymax(d_all)
    levels = sorted(d_all["delta_sd"].unique())
    for k, (ax, task) in enumerate(zip(axes, TASKS)):
        panel_letter(ax, k)
        for i, level in enumerate(levels):
            d = d_all[(d_all["task"] == task) & np.isclose(d_all["delta_sd"], level)]
            _plot_curve(ax, d, CYCLE[i % len(CYCLE)],
                        f"true A−B ~ N(0, {level:g}²)", (i - (len(levels) - 1) / 2) * 0.002)
        _curve_axes(ax, ymax)
        ax.set_title(TASK_LABELS[task], fontsize=8)
        ax.legend(loc="upper left", fontsize=6.5)
    axes[0].set_ylabel(OBSERVED_LABEL)
    return fig, d_all.reset_index(drop=True)


def ece_dotplot(ece: pd.DataFrame, shift: dict | None = None):
    """Expected calibration error per condition, task and truth distribution, with the
    ECE a perfectly calibrated predictor would show from sampling noise. A condition not
    simulated for a task (the SD conditions in classification) reads "n/a"; both panels
    share the x range, so the errors compare across tasks."""
    labels = condition_labels(shift)
    order = [c for c in labels if c in set(ece["condition"])]
    fig, axes = figure("double", height=80, ncols=2, sharey=True, sharex=True)
    levels = sorted(ece["delta_sd"].unique())
    y = {c: i for i, c in enumerate(reversed(order))}
    for k, (ax, task) in enumerate(zip(axes, TASKS)):
        panel_letter(ax, k)
        d = ece[ece["task"] == task]
        for c in order:
            if c not in set(d["condition"]):
                # axes fraction in x: stays at the left edge whatever the shared range
                ax.text(0.02, y[c], NOT_APPLICABLE, transform=ax.get_yaxis_transform(),
                        ha="left", va="center", color=PALETTE["gray"], fontsize=6.5)
        for i, level in enumerate(levels):
            e = d[np.isclose(d["delta_sd"], level)]
            pos = np.array([y[c] for c in e["condition"]]) + (i - (len(levels) - 1) / 2) * 0.22
            ax.scatter(e["ece"], pos, color=CYCLE[i % len(CYCLE)], s=12, zorder=3,
                       label=f"true A−B ~ N(0, {level:g}²)")
            ax.scatter(e["ece_noise_floor"], pos, color=PALETTE["gray"], marker="|", s=25,
                       zorder=2, label="noise floor" if i == len(levels) - 1 else None)
        ax.set_title(TASK_LABELS[task], fontsize=8)
        ax.set_xlabel("expected calibration error")
        ax.grid(axis="x", lw=0.3, color="#dddddd")
        ax.set_yticks(list(y.values()), [labels[c] for c in y])
    axes[0].set_xlim(0, None)  # after both panels: the shared upper limit covers both
    fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncols=4,
               fontsize=6.5)
    return fig, ece.reset_index(drop=True)
