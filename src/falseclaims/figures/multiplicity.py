"""Figures of the multiplicity stage (best of m classifiers); each returns ``(figure, data)``."""

from __future__ import annotations

import numpy as np
from matplotlib.ticker import MaxNLocator
import pandas as pd

from falseclaims import style
from falseclaims.multiplicity.tables import (best_pmf_data, cdf_data, dependent_exact_pmf,
                                             pmf_data)


def _failure_axis(ax, n: int, label: str = "number of failures z") -> None:
    """Failure count on top of an accuracy x-axis, as in [Mollersen2023], Figs 1-3."""
    sec = ax.secondary_xaxis("top", functions=(lambda a: n - a * n, lambda z: (n - z) / n))
    sec.set_xlabel(label)


def pmf_figure(m: int, n: int, p: float, alpha: float):
    """[Mollersen2023], Fig 1: pmf of one classifier at p (grey histogram) and at the
    single-CI upper limit (red curve); shaded: P(≥ the adjusted limit) as the paper writes it
    (red: the area strictly above the limit, which is the paper's 0.0161) and P(at least the
    expected best) (blue + red)."""
    data, mk = pmf_data(m, n, p, alpha)
    grey, red, blue = style.PALETTE["gray"], style.PALETTE["vermillion"], style.PALETTE["skyblue"]
    fig, ax = style.figure("double", height=85)
    single = data[data["curve"] == "single classifier, accuracy p"]
    upper = data[data["curve"] == "single classifier at CI upper limit"]
    ax.bar(single["accuracy"], single["probability"], width=1.0 / n, color=grey, alpha=0.6,
           label=f"one classifier, accuracy p = {p:g}")
    ax.plot(upper["accuracy"], upper["probability"], color=red, lw=1.2,
            label=f"one classifier at the single-CI upper limit {mk['ci_single_hi']:.4f}")
    for area, col, text in (
            ("blue", blue, f"P(≥ expected best | upper limit) = {mk['prob_reaches_mean']:.4f} "
                           "(blue + red)"),
            # the paper's notation is >= ([Mollersen2023], Sec. 3.4); its 0.0161 is the area
            # strictly above p^m (docs/multiplicity.md, "Conventions"), which is shaded
            ("red", red, f"P(≥ adjusted limit | upper limit) = {mk['prob_beats_upper']:.4f} "
                         "(as the paper; shaded: strictly above p^m)")):
        sel = upper[upper["area"] == area]
        ax.fill_between(sel["accuracy"], sel["probability"], color=col, lw=0, label=text)
    for x, label, ls, col in (
            (mk["mean_best"], "expected best E p_SOTA", "--", style.PALETTE["blue"]),
            (mk["upper_multiplicity"], "adjusted upper limit p^m", "-", red)):
        ax.axvline(x, ls=ls, color=col, lw=1.0, label=f"{label} = {x:.4f}")
    ax.set_xlabel(f"observed accuracy on n = {n} cases")
    ax.set_ylabel("probability")
    ax.set_ylim(bottom=0)
    _failure_axis(ax, n)
    fig.legend(loc="outside lower center", ncols=2, fontsize=6.5)
    ax.set_title(f"m = {m} classifiers of accuracy p = {p:g}; "
                 f"{100 * (1 - alpha):g}% intervals", fontsize=8)
    return fig, data.assign(**{f"marker_{k}": v for k, v in mk.items()})


def cdf_figure(ms: list[int], n: int, p: float, alpha: float):
    """F(z) = P(at least one of m has at most z failures), per m ([Mollersen2023], Fig 2);
    the band below alpha/2 is shaded (where it crosses a curve lies that m's adjusted limit)."""
    data = cdf_data(ms, n, p)
    fig, ax = style.figure("single", height=68)
    for (m, grp), col in zip(data.groupby("m"), style.CYCLE):
        ax.step(grp["accuracy"], grp["cdf"], where="post", color=col, label=f"m = {m}")
    ax.axhspan(0, alpha / 2, color=style.PALETTE["gray"], alpha=0.25, lw=0,
               label=f"F(z) ≤ alpha/2 = {alpha / 2:g}")
    ax.axvline(p, color=style.PALETTE["black"], ls=":", lw=0.8, label=f"p = {p:g}")
    ax.invert_xaxis()  # more failures to the right, as in [Mollersen2023], Fig 2
    ax.set_xlabel(f"best observed accuracy (n = {n})")
    ax.set_ylabel("F(z) = P(best has ≤ z failures)")
    ax.set_ylim(0, 1.02)
    _failure_axis(ax, n)
    ax.legend(loc="upper left", fontsize=6.5)
    return fig, data


def best_pmf_figure(m: int, n: int, p: float, alpha: float):
    """[Mollersen2023], Fig 3: pmf f(z) of the best of m classifiers' failures; the tail up
    to the adjusted upper limit shaded, the expected best marked."""
    data, mk = best_pmf_data(m, n, p, alpha)
    fig, ax = style.figure("single", height=68)
    blue, red = style.PALETTE["blue"], style.PALETTE["vermillion"]
    tail = data["in_tail"].to_numpy()
    ax.bar(data["failures"][~tail], data["probability"][~tail], width=1.0, color=blue,
           alpha=0.55, label=f"f(z), best of m = {m}")
    ax.bar(data["failures"][tail], data["probability"][tail], width=1.0, color=red, alpha=0.8,
           label=f"z ≤ {mk['failures_at_upper']} (adjusted limit), "
                 f"P = {mk['tail_probability']:.3f}")
    ax.axvline(mk["mean_failures"], color=style.PALETTE["black"], ls="--", lw=0.9,
               label=f"expected best {mk['mean_best']:.4f}")
    ax.set_xlabel("number of failures z of the best classifier")
    ax.set_ylabel("probability f(z)")
    _failure_axis_acc(ax, n, f"best observed accuracy (n = {n}, p = {p:g})")
    ax.legend(loc="upper left", fontsize=6)
    ax.set_ylim(0, data["probability"].max() * 1.45)
    return fig, data.assign(**{f"marker_{k}": v for k, v in mk.items()})


def replicate_figure(table: pd.DataFrame, n: int, p: float):
    """[Mollersen2023], Fig 4: failures of each of the m classifiers in one simulated
    replicate, independent (a) and dependent (b) classifiers, on a shared axis."""
    needed = {"model", "rho", "failures"}
    if not needed <= set(table.columns):
        raise ValueError(f"replicate table needs columns {sorted(needed)}; "
                         f"got {list(table.columns)}")
    fig, axes = style.figure("double", height=62, ncols=2, sharex=True, sharey=True)
    lo, hi = int(table["failures"].min()), int(table["failures"].max())
    step = max(1, (hi - lo + 1) // 40)
    bins = np.arange(lo - 0.5, hi + step + 0.5, step)  # the last edge lies beyond hi
    rows = []
    for ax, model, col, tag in zip(axes, ("independent", "dependent"),
                                   (style.PALETTE["blue"], style.PALETTE["orange"]), "ab"):
        sub = table[table["model"] == model]
        f = sub["failures"].to_numpy()
        counts, edges = np.histogram(f, bins=bins)
        ax.bar(edges[:-1] + np.diff(edges) / 2, counts, width=np.diff(edges), color=col,
               alpha=0.7)
        ax.axvline(f.min(), color=style.PALETTE["vermillion"], lw=1.0,
                   label=f"best: {f.min()} failures ({(n - f.min()) / n:.4f})")
        ax.axvline(n * (1 - p), color=style.PALETTE["black"], ls=":", lw=0.9,
                   label=f"expected n(1 - p) = {n * (1 - p):g}")
        ax.set_title(f"({tag}) {model}, rho = {sub['rho'].iloc[0]:g}; "
                     f"SD {f.std(ddof=1):.1f} failures", fontsize=7.5)
        ax.set_xlabel(f"failures of a classifier (n = {n})")
        _failure_axis_acc(ax, n)
        ax.legend(loc="upper right", fontsize=6)
        rows.append(pd.DataFrame({"model": model, "bin_lo": edges[:-1] + 0.5,
                                  "bin_hi": edges[1:] - 0.5, "classifiers": counts}))
    axes[0].set_ylabel(f"classifiers (of m = {int(len(table) / 2)})")
    out = pd.concat(rows, ignore_index=True)
    out[["bin_lo", "bin_hi"]] = out[["bin_lo", "bin_hi"]].astype(int)
    return fig, out


def _failure_axis_acc(ax, n: int, label: str = "observed accuracy") -> None:
    """Accuracy on top of a failure-count x-axis."""
    sec = ax.secondary_xaxis("top", functions=(lambda z: (n - z) / n, lambda a: n - a * n))
    sec.xaxis.set_major_locator(MaxNLocator(nbins=5))
    sec.set_xlabel(label)


def dependent_figure(draws: pd.DataFrame, m: int, n: int, p: float, rho: float,
                     reference: str):
    """Histograms of simulated best failures, independent vs dependent ([Mollersen2023], Fig 5)."""
    needed = {"model", "best_failures"}
    if not needed <= set(draws.columns):
        raise ValueError(f"dependent draws need columns {sorted(needed)}; "
                         f"got {list(draws.columns)}")
    exact = dependent_exact_pmf(m, n, p, rho) if reference == "fixed" else None
    fig, ax = style.figure("double", height=65)
    lo, hi = int(draws["best_failures"].min()), int(draws["best_failures"].max())
    bins = np.arange(lo - 0.5, hi + 1.5)
    rows = []
    for model, col in (("independent", style.PALETTE["blue"]),
                       ("dependent", style.PALETTE["orange"])):
        x = draws.loc[draws["model"] == model, "best_failures"].to_numpy()
        counts, _ = np.histogram(x, bins=bins)
        freq = counts / max(1, x.size)
        r = 0.0 if model == "independent" else rho
        ax.bar(bins[:-1] + 0.5, freq, width=1.0, color=col, alpha=0.45,
               label=f"{model} (rho = {r:g}), simulated")
        table = pd.DataFrame({"model": model, "failures": bins[:-1] + 0.5, "simulated": freq})
        if exact is not None:
            e = exact[exact["model"] == model].set_index("failures")["probability"]
            table["exact"] = e.reindex(table["failures"].astype(int)).fillna(0.0).to_numpy()
            ax.plot(e.index, e.to_numpy(), color=col, lw=1.0, label=f"{model}, exact")
        rows.append(table)
    ax.set_xlim(lo - 1, hi + 1)
    ax.set_xlabel(f"failures of the best of m = {m} classifiers (n = {n}, p = {p:g})")
    ax.set_ylabel("share of replicates")
    _failure_axis_acc(ax, n, "best observed accuracy")
    ax.legend(loc="upper left", fontsize=6.5)
    out = pd.concat(rows, ignore_index=True)
    out["failures"] = out["failures"].astype(int)
    return fig, out
