"""Fig 6: look-up grid of the probability of a false claim by test-set size x delta.

Layout of [Christodoulou2025], Fig 6: test-set sizes in columns (small to large, left to
right), deltas in rows; each cell the probability at the median congruence, with the values
at Q1 and Q3 congruence in parentheses. Winner A has the metric level of
:func:`falseclaims.survey.multipliers.grid_level` (by default the venue's median winner
value: the paper does not state the level it assumed), runner-up B = level - delta; segmentation SDs are imputed from the
SD model at A and B (see :mod:`falseclaims.claims.plan`, which this module also uses for
the highlight).

Gray highlights: the cell nearest the venue's observed median (n, delta) (nearest in log n
and in delta) on the left, and on its right, in the same row, the smallest size reaching the
target at that delta, as found by :func:`falseclaims.claims.plan.smallest_n`. That exact size
is inserted as an extra column (marked ``n*``) when it is not already a grid size. The
median n is over the papers with a distinct test set
(:func:`falseclaims.survey.populations.distinct_test_sizes`, the
paper's "among the papers that employed a test set in their data-splitting strategy"), the
median delta over the analysed papers.

Classification congruence outside [A + B - 1, min(A, B)] is moved to the nearer bound, as in
the survey; a Q1 or Q3 value that equals the median's because both were moved to the same
bound is marked with a dagger. The level (:func:`falseclaims.survey.multipliers.grid_level`)
and the test-set size multipliers (``fig6_multipliers.csv``,
:func:`falseclaims.survey.multipliers.venue_multipliers`) are survey numbers.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping

import numpy as np
import pandas as pd
from matplotlib.patches import Patch, Rectangle

from falseclaims import stats
from falseclaims.claims.plan import probability_at, smallest_n
from falseclaims.config import LookupGrid, Planner, from_params, source_label
from falseclaims.figures.common import METRIC_NAMES
from falseclaims.levels import CONGRUENCE_LEVELS, LEVEL_LABELS
from falseclaims.survey.multipliers import grid_level
from falseclaims.survey.populations import TEST_SET_POPULATION, distinct_test_sizes
from falseclaims.tasks import TASK_LABELS
from falseclaims.sd_model import SDModel
from falseclaims.style import BAND_COLOURS, HIGHLIGHT, figure

# said beside the level on the figure: [Christodoulou2025] does not state the metric level
# of its Fig 6 (nor of its 8x / 10x multipliers)
LEVEL_UNSTATED = "the paper does not state its level"

NBSP = "\u00a0"  # a space the footnote is never wrapped at
# characters of a title line the double-width figure fits: the 96 of "A = 0.83785: median
# winner value of the 131 analysed papers (the paper does not state its level)" ended
# 1 px inside it (the variable parts are digits, all of one width)
TITLE_CHARS = 95
CLAMP_MARK = "†"  # a Q1 / Q3 value equal to the median's because both were clamped


# how a P on a band's edge is coloured. "paper" (the default): [Christodoulou2025], Fig 6
# caption, "red (>10%), orange (5–10%), green (<5%)": green below `low`, orange from `low` to
# `high` inclusive, red above. "green_at_most": green up to and including `low` (the planner's
# "P ≤ target" test, so column n* is green even at a P of exactly `low`), orange above it.
# The two differ only for a P exactly equal to `low`. {rule: (green test, legend sign of green)}
BAND_RULES = {
    "paper": (lambda p, low: p < low, "<"),
    "green_at_most": (lambda p, low: p <= low, "≤"),
}


def band(p: float, low: float = 0.05, high: float = 0.10, rule: str = "paper") -> str:
    """'low' (green), 'medium' (orange) or 'high' (red, P > ``high``); the edge at ``low`` by
    ``rule`` (:data:`BAND_RULES`; default the paper's: green only below ``low``)."""
    if rule not in BAND_RULES:
        raise ValueError(f"band rule must be one of {sorted(BAND_RULES)}; got {rule!r}")
    if BAND_RULES[rule][0](p, low):
        return "low"
    return "medium" if p <= high else "high"


def lookup_data(task: str, n_grid, delta_grid, level: float, congruence: dict,
                sd_model: SDModel | None = None, sd_level: str = "mean",
                observed: tuple[float, float] | None = None, target: float = 0.05,
                bands=(0.05, 0.10), n_max: int = 10**7,
                band_rule: str = "paper") -> tuple[pd.DataFrame, dict]:
    """Tidy grid (one row per cell) and the highlight info; each cell's colour by
    ``band_rule`` (:data:`BAND_RULES`)."""
    n_grid = sorted({int(n) for n in n_grid})
    delta_grid = sorted(float(d) for d in delta_grid)
    if not n_grid or not delta_grid:
        raise ValueError("lookup_grid: n and delta grids must not be empty")
    if n_grid[0] < 2:
        raise ValueError(f"lookup_grid: test-set sizes must be >= 2; got {n_grid[0]}")
    info: dict = {"observed_n": None, "observed_delta": None, "observed_cell": None,
                  "plan_delta": None, "plan": None}
    plan_delta = None
    if observed is not None and all(np.isfinite(observed)):
        obs_n, obs_d = float(observed[0]), float(observed[1])
        row = n_grid[int(np.argmin(np.abs(np.log(n_grid) - np.log(max(obs_n, 1)))))]
        col = delta_grid[int(np.argmin(np.abs(np.asarray(delta_grid) - obs_d)))]
        info.update(observed_n=obs_n, observed_delta=obs_d, observed_cell=(row, col))
        plan_delta = col
        plan = smallest_n(task, col, level, congruence["median"], target=target,
                          sd_model=sd_model, n_max=n_max, sd_level=sd_level)
        info.update(plan_delta=col, plan=plan)
        if plan.found and plan.n not in n_grid:
            n_grid = sorted([*n_grid, plan.n])
    # one call per delta and level, vectorised over the sizes
    probs = {(d, lvl): probability_at(task, np.asarray(n_grid), d, level, congruence[lvl],
                                      sd_model, sd_level)
             for d in delta_grid for lvl in CONGRUENCE_LEVELS}
    rows = []
    for i, n in enumerate(n_grid):
        for d in delta_grid:
            rec = {"task": task, "n": n, "delta": d, "level": level,
                   "value_a": level, "value_b": level - d}
            for lvl in CONGRUENCE_LEVELS:
                rec[f"congruence_{lvl}"] = congruence[lvl]
                rec[f"p_{lvl}"] = float(probs[(d, lvl)][i])
            rec.update(_clamping(task, level, d, congruence))
            rec["band"] = band(rec["p_median"], *bands, rule=band_rule)
            rec["observed_cell"] = info["observed_cell"] == (n, d)
            plan = info["plan"]
            rec["planner_cell"] = bool(plan is not None and plan.found and n == plan.n
                                       and d == plan_delta)
            rows.append(rec)
    return pd.DataFrame(rows), info


def _clamping(task: str, level: float, delta: float, congruence: dict) -> dict:
    """Congruence used per level (classification: moved into [A + B - 1, min(A, B)]) and
    whether the Q1 / Q3 value equals the median's because both were moved to one bound."""
    out = {}
    for lvl in CONGRUENCE_LEVELS:
        if task == "classification":
            lo, hi = stats.classification_congruence_bounds(level, level - delta)
            used = float(np.clip(congruence[lvl], float(lo), float(hi)))
        else:
            used = float(congruence[lvl])
        out[f"congruence_used_{lvl}"] = used
        out[f"clamped_{lvl}"] = used != float(congruence[lvl])
    for lvl in ("q1", "q3"):
        out[f"{lvl}_equals_median_clamped"] = bool(
            out[f"clamped_{lvl}"] and out[f"congruence_used_{lvl}"]
            == out["congruence_used_median"])
    return out


def fig6_lookup(task: str, n_grid, delta_grid, level: float, congruence: dict,
                sd_model: SDModel | None = None, sd_level: str = "mean",
                observed: tuple[float, float] | None = None, target: float = 0.05,
                bands=(0.05, 0.10), n_max: int = 10**7, venue_label: str = "",
                congruence_source: str = "paper", level_text: str = "",
                band_rule: str = "paper"):
    """Fig 6 for one task: the coloured grid (sizes in columns, deltas in rows, as in the
    paper) with a notes panel stating every assumption; ``level_text`` says where the level
    comes from (:func:`falseclaims.survey.multipliers.grid_level`), in the title;
    ``band_rule`` colours a P on a band's edge (:data:`BAND_RULES`, default the paper's)."""
    data, info = lookup_data(task, n_grid, delta_grid, level, congruence, sd_model, sd_level,
                             observed, target, bands, n_max, band_rule)
    ns = sorted(data["n"].unique())
    ds = sorted(data["delta"].unique())
    plan = info["plan"]
    notes = _notes(task, data, info, level, congruence, congruence_source, sd_model, sd_level,
                   target, bands, venue_label)
    n_note_lines = notes.count("\n") + 1
    grid_h = 24 + 9.0 * len(ds)
    note_h = 3.6 * n_note_lines + 12  # the notes, then the legend
    fig, (ax, ax_note) = figure("double", height=grid_h + note_h, nrows=2,
                                gridspec_kw={"height_ratios": [grid_h, note_h]})
    for _, r in data.iterrows():
        _cell(ax, ds.index(r["delta"]), ns.index(r["n"]), r, bands)
    ax.set_xlim(0, len(ns))
    ax.set_ylim(len(ds), 0)
    col_labels = [f"{n:,}" + ("\n= n*" if plan is not None and plan.found and n == plan.n
                              else "") for n in ns]
    ax.set_xticks(np.arange(len(ns)) + 0.5, col_labels)
    ax.set_yticks(np.arange(len(ds)) + 0.5, [f"{d:g}" for d in ds])
    ax.xaxis.set_ticks_position("top")
    ax.xaxis.set_label_position("top")
    ax.tick_params(length=0)
    for sp in ax.spines.values():
        sp.set_visible(False)
    metric = METRIC_NAMES[task]
    ax.set_xlabel("Test-set size n")
    ax.set_ylabel(f"Δ {metric} (A minus B)")
    ax.set_title(_title(task, level, level_text), loc="left")
    # named as the paper's caption names them: red (>10%), orange (5-10%), green (<5%)
    low, high = (f"{100 * b:g}" for b in bands)
    handles = [Patch(facecolor=BAND_COLOURS["high"], label=f"red > {high}%"),
               Patch(facecolor=BAND_COLOURS["medium"], label=f"orange {low}–{high}%"),
               Patch(facecolor=BAND_COLOURS["low"],
                     label=f"green {BAND_RULES[band_rule][1]} {low}%"),
               Patch(facecolor=HIGHLIGHT, edgecolor="black", label="gray: highlight")]
    ax_note.set_axis_off()
    ax_note.text(0.0, 1.0, notes, ha="left", va="top", fontsize="small",
                 transform=ax_note.transAxes)
    ax_note.legend(handles=handles, loc="lower left", ncols=len(handles), borderaxespad=0,
                   title="P at median congruence:", alignment="left")
    return fig, data


def _title(task: str, level: float, level_text: str) -> str:
    """A as the footnote prints it (``:g``: a title rounding 0.8485 to 0.849 stated two
    levels); where it comes from on a second line, the paper's silence on a third when the
    line would run past the figure's width."""
    title = (f"{TASK_LABELS[task]}: probability of a false claim, winner's "
             f"{METRIC_NAMES[task]} A = {level:g}, runner-up B = A − Δ")
    if not level_text:
        return title
    source = f"A = {level:g}: {level_text}"
    sep = "\n" if len(source) + len(LEVEL_UNSTATED) + 3 > TITLE_CHARS else " "
    return f"{title}\n{source}{sep}({LEVEL_UNSTATED})"


def _cell(ax, i: int, j: int, r, bands) -> None:
    """Row i (delta), column j (size): band colour, highlight, the three probabilities."""
    ax.add_patch(Rectangle((j, i), 1, 1, facecolor=BAND_COLOURS[r["band"]],
                           edgecolor="white", linewidth=1.5))
    bold = bool(r["observed_cell"] or r["planner_cell"])
    if bold:
        ax.add_patch(Rectangle((j + 0.05, i + 0.08), 0.9, 0.84, facecolor=HIGHLIGHT,
                               edgecolor="black", linewidth=1.0, zorder=2))
    q1, q3 = (f"{100 * r[f'p_{lvl}']:.1f}"
              + (CLAMP_MARK if r[f"{lvl}_equals_median_clamped"] else "")
              for lvl in ("q1", "q3"))
    ax.text(j + 0.5, i + 0.5, f"{100 * r['p_median']:.1f}%\n({q1}, {q3})", ha="center",
            va="center", fontsize="x-small", zorder=3, linespacing=1.15,
            fontweight="bold" if bold else "normal")


def _notes(task, data, info, level, congruence, source, sd_model, sd_level, target, bands,
           venue_label) -> str:
    metric = METRIC_NAMES[task]
    plan = info["plan"]
    lines = [(f"Assumed: A = {level:g} {metric}, B = {level:g} − Δ; congruence ({source}) "
             f"median {congruence['median']:g} (Q1 {congruence['q1']:g}, "
             f"Q3 {congruence['q3']:g}).")]
    if task == "classification":
        lines.append(_clamp_note(data))
    elif sd_model is not None:
        sd_a, _ = sd_model.predict(level, sd_level)
        model = source_label(sd_model.source) if sd_model.source else "config"
        lines.append(f"Per-case SDs imputed by the SD model ({model}, "
                     f"{sd_level}) at A and B: SD = {float(sd_a):.3f} at DSC {level:g}.")
    lines.append("Cell: P at median congruence (P at Q1, P at Q3 congruence), in %; columns: "
                 "test-set size n, rows: Δ.")
    if info["observed_cell"] is not None:
        text = (f"Gray: cell nearest the observed medians of {venue_label or 'the venue'} "
                f"(median{NBSP}n = {median_size(info['observed_n'])} over the "
                f"{TEST_SET_POPULATION}, median{NBSP}Δ = {info['observed_delta']:.3g} over "
                f"the analysed papers)")
        if plan is not None and plan.found:
            text += (f"; column{NBSP}n* = {plan.n:,}: smallest size with P ≤ {100 * target:g}% at "
                     f"Δ = {info['plan_delta']:g} (median congruence, planner).")
        elif plan is not None:
            text += (f"; no size up to {plan.n_max:,} reaches P ≤ {100 * target:g}% at "
                     f"Δ = {info['plan_delta']:g}.")
        lines.append(text)
    else:
        lines.append("No observed (n, Δ) for this venue and task, so no highlight.")
    return "\n".join(_wrap(t, 112) for t in lines)


def _clamp_note(data: pd.DataFrame) -> str:
    """How many cells had each level's congruence moved into [A + B - 1, min(A, B)], and the
    dagger's meaning."""
    k = len(data)
    moved = ", ".join(f"{LEVEL_LABELS[lvl]} in {int(data[f'clamped_{lvl}'].sum())}"
                      for lvl in CONGRUENCE_LEVELS)
    same = int((data["q1_equals_median_clamped"] | data["q3_equals_median_clamped"]).sum())
    return (f"Congruence (both-correct share) outside [A + B − 1, min(A, B)] is moved to the "
            f"nearer bound, as in the survey: {moved} of {k} cells. {CLAMP_MARK} Q1 (or Q3) "
            f"congruence moved to the same bound as the median, so its P equals the median's "
            f"({same} of {k} cells).")


def fig6_of_venue(task: str, papers: pd.DataFrame, top2: pd.DataFrame,
                  lookup_grid: LookupGrid | Mapping, congruence: dict,
                  sd_model: SDModel | None, planner: Planner | Mapping, test_set_splits,
                  which: str = "in_scope", venue_label: str = ""):
    """Fig 6 of one venue for ``task``: the grid of config ``lookup_grid`` at the level of
    :func:`falseclaims.survey.multipliers.grid_level` (segmentation with the SD model), with
    the venue's median test-set size (papers of population ``which`` with a split in
    ``test_set_splits``) and median delta marked. ``lookup_grid`` and ``planner``: the typed
    objects, or the blocks the figure rule passes (read once, :func:`config.from_params`)."""
    grid, plan = from_params(lookup_grid, LookupGrid), from_params(planner, Planner)
    level, level_text = grid_level(task, top2, grid)
    return fig6_lookup(
        task, grid.tasks[task].n, grid.tasks[task].delta, level, congruence[task],
        sd_model=sd_model if task == "segmentation" else None,
        sd_level=grid.sd_level,
        observed=observed_medians(papers, top2, task, test_set_splits, which),
        target=plan.target, bands=grid.bands, n_max=plan.n_max, band_rule=grid.band_rule,
        venue_label=venue_label, congruence_source=grid.congruence_source,
        level_text=level_text)


def median_size(n: float) -> str:
    """A median test-set size: a whole number when it is one ("2,076"), else with one
    decimal ("1,481.5": the median of an even count of sizes)."""
    return f"{n:,.0f}" if float(n).is_integer() else f"{n:,.1f}"


def _wrap(text: str, width: int) -> str:
    """Wrap at spaces, never inside "n = 8,390" or "P ≤ 5%" (non-breaking spaces)."""
    for op in ("=", "≤"):
        text = text.replace(f" {op} ", f"{NBSP}{op}{NBSP}")
    return "\n".join(textwrap.wrap(text, width))


def observed_medians(papers: pd.DataFrame, top2: pd.DataFrame, task: str, splits,
                     which: str = "in_scope") -> tuple[float, float] | None:
    """Median test-set size (over :func:`distinct_test_sizes`) and median delta (over the
    analysed papers, ``top2.csv``) of a venue for a task."""
    sizes = distinct_test_sizes(papers, splits, which)
    n = sizes.loc[sizes["task"] == task, "n_test"]
    delta = pd.to_numeric(top2.loc[top2["task"] == task, "delta"], errors="coerce").dropna()
    if n.empty or delta.empty:
        return None
    return float(n.median()), float(delta.median())
