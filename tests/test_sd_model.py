import numpy as np
import pandas as pd
import pytest

from falseclaims.config import sd_model_from_config
from falseclaims.sd_model import SDModel, fit_sd_model


def test_config_coefficients_match_msd_fit(repo_root, config):
    d = pd.read_csv(repo_root / "data/external/msd-derived/msd_dsc_mean_sd_by_method.csv")
    fit = fit_sd_model(d.mean_dsc, d.sd_dsc, form="anchored")
    cfg = config["sd_model"]["msd_reference"]
    for key in ("b0", "b1", "b2", "pi_ratio_q1", "pi_ratio_q3"):
        assert getattr(fit.model, key) == pytest.approx(cfg[key], abs=1e-6)


def test_ols_fit_reproduces_published_reference():
    # msd-derived/SOURCE.md: OLS gives b0 = 0.1081, b1 = 0.7640, b2 = -0.9307, R^2 = 0.70
    d = pd.read_csv("data/external/msd-derived/msd_dsc_mean_sd_by_method.csv")
    fit = fit_sd_model(d.mean_dsc, d.sd_dsc, form="ols")
    assert (fit.model.b0, fit.model.b1, fit.model.b2) == pytest.approx(
        (0.1081, 0.7640, -0.9307), abs=5e-5)
    assert fit.r2 == pytest.approx(0.70, abs=0.005)


def test_exact_quadratic_is_recovered_with_leave_one_group_out():
    m = np.linspace(0.2, 0.95, 40)
    sd = (1 - m) * (0.2 + 0.5 * m)
    fit = fit_sd_model(m, sd, form="anchored", groups=np.repeat(np.arange(4), 10))
    assert (fit.model.b0, fit.model.b1, fit.model.b2) == pytest.approx((0.2, 0.3, -0.5))
    assert fit.r2 == pytest.approx(1.0)
    assert fit.loto_mae == pytest.approx(0.0, abs=1e-12)


def test_imputed_sd_stays_positive_up_to_one(config):
    model = sd_model_from_config(config)
    m = np.linspace(0, 1, 1001)
    for level in ("q1", "mean", "q3"):
        sd, floored = model.predict(m, level)
        assert (sd > 0).all()
        assert floored[-1]  # DSC = 1 would need SD 0: the floor is applied and reported
    q1, _ = model.predict(0.8, "q1")
    mid, _ = model.predict(0.8, "mean")
    q3, _ = model.predict(0.8, "q3")
    assert q1 < mid < q3


def test_ols_model_is_floored_where_it_turns_negative():
    model = SDModel(0.1081, 0.7640, -0.9307, 0.5, 1.2, floor=0.005, form="ols")
    sd, floored = model.predict([0.5, 0.97], "mean")
    assert sd[1] == 0.005 and floored.tolist() == [False, True]


def test_bad_input():
    with pytest.raises(ValueError, match="form"):
        fit_sd_model([0.1, 0.2, 0.3, 0.4], [0.1] * 4, form="cubic")
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        SDModel(0.1, 0, 0, 0.5, 1.2).predict(85.0)
