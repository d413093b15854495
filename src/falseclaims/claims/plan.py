"""Smallest test-set size whose probability of a false claim is at most a target.

How a planning question maps onto the forward formulas of :mod:`falseclaims.stats`:

- ``level`` is the metric value of the reported winner A (accuracy or mean DSC, a
  fraction); the runner-up B has ``level - delta``.
- classification: ``congruence`` is the both-correct share p11, moved into its feasible
  range [A + B - 1, min(A, B)] exactly as in the survey (the result reports where).
- segmentation: ``congruence`` is the Pearson r of per-case DSC; the per-case SDs of A and
  B are imputed from the SD model at A's and B's value (``sd_level`` q1 / mean / q3 of the
  model's 50% prediction interval).

The search is on integers n >= 2: doubling until the probability drops to the target or
``n_max`` is passed, then bisection. Monotonicity is checked on a grid below the answer and
on its immediate neighbours; if P(n) is not non-increasing there, a linear scan over all
n up to the bracket gives the exact smallest n instead (``method='linear'``).
"""

from __future__ import annotations

import numbers
from dataclasses import asdict, dataclass

import numpy as np

from falseclaims.claims.check import underflowed
from falseclaims.config import PlausibilityLimits
from falseclaims.engine import packaged_sd_model, probability
from falseclaims.levels import CONGRUENCE_LEVELS
from falseclaims.sd_model import SDModel
from falseclaims.stats import not_a_number, refuse_booleans
from falseclaims.tasks import TASKS, resolve_task

__all__ = ["PlanResult", "delta_warning", "probability_at", "size_multipliers", "smallest_n"]

_TOL = 1e-12  # rounding slack when checking that P(n) does not increase


@dataclass(frozen=True)
class PlanResult:
    task: str
    delta: float
    level: float
    a: float
    b: float
    congruence: float
    congruence_used: float
    congruence_clamped: bool
    sd_a: float | None
    sd_b: float | None
    sd_level: str | None
    sd_source: str | None
    target: float
    n_max: int
    found: bool
    n: int | None
    probability_at_n: float | None
    probability_at_n_minus_1: float | None
    probability_at_n_max: float
    # the 0 of probability_at_n_max is a floating-point underflow (below
    # falseclaims.readout.UNDERFLOW_BELOW), as check's probability_underflow
    probability_at_n_max_underflow: bool
    monotone: bool
    method: str
    message: str

    def to_dict(self) -> dict:
        return asdict(self)


def _values(task: str, delta: float, level: float) -> tuple[float, float]:
    if task not in TASKS:
        raise ValueError(f"task must be one of {TASKS}; got {task!r}")
    delta, level = float(delta), float(level)
    if not 0.0 < delta <= 1.0:
        raise ValueError(f"delta must lie in (0, 1] (a fraction, A minus B); got {delta!r}")
    if not 0.0 < level <= 1.0:
        raise ValueError(f"level (winner's metric value) must lie in (0, 1]; got {level!r}")
    if level - delta < 0.0:
        raise ValueError(
            f"level - delta = {level - delta:g} < 0: the runner-up's value B = level - delta "
            "must be a fraction in [0, 1]"
        )
    return level, level - delta


def _model(task: str, sd_model: SDModel | None) -> SDModel | None:
    """The SD model of a segmentation plan: the one given, else the one
    :func:`falseclaims.probability` imputes with (was refused: "segmentation planning needs
    an SD model", while ``probability("seg", ...)`` needs none)."""
    if task != "segmentation" or sd_model is not None:
        return sd_model
    return packaged_sd_model()


def _sds(task, value_a, value_b, sd_model, sd_level):
    if task != "segmentation":
        return None, None
    sd_model = _model(task, sd_model)
    sd_a, _ = sd_model.predict(value_a, sd_level)
    sd_b, _ = sd_model.predict(value_b, sd_level)
    return float(sd_a), float(sd_b)


def delta_warning(task: str, delta: float, cfg: dict) -> str | None:
    """A sentence when ``delta`` is beyond what the metric's scale makes plausible between a
    method and the best prior one (config ``plausibility.max_delta.<task>``, the threshold
    the sheet checks apply to a paper's proposed - prior), else None. The plan is still
    computed: its n is that of a difference this large."""
    limit = PlausibilityLimits.from_config(cfg).max_delta[task]
    if abs(delta) <= limit:
        return None
    metric = "accuracy" if task == "classification" else "mean DSC"
    return (f"delta {delta:g} is beyond {limit:g} (config plausibility.max_delta.{task}): a "
            f"gain of {100 * delta:g} {metric} points over the best prior method is rarely "
            "plausible; the test set planned for it is that small because the gap is this "
            f"large (delta is a difference of fractions: 0.01 = one point)")


def probability_at(task: str, n, delta: float, level: float, congruence: float,
                   sd_model: SDModel | None = None, sd_level: str = "mean"):
    """Forward probability of a false claim at test-set size(s) ``n`` (vectorised)."""
    task = resolve_task(task)
    a, b = _values(task, delta, level)
    sd_a, sd_b = _sds(task, a, b, sd_model, sd_level)
    return probability(task, n, a, b, congruence=congruence, sd_a=sd_a,
                       sd_b=sd_b).probability


def _is_monotone(p: np.ndarray) -> bool:
    return bool(np.all(np.diff(p) <= _TOL))


def _check_grid(hi: int) -> np.ndarray:
    """Sizes below/around the answer on which monotonicity is verified."""
    geo = np.unique(np.round(np.geomspace(2, max(hi, 2), 200)).astype(np.int64))
    near = np.arange(max(2, hi - 50), hi + 51, dtype=np.int64)
    return np.unique(np.concatenate([geo, near]))


def _bisect(prob, target: float, n_max: int) -> tuple[bool, int]:
    """(found, n): doubling then bisection for the first n with prob(n) <= target, assuming
    P(n) non-increasing (checked afterwards by the caller); n = n_max when not found."""
    lo, hi = 1, 2  # lo has P > target (or lo = 1, "no size"), hi has P <= target
    while hi < n_max and float(prob(hi)) > target:
        lo, hi = hi, min(2 * hi, n_max)
    found = float(prob(hi)) <= target
    if found:
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if float(prob(mid)) <= target:
                hi = mid
            else:
                lo = mid
    return found, hi


def _scan(prob, target: float, upto: int) -> tuple[bool, int | None]:
    """The exact fallback: the first n in 2..``upto`` with P <= target, by a full scan."""
    for start in range(2, upto + 1, 1_000_000):
        ns = np.arange(start, min(start + 1_000_000, upto + 1), dtype=np.int64)
        ok = np.flatnonzero(prob(ns) <= target)
        if ok.size:
            return True, int(ns[ok[0]])
    return False, None


def _parses(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _refuse_no_single_number(name: str, value) -> None:
    """One claim is planned at a time: a list, ``pd.NA``, a date or a level name met
    Python's "float() argument must be ..." (or lost a complex number's imaginary part)."""
    refuse_booleans(name, value)  # True would be 1.0: a gap of 100 points
    value = value.item() if isinstance(value, np.ndarray) and value.ndim == 0 else value
    what = not_a_number(value)
    if what is None and isinstance(value, str) and not _parses(value):
        what = f"{value!r} (smallest_n plans for one number: pass the value)"
    elif what is None and not isinstance(value, numbers.Number | str):
        shown = " ".join(repr(value).split())  # a Series' repr spans lines
        what = (f"{type(value).__name__} ({shown:.40}): it plans one claim at a time"
                if np.ndim(value) else f"{value!r}")
    if what is not None:
        raise ValueError(f"{name} must be a single number; got {what}")


def smallest_n(task: str, delta: float, level: float, congruence: float,
               target: float = 0.05, sd_model: SDModel | None = None, n_max: int = 10**7,
               sd_level: str = "mean", linear_limit: int = 2 * 10**7) -> PlanResult:
    """Smallest integer n >= 2 with P(false claim) <= ``target`` (see module docstring).

    When no n up to ``n_max`` suffices, ``found`` is False, ``n`` is None and ``message``
    says so with the probability reached at ``n_max``.
    """
    task = resolve_task(task)  # cls, seg as everywhere else
    for name, value in (("delta", delta), ("level", level), ("congruence", congruence),
                        ("target", target), ("n_max", n_max)):
        _refuse_no_single_number(name, value)
    a, b = _values(task, delta, level)
    target = float(target)
    if not 0.0 < target < 0.5:
        raise ValueError(f"target probability (--target) must lie in (0, 0.5); got {target!r}")
    n_max = int(n_max)
    if n_max < 2:
        raise ValueError(f"n_max must be at least 2; got {n_max!r}")
    sd_model = _model(task, sd_model)
    sd_a, sd_b = _sds(task, a, b, sd_model, sd_level)
    r = probability(task, 2, a, b, congruence=congruence, sd_a=sd_a, sd_b=sd_b)  # validates
    c_used, clamped = float(r.congruence_used), bool(r.congruence_clamped)

    def prob(n):
        return np.asarray(probability_at(task, n, delta, level, congruence, sd_model,
                                         sd_level), dtype=float)

    p_max = float(prob(n_max))
    common = {
        "task": task, "delta": float(delta), "level": a, "a": a, "b": b,
        "congruence": float(congruence), "congruence_used": c_used, "congruence_clamped": clamped,
        "sd_a": sd_a, "sd_b": sd_b, "sd_level": sd_level if task == "segmentation" else None,
        "sd_source": (sd_model.source or None) if task == "segmentation" else None,
        "target": target, "n_max": n_max, "probability_at_n_max": p_max,
        "probability_at_n_max_underflow": underflowed(task, {
            "probability": p_max, "sd_diff": r.sd_diff, "sd_a": sd_a, "sd_b": sd_b}),
    }

    found_bracket, hi = _bisect(prob, target, n_max)
    check_upto = hi if found_bracket else n_max
    grid = _check_grid(check_upto)
    grid = grid[grid <= n_max]
    monotone = _is_monotone(prob(grid))
    method = "bisection"
    if not monotone:
        # exact fallback: the first n with P <= target on a full scan
        if check_upto > linear_limit:
            raise ValueError(
                f"P(n) is not non-increasing below n = {check_upto} for task={task}, "
                f"delta={delta}, level={level}, congruence={congruence}; a linear scan that "
                f"far (> {linear_limit:,}) is too long: lower --n-max (config planner.n_max)."
            )
        method = "linear"
        found_bracket, hi = _scan(prob, target, check_upto)

    if not found_bracket:
        msg = (
            f"no test-set size up to n_max = {n_max:,} reaches P <= {target:.10g} "
            f"(P({n_max:,}) = {p_max:.4g}) for {task}, delta = {delta:g}, level = {a:g}, "
            f"congruence = {congruence:g}"
        )
        return PlanResult(**common, found=False, n=None, probability_at_n=None,
                          probability_at_n_minus_1=None, monotone=monotone, method=method,
                          message=msg)
    n = int(hi)
    p_n = float(prob(n))
    p_prev = float(prob(n - 1)) if n > 2 else None
    # P(n) and P(n - 1) are never below 1e-300: P(n - 1) is above the target, and P(2)
    # (1 degree of freedom, two cases) is far above it
    msg = (
        f"n = {n:,} test cases give P(false claim) = {p_n:.6g} <= {target:.10g}"
        + (f" (n - 1 gives {p_prev:.6g})" if p_prev is not None else " (smallest size, 2)")
    )
    if not monotone:
        msg += "; P(n) is not monotone here, answer from a linear scan"
    return PlanResult(**common, found=True, n=n, probability_at_n=p_n,
                      probability_at_n_minus_1=p_prev, monotone=monotone, method=method,
                      message=msg)


def size_multipliers(median_sizes, levels, congruence, *, sd_model: SDModel | None = None,
                     delta: float = 0.01, target: float = 0.05, n_max: int = 10**7,
                     sd_level: str = "mean", tasks=TASKS):
    """How many times larger than a venue's median test set a test set must be for
    P(false claim) <= ``target`` at ``delta`` ([Christodoulou2025], Results: "a test set at
    least 8x larger than the median 500 images ... 10x ... for a 0.01 DSC difference").

    ``median_sizes``: {task: median test-set size, or None}; ``levels``: {task: winner's
    value A}; ``congruence``: {task: {q1, median, q3}}. One row per task x congruence level:
    the smallest n (:func:`smallest_n`), the median size and ``multiplier`` = n / median
    (empty when the venue has no size or no n up to ``n_max`` suffices).
    """
    import pandas as pd  # the CLI's `plan` command does not need it

    rows = []
    for task in tasks:
        median = median_sizes.get(task)
        for lvl in CONGRUENCE_LEVELS:
            r = smallest_n(task, delta, levels[task], congruence[task][lvl], target=target,
                           sd_model=sd_model if task == "segmentation" else None,
                           n_max=n_max, sd_level=sd_level)
            ok = r.found and median is not None and median > 0
            rows.append({
                "task": task, "delta": r.delta, "level": r.level, "value_b": r.b,
                "congruence_level": lvl, "congruence": r.congruence,
                "congruence_used": r.congruence_used, "congruence_clamped": r.congruence_clamped,
                "sd_a": r.sd_a, "sd_b": r.sd_b, "sd_level": r.sd_level,
                "sd_source": r.sd_source, "target": r.target, "found": r.found,
                "n_required": r.n, "median_n_test": median,
                "multiplier": r.n / median if ok else None})
    out = pd.DataFrame(rows)
    out["n_required"] = out["n_required"].astype("Int64")
    return out.astype({"median_n_test": float, "multiplier": float})
