"""SD of per-case DSC as a second-order polynomial of the mean DSC (`docs/method.md`,
"SD imputation").

Three forms of sd(m) = b0 + b1 m + b2 m^2:

- ``gamma`` (the default, [Christodoulou2025] following [Christodoulou2024]): the mean SD is
  the quadratic, fitted as a gamma GLM (statsmodels) with the identity link (``link: log``
  fits log E[sd] = b0 + b1 m + b2 m^2 instead). The SD of one method scatters around it as
  Gamma(shape k, scale mu/k), k = 1/dispersion, so the Q1/Q3 of the prediction interval are
  mu times the gamma quartile factors ppf(0.25 | 0.75, k)/k ([Hattab2016], plug-in form);
- ``anchored``: least squares through (1, 0), sd = (1 - m)(c0 + c1 m);
- ``ols``: unconstrained least squares.

For ``anchored`` and ``ols`` the 50% prediction interval is the fit times the quartiles of the
observed / fitted SD ratios. Every model is floored at ``floor`` so that imputed SDs stay
strictly positive up to DSC = 1 (where a quadratic may leave its support); floored entries
are reported.
"""

from __future__ import annotations

import warnings
from dataclasses import asdict, dataclass, field

import numpy as np

from falseclaims.levels import SD_LEVELS

__all__ = ["SDModel", "SDFit", "fit_sd_model", "gamma_quartile_factors", "FORMS", "LINKS"]

FORMS = ("gamma", "anchored", "ols")
LINKS = ("identity", "log")


def gamma_quartile_factors(dispersion: float) -> tuple[float, float]:
    """Q1/mean and Q3/mean of a gamma distribution with this dispersion (1/shape)."""
    from scipy import stats  # fitting only: imputation jobs need not load scipy.stats

    k = 1.0 / float(dispersion)
    q1, q3 = stats.gamma.ppf([0.25, 0.75], k) / k
    return float(q1), float(q3)


@dataclass(frozen=True)
class SDModel:
    b0: float
    b1: float
    b2: float
    pi_ratio_q1: float
    pi_ratio_q3: float
    floor: float = 0.005
    form: str = "anchored"
    source: str = ""
    link: str = "identity"
    dispersion: float | None = None

    def __post_init__(self):
        if self.form not in FORMS:
            raise ValueError(f"SD model form must be one of {FORMS}; got {self.form!r}")
        if self.link not in LINKS or (self.link == "log" and self.form != "gamma"):
            raise ValueError(f"SD model link must be one of {LINKS} ('log' only with form "
                             f"'gamma'); got {self.link!r} with form {self.form!r}")

    @classmethod
    def from_dict(cls, d: dict, source: str = "") -> "SDModel":
        keys = {"b0", "b1", "b2", "pi_ratio_q1", "pi_ratio_q3", "floor", "form", "link",
                "dispersion"}
        kw = {k: d[k] for k in keys if k in d}
        return cls(**kw, source=d.get("source", source))

    def to_dict(self) -> dict:
        return asdict(self)

    def curve(self, mean) -> np.ndarray:
        """The fitted mean SD at ``mean`` (before the floor)."""
        m = np.asarray(mean, dtype=float)
        eta = self.b0 + self.b1 * m + self.b2 * m * m
        return np.exp(eta) if self.link == "log" else eta

    def predict(self, mean, level: str = "mean"):
        """Imputed SD at ``level`` (q1, mean or q3 of the 50% PI) and a floored mask."""
        if level not in SD_LEVELS:
            raise ValueError(f"SD level must be one of {SD_LEVELS}; got {level!r}")
        m = np.asarray(mean, dtype=float)
        if np.isnan(m).any() or (m < 0).any() or (m > 1).any():
            raise ValueError("mean DSC for SD imputation must lie in [0, 1] (fractions)")
        factor = {"q1": self.pi_ratio_q1, "mean": 1.0, "q3": self.pi_ratio_q3}[level]
        raw = self.curve(m) * factor
        floored = raw < self.floor
        sd = np.where(floored, self.floor, raw)
        return sd, floored


@dataclass(frozen=True)
class SDFit:
    model: SDModel
    r2: float
    n: int
    residual_sd: float
    loto_mae: float | None = None
    loto_rel_mae: float | None = None
    provenance: dict = field(default_factory=dict)


def _design(m: np.ndarray, form: str) -> np.ndarray:
    if form == "anchored":
        return np.column_stack([1.0 - m, (1.0 - m) * m])
    if form in ("ols", "gamma"):
        return np.column_stack([np.ones_like(m), m, m * m])
    raise ValueError(f"SD model form must be one of {FORMS}; got {form!r}")


def _gamma_glm(m: np.ndarray, sd: np.ndarray, link: str):
    """statsmodels gamma GLM of sd on (1, m, m^2): IRLS, dispersion = Pearson chi2 / (n - 3)."""
    import statsmodels.api as sm
    from statsmodels.tools.sm_exceptions import DomainWarning

    links = {"identity": sm.families.links.Identity, "log": sm.families.links.Log}
    if link not in links:
        raise ValueError(f"SD model link must be one of {LINKS}; got {link!r}")
    with warnings.catch_warnings():
        # identity link: statsmodels warns that it may leave (0, inf); checked below
        warnings.simplefilter("ignore", DomainWarning)
        res = sm.GLM(sd, _design(m, "gamma"), family=sm.families.Gamma(links[link]())).fit()
    if not res.converged or not (res.fittedvalues > 0).all():
        raise ValueError("the gamma GLM of SD on mean DSC did not converge to positive fitted "
                         "SDs on the data; use form 'anchored' or 'ols'")
    return res


def _coefficients(m: np.ndarray, sd: np.ndarray, form: str,
                  link: str = "identity") -> tuple[float, float, float]:
    if form == "gamma":
        return tuple(float(b) for b in _gamma_glm(m, sd, link).params)
    coef, *_ = np.linalg.lstsq(_design(m, form), sd, rcond=None)
    if form == "anchored":
        c0, c1 = coef
        return float(c0), float(c1 - c0), float(-c1)
    return float(coef[0]), float(coef[1]), float(coef[2])


def _check_pairs(mean, sd) -> tuple[np.ndarray, np.ndarray]:
    m = np.asarray(mean, dtype=float)
    s = np.asarray(sd, dtype=float)
    if m.shape != s.shape or m.ndim != 1:
        raise ValueError("mean and sd must be 1-D arrays of equal length")
    ok = np.isfinite(m) & np.isfinite(s)
    if (~ok).any():
        raise ValueError(f"{int((~ok).sum())} (mean, sd) pairs are not finite")
    if len(m) < 4:
        raise ValueError(f"need at least 4 (mean, sd) pairs to fit; got {len(m)}")
    if (m < 0).any() or (m > 1).any() or (s < 0).any():
        raise ValueError("means must lie in [0, 1] and SDs must be >= 0")
    return m, s


def _gamma_model(m, s, link, floor, source):
    """The gamma model and its provenance: dispersion, quartile factors and the relative SE
    of the fitted mean at DSC 0.85 / 0.90 / 0.95 (the parameter uncertainty that
    [Hattab2016]'s interval adds; the plug-in quartiles ignore it, docs/method.md)."""
    import statsmodels

    res = _gamma_glm(m, s, link)
    b = [float(x) for x in res.params]
    dispersion = float(res.scale)
    q1, q3 = gamma_quartile_factors(dispersion)
    model = SDModel(*b, q1, q3, floor, "gamma", source, link, dispersion)
    at = np.array([0.85, 0.90, 0.95])
    x = _design(at, "gamma")
    se_eta = np.sqrt(np.einsum("ij,jk,ik->i", x, res.cov_params(), x))
    rel_se = se_eta / model.curve(at) if link == "identity" else se_eta
    provenance = {"fit_method": f"gamma GLM, {link} link, IRLS (statsmodels "
                                f"{statsmodels.__version__})",
                  "statsmodels_version": statsmodels.__version__,
                  **{f"rel_se_mean_at_{round(100 * a)}": float(r) for a, r in zip(at, rel_se)}}
    return model, provenance


def fit_sd_model(mean, sd, form: str = "gamma", groups=None, floor: float = 0.005,
                 source: str = "", link: str = "identity") -> SDFit:
    """Fit the SD model on (mean, SD) pairs: a gamma GLM (``form='gamma'``) or least squares.

    ``groups`` (e.g. task labels) enables leave-one-group-out error: the mean absolute
    error of SDs predicted for a held-out task, the honest accuracy for an unseen task.
    """
    m, s = _check_pairs(mean, sd)
    if form == "gamma":
        model, provenance = _gamma_model(m, s, link, floor, source)
    else:
        b = _coefficients(m, s, form)
        fitted = b[0] + b[1] * m + b[2] * m * m
        pos = fitted > floor
        q1, q3 = np.quantile(s[pos] / fitted[pos], [0.25, 0.75])
        model = SDModel(*b, float(q1), float(q3), floor, form, source)
        provenance = {"fit_method": f"least squares, {form} quadratic (numpy)"}
    resid = s - model.curve(m)
    r2 = 1.0 - float(resid @ resid) / float(((s - s.mean()) ** 2).sum())
    loto_mae = loto_rel = None
    if groups is not None:
        loto_mae, loto_rel = _leave_one_group_out(m, s, np.asarray(groups), form, link, floor)
    provenance["n_pairs"] = int(len(m))
    return SDFit(model, float(r2), int(len(m)), float(resid.std(ddof=3)), loto_mae, loto_rel,
                 provenance)


def _leave_one_group_out(m, s, g, form, link, floor):
    errs, rels = [], []
    for label in np.unique(g):
        test = g == label
        if test.all():
            continue
        b = _coefficients(m[~test], s[~test], form, link)
        held_out = SDModel(*b, 1.0, 1.0, floor, form, link=link)
        pred = np.maximum(held_out.curve(m[test]), floor)
        errs.append(np.abs(pred - s[test]))
        rels.append(np.abs(pred - s[test]) / np.maximum(s[test], floor))
    if not errs:
        return None, None
    return float(np.mean(np.concatenate(errs))), float(np.mean(np.concatenate(rels)))
