"""The survey analysis, one module per stage: eligibility, top-2 selection, SD imputation,
congruence assignment, probabilities and their summaries."""
