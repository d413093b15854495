"""Probability that a reported outperformance claim is false.

[Christodoulou2025], Supplementary C; derivations in `docs/method.md`.

A is the reported winner, B the runner-up. Every function returns
P(theta_A <= theta_B | reported results), vectorised over numpy arrays and pandas Series
(inputs broadcast against each other).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# scipy.special is imported inside the two functions that call it: importing it costs
# ~0.15 s per process, and many pipeline jobs import this module without calling them.

__all__ = [
    "ClassificationResult",
    "SegmentationResult",
    "classification_congruence_bounds",
    "prob_false_claim_classification",
    "prob_false_claim_classification_mc",
    "prob_false_claim_segmentation",
]


def _as_float(name: str, x) -> np.ndarray:
    refuse_non_numbers(name, x)
    try:
        arr = np.asarray(x, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be numeric; got {x!r}") from exc
    if np.isnan(arr).any():
        where = "" if arr.ndim == 0 else f" at index {_first_bad(np.isnan(arr))}"
        raise ValueError(f"{name} is NaN{where}")
    return arr


def _holds_booleans(x) -> bool:
    if isinstance(x, (bool, np.bool_)):
        return True
    if isinstance(x, (list, tuple)):
        return any(_holds_booleans(v) for v in x)
    kind = getattr(getattr(x, "dtype", None), "kind", "")  # pandas' 'boolean' is 'b' too
    return kind == "b" or (kind == "O" and any(isinstance(v, (bool, np.bool_))
                                               for v in np.asarray(x, dtype=object).ravel()))


def refuse_booleans(name: str, x) -> None:
    """A boolean is no number here: True would be read as 1.0 (an accuracy of 100 %,
    n = 1)."""
    if _holds_booleans(x):
        shown = repr(x) if isinstance(x, (bool, np.bool_)) else f"{type(x).__name__} of booleans"
        raise ValueError(f"{name} must be numeric; got a boolean ({shown})")


_NOT_NUMBERS = {"M": "dates", "m": "time spans", "c": "complex numbers"}


def not_a_number(value) -> str | None:
    """What ``value`` is when numpy would read it as a number it is not: a date (days or
    nanoseconds since 1970), a time span (1 day as 1.0), a complex number (its imaginary
    part dropped), an integer beyond the floating-point range (an OverflowError)."""
    import datetime

    if isinstance(value, (datetime.date, datetime.time, np.datetime64)):
        return f"a date ({value})"
    if isinstance(value, (datetime.timedelta, np.timedelta64)):
        return f"a time span ({value})"
    if isinstance(value, (complex, np.complexfloating)):
        return f"a complex number ({value})"
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 1.7e308:
        return f"an integer of {len(str(abs(value)))} digits, beyond the floating-point range"
    return None


def _first_not_number(x) -> tuple[int | None, str] | None:
    """(position or None for the whole input, what it holds) of the first entry of ``x``
    that is no number although numpy would read it as one; None when there is none."""
    dtype = getattr(x, "dtype", None)
    if getattr(dtype, "kind", "O") not in "OMmc":
        return None  # numbers already (numpy or pandas' Int64/Float64): nothing to look at
    if str(dtype).startswith(("period", "interval")):  # pandas' spans of time or numbers
        return (None, f"{str(dtype).split('[')[0]}s ({dtype})")
    if isinstance(x, (bytearray, memoryview)) and getattr(x, "format", "B") in "Bbc":
        return (None, f"bytes ({type(x).__name__}): numpy reads each byte as a number")
    if isinstance(x, str):
        return None  # text: parsed, or named by the caller
    try:
        arr = np.asarray(x)
    except (ValueError, TypeError, OverflowError):
        arr = np.asarray(x, dtype=object) if isinstance(x, (list, tuple)) else None
    if arr is None or arr.dtype.kind not in "OMmc":
        return None  # plain numbers, text (the caller parses or names it), or ragged input
    if arr.dtype.kind != "O":
        return (None, f"{_NOT_NUMBERS[arr.dtype.kind]} ({arr.dtype})")
    for i, value in enumerate(arr.reshape(-1)):
        if (what := not_a_number(value)) is not None:
            return (i if arr.ndim else None, what)
        if isinstance(value, np.ndarray):
            return (i if arr.ndim else None, f"a numpy array ({value!r})")
    return None


def refuse_non_numbers(name: str, x, rows=None) -> None:
    """ValueError when ``x`` holds a boolean, a date, a time span, a complex number, bytes
    or an integer beyond the floating-point range: numpy reads each as a number it is not
    (True as 1.0, a date as days since 1970). Names the index, or with ``rows`` (a
    DataFrame column's index) the row label."""
    refuse_booleans(name, x)
    refuse_misread_numbers(name, x, rows)


def refuse_misread_numbers(name: str, x, rows=None) -> None:
    """:func:`refuse_non_numbers` but for booleans (a caller that names a boolean cell by
    its row)."""
    found = _first_not_number(x)
    if found is None:
        return
    i, what = found
    if rows is None:
        raise ValueError(f"{name}{'' if i is None else f' at index {i}'} must be numeric; "
                         f"got {what}")
    raise ValueError(f"{name}{'' if i is None else f', {row_text(rows, i)}'}: got {what}; "
                     "expected a number")


def row_text(rows, i: int) -> str:
    """How a message names the i-th row of a DataFrame with index ``rows``: by its label as
    printed (``row 3``, ``row 'case 7'``, not ``row np.int64(3)``), and by its position too
    when the label does not tell one row (an index that repeats it, as ``pd.concat`` of
    two frames leaves)."""
    label = rows[i]
    label = label.item() if isinstance(label, np.generic) else label
    text = f"row {label!r}"
    if not rows.is_unique and (rows == rows[i]).sum() > 1:
        text += f" (row {i + 1} from the top; the index repeats {label!r})"
    return text


def _first_bad(mask: np.ndarray):
    idx = np.argwhere(np.atleast_1d(mask))[0]
    return tuple(int(i) for i in idx) if len(idx) > 1 else int(idx[0])


def _plain(value) -> str:
    """A number as people write it (87, 0.5, 1e+30), never a numpy repr."""
    v = float(value)
    return str(int(v)) if v.is_integer() and abs(v) < 1e15 else repr(v)


def _bad_value(arr: np.ndarray, bad: np.ndarray) -> str:
    """'got 87' for a scalar input, 'got 87 at index 3' for an array."""
    where = _first_bad(bad)
    text = f"got {_plain(np.atleast_1d(arr)[where])}"
    return text if np.ndim(arr) == 0 else f"{text} at index {where}"


def _check_range(name: str, arr: np.ndarray, lo: float, hi: float, hint: str = "") -> None:
    bad = (arr < lo) | (arr > hi)
    if bad.any():
        raise ValueError(f"{name} must lie in [{lo:g}, {hi:g}]{hint}; {_bad_value(arr, bad)}")


def _check_n(n) -> np.ndarray:
    arr = _as_float("n", n)
    bad = arr < 2
    if bad.any():
        raise ValueError(f"n (test-set size) must be at least 2; {_bad_value(arr, bad)}")
    # a count of test cases: 100.5 or inf is a slip (a mean over folds?), not a size
    bad = ~np.isfinite(arr) | (arr != np.floor(arr))
    if bad.any():
        raise ValueError(f"n (test-set size) must be a whole number of test cases; "
                         f"{_bad_value(arr, bad)}")
    return arr


def _broadcast(**named: np.ndarray) -> list[np.ndarray]:
    """The arrays broadcast against each other; shapes that do not fit are named."""
    try:
        return np.broadcast_arrays(*named.values())
    except ValueError:
        shapes = ", ".join(f"{k} {np.shape(v)}" for k, v in named.items())
        raise ValueError(f"the inputs must have one length (or be single values); got "
                         f"shapes {shapes}") from None


def _check_unit_interval(name: str, x) -> np.ndarray:
    arr = _as_float(name, x)
    _check_range(name, arr, 0.0, 1.0, " (fractions, not percent)")
    return arr


def _out(x: np.ndarray):
    """0-d arrays become Python floats/bools so scalar calls return scalars."""
    return x[()] if isinstance(x, np.ndarray) and x.ndim == 0 else x


def _result(cls, **fields):
    """A result dataclass whose 0-d array fields are Python scalars (:func:`_out`)."""
    return cls(**{name: _out(value) for name, value in fields.items()})


def _bounds(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Feasible range of p11 given accuracies a and b: [max(a + b - 1, 0), min(a, b)]."""
    return np.maximum(a + b - 1.0, 0.0), np.minimum(a, b)


def classification_congruence_bounds(acc_a, acc_b):
    """Feasible range of the both-correct proportion p11 given two accuracies.

    Returns ``(lower, upper)`` with lower = max(acc_a + acc_b - 1, 0) and
    upper = min(acc_a, acc_b) ([Christodoulou2025], Supplementary C).
    """
    lower, upper = _bounds(_check_unit_interval("acc_a", acc_a),
                           _check_unit_interval("acc_b", acc_b))
    return _out(lower), _out(upper)


@dataclass(frozen=True)
class ClassificationResult:
    """Result of :func:`prob_false_claim_classification`.

    ``congruence_used`` is the assumed congruence after moving it into the feasible
    range; ``clamped`` tells where it was moved.
    """

    probability: np.ndarray | float
    congruence_used: np.ndarray | float
    clamped: np.ndarray | bool
    lower: np.ndarray | float
    upper: np.ndarray | float
    x1: np.ndarray | float
    x2: np.ndarray | float


def _classification_inputs(n, acc_a, acc_b, congruence):
    n = _check_n(n)
    a = _check_unit_interval("acc_a", acc_a)
    b = _check_unit_interval("acc_b", acc_b)
    c = _check_unit_interval("congruence", congruence)
    n, a, b, c = _broadcast(n=n, acc_a=a, acc_b=b, congruence=c)
    lower, upper = _bounds(a, b)
    used = np.clip(c, lower, upper)
    clamped = used != c
    x1 = n * (a - used)
    x2 = n * (b - used)
    return n, a, b, used, clamped, lower, upper, x1, x2


def prob_false_claim_classification(n, acc_a, acc_b, congruence) -> ClassificationResult:
    """Exact P(p_A <= p_B) for two accuracies on the same n cases.

    Posterior (p1, p2, rest) ~ Dirichlet(x1+1, x2+1, n-x1-x2+2) with discordant counts
    x1 = n(acc_a - p11), x2 = n(acc_b - p11). Since p1/(p1+p2) ~ Beta(x1+1, x2+1),
    P(p1 <= p2) = I_{1/2}(x1+1, x2+1) ([Christodoulou2025], Supplementary C). An infeasible
    congruence is moved to the nearer bound of :func:`classification_congruence_bounds`.
    """
    n, a, b, used, clamped, lower, upper, x1, x2 = _classification_inputs(
        n, acc_a, acc_b, congruence
    )
    from scipy import special

    prob = special.betainc(x1 + 1.0, x2 + 1.0, 0.5)
    prob = np.where(a == b, 0.5, prob)
    return _result(ClassificationResult, probability=prob, congruence_used=used,
                   clamped=clamped, lower=lower, upper=upper, x1=x1, x2=x2)


def prob_false_claim_classification_mc(
    n, acc_a, acc_b, congruence, draws: int = 100_000, seed: int = 0, chunk: int = 2_000_000
):
    """The paper's Monte Carlo estimator M/k ([Christodoulou2025], Supplementary C).

    Draws ``draws`` Dirichlet vectors per comparison (via independent gamma variates) and
    returns the share with p1 <= p2. Kept as an independent cross-check of the closed form;
    its standard error is sqrt(P(1-P)/draws).
    """
    if int(draws) < 1:
        raise ValueError(f"draws must be a positive integer; got {draws!r}")
    n, a, b, used, _, _, _, x1, x2 = _classification_inputs(n, acc_a, acc_b, congruence)
    shape = n.shape
    alpha1, alpha2 = (x1 + 1.0).ravel(), (x2 + 1.0).ravel()
    alpha3 = (n - x1 - x2 + 2.0).ravel()
    rng = np.random.default_rng(seed)
    counts = np.zeros(alpha1.size, dtype=np.int64)
    per = max(1, int(chunk) // max(1, alpha1.size))
    done = 0
    while done < draws:
        k = min(per, draws - done)
        g1 = rng.standard_gamma(alpha1, size=(k, alpha1.size))
        g2 = rng.standard_gamma(alpha2, size=(k, alpha1.size))
        g3 = rng.standard_gamma(alpha3, size=(k, alpha1.size))
        total = g1 + g2 + g3
        counts += np.count_nonzero(g1 / total <= g2 / total, axis=0)
        done += k
    prob = (counts / float(draws)).reshape(shape)
    return _out(prob)


def no_spread(sd_diff, sd_a, sd_b):
    """Where the paired differences have no spread (the point mass of
    :func:`prob_false_claim_segmentation`); rounding can leave ~1e-17 where the exact SD
    is 0."""
    return np.asarray(sd_diff) <= 1e-12 * np.maximum(np.maximum(sd_a, sd_b), 1e-300)


def underflowed(task: str, probability: float, sd_diff=None, sd_a=None, sd_b=None) -> bool:
    """Whether a probability 0 is a floating-point underflow (positive, but below
    :data:`falseclaims.readout.UNDERFLOW_BELOW`) rather than exact: a classification
    probability I_1/2(x1 + 1, x2 + 1) is never 0; a segmentation one is 0 only when the
    paired differences have no spread (a point mass, :func:`no_spread`)."""
    if probability != 0.0:
        return False
    return task == "classification" or not bool(no_spread(sd_diff, sd_a, sd_b))


@dataclass(frozen=True)
class SegmentationResult:
    """Result of :func:`prob_false_claim_segmentation`.

    ``sd_diff`` is the implied per-case SD of the paired differences
    sqrt(s_A^2 + s_B^2 - 2 s_A s_B r); ``degenerate`` marks where it is zero.
    """

    probability: np.ndarray | float
    sd_diff: np.ndarray | float
    statistic: np.ndarray | float
    degenerate: np.ndarray | bool


def prob_false_claim_segmentation(n, mean_a, mean_b, sd_a, sd_b, congruence) -> SegmentationResult:
    """P(mu_A <= mu_B) = t_{n-1}(sqrt(n)(mean_b - mean_a) / sd_diff).

    [Christodoulou2025], Supplementary C.

    ``congruence`` is the Pearson r of the two methods' per-case DSC.

    Zero denominator: when sd_diff = 0 (equal SDs with r = 1, or both SDs zero) every
    paired difference equals mean_a - mean_b, so the posterior of the mean difference is a
    point mass. The result is then 0 if mean_a > mean_b, 0.5 if equal and 1 if
    mean_a < mean_b; ``degenerate`` flags these entries.
    """
    n = _check_n(n)
    ma = _check_unit_interval("mean_a", mean_a)
    mb = _check_unit_interval("mean_b", mean_b)
    sa = _as_float("sd_a", sd_a)
    sb = _as_float("sd_b", sd_b)
    for name, arr in (("sd_a", sa), ("sd_b", sb)):
        if (arr < 0).any():
            raise ValueError(f"{name} must be >= 0; {_bad_value(arr, arr < 0)}")
    r = _as_float("congruence", congruence)
    _check_range("congruence", r, -1.0, 1.0, " (Pearson r)")
    n, ma, mb, sa, sb, r = _broadcast(n=n, mean_a=ma, mean_b=mb, sd_a=sa, sd_b=sb,
                                      congruence=r)
    var = np.maximum(sa**2 + sb**2 - 2.0 * sa * sb * r, 0.0)
    sd_diff = np.sqrt(var)
    degenerate = no_spread(sd_diff, sa, sb)
    with np.errstate(divide="ignore", invalid="ignore"):
        statistic = np.sqrt(n) * (mb - ma) / np.where(degenerate, 1.0, sd_diff)
    from scipy import special

    prob = special.stdtr(n - 1.0, statistic)  # Student-t CDF, lighter than scipy.stats
    point_mass = np.where(ma > mb, 0.0, np.where(ma < mb, 1.0, 0.5))
    prob = np.where(degenerate, point_mass, prob)
    prob = np.where(ma == mb, 0.5, prob)
    statistic = np.where(degenerate, np.where(mb > ma, np.inf, -np.inf), statistic)
    statistic = np.where(ma == mb, 0.0, statistic)
    return _result(SegmentationResult, probability=prob, sd_diff=sd_diff,
                   statistic=statistic, degenerate=degenerate)
