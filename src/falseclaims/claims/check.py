"""Reviewer mode: the probability of one reported claim "A beats B" (``falseclaims check``).

Only the reported values are known, so congruence comes from config (paper Q1 / median /
Q3, or one given value) and, for segmentation without reported SDs, the SDs are imputed
from the configured SD model at the reported means. ``decimals`` adds the range of the
probability over every pair of true values that round to the reported ones.
:func:`check_claims` checks many claims of one task at once (table mode); a single claim is
its one-claim case, so both give the same numbers.
"""

from __future__ import annotations

import math
import re

import numpy as np

from falseclaims import stats as fstats
from falseclaims.engine import probability
from falseclaims.engine import b_leads_note
from falseclaims.config import Headline, configured_congruence, sd_model_from_config
from falseclaims.levels import LEVEL_LABELS
from falseclaims.engine import sd_bound_note
from falseclaims.readout import MAX_DECIMALS, UNDERFLOW_BELOW
from falseclaims.readout import written_decimals as _decimals
from falseclaims.tasks import resolve_task

__all__ = ["UNDERFLOW_BELOW", "check_claim", "check_claims", "congruence_curve",
           "flag_implausible", "implausible_inputs", "sd_bound_note",
           "headline_probabilities", "rounding_box", "underflowed", "validate_fraction"]

BOX_CHUNK = 2**16  # grid values per engine call over rounding boxes


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
        notes += [t for t in (sd_bound_note(name, m, sd, decimals)
                              for name, m, sd in (("A", a, sd_a), ("B", b, sd_b))) if t]
    zero = [name for name, sd in (("A", sd_a), ("B", sd_b)) if sd == 0]
    if zero:
        notes.append(f"SD of {' and '.join(zero)} is 0: every test case would have the same "
                     "DSC" + (", so the difference is known exactly and P is 0 or 1"
                              if len(zero) == 2 else "")
                     + "; is it the SD over the test cases (not over runs or folds)?")
    return notes


def implausible_inputs(task: str, a: float, b: float, sd_a=None, sd_b=None,
                       decimals: int | None = None) -> list[str]:
    """The reported values that cannot all be right: an SD larger than a DSC with that mean
    can have (:func:`sd_bound_note`). Not only noted: the verdict says so first
    (:func:`flag_implausible`), as table mode refuses such a cell."""
    if resolve_task(task) != "segmentation":
        return []
    return [t for t in (sd_bound_note("A", a, sd_a, decimals),
                        sd_bound_note("B", b, sd_b, decimals)) if t]


def flag_implausible(sentence: str, implausible: list[str]) -> str:
    """The verdict's sentence, led by what makes the input implausible (one sentence for
    the text, the JSON, the report and the web page)."""
    if not implausible:
        return sentence
    which = " and ".join(t.split(" = ")[0].removeprefix("SD of ") for t in implausible)
    return (f"Implausible input: the reported SD of {which} cannot go with its mean (see the "
            "note), so this verdict rests on values that cannot all be right. " + sentence)


def no_spread_notes(label: str, c: float, row: dict, sd_a, sd_b) -> list[str]:
    """A congruence that leaves the paired differences no spread (r = 1 with equal SDs):
    P is then 0 or 1 by construction. Two reported SDs of 0 have their own note."""
    if row["sd_diff"] > 1e-12 or (sd_a == 0 and sd_b == 0):
        return []
    return [f"{LEVEL_LABELS.get(label, label)} congruence r = {c:g} with SDs {row['sd_a']:g} and {row['sd_b']:g}: the "
            "per-case differences would have no spread (SD 0), so P is 0 or 1 by "
            "construction, not evidence (r = 1 means both methods' DSC move in lockstep)"]


def _probability(task, n, a, b, sd_a, sd_b, congruence, model=None, level=None):
    """Vectorised :func:`falseclaims.engine.probability` (SDs imputed where None)."""
    return probability(task, n, a, b, congruence=congruence, sd_a=sd_a, sd_b=sd_b,
                       sd_model=model, sd_level=level)


def _box_grids(a: float, b: float, decimals: int, points: int):
    """The values of a and b that round to the printed ones: ``points`` each over
    [a ± h] and [b ± h], h = 0.5 * 10^-decimals, clipped to [0, 1]."""
    h = 0.5 * 10.0 ** (-int(decimals))
    return (np.linspace(max(a - h, 0.0), min(a + h, 1.0), int(points)),
            np.linspace(max(b - h, 0.0), min(b + h, 1.0), int(points)))


def rounding_box(task, n, a, b, decimals, sd_a, sd_b, congruence, cfg, points: int = 41,
                 headline: Headline | None = None):
    """Probability on a points x points grid over [a ± h] x [b ± h], h = 0.5 * 10^-decimals
    (clipped to [0, 1]). Imputed SDs are re-imputed at every grid value, with the SD model
    and level of ``headline`` (default: the config's)."""
    head = headline or Headline.from_config(cfg)
    ag, bg = _box_grids(a, b, decimals, points)
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


def _validated(task: str, n, a, b, sd_a, sd_b, congruence, decimals) -> tuple:
    """One claim's inputs checked as ``falseclaims check`` words them: (n, a, b, sd_a,
    sd_b, congruence, decimals) as numbers, None where not given."""
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
        congruence = float(congruence)
        if task == "classification" and 1 < congruence <= 100:
            raise ValueError(f"--congruence {congruence:g} looks like a percentage; give a "
                             f"fraction, e.g. {congruence / 100:g}")
        if not lo <= congruence <= 1:
            raise ValueError(f"--congruence must lie in [{lo:g}, 1] for {task}; got "
                             f"{congruence:g}")
    return n, a, b, sd_a, sd_b, congruence, decimals


class _Claims:
    """Many claims of one task, validated, as the arrays one engine call takes: ``sd_a``/
    ``sd_b`` NaN where not given (imputed, as None is), None when no claim gives one."""

    def __init__(self, task, n, a, b, sd_a, sd_b, congruence, decimals):
        k = len(a)

        def each(x):
            return list(x) if isinstance(x, (list, tuple, np.ndarray)) else [x] * k

        self.task = resolve_task(task)
        self.rows = [_validated(self.task, *row) for row in zip(
            each(n), a, b, each(sd_a), each(sd_b), each(congruence), each(decimals))]
        cols = list(zip(*self.rows)) or [()] * 7
        self.n, self.a, self.b = (np.array(c, dtype=float) for c in cols[:3])
        self.sd_a, self.sd_b = (None if all(v is None for v in c) else
                                np.array([np.nan if v is None else v for v in c], dtype=float)
                                for c in cols[3:5])
        self.given = None if congruence is None else np.array(cols[5], dtype=float)
        self.decimals = cols[6]

    def probability(self, c, model, level, rows=None, a=None, b=None):
        """The engine over the claims (``rows``: a subset, as an index array), at
        congruence ``c``; ``a``, ``b``: other values than the reported ones (a rounding
        box: the claims along the first axis)."""
        rows = slice(None) if rows is None else rows
        a = self.a[rows] if a is None else a
        b = self.b[rows] if b is None else b
        shape = (-1,) + (1,) * (np.ndim(a) - 1)

        def take(x):
            return x if x is None or np.ndim(x) == 0 else x[rows].reshape(shape)

        return _probability(self.task, take(self.n), a, b, take(self.sd_a), take(self.sd_b),
                            take(c), model, level)


def _at(x, i):
    return x[i] if isinstance(x, np.ndarray) and x.ndim > 0 else x


def _levels(claims: _Claims, cfg: dict) -> list:
    if claims.given is not None:
        return [("given", claims.given)]
    return list(configured_congruence(cfg, "paper")[claims.task].items())


def headline_probabilities(task: str, n, a, b, cfg: dict, sd_a=None, sd_b=None) -> np.ndarray:
    """The probability of the headline assumption (the config's congruence level, SD model
    and level) for many claims at once: the ``probability`` of :func:`check_claim`'s
    headline row, claim by claim, from one engine call."""
    claims = _Claims(task, n, a, b, sd_a, sd_b, None, None)
    if not claims.rows:
        return np.zeros(0)
    head = Headline.from_config(cfg)
    model = sd_model_from_config(cfg, head.sd_source) if claims.task == "segmentation" else None
    c = configured_congruence(cfg, "paper")[claims.task][head.congruence_level]
    return np.atleast_1d(np.asarray(claims.probability(c, model, head.sd_level).probability,
                                    dtype=float))


def _box_ranges(claims: _Claims, c, model, level, points: int) -> dict:
    """{claim: (lowest, highest) probability over its rounding box} for the claims with
    decimals, every box in one engine call (:func:`rounding_box` claim by claim)."""
    with_box = np.array([i for i, d in enumerate(claims.decimals) if d is not None], dtype=int)
    out = {}
    # in parts of BOX_CHUNK values: the engine's temporaries stay in the CPU caches and a
    # table of 10^4 rows does not take gigabytes
    for start in range(0, len(with_box), max(1, BOX_CHUNK // int(points) ** 2)):
        rows = with_box[start:start + max(1, BOX_CHUNK // int(points) ** 2)]
        grids = [np.meshgrid(*_box_grids(claims.a[i], claims.b[i], claims.decimals[i],
                                         points)) for i in rows]
        prob = np.asarray(claims.probability(
            c, model, level, rows, np.stack([g[0] for g in grids]),
            np.stack([g[1] for g in grids])).probability)
        out.update((int(i), (p.min(), p.max())) for i, p in zip(rows, prob))
    return out


def _result_row(claims: _Claims, res, i: int, label: str, c) -> dict:
    row = {"assumption": label, "congruence": float(_at(c, i)),
           "congruence_used": float(_at(res.congruence_used, i)),
           "congruence_clamped": bool(_at(res.congruence_clamped, i)),
           "sd_a": _at(res.sd_a, i), "sd_b": _at(res.sd_b, i),
           "sd_a_imputed": bool(_at(res.sd_a_imputed, i)),
           "sd_b_imputed": bool(_at(res.sd_b_imputed, i)),
           "sd_imputed": bool(_at(res.sd_a_imputed, i) or _at(res.sd_b_imputed, i)),
           "probability": float(_at(res.probability, i))}
    if claims.task == "classification":
        row.update(x1=float(_at(res.x1, i)), x2=float(_at(res.x2, i)))
    else:
        row.update(sd_a=float(_at(res.sd_a, i)), sd_b=float(_at(res.sd_b, i)),
                   sd_diff=float(_at(res.sd_diff, i)))
    row["probability_underflow"] = underflowed(claims.task, row)
    return row


def check_claims(task: str, n, a, b, cfg: dict, sd_a=None, sd_b=None, congruence=None,
                 decimals=None, grid_points: int = 41,
                 headline: Headline | None = None) -> list[dict]:
    """:func:`check_claim` for many claims of one task at once: one dict per claim, each
    equal to what :func:`check_claim` returns for it, from one engine call per assumption
    (and one over every claim's rounding box).

    ``a``, ``b``: sequences; ``n``, ``sd_a``, ``sd_b``, ``congruence``, ``decimals``: one
    value for every claim or a sequence (None entries: not given).
    """
    claims = _Claims(task, n, a, b, sd_a, sd_b, congruence, decimals)
    task = claims.task
    if not claims.rows:
        return []
    head = headline or Headline.from_config(cfg)
    model = sd_model_from_config(cfg, head.sd_source) if task == "segmentation" else None
    level = head.sd_level
    out = []
    for n_i, a_i, b_i, sa, sb, _, dec in claims.rows:
        # B ahead: computed as the API computes it (P > 0.5), said once (docs/cli.md)
        lead = b_leads_note(a_i, b_i) if b_i > a_i else None
        out.append({"task": task, "n": n_i, "a": a_i, "b": b_i, "results": [],
                    "notes": ([lead] if lead else []) + input_notes(task, n_i, a_i, b_i, sa,
                                                                    sb, dec), "lead": lead})
    for label, c in _levels(claims, cfg):
        res = claims.probability(c, model, level)
        boxes = _box_ranges(claims, c, model, level, grid_points)
        for i, claim in enumerate(out):
            notes, row = claim["notes"], _result_row(claims, res, i, label, c)
            one = res.item(i) if np.ndim(res.probability) else res
            if not claim["results"] and task == "segmentation":
                # the engine's words; an impossible SD is among the input notes, judged
                # there with the decimals given ("SD of A = ...", not "SD of A imputed")
                notes += [t for t in one.notes() if t.startswith(("SD of", "an imputed SD"))
                          and not re.match(r"SD of [AB] = ", t)]
            if task == "classification":
                # the engine names a value it was given "given"; here it is this level's
                notes += [f"{LEVEL_LABELS.get(label, label)} {t.removeprefix('given ')}"
                          for t in one.notes() if t != claim["lead"]]
            else:
                notes += no_spread_notes(label, row["congruence"], row, claims.rows[i][3],
                                         claims.rows[i][4])
            if i in boxes:
                row["probability_range"] = [float(min(boxes[i][0], row["probability"])),
                                            float(max(boxes[i][1], row["probability"]))]
                row["probability_range_underflow"] = [
                    underflowed(task, {**row, "probability": p})
                    for p in row["probability_range"]]
            claim["results"].append(row)
    for claim, dec in zip(out, claims.decimals):
        del claim["lead"]
        if dec is not None:
            claim["decimals"] = dec
    return out


def check_claim(task: str, n: int, a: float, b: float, cfg: dict, sd_a: float | None = None,
                sd_b: float | None = None, congruence: float | None = None,
                decimals: int | None = None, grid_points: int = 41,
                headline: Headline | None = None) -> dict:
    """Probability of a false claim under each assumption, with everything that went in.

    Returns the JSON of ``falseclaims check``: task, n, a, b, results (one per assumption)
    and notes (clamping, imputation, floors). ``headline`` sets the SD model and level of
    imputed SDs (default: the config's, :meth:`Headline.from_config`); table mode passes
    another SD level for its sensitivity band. The one-claim case of :func:`check_claims`.
    """
    return check_claims(task, [n], [a], [b], cfg, [sd_a], [sd_b],
                        None if congruence is None else [congruence],
                        [decimals], grid_points, headline)[0]


def underflowed(task: str, row: dict) -> bool:
    """:func:`falseclaims.stats.underflowed` of a result row (its ``probability`` and, for
    segmentation, ``sd_diff``, ``sd_a``, ``sd_b``)."""
    return fstats.underflowed(task, row["probability"], row.get("sd_diff"), row.get("sd_a"),
                              row.get("sd_b"))
