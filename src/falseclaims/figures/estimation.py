"""Figures of the estimation stage: congruence distributions and SD(mean DSC) fits.

Each function takes tidy tables and returns ``(figure, data)``, the data behind the figure
(written next to it by :func:`falseclaims.figures.output.write_figure`).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from falseclaims.config import source_label
from falseclaims.figures.common import panel_letter
from falseclaims.percase.congruence import congruence_quartiles
from falseclaims.sd_model import SDModel
from falseclaims.style import (
    LEVEL_STYLES,
    MARKER_ALPHA,
    PALETTE,
    figure,
    no_data,
    source_colours,
)
from falseclaims.levels import CONGRUENCE_LEVELS, LEVEL_LABELS, SD_LEVELS
from falseclaims.tasks import TASKS

__all__ = ["plot_congruence_by_task", "plot_congruence_ecdf", "plot_sd_models"]

KIND_TITLES = {"classification": "Classification: p11 (both correct)",
               "segmentation": "Segmentation: Pearson r of per-case DSC"}


def _source_colours(sources) -> dict[str, str]:
    """The colour of each source in every figure (:func:`falseclaims.style.source_colours`)."""
    return source_colours(sources)


PAPER_COLOUR = source_colours(["paper"])["paper"]  # the paper's quartiles, as in Fig 5


def _paper_lines(ax, paper: Mapping | None, kind: str) -> None:
    if not paper or kind not in paper:
        return
    for lvl in CONGRUENCE_LEVELS:
        ax.axvline(paper[kind][lvl], color=PAPER_COLOUR, ls=LEVEL_STYLES[lvl], lw=1.0,
                   label=f"paper {LEVEL_LABELS[lvl]} ({paper[kind][lvl]:.2f})", zorder=1)


def plot_congruence_ecdf(pairs: pd.DataFrame, paper: Mapping | None):
    """ECDF of pairwise congruence per source (seaborn ``ecdfplot``, hue = source), one
    panel per kind, paper quartiles marked.

    ``pairs``: columns source, kind, congruence (NaN = undefined, left out; the legend counts
    the defined pairs). ``paper``: ``{kind: {q1, median, q3}}`` of the published constants.
    """
    kinds = [k for k in TASKS if k in set(pairs["kind"])]
    colours = _source_colours(sorted(pairs["source"].unique()))
    fig, axes = figure("double", height=75, ncols=max(len(kinds), 1), squeeze=False)
    if not kinds:
        no_data(axes[0, 0], "no congruence pairs")
        return fig, pd.DataFrame(columns=["kind", "source", "congruence", "ecdf"])
    rows = []
    for i, (ax, kind) in enumerate(zip(axes[0], kinds)):
        panel_letter(ax, i)
        sub = pairs[(pairs["kind"] == kind) & np.isfinite(pairs["congruence"])]
        labels = {}
        for source, g in sub.groupby("source", sort=True):
            v = np.sort(g["congruence"].to_numpy(float))
            labels[source] = f"{source} (n={len(v)} pairs)"
            rows.append(pd.DataFrame({"kind": kind, "source": source, "congruence": v,
                                      "ecdf": np.arange(1, len(v) + 1) / len(v)}))
        tidy = sub.assign(series=sub["source"].map(labels)).sort_values(["source", "congruence"])
        sns.ecdfplot(data=tidy, x="congruence", hue="series", hue_order=list(labels.values()),
                     palette={labels[s]: colours[s] for s in labels}, ax=ax, zorder=2)
        _paper_lines(ax, paper, kind)
        ax.set_title(KIND_TITLES[kind])
        ax.set_xlabel("pairwise congruence")
        ax.set_ylabel("cumulative share of method pairs")
        lo = min(0.0, float(sub["congruence"].min())) if len(sub) else 0.0
        ax.set_xlim(lo, 1.0)
        ax.set_ylim(0, 1.01)
        handles = [*ax.get_legend().legend_handles] if ax.get_legend() else []
        extra_h, extra_l = ax.get_legend_handles_labels()
        ax.legend(handles + extra_h, list(labels.values()) + extra_l, loc="upper left",
                  fontsize=6)
    return fig, pd.concat(rows, ignore_index=True)


def plot_congruence_by_task(pairs: pd.DataFrame, paper: Mapping | None):
    """Box plot of pairwise congruence per task (seaborn ``boxplot``), one panel per source
    and kind, the paper's Q1-Q3 shaded and its median marked."""
    groups = [(s, k) for (s, k), _ in pairs.groupby(["source", "kind"], sort=True)]
    counts = [pairs[(pairs.source == s) & (pairs.kind == k)]["task"].nunique() for s, k in groups]
    height = min(230.0, 22.0 + 4.2 * sum(counts) + 10.0 * len(groups))
    fig, axes = figure("double", height=height, nrows=max(len(groups), 1), squeeze=False,
                       gridspec_kw={"height_ratios": [c + 1.5 for c in counts] or [1]},
                       sharex=True)
    if not groups:
        no_data(axes[0, 0], "no congruence pairs")
        return fig, congruence_quartiles(pairs, by=["source", "kind", "task"])
    colours = _source_colours(sorted(pairs["source"].unique()))
    rows = []
    for ax, (source, kind) in zip(axes[:, 0], groups):
        sub = pairs[(pairs.source == source) & (pairs.kind == kind)].dropna(subset=["congruence"])
        tasks = sorted(sub["task"].unique())
        n = sub.groupby("task").size()
        if paper and kind in paper:
            ax.axvspan(paper[kind]["q1"], paper[kind]["q3"], color=PAPER_COLOUR,
                       alpha=0.12, lw=0, zorder=0)
            ax.axvline(paper[kind]["median"], color=PAPER_COLOUR, lw=1.0, zorder=1)
        sns.boxplot(data=sub, x="congruence", y="task", order=tasks, orient="h", width=0.6,
                    color=colours[source], saturation=1, linewidth=0.7, fliersize=1.2,
                    medianprops={"color": PALETTE["black"], "linewidth": 1.1},
                    boxprops={"alpha": 0.55}, ax=ax)
        ax.set_yticks(range(len(tasks)), [f"{t} ({n[t]})" for t in tasks], fontsize=5.5)
        ax.set_ylabel("")
        ax.set_xlabel("")
        ax.set_title(f"{source_label(source)}: {kind}", fontsize=7, loc="left")
        rows.append(congruence_quartiles(pairs[(pairs.source == source) & (pairs.kind == kind)],
                                         by=["source", "kind", "task"]))
    name = next((k for k, v in PALETTE.items() if v == PAPER_COLOUR), "shaded")
    axes[-1, 0].set_xlabel(f"pairwise congruence ({name} band and line: the paper's Q1-Q3 "
                           "and median)")
    return fig, pd.concat(rows, ignore_index=True)


FORM_LABELS = {"gamma": "gamma GLM", "anchored": "anchored quadratic", "ols": "OLS quadratic"}


def _form_label(model: SDModel) -> str:
    label = FORM_LABELS.get(model.form, model.form)
    return f"{label}, log link" if model.link == "log" else label


def _band_label(models) -> str:
    if all(m.form == "gamma" for m in models):
        return "50% prediction interval (gamma Q1–Q3)"
    return "50% prediction interval"


def plot_sd_models(pairs: pd.DataFrame, models: Mapping[str, SDModel],
                   reference: SDModel | None = None, grid: int = 201,
                   compare: Mapping[str, SDModel] | None = None):
    """Per-method SD against mean DSC, one panel per source, with the fitted mean SD and the
    50% prediction band (levels q1 and q3); ``reference`` (the config's headline model)
    dashed; ``compare`` (the config's alternative models, e.g. anchored and OLS) as thin
    coloured lines in every panel."""
    compare = dict(compare or {})
    sources = [s for s in models if s in set(pairs["source"])]
    # one colour per source, the same as in every figure; the alternatives after the sources
    every = _source_colours([*sources, *compare])
    colours = {s: every[s] for s in sources}
    alt_colours = {name: every[name] for name in compare}
    fig, axes = figure("double", height=80, ncols=max(len(sources), 1), squeeze=False,
                       sharey=True)
    if not sources:
        no_data(axes[0, 0], "no SD source with (mean, SD) pairs")
        return fig, pd.DataFrame(columns=["source", "series", "mean_dsc", "sd"])
    m = np.linspace(0.0, 1.0, grid)
    rows = []
    top = 0.0
    for i, (ax, source) in enumerate(zip(axes[0], sources)):
        panel_letter(ax, i)
        sub = pairs[pairs["source"] == source]
        model = models[source]
        ax.scatter(sub["mean"], sub["sd"], s=5, color=colours[source], alpha=MARKER_ALPHA, lw=0,
                   zorder=2)
        fit = {lvl: model.predict(m, lvl)[0] for lvl in SD_LEVELS}
        ax.fill_between(m, fit["q1"], fit["q3"], color=colours[source], alpha=0.2, lw=0,
                        zorder=1)
        ax.plot(m, fit["mean"], color=PALETTE["black"], lw=1.2, zorder=3)
        others = ([("reference", reference)] if reference is not None else []) \
            + [(f"compare_{name}", alt) for name, alt in compare.items()]
        for series, other in others:
            y = other.predict(m, "mean")[0]
            if series == "reference":
                ax.plot(m, y, color=PALETTE["gray"], ls="--", lw=1.0, zorder=4)
            else:
                ax.plot(m, y, color=alt_colours[series.removeprefix("compare_")], lw=0.8,
                        zorder=4)
            rows.append(pd.DataFrame({"source": source, "series": series, "mean_dsc": m,
                                      "sd": y}))
        for lvl, y in fit.items():
            rows.append(pd.DataFrame({"source": source, "series": f"fit_{lvl}", "mean_dsc": m,
                                      "sd": y}))
        rows.append(pd.DataFrame({"source": source, "series": "observed",
                                  "mean_dsc": sub["mean"].to_numpy(),
                                  "sd": sub["sd"].to_numpy()}))
        ax.set_title(f"{source_label(source)}: {_form_label(model)} "
                     f"(n={len(sub)} method x task pairs)", fontsize=7)
        ax.set_xlabel("mean DSC of a method on a task")
        ax.set_xlim(0, 1)
        top = max(top, float(sub["sd"].max()), float(fit["q3"].max()))
    axes[0, 0].set_ylim(0, top * 1.05)
    axes[0, 0].set_ylabel("SD of per-case DSC")
    handles = _sd_legend_handles([models[s] for s in sources], reference, compare, alt_colours)
    fig.legend(handles=handles, loc="outside upper center", ncols=min(len(handles), 2),
               fontsize=6.5)
    return fig, pd.concat(rows, ignore_index=True)


def _sd_legend_handles(models, reference: SDModel | None, compare=None,
                       alt_colours=None) -> list:
    """One legend for all panels: grey stand-ins for the symbols (each panel keeps its
    source's colour), black fit line, dashed reference, one line per compared model."""
    forms = {_form_label(m) for m in models}
    fit = f"fitted mean SD ({forms.pop()})" if len(forms) == 1 else "fitted mean SD"
    handles = [
        Line2D([], [], ls="", marker="o", ms=2.5, color=PALETTE["gray"], mew=0,
               label="one method on one task"),
        Patch(color=PALETTE["gray"], alpha=0.35, lw=0, label=_band_label(models)),
        Line2D([], [], color=PALETTE["black"], lw=1.2, label=fit),
    ]
    if reference is not None:
        handles.append(Line2D([], [], color=PALETTE["gray"], ls="--", lw=1.0,
                              label=f"config's {source_label(reference.source or 'reference')} "
                                    f"({_form_label(reference)})"))
    for name, alt in (compare or {}).items():
        handles.append(Line2D([], [], color=alt_colours[name], lw=0.8,
                              label=f"config's {source_label(name)} ({_form_label(alt)})"))
    return handles
