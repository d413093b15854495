"""falseclaims: how likely is a published outperformance claim to be false?

The statistical core is re-exported lazily so that ``import falseclaims.<module>`` in a
pipeline job does not pay for SciPy unless it is used.
"""

__version__ = "0.1.0"

__all__ = [
    "classification_congruence_bounds",
    "prob_false_claim_classification",
    "prob_false_claim_classification_mc",
    "prob_false_claim_segmentation",
]


def __getattr__(name):
    if name in __all__:
        from falseclaims import stats

        return getattr(stats, name)
    raise AttributeError(f"module 'falseclaims' has no attribute {name!r}")
