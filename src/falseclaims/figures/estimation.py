"""Figures of the estimation stage: congruence distributions and SD(mean DSC) fits.

Each function takes tidy tables, draws with :mod:`falseclaims.style`, writes PDF + PNG and
the data behind the figure as CSV next to it, and returns that data.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pandas as pd

from falseclaims.percase.congruence import congruence_quartiles
from falseclaims.sd_model import SDModel
from falseclaims.style import CYCLE, LEVEL_STYLES, PALETTE, figure, save_figure

# PDF font subsetting logs every glyph at INFO; keep the rule logs readable
logging.getLogger("fontTools").setLevel(logging.WARNING)

__all__ = ["plot_congruence_by_task", "plot_congruence_ecdf", "plot_sd_models"]

KINDS = ("classification", "segmentation")
KIND_TITLES = {"classification": "Classification: p11 (both correct)",
               "segmentation": "Segmentation: Pearson r of per-case DSC"}
LEVEL_NAMES = {"q1": "Q1", "median": "median", "q3": "Q3"}


def _source_colours(sources) -> dict[str, str]:
    return {s: CYCLE[i % len(CYCLE)] for i, s in enumerate(sources)}


def _paper_lines(ax, paper: Mapping | None, kind: str) -> None:
    if not paper or kind not in paper:
        return
    for lvl in ("q1", "median", "q3"):
        ax.axvline(paper[kind][lvl], color=PALETTE["gray"], ls=LEVEL_STYLES[lvl], lw=1.0,
                   label=f"paper {LEVEL_NAMES[lvl]} ({paper[kind][lvl]:.2f})", zorder=1)


def plot_congruence_ecdf(pairs: pd.DataFrame, paper: Mapping | None, path: str | Path
                         ) -> pd.DataFrame:
    """ECDF of pairwise congruence per source, one panel per kind, paper quartiles marked.

    ``pairs``: columns source, kind, congruence (NaN = undefined, left out and counted in
    the legend). ``paper``: ``{kind: {q1, median, q3}}`` of the published constants.
    """
    kinds = [k for k in KINDS if k in set(pairs["kind"])]
    if not kinds:
        raise ValueError("no congruence pairs to plot")
    colours = _source_colours(sorted(pairs["source"].unique()))
    fig, axes = figure("double", height=75, ncols=len(kinds), squeeze=False)
    rows = []
    for ax, kind in zip(axes[0], kinds):
        sub = pairs[pairs["kind"] == kind]
        for source, g in sub.groupby("source", sort=True):
            v = np.sort(g["congruence"].to_numpy(float))
            v = v[np.isfinite(v)]
            y = np.arange(1, len(v) + 1) / len(v)
            ax.step(np.r_[v[:1], v], np.r_[0.0, y], where="post", color=colours[source],
                    zorder=2,
                    label=f"{source} (n={len(v)} pairs)")
            rows.append(pd.DataFrame({"kind": kind, "source": source, "congruence": v,
                                      "ecdf": y}))
        _paper_lines(ax, paper, kind)
        ax.set_title(KIND_TITLES[kind])
        ax.set_xlabel("pairwise congruence")
        ax.set_ylabel("cumulative share of method pairs")
        lo = min(0.0, float(np.nanmin(sub["congruence"])))
        ax.set_xlim(lo, 1.0)
        ax.set_ylim(0, 1.01)
        ax.legend(loc="upper left", fontsize=6)
    data = pd.concat(rows, ignore_index=True)
    save_figure(fig, path)
    data.to_csv(Path(path).with_suffix(".csv"), index=False)
    return data


def plot_congruence_by_task(pairs: pd.DataFrame, paper: Mapping | None, path: str | Path
                            ) -> pd.DataFrame:
    """Box plot of pairwise congruence per task, grouped by source, paper IQR shaded."""
    groups = [(s, k) for (s, k), _ in pairs.groupby(["source", "kind"], sort=True)]
    counts = [pairs[(pairs.source == s) & (pairs.kind == k)]["task"].nunique() for s, k in groups]
    height = min(230.0, 22.0 + 4.2 * sum(counts) + 10.0 * len(groups))
    fig, axes = figure("double", height=height, nrows=len(groups), squeeze=False,
                       gridspec_kw={"height_ratios": [c + 1.5 for c in counts]}, sharex=True)
    rows = []
    for ax, (source, kind) in zip(axes[:, 0], groups):
        sub = pairs[(pairs.source == source) & (pairs.kind == kind)]
        tasks = sorted(sub["task"].unique())
        vals = [sub.loc[sub.task == t, "congruence"].dropna().to_numpy(float) for t in tasks]
        if paper and kind in paper:
            ax.axvspan(paper[kind]["q1"], paper[kind]["q3"], color=PALETTE["gray"],
                       alpha=0.18, lw=0, zorder=0)
            ax.axvline(paper[kind]["median"], color=PALETTE["gray"], lw=1.0, zorder=1)
        ax.boxplot(vals, orientation="horizontal", widths=0.6, showfliers=True,
                   flierprops={"markersize": 1.5, "markeredgewidth": 0.4},
                   medianprops={"color": PALETTE["vermillion"]})
        ax.set_yticks(np.arange(1, len(tasks) + 1),
                      [f"{t} ({len(v)})" for t, v in zip(tasks, vals)], fontsize=5.5)
        ax.invert_yaxis()
        ax.set_title(f"{source}: {kind}", fontsize=7, loc="left")
        rows.append(congruence_quartiles(sub, by=["source", "kind", "task"]))
    axes[-1, 0].set_xlabel("pairwise congruence (grey: paper's Q1-Q3 and median)")
    data = pd.concat(rows, ignore_index=True)
    save_figure(fig, path)
    data.to_csv(Path(path).with_suffix(".csv"), index=False)
    return data


def plot_sd_models(pairs: pd.DataFrame, models: Mapping[str, SDModel], path: str | Path,
                   reference: SDModel | None = None, grid: int = 201) -> pd.DataFrame:
    """Per-method SD against mean DSC, one panel per source, with the fitted curve and the
    50% prediction band (levels q1 and q3); ``reference`` (e.g. the config's model) dashed.
    """
    sources = [s for s in models if s in set(pairs["source"])]
    if not sources:
        raise ValueError("no SD source with (mean, SD) pairs to plot")
    colours = _source_colours(sources)
    fig, axes = figure("double", height=72, ncols=len(sources), squeeze=False, sharey=True)
    m = np.linspace(0.0, 1.0, grid)
    rows = []
    top = 0.0
    for ax, source in zip(axes[0], sources):
        sub = pairs[pairs["source"] == source]
        model = models[source]
        ax.scatter(sub["mean"], sub["sd"], s=5, color=colours[source], alpha=0.55, lw=0,
                   label="one method on one task", zorder=2)
        fit = {lvl: model.predict(m, lvl)[0] for lvl in ("q1", "mean", "q3")}
        ax.fill_between(m, fit["q1"], fit["q3"], color=colours[source], alpha=0.2, lw=0,
                        label="50% prediction interval", zorder=1)
        ax.plot(m, fit["mean"], color=PALETTE["black"], lw=1.2, label="fit (anchored quadratic)"
                if model.form == "anchored" else "fit (quadratic)", zorder=3)
        if reference is not None:
            ref = reference.predict(m, "mean")[0]
            ax.plot(m, ref, color=PALETTE["gray"], ls="--", lw=1.0,
                    label=f"config model ({reference.source or 'reference'})", zorder=4)
            rows.append(pd.DataFrame({"source": source, "series": "reference", "mean_dsc": m,
                                      "sd": ref}))
        for lvl, y in fit.items():
            rows.append(pd.DataFrame({"source": source, "series": f"fit_{lvl}", "mean_dsc": m,
                                      "sd": y}))
        rows.append(pd.DataFrame({"source": source, "series": "observed",
                                  "mean_dsc": sub["mean"].to_numpy(),
                                  "sd": sub["sd"].to_numpy()}))
        ax.set_title(f"{source} (n={len(sub)} method x task pairs)")
        ax.set_xlabel("mean DSC of a method on a task")
        ax.set_xlim(0, 1)
        top = max(top, float(sub["sd"].max()), float(fit["q3"].max()))
    axes[0, 0].set_ylim(0, top * 1.05)
    axes[0, 0].set_ylabel("SD of per-case DSC")
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside upper center", ncol=len(labels), fontsize=6.5)
    data = pd.concat(rows, ignore_index=True)
    save_figure(fig, path)
    data.to_csv(Path(path).with_suffix(".csv"), index=False)
    return data
