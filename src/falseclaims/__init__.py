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

    from falseclaims.stats import not_a_number

    @functools.wraps(plan_smallest_n)
    def smallest_n(task, delta, level, congruence, *args, **keywords):
        named = {"delta": delta, "level": level, "congruence": congruence,
                 **{k: keywords[k] for k in ("target", "n_max") if k in keywords}}
        for name, value in named.items():
            value = value.item() if isinstance(value, np.ndarray) and value.ndim == 0 else value
            if isinstance(value, bool | np.bool_):
                continue  # the planner names booleans itself
            what = not_a_number(value)
            if what is None and isinstance(value, str) and not _parses(value):
                what = f"{value!r} (smallest_n plans for one number: pass the value)"
            elif what is None and not isinstance(value, numbers.Number | str):
                what = (f"{type(value).__name__} ({value!r:.40}): it plans one claim at a "
                        "time" if np.ndim(value) else f"{value!r}")
            if what is not None:
                raise ValueError(f"{name} must be a single number; got {what}")
        return plan_smallest_n(task, delta, level, congruence, *args, **keywords)

    return smallest_n


# the planner met a list, pd.NA or a date with Python's "float() argument must be ...";
# probability and probabilities check their inputs in falseclaims.engine itself
_CHECKED = {"smallest_n": _checked_smallest_n}


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
