"""Figures of the single-claim report (``falseclaims check|percase --report``).

Every function takes plain numbers or arrays and returns a matplotlib figure drawn with
:mod:`falseclaims.style`; :mod:`falseclaims.report` embeds them as PNG.
"""

from __future__ import annotations

import numpy as np
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle
from matplotlib.ticker import MaxNLocator
from scipy import special, stats

from falseclaims import style
from falseclaims.levels import LEVEL_LABELS
from falseclaims.style import LEVEL_STYLES, PALETTE

# One colour per role in every per-case figure: A better (A's colour), B better (B's), same
# outcome (grey). Always opaque: a translucent vermilion reads as orange or peach. Other
# series (curves, means) stay black / neutral so these two colours only ever mean a role.
A_COLOUR = PALETTE["blue"]
B_COLOUR = PALETTE["vermillion"]
SAME_COLOUR = PALETTE["gray"]
CURVE_COLOURS = [PALETTE["black"], PALETTE["green"], PALETTE["purple"], PALETTE["skyblue"]]


def scatter_a_vs_b(x, y, a: str, b: str):
    """Per-case DSC of A against B with the identity line (segmentation)."""
    fig, ax = style.figure("single", height=80)
    x, y = np.asarray(x, float), np.asarray(y, float)
    lo = float(min(x.min(), y.min()))
    lo = max(0.0, lo - 0.02 * (1 - lo))
    ax.plot([lo, 1], [lo, 1], color=PALETTE["gray"], lw=0.8, ls="--", label="identity", zorder=1)
    above = x > y
    # opaque role colours; thin white edges keep overlapping points apart
    ax.scatter(x[above], y[above], s=10, color=A_COLOUR, edgecolors="white", linewidths=0.3,
               label=f"A better ({int(above.sum())})", zorder=2)
    ax.scatter(x[~above], y[~above], s=10, color=B_COLOUR, edgecolors="white", linewidths=0.3,
               label=f"B better or tie ({int((~above).sum())})", zorder=2)
    ax.set_xlim(lo, 1.0)
    ax.set_ylim(lo, 1.0)
    ax.set_aspect("equal")
    ax.set_xlabel(f"DSC of A ({_short(a)})")
    ax.set_ylabel(f"DSC of B ({_short(b)})")
    ax.legend(loc="upper left", fontsize=6.5)
    ax.set_title("Per-case DSC")
    return fig


def plot_agreement_table(tab, a: str, b: str):
    """2x2 agreement table (classification) as an annotated grid.

    ``tab``: rows A correct / wrong, columns B correct / wrong. Drawn like the segmentation
    scatter: A on x (wrong, correct), B on y (wrong at the bottom), so "only A correct" sits
    bottom right and "only B correct" top left, on either side of the concordant diagonal.
    """
    fig, ax = style.figure("single", height=66)
    counts = np.asarray(tab, dtype=float)
    n = counts.sum()
    # (x = A correct, y = B correct): count, text, fill, text colour
    cells = {(1, 1): (counts[0, 0], "both correct", SAME_COLOUR, PALETTE["black"]),
             (1, 0): (counts[0, 1], "only A correct", A_COLOUR, "white"),
             (0, 1): (counts[1, 0], "only B correct", B_COLOUR, "white"),
             (0, 0): (counts[1, 1], "both wrong", SAME_COLOUR, PALETTE["black"])}
    for (x0, y0), (k, text, fill, ink) in cells.items():
        ax.add_patch(Rectangle((x0, y0), 1, 1, facecolor=fill, edgecolor="white", lw=2))
        share = f"{k / n:.1%}" if n else "–"
        ax.text(x0 + 0.5, y0 + 0.5, f"{text}\n{int(k)} ({share})", ha="center", va="center",
                fontsize=7.5, color=ink)
    ax.set_xlim(0, 2)
    ax.set_ylim(0, 2)
    ax.set_xticks([0.5, 1.5], ["wrong", "correct"])
    ax.set_yticks([0.5, 1.5], ["wrong", "correct"])
    ax.set_xlabel(f"A ({_short(a)})")
    ax.set_ylabel(f"B ({_short(b)})")
    ax.tick_params(length=0)
    for s in ax.spines.values():
        s.set_visible(False)
    ax.set_title("Agreement of A and B")
    return fig


def _short(name: str, k: int = 18) -> str:
    return name if len(name) <= k else name[: k - 1] + "…"


def _distinct_short(names, k: int = 18) -> dict[str, str]:
    """Labels of at most ``k`` characters where they stay distinct (start … end, so that file
    names differing near their end, `…Shift01Threshold41` / `…Shift03Threshold41`, stay
    apart), wider where needed: the diagram keys its marks by label, and two methods under one
    label would be drawn as one."""
    names = list(names)
    for width in range(k, max(map(len, names), default=0) + 1):
        head = (width - 1) // 2
        tail = width - 1 - head
        short = [n if len(n) <= width else f"{n[:head]}…{n[len(n) - tail:]}" for n in names]
        if len(set(short)) == len(names):
            return dict(zip(names, short))
    return {n: n for n in names}


def differences_histogram(d, a: str, b: str):
    """Distribution of the paired differences A - B (segmentation)."""
    fig, ax = style.figure("single", height=66)  # the axes of before + a legend row
    d = np.asarray(d, float)
    edges = np.histogram_bin_edges(d, bins="fd") if np.ptp(d) > 0 else 10
    bins = edges if np.ndim(edges) and 10 <= len(edges) - 1 <= 40 else \
        min(40, max(10, int(np.sqrt(d.size)) + 1))
    heights, *_ = ax.hist(d, bins=bins, color=PALETTE["skyblue"], edgecolor="white", lw=0.4)
    ax.axvline(0, color=PALETTE["gray"], lw=0.8, ls="--")
    # mean and median are often a hair apart: each line also gets a marker above the bars,
    # at its own height, so both stay visible when the lines coincide
    top = float(np.max(heights)) if len(heights) else 1.0
    ax.set_ylim(0, top * 1.3)
    handles = []
    for value, name, colour, dash, marker, y in (
            (d.mean(), "mean", PALETTE["black"], "-", "v", 1.22),
            (np.median(d), "median", PALETTE["purple"], (0, (3, 1.5)), "D", 1.1)):
        ax.vlines(value, 0, top * y, color=colour, lw=1.1, ls=dash, zorder=3)
        ax.plot([value], [top * y], marker=marker, ms=4.5, color=colour, ls="", zorder=4)
        handles.append(Line2D([], [], color=colour, lw=1.1, ls=dash, marker=marker, ms=4.5,
                              # the minus sign of the axes' tick labels, not a hyphen
                              label=f"{name} {value:+.4f}".replace("-", "−")))
    ax.set_xlabel("DSC difference per case, A − B")
    ax.set_ylabel("cases")
    ax.yaxis.set_major_locator(MaxNLocator(integer=True, steps=[1, 2, 5, 10]))  # counts
    # under the axes: the mean and median lines can fall anywhere across x
    fig.legend(handles=handles, loc="outside lower center", ncols=2, fontsize=6.5)
    ax.set_title("Paired differences")
    return fig


def discordance_bars(only_a: int, same: int, only_b: int, a: str, b: str):
    """Per-case correctness difference A - B in {-1, 0, +1} (classification)."""
    fig, ax = style.figure("single", height=58)
    labels = ["only B correct\n(−1)", "same outcome\n(0)", "only A correct\n(+1)"]
    vals = [only_b, same, only_a]
    bars = ax.bar(labels, vals, color=[B_COLOUR, SAME_COLOUR, A_COLOUR], width=0.6)
    for rect, v in zip(bars, vals):
        ax.annotate(f"{v}", (rect.get_x() + rect.get_width() / 2, rect.get_height()),
                    ha="center", va="bottom", fontsize=7, xytext=(0, 1),
                    textcoords="offset points")
    ax.set_ylabel("cases")
    ax.set_xlabel(f"A = {_short(a)}, B = {_short(b)}")
    ax.set_ylim(0, max(vals) * 1.15 + 1)
    ax.set_title("Paired differences of correctness")
    return fig


def posterior_segmentation(curves: list[dict]):
    """Posterior of mu_A - mu_B: scaled Student t with n-1 df, area <= 0 shaded.

    Each curve: label, n, delta (mean_a - mean_b), sd_diff, probability.
    """
    fig, ax = _posterior_figure(curves)
    scale = [c["sd_diff"] / np.sqrt(c["n"]) for c in curves]
    lo = min(c["delta"] - 5 * s for c, s in zip(curves, scale))
    hi = max(c["delta"] + 5 * s for c, s in zip(curves, scale))
    lo, hi = min(lo, -0.1 * abs(hi)), max(hi, 0.1 * abs(lo))
    if hi - lo <= 0:  # identical methods: no spread and no difference
        lo, hi = lo - 0.01, hi + 0.01
    grid = np.linspace(lo, hi, 600)
    # no spread in the paired differences: the posterior is a point mass at delta (None)
    densities = [stats.t.pdf((grid - c["delta"]) / sc, df=c["n"] - 1) / sc if sc > 0
                 else None for c, sc in zip(curves, scale)]
    _draw_posteriors(ax, grid, curves, densities, "true mean DSC difference μ_A − μ_B")
    ax.set_title("Posterior of μ_A − μ_B")
    return fig


def accuracy_difference_density(n, x1, x2, grid) -> np.ndarray:
    """Exact posterior density of p1 - p2 under Dirichlet(x1+1, x2+1, n-x1-x2+2).

    With S = p1 + p2 ~ Beta(x1+x2+2, n-x1-x2+2) independent of U = p1/S ~ Beta(x1+1, x2+1),
    p1 - p2 = S (2U - 1), so f(d) = int f_S(s) f_U((d/s + 1)/2) / (2s) ds (trapezoid rule
    on a fine grid of s between its 1e-9 quantiles).
    """
    rest = max(float(n) - x1 - x2, 0.0)
    a_s, b_s = x1 + x2 + 2.0, rest + 2.0
    a_u, b_u = x1 + 1.0, x2 + 1.0
    s_dist = stats.beta(a_s, b_s)
    s = np.linspace(max(s_dist.ppf(1e-9), 1e-9), min(s_dist.ppf(1 - 1e-9), 1 - 1e-12), 1000)
    log_fs = _beta_logpdf(s, a_s, b_s)
    d = np.asarray(grid, float)[:, None]
    u = (d / s[None, :] + 1.0) / 2.0
    inside = (u > 0) & (u < 1)
    log_fu = _beta_logpdf(np.clip(u, 1e-300, 1 - 1e-16), a_u, b_u)
    integrand = np.where(inside, np.exp(log_fs[None, :] + log_fu) / (2.0 * s[None, :]), 0.0)
    return np.trapezoid(integrand, s, axis=1)


def _beta_logpdf(x, a, b):
    return special.xlogy(a - 1.0, x) + special.xlog1py(b - 1.0, -x) - special.betaln(a, b)


def _level(label: str) -> str:
    """An assumption as every figure names it (Q1, median, Q3: the survey's words)."""
    return LEVEL_LABELS.get(label, label)


def _draw_posteriors(ax, grid, curves, densities, xlabel: str) -> None:
    """One density per assumption, the area where B >= A shaded."""
    top = 0.0
    for i, (c, dens, col) in enumerate(zip(curves, densities, CURVE_COLOURS)):
        if dens is None:  # a point mass: a vertical line at it
            ax.axvline(c["delta"], color=col, lw=1.1, ls=LEVEL_STYLES.get(c["label"], "-"),
                       label=f"{_level(c['label'])}: P(B ≥ A) = {c['probability']:.3f}",
                       zorder=3)
            said = f"no spread: every paired difference is {c['delta']:+.4g}"
            if said not in [t.get_text() for t in ax.texts]:
                ax.annotate(said, (0.02, 0.97), xycoords="axes fraction", ha="left",
                            va="top", fontsize=6.5)
            continue
        top = max(top, float(dens.max()))
        # a clamped Q1 (or Q3) gives the median's curve, drawn over it: each curve hidden by
        # a later one is drawn wider, so it shows at the edges (as Fig 5's companion does)
        hidden = sum(d is not None and np.allclose(d, dens) for d in densities[i + 1:])
        ax.plot(grid, dens, color=col, lw=1.1 + 1.2 * hidden,
                ls=LEVEL_STYLES.get(c["label"], "-"),
                label=f"{_level(c['label'])}: P(B ≥ A) = {c['probability']:.3f}", zorder=3)
        # opaque, under every curve: overlapping areas keep B's one colour
        ax.fill_between(grid, dens, where=grid <= 0, color=B_COLOUR, lw=0, zorder=1)
    ax.fill_between([], [], color=B_COLOUR, lw=0, label="shaded: B ≥ A")
    ax.axvline(0, color=PALETTE["gray"], lw=0.8, ls="--")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("posterior density")
    ax.set_ylim(0, top * 1.05 if top > 0 else 1.0)
    # under the axes: inside, the zero line (anywhere across x) would cross its text
    ax.figure.legend(loc="outside lower center", ncols=_LEGEND_COLUMNS, fontsize=6.5)


_LEGEND_COLUMNS = 2


def _posterior_figure(curves: list[dict]):
    """Axes of 50 mm plus a legend row (4 mm) per two entries (the curves and the shading)."""
    rows = -(-(len(curves) + 1) // _LEGEND_COLUMNS)
    return style.figure("single", height=54 + 4 * rows)


def posterior_classification(curves: list[dict]):
    """Posterior of p1 - p2 (= accuracy difference) under the Dirichlet of [Christodoulou2025],
    exact density, area <= 0 shaded. Each curve: label, n, x1, x2, probability."""
    fig, ax = _posterior_figure(curves)
    # range from normal approximations of each posterior
    lo, hi = 0.0, 0.0
    for c in curves:
        n = float(c["n"]) + 3.0
        p1, p2 = (c["x1"] + 1) / n, (c["x2"] + 1) / n
        mean, sd = p1 - p2, np.sqrt((p1 + p2 - (p1 - p2) ** 2) / (n + 1))
        lo, hi = min(lo, mean - 5 * sd), max(hi, mean + 5 * sd)
    grid = np.linspace(max(lo, -1.0), min(hi, 1.0), 500)
    densities = [accuracy_difference_density(c["n"], c["x1"], c["x2"], grid) for c in curves]
    _draw_posteriors(ax, grid, curves, densities, "p₁ − p₂ = true accuracy difference A − B")
    ax.set_title("Posterior of p₁ − p₂")
    return fig


def probability_vs_congruence(grid, prob, marks: list[dict], task: str):
    """Probability of a false claim across congruence, with the assumptions marked."""
    fig, ax = style.figure("single", height=62)
    ax.plot(grid, prob, color=PALETTE["black"])
    merged: dict[tuple, list[str]] = {}  # clamped assumptions can share a point
    for m in marks:
        key = (round(m["congruence_used"], 9), round(m["probability"], 9))
        merged.setdefault(key, []).append(m["assumption"])
    lo, hi = float(np.min(grid)), float(np.max(grid))
    for (c, p), names in merged.items():
        ax.plot([c], [p], "o", ms=4, mfc="white", mec=PALETTE["black"], mew=1.0)
        right = c > lo + 0.95 * (hi - lo)  # at the right edge: label to the left
        ax.annotate(", ".join(_level(x) for x in names), (c, p), fontsize=6.5, xytext=(-3 if right else 3, 3),
                    textcoords="offset points", ha="right" if right else "left")
    ax.axhline(0.05, color=PALETTE["gray"], lw=0.7, ls=":")
    ax.set_xlabel("congruence p₁₁ (both correct)" if task == "classification"
                  else "congruence r (Pearson of per-case DSC)")
    ax.set_ylabel("P(false claim)")
    ax.set_ylim(0, max(0.52, float(np.nanmax(prob)) * 1.05))
    # at most five ticks: nine on -1 ... 1 ran into each other ("-1.00-0.75-0.50")
    ax.xaxis.set_major_locator(MaxNLocator(nbins=5))
    ax.set_title("Sensitivity to the assumed congruence")
    return fig


def plot_rounding_box(a_grid, b_grid, prob, a: float, b: float, decimals: int):
    """Probability over the rounding box of both reported values (``--decimals``)."""
    fig, ax = style.figure("single", height=70)
    mesh = ax.pcolormesh(a_grid, b_grid, prob, shading="nearest", cmap="viridis")
    ax.plot([a], [b], "x", color="white", ms=6, mew=1.5)
    ax.set_xlabel("true value of A")
    ax.set_ylabel("true value of B")
    cb = fig.colorbar(mesh, ax=ax)
    cb.set_label("P(false claim)")
    ax.set_title(f"Rounding box (values given to {decimals} decimals)")
    ax.ticklabel_format(useOffset=False)
    return fig


def critical_difference(omnibus):
    """Critical-difference diagram of K >= 3 methods ([Demsar2006]): average ranks on the axis
    (1 = best), methods the Nemenyi test does not separate joined by a bar; drawn by
    scikit-posthocs ``critical_difference_diagram``. ``omnibus`` is an
    :class:`falseclaims.percase.omnibus.OmnibusResult`."""
    import scikit_posthocs as sp

    k = len(omnibus.methods)
    fig, ax = style.figure("double", height=28 + 5 * k)
    label = _distinct_short(omnibus.mean_ranks)
    ranks = {label[m]: r for m, r in omnibus.mean_ranks.items()}
    sig = omnibus.nemenyi.rename(index=label, columns=label)
    drawn = sp.critical_difference_diagram(
        ranks, sig, alpha=omnibus.alpha, ax=ax,
        # a space between a name and its elbow line (the right names touched their line)
        label_fmt_left="{label} ({rank:.2f}) ", label_fmt_right=" ({rank:.2f}) {label}",
        label_props={"fontsize": 7}, color_palette=[PALETTE["black"]] * k,
        crossbar_props={"color": PALETTE["vermillion"], "linewidth": 2.0},
        text_h_margin=0.3)
    # a crossbar is drawn through its methods in the order of a Python set (string hashes:
    # another order each process), which moves antialiased pixels: drawn left to right, the
    # image is the same bytes in every run
    for line in (ln for group in drawn["crossbars"] for ln in group):
        line.set_xdata(sorted(line.get_xdata()))
    # the full rank range as in [Demsar2006], with room for a marker at rank 1 or K
    pad = 0.03 * (k - 1)
    ax.set_xlim(1 - pad, k + pad)
    ax.set_xticks(np.arange(1, k + 0.01, 0.5 if k <= 6 else 1.0))
    ax.set_title(f"Average rank over {omnibus.n_cases} cases (1 = best); critical difference "
                 f"CD = {omnibus.critical_difference:.3f}\nbars join methods the Nemenyi test "
                 f"does not separate at alpha = {omnibus.alpha:g}", fontsize=7.5)
    return fig
