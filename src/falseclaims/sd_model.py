"""SD of per-case DSC as a quadratic in the mean DSC (`docs/method.md`, "SD imputation").

The model is sd(m) = b0 + b1 m + b2 m^2. The ``anchored`` form constrains the quadratic
through (1, 0), i.e. sd = (1 - m)(c0 + c1 m): a mean DSC of 1 forces every case to 1, so
the SD must vanish there, and the curve stays positive on [0, 1) instead of crossing zero
near 0.94 as the unconstrained OLS fit does. Any model is additionally floored at
``floor`` so that imputed SDs stay strictly positive up to DSC = 1; floored entries are
reported.

The 50% prediction interval is multiplicative: its quartiles are the fit times the first
and third quartiles of the observed sd / fitted sd ratios. This keeps both quartiles
positive and follows the heteroscedasticity (smaller spread near DSC = 1).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

__all__ = ["SDModel", "SDFit", "fit_sd_model", "LEVELS"]

LEVELS = ("q1", "mean", "q3")


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

    @classmethod
    def from_dict(cls, d: dict, source: str = "") -> "SDModel":
        keys = {"b0", "b1", "b2", "pi_ratio_q1", "pi_ratio_q3", "floor", "form"}
        kw = {k: d[k] for k in keys if k in d}
        return cls(**kw, source=d.get("source", source))

    def to_dict(self) -> dict:
        return asdict(self)

    def curve(self, mean) -> np.ndarray:
        m = np.asarray(mean, dtype=float)
        return self.b0 + self.b1 * m + self.b2 * m * m

    def predict(self, mean, level: str = "mean"):
        """Imputed SD at ``level`` (q1, mean or q3 of the 50% PI) and a floored mask."""
        if level not in LEVELS:
            raise ValueError(f"SD level must be one of {LEVELS}; got {level!r}")
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


def _design(m: np.ndarray, form: str) -> np.ndarray:
    if form == "anchored":
        return np.column_stack([1.0 - m, (1.0 - m) * m])
    if form == "ols":
        return np.column_stack([np.ones_like(m), m, m * m])
    raise ValueError(f"SD model form must be 'anchored' or 'ols'; got {form!r}")


def _coefficients(m: np.ndarray, sd: np.ndarray, form: str) -> tuple[float, float, float]:
    coef, *_ = np.linalg.lstsq(_design(m, form), sd, rcond=None)
    if form == "anchored":
        c0, c1 = coef
        return float(c0), float(c1 - c0), float(-c1)
    return float(coef[0]), float(coef[1]), float(coef[2])


def fit_sd_model(mean, sd, form: str = "anchored", groups=None, floor: float = 0.005,
                 source: str = "") -> SDFit:
    """Least-squares fit of the quadratic SD model on (mean, SD) pairs.

    ``groups`` (e.g. task labels) enables leave-one-group-out error: the mean absolute
    error of SDs predicted for a held-out task, the honest accuracy for an unseen task.
    """
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
    b0, b1, b2 = _coefficients(m, s, form)
    fitted = b0 + b1 * m + b2 * m * m
    resid = s - fitted
    r2 = 1.0 - float(resid @ resid) / float(((s - s.mean()) ** 2).sum())
    pos = fitted > floor
    ratio = s[pos] / fitted[pos]
    q1, q3 = np.quantile(ratio, [0.25, 0.75])
    model = SDModel(b0, b1, b2, float(q1), float(q3), floor, form, source)
    loto_mae = loto_rel = None
    if groups is not None:
        g = np.asarray(groups)
        errs, rels = [], []
        for label in np.unique(g):
            test = g == label
            if test.all():
                continue
            c = _coefficients(m[~test], s[~test], form)
            pred = np.maximum(c[0] + c[1] * m[test] + c[2] * m[test] ** 2, floor)
            errs.append(np.abs(pred - s[test]))
            rels.append(np.abs(pred - s[test]) / np.maximum(s[test], floor))
        if errs:
            loto_mae = float(np.mean(np.concatenate(errs)))
            loto_rel = float(np.mean(np.concatenate(rels)))
    return SDFit(model, float(r2), int(len(m)), float(resid.std(ddof=3)), loto_mae, loto_rel)
