"""falseclaims: how likely is a published outperformance claim to be false?"""

from falseclaims.stats import (
    classification_congruence_bounds,
    prob_false_claim_classification,
    prob_false_claim_classification_mc,
    prob_false_claim_segmentation,
)

__version__ = "0.1.0"

__all__ = [
    "classification_congruence_bounds",
    "prob_false_claim_classification",
    "prob_false_claim_classification_mc",
    "prob_false_claim_segmentation",
]
