"""Metric names written with a qualifier (``DICE_WM``, ``Dice_ET``, ``mean_dice``,
``acc_val``, ``LV_myo_DICE_ED``): which of them the draft reads as the task's primary
metric, and when it must ask instead of choosing.

The eligibility step keeps a results row only when its metric is one of the spellings of
``analysis.metrics`` (``dsc``, ``dice``, ``accuracy``, ...), so a long table whose metric
cells all carry a qualifier analyses no paper. A qualifier that only says how the value
was taken (``mean``, ``test``, ``score``) names the metric itself. A qualifier naming a
part (a structure, a class, a data set, a time point) is read only when it is the one
spelling of that metric in the column: several (``DICE_WM`` and ``DICE_GM``) are several
candidate headlines, and picking one would pass every check while possibly being wrong,
so the draft asks which one is the papers' headline. A validation or training value
(``acc_val``) is never read as a test-set value."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping

from falseclaims.metrics import metric_task
from falseclaims.sheets.draft.roles import header_metric

__all__ = ["qualified_metric", "metric_cell_rules", "competing_value_columns"]

# words that say how a value was taken, not which part it is of: the metric itself
_NEUTRAL = frozenset({"mean", "avg", "average", "overall", "test", "testing", "score",
                      "coef", "coefficient", "similarity", "index", "total", "global",
                      "value", "val_test", "reported", "result", "results", "pct", "percent"})
# words naming data a test-set value is not from
_NOT_TEST = frozenset({"val", "valid", "validation", "dev", "train", "training", "cv",
                       "internal"})
# words naming a statistic of the value, not a value ('Dice_SD', 'sens_b' / 'sens_t': the
# bounds of a confidence interval)
_STATISTIC = frozenset({"sd", "std", "stdev", "se", "sem", "ci", "lower", "upper", "lo", "hi",
                        "low", "high", "min", "max", "iqr", "var", "lb", "ub", "b", "t", "l",
                        "u", "n"})
# words of our value-column headers, not qualifiers of the metric
_ROLE_WORDS = frozenset({"proposed", "ours", "our", "best", "baseline", "prior", "comparator",
                         "sota", "previous", "performing", "model", "method", "runner", "up",
                         "state", "of", "the", "art", "new", "existing", "competing", "top"})
# the primary metrics (analysis.metrics): the only ones a qualifier can cost a paper
_PRIMARY = {"dsc": "segmentation", "accuracy": "classification"}


MAX_NAME_WORDS = 5  # 'LV myo DICE ED' is a name; 'Dice of the tumour core ...' is prose


def qualified_metric(text: str, spellings: Mapping | None = None
                     ) -> tuple[str, tuple[str, ...]] | None:
    """(metric, qualifier words) of a name holding ONE primary metric word (Dice/DSC or
    accuracy): ``'DICE_WM'`` -> ('dsc', ('wm',)), ``'mean_dice'`` -> ('dsc', ('mean',)),
    ``'Dice'`` -> ('dsc', ()); None for other metrics, no metric, two metric words, a
    list of metrics or a sentence. With ``spellings`` (``analysis.metrics``), a name the
    metric model reads as another metric (balanced or top-5 accuracy, surface Dice:
    :func:`falseclaims.metrics.metric_task`) is None too."""
    if re.search(r"[,;|\n]", str(text)):  # a list of metrics ('MSE, SSIM, LV DICE')
        return None
    words = [w for w in re.split(r"[_\W]+", str(text).lower()) if w]
    if len(words) > MAX_NAME_WORDS:  # a sentence naming Dice, not a metric's name
        return None
    if spellings is not None and metric_task(" ".join(words), spellings) is None:
        return None  # balanced accuracy, surface Dice: other metrics, not parts
    found = [(i, m) for i, w in enumerate(words) if (m := header_metric(w))]
    if len(found) != 1 or found[0][1][0] not in _PRIMARY:
        return None
    (i, (metric, _)), = found
    rest = tuple(w for k, w in enumerate(words) if k != i and w not in _ROLE_WORDS)
    return metric, rest


def _kind(qual: tuple[str, ...]) -> str:
    """'bare' (the metric itself), 'not_test' (a validation/training value), 'statistic'
    (an SD or a bound of it) or 'part'."""
    if any(w in _STATISTIC for w in qual):
        return "statistic"
    if any(w in _NOT_TEST for w in qual):
        return "not_test"
    return "bare" if all(w in _NEUTRAL or w.isdigit() for w in qual) else "part"


def metric_cell_rules(cells: list[tuple], column: str, spellings: Mapping,
                      remarks: list[str], problems: list[str]) -> dict:
    """``values: metric:`` rules ({regex: metric}) for the metric cells of one column,
    given as (paper id or None, cell) pairs.

    Per primary metric: cells naming it bare are read as it (``mean_dice`` -> dsc; a
    spelling of ``spellings``, ``analysis.metrics``, needs no rule); spellings naming a
    part (``DICE_WM``) with no bare spelling beside them are read as the metric when each
    paper names one of them (its headline), and said so; a paper naming several is a
    problem (which is the headline?); a validation value is never read (listed)."""
    aliases = {a.strip().lower() for names in spellings.values() for a in names}
    pairs = [(p, str(c).strip()) for p, c in cells if c is not None and str(c).strip()]
    counts = Counter(t for _, t in pairs)
    by: dict[str, dict[str, list[str]]] = {}
    for text in counts:
        q = qualified_metric(text, spellings)
        if q is not None:
            by.setdefault(q[0], {}).setdefault(_kind(q[1]), []).append(text)
    rules = {}
    for metric, kinds in by.items():
        bare, parts, not_test = (kinds.get(k, []) for k in ("bare", "part", "not_test"))
        for text in not_test:
            remarks.append(f"metric cells {text!r} ({counts[text]} rows) of column {column!r} "
                           f"name a validation or training value: not read as {metric} (a "
                           "test-set value is what the analysis compares)")
        for text in (t for t in bare if t.lower() not in aliases):
            rules[f"(?i)^{re.escape(text)}$"] = metric
            remarks.append(f"metric cells {text!r} ({counts[text]} rows) of column {column!r} "
                           f"read as {metric} (values: metric:)")
        if parts:
            rules.update(_part_rules(metric, parts, bare, pairs, counts, column, remarks,
                                     problems))
    return rules


def _part_rules(metric: str, parts: list[str], bare: list[str], pairs: list[tuple],
                counts: Counter, column: str, remarks: list[str], problems: list[str]
                ) -> dict:
    """Rules for the spellings of ``metric`` that name a part: none beside the bare
    metric; all of them when no paper names two (each paper's one part is its headline);
    else a problem naming a paper with several."""
    parts.sort(key=lambda t: -counts[t])  # the most frequent first (sorted is stable)
    shown = ", ".join(f"{t!r} ({counts[t]} rows)" for t in parts[:6]) + (
        f" and {len(parts) - 6} more" if len(parts) > 6 else "")
    if bare:
        remarks.append(f"metric cells {shown} of column {column!r} name a part: not read as "
                       f"{metric} (the column names {metric} itself: {bare[0]!r})")
        return {}
    named: dict = {}
    for paper, text in pairs:
        if text in parts:
            named.setdefault(paper, set()).add(text)
    several = next(((p, n) for p, n in named.items() if len(n) > 1), None)
    if several is None:
        remarks.append(f"unsure: metric cells {shown} of column {column!r} read as {metric}: "
                       f"each paper names one of them, its headline (values: metric:); if one "
                       "is not, remove its rule")
        return {f"(?i)^{re.escape(t)}$": metric for t in parts}
    paper, texts = several
    who = "a paper" if paper is None else f"paper {paper!r}"
    problems.append(f"column {column!r} names {metric} for several parts: {shown}; {who} "
                    f"names {len(texts)} of them: which is the papers' headline {metric}? read "
                    f"it with values: {{metric: {{'(?i)^{parts[0]}$': {metric}}}}} (the others "
                    "stay unread)")
    return {}


def competing_value_columns(names: list[str], taken: list[str]) -> str | None:
    """One line naming the problem when value columns name the same primary metric for
    different parts (``Dice_WM``, ``Dice_GM``) and one of them (``taken``: the columns the
    draft maps as values) was taken: the draft would choose silently; None otherwise, and
    when a column names the metric itself (``Dice`` beside ``Dice_WM``: the headline)."""
    by: dict[str, list[str]] = {}
    for name in dict.fromkeys(names + taken):
        q = qualified_metric(name)
        if q is not None and _kind(q[1]) in ("bare", "part"):
            by.setdefault(q[0], []).append(name)
    for metric, cols in by.items():
        kinds = [_kind(qualified_metric(c)[1]) for c in cols]
        if "bare" in kinds or len(cols) < 2 or not set(cols) & set(taken):
            continue
        shown = ", ".join(repr(c) for c in cols[:6]) + (
            f" and {len(cols) - 6} more" if len(cols) > 6 else "")
        return (f"value columns {shown} name {metric} for different parts: which is the "
                f"papers' headline {metric}? map that one as the value (and its baseline "
                "twin, if any, to value_best_prior), the others to ignore")
    return None
