"""Single claims from reported numbers: ``check`` (probability of a false claim, with
rounding ranges) and ``plan`` (smallest test set reaching a target probability)."""
