"""The two tasks every part of the analysis covers (sheets, survey, single claims, per-case
data, calibration, pipeline wildcards), and the short names sheets and commands accept."""

TASKS = ("classification", "segmentation")
# short names accepted wherever a task is named (sheets, `--task`, the Python API)
TASK_ALIASES = {"cls": "classification", "class": "classification", "seg": "segmentation"}
# how figures, tables and pages name each task (and the papers of a study-design sheet
# that records none, NOT_RECORDED below)
TASK_LABELS = {"classification": "Classification", "segmentation": "Segmentation",
               "not_recorded": "Task not recorded"}


def resolve_task(name) -> str:
    """The task a name or alias means (case and surrounding spaces ignored)."""
    key = str(name).strip().lower()
    key = TASK_ALIASES.get(key, key)
    if key not in TASKS:
        accepted = ", ".join([*TASKS, *TASK_ALIASES])
        raise ValueError(f"task must be one of {accepted}; got {name!r}")
    return key


# the group of papers whose study-design sheet records no task (papers.csv task empty): the
# practice outputs count them apart; nothing that computes a probability ever sees them
NOT_RECORDED = "not_recorded"


def task_panels(tasks) -> tuple[str, ...]:
    """The tasks of the practice outputs for these (filled) task values: both tasks (an
    empty one drawn as such); with papers whose task is not recorded, the tasks that have
    papers and then that group."""
    present = set(tasks)
    if NOT_RECORDED not in present:
        return TASKS
    return (*(t for t in TASKS if t in present), NOT_RECORDED)


def filled_tasks(task):
    """A papers table's task column (a pandas Series) with the empty task of a study-design
    sheet read as NOT_RECORDED: such papers are counted apart, never dropped."""
    return task.astype(object).where(task.notna(), NOT_RECORDED)
