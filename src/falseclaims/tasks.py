"""The two tasks every part of the analysis covers (sheets, survey, single claims, per-case
data, calibration, pipeline wildcards)."""

TASKS = ("classification", "segmentation")
