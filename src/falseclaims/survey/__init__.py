"""The survey analysis, one module per stage: eligibility, top-2 selection, SD imputation,
congruence assignment, probabilities, exceedance (the shares above the cutoffs)."""
