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


def __getattr__(name):
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value  # resolved once
        return value
    raise AttributeError(f"module 'falseclaims' has no attribute {name!r}")


def __dir__():
    return sorted({*globals(), *__all__})
