"""Reviewer mode: the probability of one reported claim "A beats B" (``falseclaims check``).

Only the reported values are known, so congruence comes from config (paper Q1 / median /
Q3, or one given value) and, for segmentation without reported SDs, the SDs are imputed
from the configured SD model at the reported means. ``decimals`` adds the range of the
probability over every pair of true values that round to the reported ones.
"""

from __future__ import annotations

import math

import numpy as np

from falseclaims import stats as fstats
from falseclaims.engine import probability
from falseclaims.engine import b_leads_note
from falseclaims.config import Headline, configured_congruence, sd_model_from_config
from falseclaims.tasks import resolve_task

__all__ = ["check_claim", "congruence_curve", "rounding_box", "validate_fraction"]

# the rounding box of more decimals is narrower than 5e-9: no width the probability shows
MAX_DECIMALS = 8


def validate_fraction(name: str, value: float, upper: float = 1.0) -> float:
    """A value in [0, upper]; percent-looking input is refused with a suggestion."""
    v = float(value)
    if not np.isfinite(v):
        raise ValueError(f"{name} must be a number; got {value!r}")
    # 10 significant digits: '{:g}' printed 1.0000001 as '1', which reads as valid
    if upper < v < 2:  # just above 1: a rounding slip as likely as a percentage
        raise ValueError(f"{name} must be a fraction in [0, {upper:g}]; got {v:.10g} (if it "
                         f"is a percentage, give {v / 100:.10g})")
    if v > upper and v <= 100:
        raise ValueError(f"{name} {v:.10g} looks like a percentage; give a fraction in [0, 1], "
                         f"e.g. {v / 100:.10g}")
    if v < 0 or v > upper:
        raise ValueError(f"{name} must be a fraction in [0, {upper:g}]; got {v:.10g}")
    return v


def _decimals(value: float) -> int:
    """The decimals ``value`` is written with (its shortest repr): 0.95 -> 2."""
    text = repr(float(value))
    if "e" in text or "." not in text:
        return 0 if "e" not in text else MAX_DECIMALS + 1
    return len(text.split(".")[1].rstrip("0"))


def granularity_note(name: str, value: float, n: int, decimals: int | None = None) -> str | None:
    """A note when no whole number of correct cases out of ``n`` gives the accuracy
    ``value`` as printed (``decimals``: as given, else as written), e.g. 0.95 on 10 cases.
    Not an error: a mean over folds or runs, or a test set of another size, gives such
    values, and the model then uses an n the accuracy was not counted on."""
    d = _decimals(value) if decimals is None else int(decimals)
    if d > MAX_DECIMALS or n > 10**7:
        return None
    half = 0.5 * 10.0 ** (-d) + 1e-12
    if math.floor((value + half) * n) >= math.ceil((value - half) * n):
        return None
    near = sorted({math.floor(value * n), math.ceil(value * n)})
    shown = " or ".join(f"{k}/{n} = {k / n:.{max(d, 1)}f}" for k in near if 0 <= k <= n)
    return (f"{name} = {value:g} is no whole number of correct cases out of n = {n} "
            f"({shown}): a mean over folds or runs, or a test set of another size? The "
            "probability takes n as the number of test cases the accuracy was counted on")


def sd_bound_note(name: str, mean: float, sd: float | None) -> str | None:
    """A note when a per-case SD is larger than a DSC in [0, 1] with that mean can have: by
    the Bhatia-Davis inequality the variance is at most mean (1 - mean) [BhatiaDavis2000]
    (the printed values' rounding counted in the SD's favour, as table mode does)."""
    if sd is None or not np.isfinite(sd):
        return None
    half_m = 0.5 * 10.0 ** (-min(_decimals(mean), MAX_DECIMALS))
    half_sd = 0.5 * 10.0 ** (-min(_decimals(sd), MAX_DECIMALS))
    lo, hi = max(mean - half_m, 0.0), min(mean + half_m, 1.0)
    worst = 0.25 if lo <= 0.5 <= hi else max(lo * (1 - lo), hi * (1 - hi))
    if sd <= worst ** 0.5 + half_sd + 1e-12:
        return None
    return (f"SD of {name} = {sd:g} is impossible for a mean DSC of {mean:g} (a score in "
            f"[0, 1] with that mean has an SD of at most {worst ** 0.5:.3g}, Bhatia-Davis "
            "inequality): an SD in percent, a variance, or an SD of something else?")


def input_notes(task: str, n: int, a: float, b: float, sd_a=None, sd_b=None,
                decimals: int | None = None) -> list[str]:
    """Reported values that can be what they claim only if something else is off: an
    accuracy no whole number of cases gives (:func:`granularity_note`), a per-case SD
    larger than a DSC with that mean can have (:func:`sd_bound_note`), a per-case SD of 0."""
    notes = []
    if task == "classification":
        notes += [t for t in (granularity_note(name, v, n, decimals)
                              for name, v in (("A", a), ("B", b))) if t]
    else:
        notes += [t for t in (sd_bound_note(name, m, sd)
                              for name, m, sd in (("A", a, sd_a), ("B", b, sd_b))) if t]
    zero = [name for name, sd in (("A", sd_a), ("B", sd_b)) if sd == 0]
    if zero:
        notes.append(f"SD of {' and '.join(zero)} is 0: every test case would have the same "
                     "DSC" + (", so the difference is known exactly and P is 0 or 1"
                              if len(zero) == 2 else "")
                     + "; is it the SD over the test cases (not over runs or folds)?")
    return notes


def no_spread_notes(label: str, c: float, row: dict, sd_a, sd_b) -> list[str]:
    """A congruence that leaves the paired differences no spread (r = 1 with equal SDs):
    P is then 0 or 1 by construction. Two reported SDs of 0 have their own note."""
    if row["sd_diff"] > 1e-12 or (sd_a == 0 and sd_b == 0):
        return []
    return [f"{label} congruence r = {c:g} with SDs {row['sd_a']:g} and {row['sd_b']:g}: the "
            "per-case differences would have no spread (SD 0), so P is 0 or 1 by "
            "construction, not evidence (r = 1 means both methods' DSC move in lockstep)"]


def _probability(task, n, a, b, sd_a, sd_b, congruence, model=None, level=None):
    """Vectorised :func:`falseclaims.engine.probability` (SDs imputed where None)."""
    return probability(task, n, a, b, congruence=congruence, sd_a=sd_a, sd_b=sd_b,
                       sd_model=model, sd_level=level)


def rounding_box(task, n, a, b, decimals, sd_a, sd_b, congruence, cfg, points: int = 41,
                 headline: Headline | None = None):
    """Probability on a points x points grid over [a ± h] x [b ± h], h = 0.5 * 10^-decimals
    (clipped to [0, 1]). Imputed SDs are re-imputed at every grid value, with the SD model
    and level of ``headline`` (default: the config's)."""
    head = headline or Headline.from_config(cfg)
    h = 0.5 * 10.0 ** (-int(decimals))
    ag = np.linspace(max(a - h, 0.0), min(a + h, 1.0), int(points))
    bg = np.linspace(max(b - h, 0.0), min(b + h, 1.0), int(points))
    A, B = np.meshgrid(ag, bg)
    model = sd_model_from_config(cfg, head.sd_source) if task == "segmentation" else None
    prob = np.asarray(_probability(task, n, A, B, sd_a, sd_b, congruence, model,
                                   head.sd_level).probability)
    return {"a_grid": ag, "b_grid": bg, "probability": prob}


def congruence_curve(task, n, a, b, sd_a, sd_b, points: int = 201):
    """Probability over the feasible congruence range (classification) or r in [-1, 1]."""
    if task == "classification":
        lo, hi = fstats.classification_congruence_bounds(a, b)
    else:
        lo, hi = -1.0, 1.0
    grid = np.linspace(lo, hi, points)
    prob = _probability(task, n, a, b, sd_a, sd_b, grid).probability
    return {"grid": grid, "probability": np.asarray(prob)}


def check_claim(task: str, n: int, a: float, b: float, cfg: dict, sd_a: float | None = None,
                sd_b: float | None = None, congruence: float | None = None,
                decimals: int | None = None, grid_points: int = 41,
                headline: Headline | None = None) -> dict:
    """Probability of a false claim under each assumption, with everything that went in.

    Returns the JSON of ``falseclaims check``: task, n, a, b, results (one per assumption)
    and notes (clamping, imputation, floors). ``headline`` sets the SD model and level of
    imputed SDs (default: the config's, :meth:`Headline.from_config`); table mode passes
    another SD level for its sensitivity band.
    """
    task = resolve_task(task)
    if int(n) != n or n < 2:
        raise ValueError(f"--n (test-set size) must be an integer >= 2; got {n!r}")
    n = int(n)
    a = validate_fraction("--a", a)
    b = validate_fraction("--b", b)
    if task == "classification" and (sd_a is not None or sd_b is not None):
        raise ValueError("--sd-a/--sd-b apply to segmentation only")
    sd_a, sd_b = (None if sd is None else validate_fraction(f"--sd-{k}", sd)
                  for k, sd in (("a", sd_a), ("b", sd_b)))
    if decimals is not None:
        if int(decimals) != decimals or not 0 <= decimals <= MAX_DECIMALS:
            raise ValueError(f"--decimals must be an integer in [0, {MAX_DECIMALS}]; got "
                             f"{decimals!r}")
        decimals = int(decimals)
        for name, v in (("--a", a), ("--b", b)):
            if abs(round(v, decimals) - v) > 1e-9:
                raise ValueError(f"{name} {v:g} has more than {decimals} decimals; give the value "
                                 "as reported")
    if congruence is not None:
        lo = 0.0 if task == "classification" else -1.0
        c = float(congruence)
        if task == "classification" and 1 < c <= 100:
            raise ValueError(f"--congruence {c:g} looks like a percentage; give a fraction, "
                             f"e.g. {c / 100:g}")
        if not lo <= c <= 1:
            raise ValueError(f"--congruence must lie in [{lo:g}, 1] for {task}; got {c:g}")
        levels = [("given", c)]
    else:
        q = configured_congruence(cfg, "paper")[task]
        levels = list(q.items())

    head = headline or Headline.from_config(cfg)
    model = sd_model_from_config(cfg, head.sd_source) if task == "segmentation" else None
    level = head.sd_level
    # B ahead: computed as the API computes it (P > 0.5), said once (docs/cli.md)
    lead = b_leads_note(a, b) if b > a else None
    notes, results = ([lead] if lead else []), []
    notes += input_notes(task, n, a, b, sd_a, sd_b, decimals)
    for label, c in levels:
        res = _probability(task, n, a, b, sd_a, sd_b, c, model, level)
        if not results and task == "segmentation":
            notes += [t for t in res.notes() if t.startswith("SD of")]
            if res.sd_floored:
                notes.append(f"an imputed SD was raised to the model floor {model.floor:g}")
        row = {"assumption": label, "congruence": float(c),
               "congruence_used": float(res.congruence_used),
               "congruence_clamped": bool(res.congruence_clamped), "sd_a": res.sd_a,
               "sd_b": res.sd_b, "sd_a_imputed": bool(res.sd_a_imputed),
               "sd_b_imputed": bool(res.sd_b_imputed),
               "sd_imputed": bool(res.sd_a_imputed or res.sd_b_imputed),
               "probability": float(res.probability)}
        if task == "classification":
            row.update(x1=float(res.x1), x2=float(res.x2))
            notes += [f"{label} {t}" for t in res.notes() if t != lead]
        else:
            row.update(sd_a=float(res.sd_a), sd_b=float(res.sd_b), sd_diff=float(res.sd_diff))
            notes += no_spread_notes(label, c, row, sd_a, sd_b)
        if decimals is not None:
            box = rounding_box(task, n, a, b, decimals, sd_a, sd_b, c, cfg, grid_points, head)
            p = box["probability"]
            row["probability_range"] = [float(min(p.min(), row["probability"])),
                                        float(max(p.max(), row["probability"]))]
        results.append(row)
    out = {"task": task, "n": n, "a": a, "b": b, "results": results, "notes": notes}
    if decimals is not None:
        out["decimals"] = decimals
    return out
