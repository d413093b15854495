"""[Mollersen2023] Figs 1-4: the shaded areas, tails and one replicate's failures, checked
against scipy's binomial distribution and the paper's numbers (independent of the library's
best-of-m code)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.collections import PolyCollection
from scipy import stats

from falseclaims.figures.multiplicity import (best_pmf_figure, cdf_figure, pmf_figure,
                                              replicate_figure)
from falseclaims.multiplicity.best_of_m import simulate_dependent
from falseclaims.multiplicity.tables import best_pmf_data, pmf_data, replicate_table

M, N, P, ALPHA = 1000, 3000, 0.9, 0.05


def test_fig1_shaded_areas_are_the_papers_probabilities():
    """Red area: P(upper-limit classifier scores above the adjusted limit), [Mollersen2023]
    0.0161; blue + red: P(it reaches the expected best), 0.0996. Reference: scipy binomial."""
    data, mk = pmf_data(M, N, P, ALPHA)
    hi = mk["ci_single_hi"]
    assert hi == pytest.approx(0.9105, abs=5e-5)  # Clopper-Pearson, [Mollersen2023], Sec. 3.4
    up = data[data["curve"] == "single classifier at CI upper limit"]
    red = up.loc[up["area"] == "red", "probability"].sum()
    both = up.loc[up["area"].isin(["red", "blue"]), "probability"].sum()
    # fewer than 236 failures; at most floor(n (1 - 0.91731)) failures
    assert red == pytest.approx(stats.binom.cdf(235, N, 1 - hi), abs=1e-4)
    assert both == pytest.approx(stats.binom.cdf(248, N, 1 - hi), abs=1e-4)
    assert mk["prob_beats_upper"] == pytest.approx(0.0161, abs=5e-5)
    assert mk["prob_reaches_mean"] == pytest.approx(0.0996, abs=5e-5)
    assert set(up["area"]) == {"", "red", "blue"}
    assert (data.loc[data["curve"] != "single classifier at CI upper limit", "area"] == "").all()


def test_fig3_tail_is_the_alpha_half_quantile():
    """The shaded tail of the best of m pmf ends at the smallest z with F(z) >= alpha/2,
    F(z) = 1 - (1 - P_z)^m computed here from scipy directly; z = 236 ([Mollersen2023])."""
    data, mk = best_pmf_data(M, N, P, ALPHA)
    z = np.arange(N + 1)
    big_f = 1 - stats.binom.sf(z, N, 1 - P) ** M
    z_star = int(z[np.argmax(big_f >= ALPHA / 2)])
    assert z_star == 236 == mk["failures_at_upper"]
    tail = data.loc[data["in_tail"], "probability"].sum()
    assert tail == pytest.approx(big_f[z_star], abs=1e-5)
    assert tail >= ALPHA / 2 > big_f[z_star - 1]
    assert mk["mean_best"] == pytest.approx(0.9173, abs=5e-5)


def test_one_replicate_uses_the_simulation_draws():
    """Fig 4 is one replicate of the dependent simulation: its best equals the simulated best
    of replicate 0 with the same seed; the spread matches the binomial variance (independent:
    n p (1-p); dependent given the fixed reference: sum of the two binomials' variances)."""
    seed = [7, 3, 1]
    table = replicate_table(M, N, P, 0.6, seed, "fixed")
    assert len(table) == 2 * M and set(table["model"]) == {"independent", "dependent"}
    pd.testing.assert_frame_equal(table, replicate_table(M, N, P, 0.6, seed, "fixed"))
    for model, rho in (("independent", 0.0), ("dependent", 0.6)):
        f = table.loc[table["model"] == model, "failures"].to_numpy()
        sim = simulate_dependent(M, N, P, rho, 1, seed, reference="fixed")
        assert f.min() == sim.failures[0]
        k = round(P * N)
        q1, q2 = (1 - P) * (1 - rho), 1 - P * (1 - rho)
        mean = k * q1 + (N - k) * q2
        var = k * q1 * (1 - q1) + (N - k) * q2 * (1 - q2)
        assert f.mean() == pytest.approx(mean, abs=4 * np.sqrt(var / M))
        # sample variance of 1000 draws: relative SE about sqrt(2/999) = 4.5 %
        assert f.var(ddof=1) == pytest.approx(var, rel=0.2)
    sd = table.groupby("model")["failures"].std()
    assert sd["dependent"] < sd["independent"]  # [Mollersen2023], Sec. 4


@pytest.mark.parametrize("make,top", [
    (lambda: pmf_figure(M, N, P, ALPHA), "number of failures z"),
    (lambda: cdf_figure([10, 1000], N, P, ALPHA), "number of failures z"),
    (lambda: best_pmf_figure(M, N, P, ALPHA), "best observed accuracy"),
])
def test_figures_have_both_axes_and_shading(make, top):
    fig, data = make()
    labels = [c.get_xlabel() for ax in fig.axes for c in ax.child_axes]  # secondary axes
    assert any(lbl.startswith(top) for lbl in labels), labels
    assert not data.empty
    plt.close(fig)


def test_fig1_draws_the_two_shaded_areas():
    fig, _ = pmf_figure(M, N, P, ALPHA)
    polys = [c for c in fig.axes[0].collections if isinstance(c, PolyCollection)]
    assert len(polys) == 2
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert any("0.0161" in t for t in legend) and any("0.0996" in t for t in legend)
    # the paper's notation, P(p-hat >= p^m | p = upper limit) = 0.0161 ([Mollersen2023], Sec.
    # 3.4 and Fig 1 caption); its number is the area strictly above p^m, which is shaded
    red = next(t for t in legend if "0.0161" in t)
    assert red.startswith("P(≥ adjusted limit | upper limit) = 0.0161")
    assert not any("P(>" in t for t in legend)
    plt.close(fig)


def test_replicate_figure_counts_every_classifier():
    table = replicate_table(M, N, P, 0.6, [1, 2, 3], "fixed")
    fig, data = replicate_figure(table, N, P)
    assert data.groupby("model")["classifiers"].sum().to_dict() == {"dependent": M,
                                                                    "independent": M}
    plt.close(fig)
    with pytest.raises(ValueError, match="replicate table needs columns"):
        replicate_figure(table.drop(columns="rho"), N, P)
