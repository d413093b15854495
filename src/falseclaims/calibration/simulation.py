"""Simulation study: is the probability of a false claim calibrated?

Each simulated "paper" compares two methods with known truth. A is the method whose
*observed* value is higher; the study records the probability of a false claim computed
from the reported summary only (as the survey does, :mod:`falseclaims.stats`) and whether
A is truly not better. Binned, the share of truly false claims should match the predicted
probability; :mod:`falseclaims.calibration.metrics` turns the bins into curves and ECE.

- Segmentation: per-case DSC pairs from a Gaussian copula (latent correlation rho) with
  Beta margins. Beta quantiles cost ~2.5 us each, so each margin is represented by its
  quantile function at a fixed grid of normal scores, linear in between (constant beyond
  the grid). The true mean, SD and Pearson r are computed exactly for *that* distribution
  (closed form per linear piece; Mehler's Hermite expansion for the cross moment),
  so the truth is the truth of what is sampled. The Pearson r of the margins is not the
  latent rho; both are recorded.
- Classification: the four correctness cells (both, A only, B only, neither) are
  multinomial with true accuracies and a true both-correct share p11.

Conditions (assumptions fed to the formula) are listed in :data:`CONDITIONS`.
A chunk is seeded by (master seed, stream, task, chunk) only, so chunk k is identical
whatever the number of chunks, and chunks can run as separate jobs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import special

from falseclaims.errors import FalseclaimsInputError
from falseclaims.sd_model import SDModel
from falseclaims.engine import probability
from falseclaims.stats import classification_congruence_bounds
from falseclaims.tasks import TASKS

__all__ = [
    "CONDITIONS",
    "TASK_INDEX",
    "CalibrationSettings",
    "CurveInterval",
    "PiecewiseMargins",
    "bin_comparisons",
    "cell_summary",
    "conditions_for",
    "copula_pearson_r",
    "predict",
    "simulate_chunk",
    "simulate_classification",
    "simulate_segmentation",
]

TASK_INDEX = {task: i for i, task in enumerate(TASKS)}

# condition -> (congruence, sd, what it means); sd is ignored for classification
CONDITIONS = {
    "true": ("true", "true", "true congruence and true SD"),
    "congruence_low": ("low", "true", "congruence assumed too low by the configured shift"),
    "congruence_high": ("high", "true", "congruence assumed too high by the configured shift"),
    "congruence_sample": ("sample", "true", "congruence estimated from the test cases"),
    "sd_sample": ("true", "sample", "SD reported over the test set (sample SD)"),
    "sd_imputed": ("true", "imputed", "SD imputed from the mean by the SD model"),
    "survey": ("survey", "imputed",
               "the survey's assumptions: paper median congruence, imputed SD"),
}
SEGMENTATION_ONLY = ("sd_sample", "sd_imputed")


def conditions_for(task: str) -> list[str]:
    if task not in TASK_INDEX:
        raise ValueError(f"task must be one of {sorted(TASK_INDEX)}; got {task!r}")
    return [c for c in CONDITIONS if task == "segmentation" or c not in SEGMENTATION_ONLY]


@dataclass(frozen=True)
class CurveInterval:
    """``calibration.interval`` and ``calibration.confidence``: the binomial interval of the
    observed share of false claims per bin. Part of :class:`CalibrationSettings`, and an
    object of its own because the tables step reads only these two (all its rule passes)."""

    method: str
    confidence: float

    @classmethod
    def from_config(cls, cfg: Mapping) -> CurveInterval:
        return cls.from_block(cfg["calibration"])

    @classmethod
    def from_block(cls, block: Mapping) -> CurveInterval:
        return cls(method=str(block["interval"]), confidence=float(block["confidence"]))


@dataclass(frozen=True)
class CalibrationSettings:
    """The ``calibration:`` config block plus the assumptions it borrows elsewhere."""

    seed: int
    stream: int
    comparisons_per_cell: int
    delta_sd: tuple[float, ...]
    bins: int
    congruence_shift: dict
    survey_congruence: dict
    n_test: dict
    accuracy_b: tuple[float, float]
    correctness_correlation: tuple[float, float]
    mean_b: tuple[float, float]
    mean_clip: tuple[float, float]
    copula_rho: tuple[float, float]
    quantile_grid_z: float
    quantile_grid_points: int
    hermite_terms: int
    sd_model: SDModel
    interval: CurveInterval

    @classmethod
    def from_config(cls, cfg: dict) -> CalibrationSettings:
        from falseclaims.calibration.grid import resolve_grid
        from falseclaims.config import sd_model_from_config

        block = resolve_grid(cfg["calibration"])
        seg, cls_ = block["segmentation"], block["classification"]
        if not any(np.isclose(block["reference_delta_sd"], block["delta_sd"])):
            raise FalseclaimsInputError(
                f"calibration.reference_delta_sd = {block['reference_delta_sd']} must be one of "
                f"calibration.delta_sd = {block['delta_sd']}")
        level = block["survey_congruence_level"]
        survey = {t: float(cfg["congruence"][block["survey_congruence_source"]][t][level])
                  for t in TASK_INDEX}
        return cls(
            seed=int(cfg["seed"]),
            stream=int(block["stream"]),
            comparisons_per_cell=int(block["comparisons_per_cell"]),
            delta_sd=tuple(float(x) for x in block["delta_sd"]),
            bins=int(block["bins"]),
            congruence_shift={t: float(block["congruence_shift"][t]) for t in TASK_INDEX},
            survey_congruence=survey,
            n_test={"classification": tuple(int(x) for x in cls_["n_test"]),
                    "segmentation": tuple(int(x) for x in seg["n_test"])},
            accuracy_b=tuple(float(x) for x in cls_["accuracy_b"]),
            correctness_correlation=tuple(float(x) for x in cls_["correctness_correlation"]),
            mean_b=tuple(float(x) for x in seg["mean_b"]),
            mean_clip=tuple(float(x) for x in seg["mean_clip"]),
            copula_rho=tuple(float(x) for x in seg["copula_rho"]),
            quantile_grid_z=float(seg["quantile_grid"]["z_max"]),
            quantile_grid_points=int(seg["quantile_grid"]["points"]),
            hermite_terms=int(seg["hermite_terms"]),
            sd_model=sd_model_from_config(cfg, block["sd_model_source"]),
            interval=CurveInterval.from_block(block),
        )


def chunk_rng(settings: CalibrationSettings, task: str, chunk: int) -> np.random.Generator:
    if int(chunk) < 0:
        raise ValueError(f"chunk must be >= 0; got {chunk!r}")
    seq = np.random.SeedSequence([settings.seed, settings.stream, TASK_INDEX[task], int(chunk)])
    return np.random.default_rng(seq)


# ------------------------------------------------------------------ segmentation margins
def _normal_moments(lo, hi, a, b):
    """E[(a + bZ) 1{lo<Z<hi}] and E[(a + bZ)^2 1{lo<Z<hi}] for Z ~ N(0, 1), elementwise."""
    dphi_cdf = special.ndtr(hi) - special.ndtr(lo)
    pdf_lo, pdf_hi = _pdf(lo), _pdf(hi)
    m1 = a * dphi_cdf + b * (pdf_lo - pdf_hi)
    zpdf = np.where(np.isfinite(hi), hi * pdf_hi, 0.0) - np.where(np.isfinite(lo), lo * pdf_lo, 0.0)
    m2 = a * a * dphi_cdf + 2 * a * b * (pdf_lo - pdf_hi) + b * b * (dphi_cdf - zpdf)
    return m1, m2


def _pdf(z):
    return np.exp(-0.5 * np.square(z)) / np.sqrt(2 * np.pi)


@dataclass(frozen=True)
class PiecewiseMargins:
    """Quantile functions q_i(z), linear between grid scores, constant outside.

    ``values`` has one row per margin (G grid values); X = q(Z), Z ~ N(0, 1).
    """

    grid: np.ndarray
    values: np.ndarray

    @classmethod
    def beta(cls, mean, sd, z_max: float = 5.0, points: int = 41) -> PiecewiseMargins:
        mean, sd = np.asarray(mean, float), np.asarray(sd, float)
        var_max = mean * (1 - mean)
        if (sd <= 0).any() or (np.square(sd) >= var_max).any():
            raise ValueError("Beta margin needs 0 < sd^2 < mean (1 - mean)")
        k = var_max / np.square(sd) - 1.0
        grid = np.linspace(-z_max, z_max, points)
        u = special.ndtr(grid)
        values = special.betaincinv((mean * k)[:, None], ((1 - mean) * k)[:, None], u[None, :])
        return cls(grid, values)

    def _pieces(self):
        h = np.diff(self.grid)
        slope = np.diff(self.values, axis=1) / h
        intercept = self.values[:, :-1] - slope * self.grid[:-1]
        return intercept, slope

    def moments(self):
        """Exact mean and SD of each margin."""
        a, b = self._pieces()
        lo, hi = self.grid[:-1], self.grid[1:]
        m1, m2 = _normal_moments(lo, hi, a, b)
        tail_lo, tail_hi = special.ndtr(self.grid[0]), special.ndtr(-self.grid[-1])
        first, last = self.values[:, 0], self.values[:, -1]
        mean = m1.sum(1) + first * tail_lo + last * tail_hi
        second = m2.sum(1) + first**2 * tail_lo + last**2 * tail_hi
        return mean, np.sqrt(np.maximum(second - mean**2, 0.0))

    def sample(self, z: np.ndarray) -> np.ndarray:
        """q_i(z[i, j]) for normal scores z of shape (margins, cases)."""
        g, step = self.grid, self.grid[1] - self.grid[0]
        pos = np.clip((z - g[0]) / step, 0.0, len(g) - 1.0)
        idx = np.minimum(pos.astype(np.int64), len(g) - 2)
        frac = pos - idx
        left = np.take_along_axis(self.values, idx, axis=1)
        right = np.take_along_axis(self.values, idx + 1, axis=1)
        return left + frac * (right - left)


def _hermite_coefficients(m: PiecewiseMargins, terms: int) -> np.ndarray:
    """e_k = E[q(Z) He_k(Z)] / sqrt(k!), k = 1..terms, exactly.

    Stein's identity E[q He_k] = E[q' He_{k-1}] with q' piecewise constant, and
    int He_{k-1} phi = -He_{k-2} phi, give e_k = sum_i (jump of q' at z_i)
    h_{k-2}(z_i) phi(z_i) / sqrt(k (k-1)) for k >= 2 (h: normalised Hermite polynomials).
    """
    g = m.grid
    slope = np.diff(m.values, axis=1) / np.diff(g)
    zeros = np.zeros((len(slope), 1))
    jumps = np.diff(np.hstack([zeros, slope, zeros]), axis=1)  # (rows, G)
    pdf = _pdf(g)
    h = np.empty((terms, len(g)))  # h_0 .. h_{terms-1}
    h[0] = 1.0
    if terms > 1:
        h[1] = g
    for k in range(1, terms - 1):
        h[k + 1] = (g * h[k] - np.sqrt(k) * h[k - 1]) / np.sqrt(k + 1)
    coef = np.empty((len(slope), terms))
    coef[:, 0] = (slope * np.diff(special.ndtr(g))).sum(1)
    k = np.arange(2, terms + 1)
    coef[:, 1:] = jumps @ (h[: terms - 1] * pdf).T / np.sqrt(k * (k - 1))
    return coef


def copula_pearson_r(a: PiecewiseMargins, b: PiecewiseMargins, rho, terms: int = 200,
                     return_bound: bool = False):
    """Pearson r of (q_a(Z1), q_b(Z2)) with corr(Z1, Z2) = rho, row by row.

    Mehler's expansion: Cov = sum_k e^a_k e^b_k rho^k (Hermite coefficients of the two
    quantile functions, :func:`_hermite_coefficients`), truncated after ``terms``. The
    truncation error is at most |rho|^(terms+1) times the product of the unexplained
    SDs (Cauchy-Schwarz; Parseval gives sum_k e_k^2 = Var), returned as a bound on r
    when ``return_bound``.
    """
    rho = np.asarray(rho, float)
    if (np.abs(rho) >= 1).any():
        raise ValueError("copula rho must lie strictly inside (-1, 1)")
    _, sd_a = a.moments()
    _, sd_b = b.moments()
    ea, eb = _hermite_coefficients(a, terms), _hermite_coefficients(b, terms)
    powers = rho[:, None] ** np.arange(1, terms + 1)
    r = (ea * eb * powers).sum(1) / (sd_a * sd_b)
    if not return_bound:
        return r
    rest_a = np.sqrt(np.maximum(sd_a**2 - (ea**2).sum(1), 0.0))
    rest_b = np.sqrt(np.maximum(sd_b**2 - (eb**2).sum(1), 0.0))
    return r, np.abs(rho) ** (terms + 1) * rest_a * rest_b / (sd_a * sd_b)


# ------------------------------------------------------------------ simulation
def _orient(value_a, value_b):
    """Where to swap so that A is the observed winner, and where the two are tied."""
    tie = value_a == value_b
    swap = value_b > value_a
    return swap, tie


def _swap(swap, a, b):
    return np.where(swap, b, a), np.where(swap, a, b)


def simulate_segmentation(settings: CalibrationSettings, rng: np.random.Generator,
                          n: int, delta_sd: float, size: int) -> pd.DataFrame:
    s = settings
    mean_b = rng.uniform(*s.mean_b, size)
    mean_a = np.clip(mean_b + rng.normal(0.0, delta_sd, size), *s.mean_clip)
    log_q1, log_q3 = np.log(s.sd_model.pi_ratio_q1), np.log(s.sd_model.pi_ratio_q3)
    # SD ratios to the model curve: lognormal with the model's 50% PI as its quartiles
    loc, scale = (log_q1 + log_q3) / 2, (log_q3 - log_q1) / (2 * special.ndtri(0.75))
    sds = []
    for m in (mean_a, mean_b):
        sd = s.sd_model.predict(m, "mean")[0] * np.exp(rng.normal(loc, scale, size))
        sds.append(np.minimum(sd, 0.9 * np.sqrt(m * (1 - m))))
    rho = rng.uniform(*s.copula_rho, size)
    grid = {"z_max": s.quantile_grid_z, "points": s.quantile_grid_points}
    qa = PiecewiseMargins.beta(mean_a, sds[0], **grid)
    qb = PiecewiseMargins.beta(mean_b, sds[1], **grid)
    true_mean_a, true_sd_a = qa.moments()
    true_mean_b, true_sd_b = qb.moments()
    true_r = copula_pearson_r(qa, qb, rho, s.hermite_terms)

    z1 = rng.standard_normal((size, n))
    z2 = rho[:, None] * z1 + np.sqrt(1 - rho[:, None] ** 2) * rng.standard_normal((size, n))
    xa, xb = qa.sample(z1), qb.sample(z2)
    obs_a, obs_b = xa.mean(1), xb.mean(1)
    sample_sd_a, sample_sd_b = xa.std(1, ddof=1), xb.std(1, ddof=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        sample_r = np.nan_to_num(
            ((xa - obs_a[:, None]) * (xb - obs_b[:, None])).sum(1)
            / ((n - 1) * sample_sd_a * sample_sd_b))

    swap, tie = _orient(obs_a, obs_b)
    obs_a, obs_b = _swap(swap, obs_a, obs_b)
    true_mean_a, true_mean_b = _swap(swap, true_mean_a, true_mean_b)
    true_sd_a, true_sd_b = _swap(swap, true_sd_a, true_sd_b)
    sample_sd_a, sample_sd_b = _swap(swap, sample_sd_a, sample_sd_b)
    return pd.DataFrame({
        "task": "segmentation", "delta_sd": delta_sd, "n_test": n,
        "value_a": obs_a, "value_b": obs_b, "tie": tie,
        "true_a": true_mean_a, "true_b": true_mean_b,
        "true_congruence": true_r, "sample_congruence": sample_r, "latent_rho": rho,
        "true_sd_a": true_sd_a, "true_sd_b": true_sd_b,
        "sample_sd_a": sample_sd_a, "sample_sd_b": sample_sd_b,
    })


def simulate_classification(settings: CalibrationSettings, rng: np.random.Generator,
                            n: int, delta_sd: float, size: int) -> pd.DataFrame:
    s = settings
    acc_b = rng.uniform(*s.accuracy_b, size)
    acc_a = np.clip(acc_b + rng.normal(0.0, delta_sd, size), 0.01, 0.99)
    phi = rng.uniform(*s.correctness_correlation, size)
    p11 = acc_a * acc_b + phi * np.sqrt(acc_a * (1 - acc_a) * acc_b * (1 - acc_b))
    p11 = np.clip(p11, *classification_congruence_bounds(acc_a, acc_b))
    cells = np.column_stack([p11, acc_a - p11, acc_b - p11, 1 - acc_a - acc_b + p11])
    cells = np.clip(cells, 0.0, None)
    counts = rng.multinomial(n, cells / cells.sum(1, keepdims=True))
    obs_a = (counts[:, 0] + counts[:, 1]) / n
    obs_b = (counts[:, 0] + counts[:, 2]) / n
    swap, tie = _orient(obs_a, obs_b)
    obs_a, obs_b = _swap(swap, obs_a, obs_b)
    true_a, true_b = _swap(swap, acc_a, acc_b)
    nan = np.full(size, np.nan)
    return pd.DataFrame({
        "task": "classification", "delta_sd": delta_sd, "n_test": n,
        "value_a": obs_a, "value_b": obs_b, "tie": tie,
        "true_a": true_a, "true_b": true_b,
        "true_congruence": p11, "sample_congruence": counts[:, 0] / n, "latent_rho": phi,
        "true_sd_a": nan, "true_sd_b": nan, "sample_sd_a": nan, "sample_sd_b": nan,
    })


def _assumed_congruence(settings, task, kind, df):
    true = df["true_congruence"].to_numpy()
    shift = settings.congruence_shift[task]
    lo, hi = (0.0, 1.0) if task == "classification" else (-1.0, 1.0)
    value = {
        "true": true,
        "low": true - shift,
        "high": true + shift,
        "sample": df["sample_congruence"].to_numpy(),
        "survey": np.full(len(df), settings.survey_congruence[task]),
    }[kind]
    return np.clip(value, lo, hi)


def predict(settings: CalibrationSettings, df: pd.DataFrame) -> pd.DataFrame:
    """Add ``prob_<condition>`` columns and ``false_claim`` (A truly not better)."""
    task = df["task"].iloc[0]
    out = df.copy()
    out["false_claim"] = out["true_a"] <= out["true_b"]
    n, a, b = out["n_test"].to_numpy(float), out["value_a"].to_numpy(), out["value_b"].to_numpy()
    for name in conditions_for(task):
        ckind, sdkind = CONDITIONS[name][:2]
        c = _assumed_congruence(settings, task, ckind, out)
        sds = {}
        if task == "segmentation" and sdkind != "imputed":
            sds = {"sd_a": out[f"{sdkind}_sd_a"].to_numpy(),
                   "sd_b": out[f"{sdkind}_sd_b"].to_numpy()}
        out[f"prob_{name}"] = probability(task, n, a, b, congruence=c,
                                          sd_model=settings.sd_model, sd_level="mean",
                                          **sds).probability
    return out


def simulate_chunk(settings: CalibrationSettings, task: str, chunk: int) -> pd.DataFrame:
    """All cells (delta_sd x n_test) of one chunk, ties dropped later, with predictions."""
    rng = chunk_rng(settings, task, chunk)
    sim = simulate_classification if task == "classification" else simulate_segmentation
    frames = []
    for delta_sd in settings.delta_sd:
        for n in settings.n_test[task]:
            df = sim(settings, rng, n, delta_sd, settings.comparisons_per_cell)
            frames.append(predict(settings, df[~df["tie"]]).assign(
                ties=int(df["tie"].sum())))
    return pd.concat(frames, ignore_index=True)


BIN_KEYS = ["task", "delta_sd", "n_test", "condition", "bin"]


def bin_comparisons(df: pd.DataFrame, bins: int) -> pd.DataFrame:
    """Counts per (task, delta_sd, n_test, condition, bin): n, sum of predictions, n false.

    Bins are equal-width on [0, 0.5] (A is the observed winner, so P <= 0.5); these
    additive counts merge across chunks by summing.
    """
    task = df["task"].iloc[0]
    edges = np.linspace(0.0, 0.5, bins + 1)
    frames = []
    for name in conditions_for(task):
        p = df[f"prob_{name}"].to_numpy()
        if ((p < 0) | (p > 0.5 + 1e-12)).any():
            raise ValueError(f"condition {name}: probability outside [0, 0.5] for an observed "
                             "winner; the formula or the orientation is wrong")
        b = np.clip(np.searchsorted(edges, p, side="right") - 1, 0, bins - 1)
        frames.append(pd.DataFrame({
            "task": task, "delta_sd": df["delta_sd"].to_numpy(),
            "n_test": df["n_test"].to_numpy(), "condition": name, "bin": b,
            "prob": p, "false": df["false_claim"].to_numpy().astype(np.int64)}))
    long = pd.concat(frames, ignore_index=True)
    out = (long.groupby(BIN_KEYS, sort=True)
           .agg(n_comparisons=("prob", "size"), sum_prob=("prob", "sum"),
                n_false=("false", "sum"))
           .reset_index())
    out.insert(out.columns.get_loc("bin") + 1, "bin_lo", edges[out["bin"]])
    out.insert(out.columns.get_loc("bin_lo") + 1, "bin_hi", edges[out["bin"] + 1])
    return out


CELL_KEYS = ["task", "delta_sd", "n_test"]


def cell_summary(df: pd.DataFrame) -> pd.DataFrame:
    """Per cell: comparisons kept, ties dropped, truly false claims, and the realised true
    congruence against the latent parameter (rho for the copula, the correctness
    correlation for classification). Sums, so chunks merge by summing."""
    diff = df["true_congruence"] - df["latent_rho"]
    if df["task"].iloc[0] == "classification":
        diff = diff * np.nan  # p11 and the correctness correlation are different scales
    g = df.assign(diff=diff).groupby(CELL_KEYS, sort=True)
    return g.agg(n_comparisons=("value_a", "size"), ties=("ties", "first"),
                 n_false=("false_claim", "sum"),
                 sum_latent=("latent_rho", "sum"), sum_true_congruence=("true_congruence", "sum"),
                 min_true_minus_latent=("diff", "min"),
                 max_true_minus_latent=("diff", "max")).reset_index()


def run_chunk(cfg: dict, task: str, chunk: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """One simulation job: (bin counts, cell summary) of chunk ``chunk`` of ``task``."""
    settings = CalibrationSettings.from_config(cfg)
    df = simulate_chunk(settings, task, chunk)
    return bin_comparisons(df, settings.bins), cell_summary(df)
