"""The survey analysis: eligibility and top-2 selection, the assumptions attached to every
paper (SD imputation, congruence), probabilities and their summaries."""
