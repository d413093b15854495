"""The two tasks every part of the analysis covers (sheets, survey, single claims, per-case
data, calibration, pipeline wildcards), and the short names sheets and commands accept."""

import re
import unicodedata

TASKS = ("classification", "segmentation")
# short names accepted wherever a task is named (sheets, `--task`, the Python API)
TASK_ALIASES = {"cls": "classification", "class": "classification", "seg": "segmentation"}
# how figures, tables and pages name each task (and the papers of a study-design sheet
# that records none, NOT_RECORDED below)
TASK_LABELS = {"classification": "Classification", "segmentation": "Segmentation",
               "not_recorded": "Task not recorded"}


# metric names given where a task is asked for (`--task`, the API's `task`), in the
# spellings and languages of papers and sheets: the task whose values they are (accuracy
# for classification, mean DSC for segmentation: docs/method.md) ...
METRIC_TASKS = {
    **dict.fromkeys((
        "accuracy", "acc", "top 1", "top1", "top 1 acc", "top 1 accuracy", "top1 acc",
        "top1 accuracy", "balanced accuracy", "overall accuracy", "classification accuracy",
        "mean accuracy", "genauigkeit", "treffergenauigkeit", "klassifikationsgenauigkeit",
        "exactitud", "precisión global", "exactitude", "précision globale",
        "taux de bonne classification", "accuratezza", "acurácia", "acuracia", "exatidão",
        "nauwkeurigheid", "准确率", "正确率", "準確率", "正解率"), "classification"),
    **dict.fromkeys((
        "dice", "dsc", "dice score", "dice coefficient", "dice similarity coefficient",
        "dice similarity", "mean dice", "mean dsc", "mean dice score", "sørensen dice",
        "sorensen dice", "dice koeffizient", "coeficiente de dice", "coefficient de dice",
        "coefficiente di dice", "dice系数", "骰子系数"), "segmentation")}
# ... the tasks' own names in the languages of papers (given for --task, the API's task):
# the task they name; every key as _metric_key spells it
TASK_WORDS = {
    **dict.fromkeys((
        "klassifikation", "klassifizierung", "bildklassifikation", "clasificación",
        "clasificacion", "classificazione", "classificação", "classificacao", "classificatie",
        "klasyfikacja", "分类", "图像分类", "分類", "画像分類", "クラス分類", "분류"),
        "classification"),
    **dict.fromkeys((
        "segmentierung", "bildsegmentierung", "segmentación", "segmentacion",
        "segmentazione", "segmentação", "segmentacao", "segmentatie", "segmentacja", "分割",
        "图像分割", "语义分割", "医学图像分割", "セグメンテーション", "領域分割", "画像分割",
        "분할"), "segmentation")}
# ... and metrics of neither task: what they are (the tool compares accuracy or mean DSC)
OTHER_METRICS = {
    **dict.fromkeys(("auc", "auroc", "roc auc", "auc roc", "area under the curve",
                     "area under the roc curve"), "the area under the ROC curve"),
    **dict.fromkeys(("auprc", "pr auc", "ap", "average precision", "map",
                     "mean average precision"), "an average precision"),
    **dict.fromkeys(("f1", "f1 score", "f score", "f measure", "macro f1", "micro f1"),
                    "an F1 score"),
    **dict.fromkeys(("iou", "miou", "mean iou", "jaccard", "jaccard index",
                     "intersection over union"), "intersection over union (the Jaccard index)"),
    **dict.fromkeys(("sensitivity", "recall", "tpr", "specificity", "tnr", "precision",
                     "ppv", "npv", "sensitivität", "spezifität", "sensibilidad",
                     "especificidad", "sensibilité", "spécificité"),
                    "the rate of one class"),
    **dict.fromkeys(("kappa", "cohen kappa", "cohens kappa", "mcc"), "an agreement score"),
    **dict.fromkeys(("hd", "hd95", "hausdorff", "hausdorff distance", "assd", "asd", "nsd",
                     "surface dice"), "a boundary distance"),
}


def _metric_key(name) -> str:
    """A metric name as the tables above spell it: NFKC (ligatures of PDF copies), case
    folded, '-', '_' and spaces one space, units and marks (%, arrows, dots) dropped."""
    key = unicodedata.normalize("NFKC", str(name)).casefold()
    key = re.sub(r"[%↑↓.()\[\]]", " ", key.replace("'", ""))
    return re.sub(r"[\s_\-]+", " ", key).strip()


def metric_hint(name, give: str = "--task {}") -> str:
    """The hint for a metric name, or a task's name in another language, given as a task:
    its task (``give`` formats how to name it: ``--task {}`` on the command line,
    ``task={!r}`` in the API), or that it is neither accuracy nor DSC and what the tool
    covers; "" for any other name."""
    key, text = _metric_key(name), str(name).strip()
    if key in TASK_WORDS:
        task = TASK_WORDS[key]
        return f" ({text} names the {task} task: {give.format(task)})"
    if key in METRIC_TASKS:
        task = METRIC_TASKS[key]
        return f" ({text} is a {task} metric: {give.format(task)})"
    if key in OTHER_METRICS:
        return (f" ({text} is {OTHER_METRICS[key]}, neither accuracy nor DSC: falseclaims "
                "covers classification claims compared by accuracy and segmentation claims "
                "compared by mean DSC)")
    return ""


def resolve_task(name) -> str:
    """The task a name or alias means (case and surrounding spaces ignored); a metric name
    is refused naming its task (:func:`metric_hint`)."""
    key = str(name).strip().lower()
    key = TASK_ALIASES.get(key, key)
    if key not in TASKS:
        accepted = ", ".join([*TASKS, *TASK_ALIASES])
        raise ValueError(f"task must be one of {accepted}; got {name!r}"
                         + metric_hint(name, "task={!r}"))
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
