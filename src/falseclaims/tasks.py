"""The two tasks every part of the analysis covers (sheets, survey, single claims, per-case
data, calibration, pipeline wildcards), and the short names sheets and commands accept."""

TASKS = ("classification", "segmentation")
# short names accepted wherever a task is named (sheets, `--task`, the Python API)
TASK_ALIASES = {"cls": "classification", "class": "classification", "seg": "segmentation"}
# how figures, tables and pages name each task
TASK_LABELS = {"classification": "Classification", "segmentation": "Segmentation"}


def resolve_task(name) -> str:
    """The task a name or alias means (case and surrounding spaces ignored)."""
    key = str(name).strip().lower()
    key = TASK_ALIASES.get(key, key)
    if key not in TASKS:
        accepted = ", ".join([*TASKS, *TASK_ALIASES])
        raise ValueError(f"task must be one of {accepted}; got {name!r}")
    return key
