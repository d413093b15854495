"""Calibration study: margins, realised correlation, intervals, ECE, and the study's own
sanity checks (calibrated when the truth is spread out, not when it is concentrated)."""

import copy

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from falseclaims.calibration.simulation import (
    CalibrationSettings,
    CurveInterval,
    PiecewiseMargins,
    bin_comparisons,
    chunk_rng,
    conditions_for,
    copula_pearson_r,
    predict,
    simulate_classification,
    simulate_segmentation,
)
from falseclaims.calibration.metrics import (
    binomial_interval,
    calibration_curve,
    calibration_tables,
    expected_calibration_error,
    merge_bins,
)
from falseclaims.config import load_config


@pytest.fixture(scope="module")
def cfg():
    return load_config()


@pytest.fixture(scope="module")
def settings(cfg):
    return CalibrationSettings.from_config(cfg)


def test_margins_moments_match_sampling():
    m = PiecewiseMargins.beta(np.array([0.8, 0.5, 0.95]), np.array([0.1, 0.2, 0.03]))
    mean, sd = m.moments()
    # the Beta moments they approximate
    np.testing.assert_allclose(mean, [0.8, 0.5, 0.95], atol=5e-4)
    np.testing.assert_allclose(sd, [0.1, 0.2, 0.03], rtol=5e-3)
    z = np.random.default_rng(3).standard_normal((3, 400_000))
    x = m.sample(z)
    assert ((x >= 0) & (x <= 1)).all()
    assert (np.abs(x.mean(1) - mean) < 4 * sd / np.sqrt(400_000)).all()
    np.testing.assert_allclose(x.std(1), sd, rtol=0.01)


def test_beta_margin_rejects_impossible_sd():
    with pytest.raises(ValueError, match="sd"):
        PiecewiseMargins.beta(np.array([0.9]), np.array([0.31]))


def test_pearson_r_normal_margins_equals_rho():
    # linear quantile functions are (clipped) normal margins: Pearson r = rho
    grid = np.linspace(-5, 5, 41)
    m = PiecewiseMargins(grid, np.vstack([0.5 + 0.05 * grid] * 3))
    rho = np.array([-0.4, 0.3, 0.85])
    np.testing.assert_allclose(copula_pearson_r(m, m, rho), rho, atol=1e-5)


def test_pearson_r_matches_large_sample_and_lancaster_bound():
    a = PiecewiseMargins.beta(np.array([0.85, 0.91, 0.7]), np.array([0.03, 0.26, 0.3]))
    b = PiecewiseMargins.beta(np.array([0.79, 0.93, 0.66]), np.array([0.33, 0.015, 0.1]))
    rho = np.array([0.47, 0.59, 0.8])
    r, bound = copula_pearson_r(a, b, rho, terms=100, return_bound=True)
    assert (bound < 1e-6).all()
    # a Pearson r of transformed Gaussians never exceeds |rho| (Lancaster 1957)
    assert (np.abs(r) <= rho + 1e-9).all()
    assert (r < rho - 0.05).any()  # and skewed margins make it visibly smaller
    rng = np.random.default_rng(11)
    z1 = rng.standard_normal((3, 300_000))
    z2 = rho[:, None] * z1 + np.sqrt(1 - rho[:, None] ** 2) * rng.standard_normal(z1.shape)
    xa, xb = a.sample(z1), b.sample(z2)
    mc = [np.corrcoef(xa[i], xb[i])[0, 1] for i in range(3)]
    np.testing.assert_allclose(r, mc, atol=0.006)


@pytest.mark.parametrize("method, scipy_method", [("clopper_pearson", "exact"),
                                                  ("wilson", "wilson")])
def test_binomial_interval_matches_scipy(method, scipy_method):
    k, n = np.array([0, 3, 17, 40]), np.array([10, 25, 40, 40])
    lo, hi = binomial_interval(k, n, 0.9, method)
    for i in range(len(k)):
        ci = stats.binomtest(int(k[i]), int(n[i])).proportion_ci(0.9, method=scipy_method)
        assert lo[i] == pytest.approx(ci.low, abs=1e-9)
        assert hi[i] == pytest.approx(ci.high, abs=1e-9)


def test_binomial_interval_rejects_bad_counts():
    with pytest.raises(ValueError, match="0 <= k <= n"):
        binomial_interval([5], [4])
    with pytest.raises(ValueError, match="interval method"):
        binomial_interval([1], [4], method="agresti")


def _bins(pred, false, bins=5, task="classification"):
    df = pd.DataFrame({"task": task, "delta_sd": 0.01, "n_test": 100,
                       "false_claim": np.asarray(false, bool)})
    for c in conditions_for(task):
        df[f"prob_{c}"] = pred
    return bin_comparisons(df, bins)


def test_ece_hand_computed():
    # bin [0, 0.1): predictions 0.05, 0.05, observed 1/2 -> |0.05 - 0.5| = 0.45
    # bin [0.4, 0.5]: predictions 0.5, 0.5, observed 1/2 -> 0
    b = _bins([0.05, 0.05, 0.5, 0.5], [True, False, True, False])
    ece = expected_calibration_error(b)
    row = ece[ece["condition"] == "true"].iloc[0]
    assert row["ece"] == pytest.approx(0.5 * 0.45)
    assert row["signed_error"] == pytest.approx(0.5 * -0.45)
    curve = calibration_curve(b)
    assert set(curve["bin"]) == {0, 4}  # 0.5 falls into the last bin


def test_binning_rejects_probability_above_half():
    with pytest.raises(ValueError, match="outside"):
        _bins([0.2, 0.7], [True, False])


def test_merging_chunks_equals_binning_everything():
    rng = np.random.default_rng(0)
    p = rng.uniform(0, 0.5, 200)
    f = rng.uniform(size=200) < p
    whole = _bins(p, f)
    merged = merge_bins([_bins(p[:80], f[:80]), _bins(p[80:], f[80:])])
    pd.testing.assert_frame_equal(merged, whole, check_dtype=False)


def _small(cfg, **block):
    c = copy.deepcopy(cfg)
    c["calibration"].update(block)
    return CalibrationSettings.from_config(c)


@pytest.mark.parametrize("task", ["classification", "segmentation"])
def test_observed_winner_and_probabilities_in_range(settings, task):
    sim = simulate_classification if task == "classification" else simulate_segmentation
    df = sim(settings, chunk_rng(settings, task, 0), 30, 0.02, 400)
    df = predict(settings, df[~df["tie"]])
    assert (df["value_a"] > df["value_b"]).all()
    for c in conditions_for(task):
        p = df[f"prob_{c}"]
        assert ((p >= 0) & (p <= 0.5)).all(), c
    # truth is close: both signs of the true difference occur
    assert 0.1 < df["false_claim"].mean() < 0.6


def test_flat_prior_is_calibrated_when_truth_is_spread(cfg):
    # wide truth, large n: the flat-prior posterior with the observed discordant counts is
    # (nearly) the true posterior, so predictions must match the observed frequencies
    s = _small(cfg)
    rng = np.random.default_rng(5)
    df = simulate_classification(s, rng, 1000, 0.1, 8000)
    df = predict(s, df[~df["tie"]])
    ece = expected_calibration_error(bin_comparisons(df, 5))
    row = ece[ece["condition"] == "congruence_sample"].iloc[0]
    assert abs(row["signed_error"]) < 0.02
    assert row["ece"] < 2.5 * row["ece_noise_floor"] + 0.005


def test_flat_prior_is_too_optimistic_when_truth_is_concentrated(cfg):
    # true differences far smaller than the sampling error: half of all "wins" are false,
    # whatever the formula says
    s = _small(cfg)
    df = simulate_classification(s, np.random.default_rng(6), 100, 0.002, 3000)
    df = predict(s, df[~df["tie"]])
    ece = expected_calibration_error(bin_comparisons(df, 5))
    row = ece[ece["condition"] == "true"].iloc[0]
    assert row["share_false"] > 0.4
    assert row["signed_error"] < -0.15


def test_calibration_tables(cfg, settings):
    from falseclaims.calibration.simulation import cell_summary

    bins, cells = [], []
    for task in ("classification", "segmentation"):
        sim = simulate_classification if task == "classification" else simulate_segmentation
        df = sim(settings, chunk_rng(settings, task, 0), 20, 0.02, 200)
        df = predict(settings, df[~df["tie"]]).assign(ties=int(df["tie"].sum()))
        bins.append(bin_comparisons(df, settings.bins))
        cells.append(cell_summary(df))
    out = calibration_tables(bins, cells, settings.interval)
    assert set(out) == {"bins", "cells", "curve", "ece", "ece_by_n"}
    # the rule hands the two keys as a config subset: read into the same object
    rule = {"calibration": {k: cfg["calibration"][k] for k in ("confidence", "interval")}}
    pd.testing.assert_frame_equal(calibration_tables(bins, cells, rule)["curve"], out["curve"])
    # another interval is used as given: Clopper-Pearson's Beta quantiles at 90%
    exact = calibration_tables(bins, cells, CurveInterval("clopper_pearson", 0.9))["curve"]
    k, n = exact["n_false"], exact["n_comparisons"]
    lo = np.where(k > 0, stats.beta.ppf(0.05, k, n - k + 1), 0.0)
    np.testing.assert_allclose(exact["observed_lo"], lo, rtol=1e-9, atol=1e-12)
    assert set(exact["interval"]) == {"clopper_pearson"} and set(exact["confidence"]) == {0.9}
    assert set(out["ece"]["condition"]) == set(conditions_for("segmentation"))
    assert (out["curve"]["observed_lo"] <= out["curve"]["observed"]).all()
    seg = out["cells"][out["cells"]["task"] == "segmentation"]
    assert (seg["max_true_minus_latent"] <= 1e-9).all()  # Lancaster again


def test_calibration_grid_switch():
    """`grid: quick` (default) swaps in the sizes of `calibration.quick`; `full` keeps the
    block as written; the resolved block resolves to itself."""
    from falseclaims.calibration.grid import resolve_grid

    block = {"grid": "quick", "chunks": 2, "comparisons_per_cell": 1000,
             "quick": {"chunks": 1, "comparisons_per_cell": 500,
                       "classification_n_test": [50], "segmentation_n_test": [20, 100]},
             "classification": {"n_test": [50, 100], "accuracy_b": [0.6, 0.9]},
             "segmentation": {"n_test": [20, 50, 200], "mean_b": [0.6, 0.9]}}
    quick = resolve_grid(block)
    assert quick["chunks"] == 1 and quick["comparisons_per_cell"] == 500
    assert quick["classification"] == {"n_test": [50], "accuracy_b": [0.6, 0.9]}
    assert quick["segmentation"]["n_test"] == [20, 100]
    assert "grid" not in quick and "quick" not in quick
    assert resolve_grid(quick) == quick
    full = resolve_grid({**block, "grid": "full"})
    assert full["chunks"] == 2 and full["segmentation"]["n_test"] == [20, 50, 200]
    assert block["chunks"] == 2 and block["classification"]["n_test"] == [50, 100]  # untouched
    with pytest.raises(ValueError, match="grid"):
        resolve_grid({**block, "grid": "huge"})
    with pytest.raises(ValueError, match="unknown key"):
        resolve_grid({**block, "quick": {"delta_sd": [0.1]}})


def test_quick_grid_is_the_default_and_smaller(config):
    from falseclaims.calibration.simulation import CalibrationSettings

    assert config["calibration"]["grid"] == "quick"
    quick = CalibrationSettings.from_config(config)
    full = CalibrationSettings.from_config(
        {**config, "calibration": {**config["calibration"], "grid": "full"}})
    def work(s):
        return s.comparisons_per_cell * sum(map(len, s.n_test.values()))

    assert work(quick) * 2 <= work(full)
