"""Table mode (``falseclaims table``): methods ranked with their 95% intervals, coloured by
tier, P(false claim) of the winner against each method printed on the right
(docs/table.md). The intervals are marginal (each method alone); tiers come from the paired
probabilities, so overlapping intervals need not mean a tie."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.ticker import FuncFormatter

from falseclaims.percase.verdict import probability_text
from falseclaims.figures.common import panel_letter, panel_title
from falseclaims.style import CYCLE, MM, PALETTE, figure, log_ticks, source_colours
from falseclaims.tasks import TASK_LABELS

__all__ = ["agreement_figure", "interval_data", "ranked_intervals", "ties_figure"]

LEVEL = 0.95


def interval_data(metric: dict) -> pd.DataFrame:
    """One row per method: value and its marginal 95% interval (Clopper-Pearson for
    accuracy at k = round(value n); mean ± t s/√n for DSC, or another metric analysed with
    per-case SDs, with the SD the analysis used)."""
    from scipy import stats

    from falseclaims.multiplicity.best_of_m import clopper_pearson

    n, rows = int(metric["n"]), []
    for m in metric["methods"]:
        v = float(m["value"])
        if metric["task"] == "classification":
            lo, hi = clopper_pearson(int(round(v * n)), n, 1 - LEVEL)
        else:
            sd = (next(o["sd_winner"] for o in metric["methods"] if not o["winner"])
                  if m["winner"] else m["sd_other"])
            half = float(stats.t.ppf((1 + LEVEL) / 2, n - 1)) * float(sd) / np.sqrt(n)
            lo, hi = v - half, v + half
            if metric["task"] == "segmentation":  # DSC lies in [0, 1]; a distance need not
                lo, hi = max(lo, 0.0), min(hi, 1.0)
        rows.append({"method": m["method"], "rank": m["rank"], "tier": m["tier"], "value": v,
                     "lower": lo, "upper": hi, "winner": m["winner"],
                     "p_false_claim": m.get("p_false_claim", np.nan)})
    return pd.DataFrame(rows)


def ranked_intervals(metric: dict, title: str = ""):
    """(figure, data) of one analysed metric column (:func:`falseclaims.table.analysis.
    analyse_column`)."""
    data = interval_data(metric)
    k = len(data)
    scale = 100.0 if metric["units"] == "percent" else 1.0
    fig, ax = figure("single", height=min(30 + 5.2 * k, 230))
    y = np.arange(k)[::-1]
    for (_, r), yy in zip(data.iterrows(), y):
        colour = CYCLE[(int(r["tier"]) - 1) % len(CYCLE)]
        ax.plot([r["lower"] * scale, r["upper"] * scale], [yy, yy], color=colour, lw=1.6)
        ax.plot(r["value"] * scale, yy, "D" if r["winner"] else "o", color=colour, ms=4,
                mec=PALETTE["black"] if r["winner"] else colour, mew=0.6)
    tier1 = data[data["tier"] == 1]
    ax.axhspan(y[len(tier1) - 1] - 0.5, k - 0.5, color=CYCLE[0], alpha=0.08, lw=0)
    win = data[data["winner"]].iloc[0]
    ax.axvline(win["value"] * scale, color=PALETTE["gray"], lw=0.6, ls=":")
    ax.set_yticks(y)
    ax.set_yticklabels([f"{m}  (T{t})" for m, t in zip(data["method"], data["tier"])])
    ax.set_ylim(-0.6, k - 0.4)
    unit = " (%)" if scale == 100 and "%" not in metric["column"] else ""
    better = "lower is better\n" if metric.get("direction") == "lower" else ""
    ax.set_xlabel(f"{metric['column']}{unit}, 95% interval (n = {metric['n']})\n"
                  f"{better}shaded: tier T1, tied with the "
                  f"{'top' if metric.get('tied_at_top') else 'winner'} (P ≥ {100 * metric['cutoff']:g}%)")
    lo, hi = data["lower"].min() * scale, data["upper"].max() * scale
    pad = (hi - lo) * 0.02
    ax.set_xlim(lo - pad, hi + pad)
    for (_, r), yy in zip(data.iterrows(), y):
        # a tie at the top has no winner: its first row is only the reference of the P values
        mark = "tie (reference)" if metric.get("tied_at_top") else "winner"
        text = mark if r["winner"] else f"P = {probability_text(r['p_false_claim'], 3)}"
        ax.annotate(text, (1.0, yy), xycoords=("axes fraction", "data"), xytext=(4, 0),
                    textcoords="offset points", va="center", fontsize=6)
    if title:
        import textwrap
        fig.suptitle(textwrap.shorten(title, 60, placeholder=" ..."), fontsize=7, x=0.02,
                     ha="left")
    fig.get_layout_engine().set(w_pad=2 * MM)
    return fig, data


FLOOR = 1e-6  # probabilities below are drawn at the floor (log axes); the cutoffs are far above


def agreement_figure(pairs: pd.DataFrame, congruence: dict):
    """(a) P(false claim) from the printed table (assumed congruence, imputed SDs) against
    the per-case probability (empirical congruence and SDs), one point per winner x other
    method, cutoff lines; (b) the empirical congruence of those pairs against the assumed
    Q1-Q3 band per task. ``congruence``: {task: {q1, median, q3}}."""
    fig, (ax, bx) = figure("double", height=75, ncols=2, width_ratios=[1.3, 1])
    cutoff = float(pairs["cutoff"].iloc[0])
    # each data set in its colour of every figure (isic2018 and touchstone are also
    # congruence sources: the same colour as in Fig 5's companion and the estimation figures)
    colours = source_colours(sorted(pairs["dataset"].unique()))
    for d, g in pairs.groupby("dataset", sort=True):
        x = g["p_percase"].clip(lower=FLOOR)
        y = g["p_table"].clip(lower=FLOOR)
        ok = g["agree"].to_numpy()
        ax.scatter(x[ok], y[ok], s=10, color=colours[d], alpha=0.6, lw=0,
                   label=f"{d}: agree ({int(ok.sum())})")
        if (~ok).any():
            ax.scatter(x[~ok], y[~ok], s=22, facecolor="none", edgecolor=colours[d], lw=0.9,
                       label=f"{d}: disagree ({int((~ok).sum())})")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.plot([FLOOR, 1], [FLOOR, 1], color=PALETTE["gray"], lw=0.6)
    ax.axvline(cutoff, color=PALETTE["black"], lw=0.6, ls="--")
    ax.axhline(cutoff, color=PALETTE["black"], lw=0.6, ls="--")
    ax.set_xlim(FLOOR / 3, 1.5)
    ax.set_ylim(FLOOR / 3, 1.5)
    for axis in (ax.xaxis, ax.yaxis):
        _floor_ticks(axis)
    ax.set_xlabel("P(false claim), per-case data (empirical congruence and SDs)")
    ax.set_ylabel("P(false claim), printed table\n(assumed congruence, imputed SDs)")
    ax.legend(loc="upper left", fontsize=6)
    ax.set_title(f"Winner vs each other method; dashed: cutoff {cutoff:g}", fontsize=7)
    panel_letter(ax, 0)
    tasks = sorted(pairs["task"].unique())
    for k, task in enumerate(tasks):
        q = congruence[task]
        bx.add_patch(plt_rect(k, q["q1"], q["q3"]))
        bx.plot([k - 0.3, k + 0.3], [q["median"]] * 2, color=PALETTE["black"], lw=1.2)
        g = pairs[pairs["task"] == task]
        jitter = (np.arange(len(g)) % 9 - 4) * 0.03
        bx.scatter(k + jitter, g["congruence_empirical"], s=8, lw=0, alpha=0.6,
                   color=[colours[d] for d in g["dataset"]])
    bx.set_xticks(range(len(tasks)))
    bx.set_xticklabels([f"{TASK_LABELS.get(t, t)}\n"
                        f"({'Pearson r' if t == 'segmentation' else 'both correct'})"
                        for t in tasks])
    bx.set_xlim(-0.6, len(tasks) - 0.4)
    bx.set_ylabel("Congruence of the pair")
    bx.set_title("Congruence: pairs (dots), assumed Q1–Q3", fontsize=7)
    panel_letter(bx, 1)
    data = pairs[["dataset", "table", "task", "winner", "method", "p_table", "p_percase",
                  "congruence_assumed", "congruence_empirical", "tied_table", "tied_percase",
                  "agree"]]
    return fig, data


def _floor_ticks(axis) -> None:
    """Decade ticks, the floor's labelled "≤10⁻⁶": the points drawn there are probabilities
    at or below it, not equal to it."""
    log_ticks(axis)
    decade = axis.get_major_formatter()
    axis.set_major_formatter(FuncFormatter(
        lambda v, pos: ("≤" if np.isclose(v, FLOOR) else "") + decade(v, pos)))


def plt_rect(k: float, lo: float, hi: float):
    from matplotlib.patches import Rectangle

    return Rectangle((k - 0.3, lo), 0.6, hi - lo, facecolor=PALETTE["skyblue"], alpha=0.3,
                     edgecolor=PALETTE["blue"], lw=0.6)


def ties_figure(ties: pd.DataFrame, label: str = ""):
    """Papers by the number of reported methods tied with the winner (tier 1 minus the
    winner), one bar colour per task; (figure, data)."""
    from matplotlib.ticker import MaxNLocator

    from falseclaims.style import TASK_COLOURS, no_data

    fig, ax = figure("single", height=62)
    if ties.empty:
        no_data(ax, "no paper reports more than two methods")
        return fig, pd.DataFrame(columns=["task", "n_tied", "papers"])
    counts = (ties.groupby(["task", "n_tied"]).size().rename("papers").reset_index())
    top = int(counts["n_tied"].max())
    tasks = sorted(counts["task"].unique())
    width = 0.8 / len(tasks)
    for k, task in enumerate(tasks):
        c = counts[counts["task"] == task].set_index("n_tied")["papers"].reindex(
            range(top + 1), fill_value=0)
        ax.bar(np.arange(top + 1) + (k - (len(tasks) - 1) / 2) * width, c.to_numpy(),
               width=width, color=TASK_COLOURS.get(task, CYCLE[k]),
               label=panel_title(task, int(c.sum())) if task in TASK_LABELS else task)
    ax.set_xticks(range(top + 1))
    # counts of papers: whole numbers only (3 papers gave ticks 0.5, 1.5, ...)
    ax.yaxis.set_major_locator(MaxNLocator(integer=True, steps=[1, 2, 5, 10]))
    ax.set_xlabel(f"Reported methods tied with the winner (P ≥ {100 * ties['cutoff'].iloc[0]:g}%)")
    ax.set_ylabel("Papers")
    # below the axis, not on the bars (a legend in the upper right covered a tall bar)
    fig.legend(loc="outside lower center", handlelength=1.2)  # one a row: a single column
    if label:
        ax.set_title(label, fontsize=7, loc="left")
    return fig, counts
