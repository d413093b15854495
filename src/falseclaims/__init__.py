"""falseclaims: how likely is a published outperformance claim to be false?

    >>> import falseclaims
    >>> falseclaims.probability("cls", n=500, a=0.86, b=0.85).probability  # doctest: +ELLIPSIS
    0.339...

The public API (docs/api.md) is re-exported lazily so that ``import falseclaims.<module>``
in a pipeline job does not pay for SciPy or pandas unless it is used.
"""

__version__ = "0.1.0"

# name -> module it lives in
_LAZY = {
    "probability": "falseclaims.engine",
    "probabilities": "falseclaims.engine",
    "ClaimProbability": "falseclaims.engine",
    "smallest_n": "falseclaims.claims.plan",
    "SDModel": "falseclaims.sd_model",
    "load_config": "falseclaims.config",
    "FalseclaimsInputError": "falseclaims.errors",
    "classification_congruence_bounds": "falseclaims.stats",
    "prob_false_claim_classification": "falseclaims.stats",
    "prob_false_claim_classification_mc": "falseclaims.stats",
    "prob_false_claim_segmentation": "falseclaims.stats",
}

__all__ = [*_LAZY, "__version__"]

# the arguments of the entry points that must hold numbers (text names a level or a column)
_NUMERIC_ARGUMENTS = ("n", "a", "b", "sd_a", "sd_b", "congruence")
# the columns probabilities() reads when none is named (falseclaims.engine.probabilities)
_DEFAULT_COLUMNS = {"n": ("n", "n_test"), "a": ("a", "value_a"), "b": ("b", "value_b"),
                    "sd_a": ("sd_a",), "sd_b": ("sd_b",)}
_NOT_NUMBERS = {"M": "dates", "m": "time spans", "c": "complex numbers"}


def _not_a_number(value) -> str | None:
    """What ``value`` is when numpy would read it as a number it is not: a date (days or
    nanoseconds since 1970), a time span (1 day as 1.0), a complex number (its imaginary
    part dropped), an integer beyond the floating-point range (an OverflowError)."""
    import datetime

    import numpy as np

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
    import numpy as np

    dtype = getattr(x, "dtype", None)
    if getattr(dtype, "kind", "O") not in "OMmc":
        return None  # numbers already (numpy or pandas' Int64/Float64): nothing to look at
    if str(dtype).startswith(("period", "interval")):  # pandas' spans of time or numbers
        return (None, f"{str(dtype).split('[')[0]}s ({dtype})")
    if isinstance(x, (bytearray, memoryview)) and getattr(x, "format", "B") in "Bbc":
        return (None, f"bytes ({type(x).__name__}): numpy reads each byte as a number")
    try:
        arr = np.asarray(x)
    except (ValueError, TypeError, OverflowError):
        arr = np.asarray(x, dtype=object) if isinstance(x, (list, tuple)) else None
    if arr is None or arr.dtype.kind not in "OMmc":
        return None  # plain numbers, text (the engine parses or names it), or ragged input
    if arr.dtype.kind != "O":
        return (None, f"{_NOT_NUMBERS[arr.dtype.kind]} ({arr.dtype})")
    for i, value in enumerate(arr.reshape(-1)):
        if (what := _not_a_number(value)) is not None:
            return (i if arr.ndim else None, what)
        if isinstance(value, np.ndarray):
            return (i if arr.ndim else None, f"a numpy array ({value!r})")
    return None


def _refuse_not_numbers(name: str, x, rows=None) -> None:
    """ValueError naming the argument (and index), or the column and row label of a
    DataFrame as the engine names its cells."""
    found = _first_not_number(x)
    if found is None:
        return
    i, what = found
    if rows is None:
        raise ValueError(f"{name}{'' if i is None else f' at index {i}'} must be numeric; "
                         f"got {what}")
    raise ValueError(f"{name}{'' if i is None else f', row {rows[i]!r}'}: got {what}; "
                     "expected a number")


def _checked_probability(engine_probability):
    import functools

    @functools.wraps(engine_probability)
    def probability(task, n, a, b, **keywords):
        for name, x in (("n", n), ("a", a), ("b", b),
                        *((k, keywords.get(k)) for k in _NUMERIC_ARGUMENTS[3:])):
            if x is not None and not isinstance(x, str):
                _refuse_not_numbers(name, x)
        return engine_probability(task, n, a, b, **keywords)

    return probability


def _checked_probabilities(engine_probabilities):
    import functools

    @functools.wraps(engine_probabilities)
    def probabilities(df, **keywords):
        columns = getattr(df, "columns", ())
        for key, defaults in {**_DEFAULT_COLUMNS, "congruence": ()}.items():
            named = keywords.get(key)
            for column in (named,) if isinstance(named, str) else defaults:
                if column in columns and (df.columns == column).sum() == 1:
                    _refuse_not_numbers(f"column {column!r}", df[column], rows=df.index)
        return engine_probabilities(df, **keywords)

    return probabilities


def _parses(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _checked_smallest_n(plan_smallest_n):
    import functools
    import numbers

    import numpy as np

    @functools.wraps(plan_smallest_n)
    def smallest_n(task, delta, level, congruence, *args, **keywords):
        named = {"delta": delta, "level": level, "congruence": congruence,
                 **{k: keywords[k] for k in ("target", "n_max") if k in keywords}}
        for name, value in named.items():
            value = value.item() if isinstance(value, np.ndarray) and value.ndim == 0 else value
            if isinstance(value, bool | np.bool_):
                continue  # the planner names booleans itself
            what = _not_a_number(value)
            if what is None and isinstance(value, str) and not _parses(value):
                what = f"{value!r} (smallest_n plans for one number: pass the value)"
            elif what is None and not isinstance(value, numbers.Number | str):
                what = (f"{type(value).__name__} ({value!r:.40}): it plans one claim at a "
                        "time" if np.ndim(value) else f"{value!r}")
            if what is not None:
                raise ValueError(f"{name} must be a single number; got {what}")
        return plan_smallest_n(task, delta, level, congruence, *args, **keywords)

    return smallest_n


# entry points whose numeric inputs are checked here first: numpy reads dates, time spans
# and complex numbers as numbers, so they gave a probability without a word; the planner
# met a list, pd.NA or a date with Python's "float() argument must be ..."
_CHECKED = {"probability": _checked_probability, "probabilities": _checked_probabilities,
            "smallest_n": _checked_smallest_n}


def __getattr__(name):
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(_LAZY[name]), name)
        if name in _CHECKED:
            value = _CHECKED[name](value)
        globals()[name] = value  # resolved once
        return value
    raise AttributeError(f"module 'falseclaims' has no attribute {name!r}")


def __dir__():
    return sorted({*globals(), *__all__})
