"""The SD(mean DSC) models against references computed here, independently of the package:
numpy least squares for the OLS / anchored quadratics, the gamma quasi-score equations
solved with scipy.optimize for the gamma GLM, scipy's gamma quantiles, and a simulation
from the fitted gamma model for the coverage of the Q1-Q3 band."""

import numpy as np
import pandas as pd
import pytest
from scipy import optimize, stats

from falseclaims.config import sd_model_from_config
from falseclaims.sd_model import SDModel, fit_sd_model

MSD = "data/external/msd-derived/msd_dsc_mean_sd_by_method.csv"


@pytest.fixture(scope="module")
def msd(repo_root):
    d = pd.read_csv(repo_root / MSD)
    assert len(d) == 323  # data/external/msd-derived/SOURCE.md
    return d.mean_dsc.to_numpy(), d.sd_dsc.to_numpy()


def _gamma_reference(m, s, link):
    """Gamma GLM by its quasi-likelihood: minimise sum_i log mu_i + y_i / mu_i (the gamma
    deviance up to terms free of mu; defined for the one SD of 0 in MSD), then solve the
    estimating equations sum_i (y_i - mu_i) / mu_i^2 dmu_i/db = 0 from there.
    Dispersion = Pearson chi^2 / (n - 3)."""
    x = np.column_stack([np.ones_like(m), m, m * m])

    def mu_and_jac(b):
        eta = x @ b
        mu = eta if link == "identity" else np.exp(eta)
        return mu, (x if link == "identity" else x * mu[:, None])

    def objective(b):
        mu, jac = mu_and_jac(b)
        if (mu <= 0).any():
            return np.inf, np.zeros(3)
        return float(np.sum(np.log(mu) + s / mu)), jac.T @ (1 / mu - s / mu**2)

    if link == "identity":  # start: the anchored least-squares fit, positive on the data
        c0, c1 = np.linalg.lstsq(np.column_stack([1 - m, (1 - m) * m]), s, rcond=None)[0]
        start = np.array([c0, c1 - c0, -c1])
    else:
        start = np.linalg.lstsq(x, np.log(s + 0.01), rcond=None)[0]
    b = optimize.minimize(objective, start, jac=True, method="BFGS",
                          options={"gtol": 1e-10}).x
    sol = optimize.root(lambda b: -objective(b)[1], b, options={"xtol": 1e-14})
    assert np.abs(objective(sol.x)[1]).max() < 1e-8  # the estimating equations hold
    mu = mu_and_jac(sol.x)[0]
    return sol.x, float(np.sum(((s - mu) / mu) ** 2) / (len(s) - 3))


@pytest.mark.parametrize("name,link", [("msd_reference", "identity"),
                                       ("msd_gamma_log", "log")])
def test_config_gamma_models_match_an_independent_gamma_fit(config, msd, name, link):
    m, s = msd
    b, dispersion = _gamma_reference(m, s, link)
    cfg = config["sd_model"][name]
    assert (cfg["form"], cfg.get("link", "identity")) == ("gamma", link)
    assert [cfg["b0"], cfg["b1"], cfg["b2"]] == pytest.approx(b, abs=1.5e-6)
    assert cfg["dispersion"] == pytest.approx(dispersion, abs=1.5e-6)
    # quartile factors: scipy's gamma of shape 1/dispersion at an arbitrary mean
    k, mu = 1.0 / dispersion, 0.0731
    q1, q3 = stats.gamma(k, scale=mu / k).ppf([0.25, 0.75]) / mu
    assert (cfg["pi_ratio_q1"], cfg["pi_ratio_q3"]) == pytest.approx((q1, q3), abs=2e-6)


def test_gamma_default_matches_reference_values(config):
    """Orientation values of the brief (identity link): 0.116 / 0.5955 / -0.7303, dispersion
    0.169, mean SD 0.095 at DSC 0.85 and 0.061 at 0.90."""
    model = sd_model_from_config(config)
    assert model.source == "msd_reference" and model.form == "gamma"
    assert (model.b0, model.b1, model.b2) == pytest.approx((0.116, 0.5955, -0.7303), abs=5e-4)
    assert model.dispersion == pytest.approx(0.169, abs=5e-4)
    sd, _ = model.predict([0.85, 0.90])
    assert sd == pytest.approx([0.095, 0.061], abs=6e-4)


def test_package_gamma_fit_matches_statsmodels_called_directly(msd):
    import statsmodels.api as sm

    m, s = msd
    x = np.column_stack([np.ones_like(m), m, m * m])
    ref = sm.GLM(s, x, family=sm.families.Gamma(sm.families.links.Log())).fit()
    fit = fit_sd_model(m, s, form="gamma", link="log")
    assert [fit.model.b0, fit.model.b1, fit.model.b2] == pytest.approx(ref.params, rel=1e-8)
    assert fit.model.dispersion == pytest.approx(ref.scale, rel=1e-8)
    assert fit.provenance["n_pairs"] == 323 and "statsmodels" in fit.provenance["fit_method"]


@pytest.mark.parametrize("name,form", [("msd_anchored", "anchored"), ("msd_ols", "ols")])
def test_config_least_squares_models_match_numpy(config, msd, name, form):
    m, s = msd
    if form == "ols":
        b = np.linalg.lstsq(np.column_stack([np.ones_like(m), m, m * m]), s, rcond=None)[0]
    else:  # sd = (1 - m)(c0 + c1 m) = c0 + (c1 - c0) m - c1 m^2
        c0, c1 = np.linalg.lstsq(np.column_stack([1 - m, (1 - m) * m]), s, rcond=None)[0]
        b = np.array([c0, c1 - c0, -c1])
    fitted = b[0] + b[1] * m + b[2] * m * m
    ratio = np.quantile(s[fitted > 0.005] / fitted[fitted > 0.005], [0.25, 0.75])
    cfg = config["sd_model"][name]
    assert cfg["form"] == form
    assert [cfg["b0"], cfg["b1"], cfg["b2"]] == pytest.approx(b, abs=1.5e-6)
    assert [cfg["pi_ratio_q1"], cfg["pi_ratio_q3"]] == pytest.approx(ratio, abs=1.5e-6)
    if form == "anchored":
        assert sd_model_from_config(config, name).curve(1.0) == pytest.approx(0.0, abs=1e-5)


def test_ols_fit_reproduces_published_reference(msd):
    # msd-derived/SOURCE.md: OLS gives b0 = 0.1081, b1 = 0.7640, b2 = -0.9307, R^2 = 0.70
    fit = fit_sd_model(*msd, form="ols")
    assert (fit.model.b0, fit.model.b1, fit.model.b2) == pytest.approx(
        (0.1081, 0.7640, -0.9307), abs=5e-5)
    assert fit.r2 == pytest.approx(0.70, abs=0.005)


def test_gamma_q1_q3_band_covers_half_of_data_simulated_from_the_fitted_model(config, msd):
    """Simulate training SDs from the config's gamma model at the 323 MSD means, refit, and
    count how many fresh SDs (same model) fall inside the refitted Q1-Q3 band: about 50%,
    overall and for high and low DSC alike (the band follows the heteroscedasticity)."""
    true = sd_model_from_config(config)
    m = msd[0][true.curve(msd[0]) > 0.02]  # where the quadratic is well inside its support
    k = 1.0 / true.dispersion
    rng = np.random.default_rng(20230708)
    reps, per_rep = 40, 500
    inside, high, coef = [], [], []
    for _ in range(reps):
        train = rng.gamma(k, true.curve(m) / k)
        fit = fit_sd_model(m, train, form="gamma")
        coef.append([fit.model.b0, fit.model.b1, fit.model.b2, fit.model.dispersion])
        m_new = rng.choice(m, per_rep)
        y = rng.gamma(k, true.curve(m_new) / k)
        lo, hi = fit.model.predict(m_new, "q1")[0], fit.model.predict(m_new, "q3")[0]
        inside.append((lo <= y) & (y <= hi))
        high.append(m_new >= 0.8)
    inside, high = np.concatenate(inside), np.concatenate(high)
    coef = np.array(coef)  # the fit recovers the simulating model (within 4 SE of the mean)
    truth = [true.b0, true.b1, true.b2, true.dispersion]
    assert np.all(np.abs(coef.mean(0) - truth) < 4 * coef.std(0, ddof=1) / np.sqrt(reps))
    for part in (inside, inside[high], inside[~high]):
        se = np.sqrt(0.25 / part.size)
        assert abs(part.mean() - 0.5) < 4 * se, (part.mean(), part.size)


def test_exact_quadratic_is_recovered_with_leave_one_group_out():
    m = np.linspace(0.2, 0.95, 40)
    sd = (1 - m) * (0.2 + 0.5 * m)
    fit = fit_sd_model(m, sd, form="anchored", groups=np.repeat(np.arange(4), 10))
    assert (fit.model.b0, fit.model.b1, fit.model.b2) == pytest.approx((0.2, 0.3, -0.5))
    assert fit.r2 == pytest.approx(1.0)
    assert fit.loto_mae == pytest.approx(0.0, abs=1e-12)


@pytest.mark.parametrize("name", ["msd_reference", "msd_anchored", "msd_ols", "msd_gamma_log"])
def test_imputed_sd_stays_positive_up_to_one(config, name):
    model = sd_model_from_config(config, name)
    m = np.linspace(0, 1, 1001)
    for level in ("q1", "mean", "q3"):
        sd, floored = model.predict(m, level)
        assert (sd > 0).all()
        if model.link == "identity":  # the quadratic leaves its support before DSC 1
            assert floored[-1]
    q1, _ = model.predict(0.8, "q1")
    mid, _ = model.predict(0.8, "mean")
    q3, _ = model.predict(0.8, "q3")
    assert q1 < mid < q3


def test_gamma_quadratic_reaches_zero_where_the_roots_say():
    model = SDModel(0.116023, 0.595549, -0.730309, 0.7, 1.24, floor=0.005, form="gamma",
                    dispersion=0.1686)
    root = max(np.roots([-0.730309, 0.595549, 0.116023]))  # about 0.978
    sd, floored = model.predict([root - 0.01, root + 0.001], "mean")
    assert floored.tolist() == [False, True] and sd[1] == 0.005


def test_ols_model_is_floored_where_it_turns_negative():
    model = SDModel(0.1081, 0.7640, -0.9307, 0.5, 1.2, floor=0.005, form="ols")
    sd, floored = model.predict([0.5, 0.97], "mean")
    assert sd[1] == 0.005 and floored.tolist() == [False, True]


def test_log_link_curve_is_exponential():
    model = SDModel(-2.0, 1.0, -1.0, 0.7, 1.2, form="gamma", link="log", dispersion=0.2)
    assert model.curve(0.5) == pytest.approx(np.exp(-2.0 + 0.5 - 0.25))


def test_bad_input():
    with pytest.raises(ValueError, match="form"):
        fit_sd_model([0.1, 0.2, 0.3, 0.4], [0.1] * 4, form="cubic")
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        SDModel(0.1, 0, 0, 0.5, 1.2).predict(85.0)
    with pytest.raises(ValueError, match="link"):
        SDModel(0.1, 0, 0, 0.5, 1.2, form="ols", link="log")
