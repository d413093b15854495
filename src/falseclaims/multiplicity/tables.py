"""Tidy tables for the multiplicity stage ([Mollersen2023]): grid summary, figure data,
simulation."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from falseclaims.multiplicity.best_of_m import (
    clopper_pearson,
    dependent_distribution,
    draw_failures,
    prob_beats,
    simulate_dependent,
    sota_distribution,
)


def _summary_row(m: int, n: int, p: float, alpha: float) -> dict:
    dist = sota_distribution(m, n, p)
    up = dist.upper(alpha)
    lo, hi = clopper_pearson(round(p * n), n, alpha)
    return {
        "m": m, "n": n, "p": p, "alpha": alpha,
        "mean_best": dist.mean, "sd_best": dist.sd, "bias": dist.mean - p,
        "median_best": dist.quantile(0.5),
        "ci_single_lo": lo, "ci_single_hi": hi,
        "upper_multiplicity": up.accuracy, "failures_at_upper": up.failures,
        "prob_at_upper": up.probability,
        # [Mollersen2023], Sec. 3.4: chance that a classifier truly at the single-CI upper
        # limit shows an accuracy above the adjusted limit / at least the expected best
        "prob_ci_hi_beats_upper": prob_beats(hi, n, up.accuracy, strict=True),
        "prob_ci_hi_reaches_mean": prob_beats(hi, n, dist.mean),
    }


@dataclass(frozen=True)
class SotaGrid:
    """The ``multiplicity.grid`` block: the numbers of methods ``m``, test-set sizes ``n``
    and accuracies ``p`` whose Cartesian product the state-of-the-art table holds."""

    m: tuple[int, ...]
    n: tuple[int, ...]
    p: tuple[float, ...]

    @classmethod
    def from_block(cls, grid: Mapping) -> SotaGrid:
        for key in ("m", "n", "p"):
            if not grid.get(key):
                raise ValueError(f"multiplicity grid: '{key}' must be a non-empty list; "
                                 f"got {grid.get(key)!r}")
        return cls(tuple(int(v) for v in grid["m"]), tuple(int(v) for v in grid["n"]),
                   tuple(float(v) for v in grid["p"]))


def sota_table(grid: SotaGrid | Mapping, alpha: float,
               published: list[dict] | None = None) -> pd.DataFrame:
    """Expected best accuracy and SD over the Cartesian grid m x n x p (``grid``: a
    :class:`SotaGrid`, or the config block it is read from).

    ``published`` rows ({m, n, p, mean, sd}) are joined as ``published_mean``/``published_sd``
    ([Mollersen2023], Table 1), so the table shows the reproduction side by side.
    """
    grid = grid if isinstance(grid, SotaGrid) else SotaGrid.from_block(grid)
    rows = [_summary_row(m, n, p, alpha) for m, n, p in itertools.product(grid.m, grid.n, grid.p)]
    table = pd.DataFrame(rows)
    table["published_mean"] = np.nan
    table["published_sd"] = np.nan
    for ref in published or []:
        hit = ((table["m"] == ref["m"]) & (table["n"] == ref["n"])
               & np.isclose(table["p"], ref["p"]))
        if not hit.any():
            raise ValueError(f"multiplicity published row {ref} is not on the grid "
                             f"m={list(grid.m)}, n={list(grid.n)}, p={list(grid.p)}")
        table.loc[hit, "published_mean"] = ref["mean"]
        table.loc[hit, "published_sd"] = ref["sd"]
    return table


def pmf_data(m: int, n: int, p: float, alpha: float) -> tuple[pd.DataFrame, dict]:
    """[Mollersen2023], Fig 1: pmf of one classifier's accuracy at p and at the single-CI
    upper limit, with the shaded areas of the second one.

    Returns the long table (curve, failures, accuracy, probability, area) and the markers.
    ``area`` tags the upper-limit classifier's mass above the adjusted limit ("red": its
    total is ``prob_beats_upper``, [Mollersen2023] 0.0161) and from the expected best up to
    the adjusted limit ("blue"; red + blue is ``prob_reaches_mean``, 0.0996).
    """
    best = sota_distribution(m, n, p)
    _, hi = clopper_pearson(round(p * n), n, alpha)
    up = best.upper(alpha)
    frames = []
    for curve, dist in (("single classifier, accuracy p", sota_distribution(1, n, p)),
                        ("single classifier at CI upper limit", sota_distribution(1, n, hi))):
        frames.append(pd.DataFrame({"curve": curve, "failures": dist.failures,
                                    "accuracy": dist.accuracy, "probability": dist.pmf}))
    data = pd.concat(frames, ignore_index=True)
    data = data[data["probability"] > 1e-5].reset_index(drop=True)
    upper_curve = data["curve"] == "single classifier at CI upper limit"
    # strict "above the adjusted limit", as the 0.0161 of [Mollersen2023] (docs/multiplicity.md)
    red = upper_curve & (data["failures"] < up.failures)
    blue = upper_curve & ~red & (data["accuracy"] >= best.mean - 1e-12)
    data["area"] = np.where(red, "red", np.where(blue, "blue", ""))
    markers = {"p": p, "ci_single_hi": hi, "mean_best": best.mean,
               "upper_multiplicity": up.accuracy, "failures_at_upper": up.failures,
               "prob_beats_upper": prob_beats(hi, n, up.accuracy, strict=True),
               "prob_reaches_mean": prob_beats(hi, n, best.mean)}
    return data, markers


def best_pmf_data(m: int, n: int, p: float, alpha: float) -> tuple[pd.DataFrame, dict]:
    """[Mollersen2023], Fig 3: pmf f(z) of the best of m classifiers' failures; ``in_tail``
    marks the failure counts up to the adjusted upper limit (mass >= alpha/2 in total)."""
    dist = sota_distribution(m, n, p)
    up = dist.upper(alpha)
    data = pd.DataFrame({"m": m, "failures": dist.failures, "accuracy": dist.accuracy,
                         "probability": dist.pmf})
    data["in_tail"] = data["failures"] <= up.failures
    data = data[data["probability"] > 1e-6].reset_index(drop=True)
    markers = {"mean_best": dist.mean, "mean_failures": dist.mean_failures,
               "upper_multiplicity": up.accuracy, "failures_at_upper": up.failures,
               "tail_probability": up.probability}
    return data, markers


def cdf_data(ms: list[int], n: int, p: float) -> pd.DataFrame:
    """F(z) = P(best has at most z failures) for each m ([Mollersen2023], Fig 2)."""
    frames = []
    for m in ms:
        d = sota_distribution(int(m), n, p)
        frames.append(pd.DataFrame({"m": int(m), "failures": d.failures, "accuracy": d.accuracy,
                                    "cdf": d.cdf}))
    data = pd.concat(frames, ignore_index=True)
    return data[(data["cdf"] > 1e-7) & (data["cdf"] < 1 - 1e-7)].reset_index(drop=True)


def dependent_simulation(m: int, n: int, p: float, rho: float, reps: int, seed,
                         reference: str, alpha: float) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Best-of-m failures simulated for independent (rho = 0) and dependent classifiers.

    Returns the draws (model, rho, rep, best_failures, best_accuracy) and a summary with the
    simulated and exact (given the fixed reference; independent: [Mollersen2023], eq. 2) mean, SD
    and adjusted upper limit. Both models use the same seed, so they share nothing but it.
    """
    draws, summary = [], []
    for model, r in (("independent", 0.0), ("dependent", float(rho))):
        sim = simulate_dependent(m, n, p, r, reps, seed, reference=reference)
        draws.append(pd.DataFrame({"model": model, "rho": r, "rep": np.arange(reps),
                                   "best_failures": sim.failures,
                                   "best_accuracy": sim.accuracy}))
        up = sim.upper(alpha)
        summary.append({"model": model, "rho": r, "source": f"simulation ({reps} reps)",
                        "mean_best": sim.mean, "sd_best": sim.sd,
                        "upper_multiplicity": up.accuracy, "failures_at_upper": up.failures})
        if reference == "fixed" or r == 0.0:
            exact = (sota_distribution(m, n, p) if r == 0.0
                     else dependent_distribution(m, n, p, r))
            up = exact.upper(alpha)
            summary.append({"model": model, "rho": r, "source": "exact",
                            "mean_best": exact.mean, "sd_best": exact.sd,
                            "upper_multiplicity": up.accuracy,
                            "failures_at_upper": up.failures})
    return pd.concat(draws, ignore_index=True), pd.DataFrame(summary)


def dependent_exact_pmf(m: int, n: int, p: float, rho: float) -> pd.DataFrame:
    """Exact pmfs of the best failures for rho = 0 and rho (fixed reference)."""
    frames = []
    for model, dist in (("independent", sota_distribution(m, n, p)),
                        ("dependent", dependent_distribution(m, n, p, rho))):
        frames.append(pd.DataFrame({"model": model, "failures": dist.failures,
                                    "probability": dist.pmf}))
    return pd.concat(frames, ignore_index=True)


def replicate_table(m: int, n: int, p: float, rho: float, seed, reference: str
                    ) -> pd.DataFrame:
    """Failures of each of the m classifiers in one simulated replicate, independent (rho = 0)
    and dependent (rho) ([Mollersen2023], Fig 4); the draws of :func:`dependent_simulation`
    (``draw_failures``) with their own seed."""
    k_fixed = round(p * n)  # the fixed reference of [Mollersen2023], Sec. 4
    frames = []
    for model, r in (("independent", 0.0), ("dependent", float(rho))):
        rng = np.random.default_rng(seed)
        f = draw_failures(rng, 1, m, n, p, r, reference, k_fixed)[0]
        frames.append(pd.DataFrame({"model": model, "rho": r, "classifier": np.arange(1, m + 1),
                                    "failures": f, "accuracy": (n - f) / n}))
    return pd.concat(frames, ignore_index=True)
