"""Fig S8: train / validation / test set sizes per task (log scale).

How sizes are taken from the sheet (``split``, ``cv_folds`` k, ``n_train/n_val/n_test``):

- ``train_test``, ``train_val_test``, ``unclear`` or missing split: sizes as recorded.
- ``cv_only``: the cross-validated pool N is the sum of the recorded sizes (sheets record the
  whole data set in whichever size column they have); train = (k-1)N/k, test = N/k
  ([Christodoulou2025], Fig S8 caption).
- ``cv_plus_test``: CV runs on the development pool N = n_train + n_val (recorded ones),
  train = (k-1)N/k, validation = the held-out fold N/k, test = the separate n_test.

A CV paper without k or without any size keeps a row with ``size`` missing and a ``note``.

A diamond on the test box marks the median test-set size over the papers with a distinct
test set (:func:`falseclaims.survey.populations.distinct_test_sizes`): the population of the paper's
"median 500 / 62 images", which the box (every paper, cross-validation folds included) is
not.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

import seaborn as sns

from falseclaims.figures.common import NO_PAPERS, label_first_drawn, panel_letter, \
    panel_tasks, panel_title, panel_width
from falseclaims.survey.populations import TEST_SET_POPULATION, distinct_test_sizes, population
from falseclaims.io.table_io import require_columns
from falseclaims.style import MARKER_ALPHA, PALETTE, decade_label, figure, no_data
from falseclaims.tasks import NOT_RECORDED, task_panels

SETS = ("train", "val", "test")
SET_LABELS = {"train": "Train", "val": "Validation", "test": "Test"}
SET_COLOURS = {"train": PALETTE["blue"], "val": PALETTE["green"], "test": PALETTE["orange"]}


def _num(v):
    return None if v is None or pd.isna(v) else float(v)


def split_sizes(papers: pd.DataFrame, which: str = "in_scope") -> pd.DataFrame:
    """Tidy sizes: ``venue, paper_id, task, split, cv_folds, set, size, derivation, note``."""
    require_columns(papers, ["venue", "paper_id", "task", "split", "cv_folds", "n_train",
                             "n_val", "n_test"], "papers")
    rows = []
    for _, p in population(papers, which).iterrows():
        split = None if pd.isna(p["split"]) else str(p["split"])
        k = _num(p["cv_folds"])
        rec = {s: _num(p[f"n_{s}"]) for s in SETS}
        base = {"venue": p["venue"], "paper_id": p["paper_id"],
                "task": NOT_RECORDED if pd.isna(p["task"]) else p["task"],
                "split": split, "cv_folds": k}
        out: dict[str, tuple[float | None, str]] = {}
        note = ""
        if split in ("cv_only", "cv_plus_test"):
            pool_sets = SETS if split == "cv_only" else ("train", "val")
            pool = [rec[s] for s in pool_sets if rec[s] is not None]
            if k is None or k < 2:
                note = f"{split} without a fold count k >= 2 (cv_folds={p['cv_folds']})"
            elif not pool:
                note = f"{split} without any recorded size of the CV pool"
            else:
                n_pool = sum(pool)
                out["train"] = ((k - 1) * n_pool / k, f"(k-1)N/k, N={n_pool:g}, k={k:g}")
                held = "test" if split == "cv_only" else "val"
                out[held] = (n_pool / k, f"N/k, N={n_pool:g}, k={k:g}")
            if split == "cv_plus_test" and rec["test"] is not None:
                out["test"] = (rec["test"], "reported")
        else:
            out = {s: (rec[s], "reported") for s in SETS if rec[s] is not None}
            if not out:
                note = "no size recorded"
        if note:
            rows.append({**base, "set": None, "size": np.nan, "derivation": "", "note": note})
        for s in SETS:
            if s in out:
                rows.append({**base, "set": s, "size": out[s][0], "derivation": out[s][1],
                             "note": ""})
    cols = ["venue", "paper_id", "task", "split", "cv_folds", "set", "size", "derivation",
            "note"]
    return pd.DataFrame(rows, columns=cols)


def _plotted(rows: pd.DataFrame) -> pd.Series:
    """Rows drawn on Fig S8: a positive size (log scale)."""
    size = pd.to_numeric(rows["size"], errors="coerce")
    return size.notna() & (size > 0)


def _unplotted_note(n_without: int, n_partial: int) -> str:
    """Footnote of a panel: papers with no size plotted (so plotted + these = the population)
    and, apart, plotted papers missing some sizes (a CV pool without a fold count)."""
    parts = []
    if n_without:
        parts.append(f"{n_without} paper(s) without usable sizes")
    if n_partial:
        parts.append(f"{n_partial} plotted paper(s) with some sizes missing")
    return "\n".join(parts) + " (listed in CSV)" if parts else ""


def figS8_split_sizes(papers: pd.DataFrame, which: str = "in_scope", seed: int = 0,
                      test_set_splits=None, tasks=None):
    """Fig S8: seaborn box plots (Tukey whiskers) of log10 size per set with the papers as
    points (jitter from ``seed``), one panel per task of ``tasks`` (:func:`panel_tasks`); with ``test_set_splits`` a diamond at
    the median test-set size of the papers with a distinct test set, named below."""
    from falseclaims.figures.lookup import median_size

    data = split_sizes(papers, which)
    tested = None if test_set_splits is None else distinct_test_sizes(papers, test_set_splits, which)
    panels = panel_tasks(tasks, task_panels(data["task"]))
    fig, axes = figure(panel_width(panels), height=70, ncols=len(panels), sharey=True, squeeze=False)
    rng = np.random.default_rng(seed)
    for i, (ax, task) in enumerate(zip(axes[0], panels)):
        in_task = data[data["task"] == task]
        d = in_task[_plotted(in_task)]
        skipped = in_task[~in_task["paper_id"].isin(d["paper_id"])]
        partial = in_task[in_task["paper_id"].isin(d["paper_id"]) & (in_task["note"] != "")]
        present = [s for s in SETS if (d["set"] == s).any()]
        ax.set_title(panel_title(task, d["paper_id"].nunique()), pad=12)
        if len(panels) > 1:
            panel_letter(ax, i)
        if skipped.empty and d.empty:
            no_data(ax, NO_PAPERS)
            continue
        if d.empty:  # papers, none with a size (a study-design sheet without sizes)
            no_data(ax, f"no sizes recorded\n({skipped['paper_id'].nunique()} papers)")
            continue
        tidy = d.assign(log_size=np.log10(d["size"].astype(float)),
                        label=d["set"].map(SET_LABELS))
        order = [SET_LABELS[s] for s in present]
        sns.boxplot(data=tidy, x="label", y="log_size", order=order, width=0.5, whis=1.5,
                    showfliers=False, fill=False, color="black", linewidth=0.8,
                    medianprops={"color": "black", "linewidth": 1.0}, ax=ax)
        for j, s in enumerate(present):
            v = tidy.loc[tidy["set"] == s, "log_size"].to_numpy()
            ax.scatter(j + rng.uniform(-0.18, 0.18, v.size), v, s=6, color=SET_COLOURS[s],
                       alpha=MARKER_ALPHA, linewidths=0, zorder=3)
            ax.text(j, 1.0, f"n={v.size}", transform=ax.get_xaxis_transform(), ha="center",
                    va="bottom", fontsize="small")
        ax.set_xlim(-0.6, max(len(present), 1) - 0.4)
        ax.set_xlabel("")
        ax.set_ylabel("")
        note = _unplotted_note(skipped["paper_id"].nunique(), partial["paper_id"].nunique())
        sizes = None if tested is None else tested.loc[tested["task"] == task, "n_test"]
        if sizes is not None and len(sizes) and "test" in present:
            med = float(sizes.median())
            ax.scatter([present.index("test")], [np.log10(med)], marker="D", s=22,
                       facecolors="white", edgecolors="black", linewidths=0.9, zorder=4)
            pop = TEST_SET_POPULATION.replace(" with a distinct", "\nwith a distinct")
            if len(sizes) == 1:
                pop = pop.replace("papers", "paper", 1)
            note = (f"◆ median test-set size {median_size(med)} over the {len(sizes)} {pop}"
                    + ("\n" + note if note else ""))
        if note:
            # below the tick labels: never on top of the data
            ax.annotate(note, xy=(1.0, 0.0), xycoords="axes fraction",
                        xytext=(0, -22), textcoords="offset points", ha="right", va="top",
                        fontsize="x-small", color=PALETTE["gray"], annotation_clip=False)
    drawn = [((data["task"] == t) & data["size"].notna()).any() for t in panels]
    label_first_drawn(axes[0], drawn, "Number of images (log scale)")
    ax0 = axes[0][0]
    if data["size"].notna().any():
        lo, hi = ax0.get_ylim()
        ticks = np.arange(np.floor(lo), np.ceil(hi) + 1)
        ax0.set_yticks(ticks, [decade_label(t) for t in ticks])
        ax0.set_ylim(lo, hi)
    return fig, data
