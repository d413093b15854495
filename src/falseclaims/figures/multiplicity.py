"""Figures of the multiplicity stage (best of m classifiers); each returns ``(figure, data)``."""

from __future__ import annotations

import numpy as np
import pandas as pd

from falseclaims import style
from falseclaims.multiplicity.tables import cdf_data, dependent_exact_pmf, pmf_data


def pmf_figure(m: int, n: int, p: float, alpha: float):
    """pmf of one classifier's accuracy vs the best of m; E p_SOTA and p^m_{1-a/2} marked."""
    data, mk = pmf_data(m, n, p, alpha)
    colours = [style.PALETTE["gray"], style.PALETTE["vermillion"], style.PALETTE["blue"]]
    fig, ax = style.figure("double", height=80)
    for (curve, grp), col in zip(data.groupby("curve", sort=False), colours):
        ax.step(grp["accuracy"], grp["probability"], where="mid", color=col, label=curve)
        ax.fill_between(grp["accuracy"], grp["probability"], step="mid", color=col, alpha=0.15)
    lines = [(mk["p"], "true accuracy p", ":", style.PALETTE["black"]),
             (mk["mean_best"], "expected best", "--", style.PALETTE["blue"]),
             (mk["upper_multiplicity"], "adjusted upper limit", "-", style.PALETTE["orange"])]
    for x, label, ls, col in lines:
        ax.axvline(x, ls=ls, color=col, lw=1.0, label=f"{label} {x:.4f}")
    ax.set_xlabel(f"observed accuracy on n = {n} cases")
    ax.set_ylabel("probability")
    ax.set_ylim(bottom=0)
    fig.legend(loc="outside lower center", ncols=3, fontsize=6.5)
    ax.set_title(f"m = {m} classifiers of accuracy p = {p:g}; "
                 f"single-classifier {100 * (1 - alpha):g}% CI upper limit {mk['ci_single_hi']:.4f}",
                 fontsize=8)
    return fig, data.assign(**{f"marker_{k}": v for k, v in mk.items()})


def cdf_figure(ms: list[int], n: int, p: float, alpha: float):
    """F(z) = P(at least one of m has at most z failures), per m ([Mollersen2023], Fig 2)."""
    data = cdf_data(ms, n, p)
    fig, ax = style.figure("single", height=62)
    for (m, grp), col in zip(data.groupby("m"), style.CYCLE):
        ax.step(grp["accuracy"], grp["cdf"], where="post", color=col, label=f"m = {m}")
    ax.axhline(alpha / 2, color=style.PALETTE["gray"], ls=":", lw=0.8,
               label=f"alpha/2 = {alpha / 2:g}")
    ax.axvline(p, color=style.PALETTE["black"], ls=":", lw=0.8, label=f"p = {p:g}")
    ax.invert_xaxis()  # more failures to the right, as in [Mollersen2023], Fig 2
    ax.set_xlabel(f"best observed accuracy (n = {n})")
    ax.set_ylabel("P(best accuracy ≥ x)")
    ax.set_ylim(0, 1.02)
    ax.legend(loc="upper left", fontsize=6.5)
    return fig, data


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
    sec = ax.secondary_xaxis("top", functions=(lambda z: (n - z) / n, lambda a: n - a * n))
    sec.set_xlabel("best observed accuracy")
    ax.legend(loc="upper left", fontsize=6.5)
    out = pd.concat(rows, ignore_index=True)
    out["failures"] = out["failures"].astype(int)
    return fig, out
