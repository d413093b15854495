"""The levels of the two assumptions the survey's sensitivity analysis runs over
([Christodoulou2025], Methods): congruence at the quartiles of its reported distribution,
and the SD of per-case DSC at the mean and the quartiles of the SD model
(:mod:`falseclaims.sd_model`). Defined here once; how a figure, table or page names each
level too."""

CONGRUENCE_LEVELS = ("q1", "median", "q3")
SD_LEVELS = ("q1", "mean", "q3")
# "given": a congruence or SD the user stated instead of a level
LEVEL_LABELS = {"q1": "Q1", "median": "median", "mean": "mean", "q3": "Q3", "given": "given"}
