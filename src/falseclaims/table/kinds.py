"""What each column of a results table measures: the metric its header names (``--metric``
options first), else its arrows, the caption or the row-group heading, else a sibling column
(a summary column such as ``mDice`` beside per-structure columns, the column that is their
row mean, an ``Average`` beside columns of one metric). :mod:`falseclaims.table.model`
reads the values of the columns these kinds are given to.
"""

from __future__ import annotations

import re

from falseclaims.metrics import (Kind, Spellings, caption_clause_kind, classify,
                                 kind_from_option, segmentation_sibling_kind, stated_direction)
from falseclaims.table.cells import Cell, parse_printed_cell, plain_text
from falseclaims.table.readers import RawTable

__all__ = ["average_kind", "column_cells", "column_name", "kind_of", "mean_column",
           "metric_options", "same_scale", "sibling_kind", "summary_column"]


def column_cells(raw: RawTable, j: int) -> list[Cell]:
    return [parse_printed_cell(r[j], bold=bool(raw.bold[i][j]) if raw.bold else False)
            for i, r in enumerate(raw.rows)]


def column_name(h: str) -> str:
    """A header without its direction arrows (the direction is reported on its own)."""
    return " ".join(_ARROWS.sub(" ", h).split())


_ARROWS = re.compile(r"[↑↓⇑⇓]")


def metric_options(metrics, lower_better):
    """--metric COL (pick) or COL=KIND (declare), --lower-better COL -> (picked, kinds)."""
    picked, kinds = [], {}
    for m in metrics or []:
        col, eq, kind = m.rpartition("=") if "=" in m else (m, "", "")
        if eq:
            kinds[col.strip().lower()] = kind_from_option(kind.strip().lower(),
                                                          f"--metric {col.strip()}={kind}")
        picked.append((col if eq else m).strip().lower())
    for col in lower_better or []:
        kinds[col.strip().lower()] = Kind("lower", source="--lower-better")
    return picked, kinds


# the cells of a confusion matrix printed as columns (TP | TN | FP | FN): counts, not scores;
# ranked, the fewest false positives "won" (an FP column without them, false positives per
# scan in a detection table, is a metric)
_CONFUSION = {"tp", "tn", "fp", "fn"}


def _confusion_count(h: str, raw: RawTable) -> bool:
    names = {column_name(x).strip().lower() for x in raw.header}
    return column_name(h).strip().lower() in _CONFUSION and len(names & _CONFUSION) >= 3


# when a result was submitted or published (a leaderboard's Date: 20201008): never a metric,
# even under a caption that names one
_DATE = re.compile(r"(?i)^(?:date|year|month|(?:submission|publication|release) (?:date|year)|"
                   r"submitted|published)$")


def kind_of(h: str, kinds: dict, task: str | None, raw: RawTable, spellings: Spellings,
            context: str) -> Kind:
    """What column ``h`` measures: an option's word, else the name, arrow or ``context``
    (caption, row group); ``--task`` gives a model to a higher-is-better column without one
    (never to a lower-is-better column: HD95 is not a Dice). An option that says otherwise
    than the column's name, and a ``--task`` the name overrules, are said in the source."""
    declared = kinds.get(column_name(h).lower()) or kinds.get(h.lower().strip())
    kind = _declared(h, declared, spellings) if declared else _named(h, raw, spellings, context)
    if kind.ignore:
        return kind
    if task and (not kind.known or (kind.task is None and kind.direction == "higher")):
        return Kind("higher", task, source="--task")
    if task and kind.task and kind.task != task:
        # --task segmentation on a column named Accuracy: the name decides, said
        kind = Kind(kind.direction, kind.task, kind.complement,
                    f"{kind.source}; --task {task} not used for it: the name says "
                    f"{kind.task}", bounded=kind.bounded)
    if kind.direction == "lower" and kind.task and not kind.complement:
        return Kind("lower", source=kind.source)
    return kind


def _named(h: str, raw: RawTable, spellings: Spellings, context: str) -> Kind:
    """What the column's name, arrow, row group, a segmentation sibling or the caption
    says it measures."""
    if _DATE.match(column_name(h).strip()):
        return Kind(ignore="a date (when the result was submitted or published), not a metric")
    if _confusion_count(h, raw):
        return Kind(ignore="a count of the confusion matrix the table prints (TP, TN, FP, FN), "
                           "not a score")
    kind = classify(h, spellings, raw.group, "row-group heading")  # then the caption
    if not kind.known and not kind.ignore:
        kind = segmentation_sibling_kind(column_name(h), [column_name(x) for x in raw.header])
    if not kind.known and not kind.ignore and context:
        kind = classify(h, spellings, context)
    if not kind.known and not kind.ignore and (
            k := caption_clause_kind(h, raw.caption, spellings)):
        kind = Kind(k.direction, k.task, k.complement, "the caption names it for this column",
                    bounded=k.bounded)
    said = stated_direction(h, raw.caption) if "arrow" not in kind.source else None
    if said and not kind.ignore and said != kind.direction:
        kind = Kind(said, source="the caption says so for this column")
    return kind


def _declared(h: str, declared: Kind, spellings: Spellings) -> Kind:
    """A ``--metric COLUMN=KIND`` or ``--lower-better`` choice, followed; when the column's
    own name says another metric or direction (``--metric Accuracy=dice``), the source says
    so."""
    named = classify(h, spellings)
    if not named.known or (named.task, named.direction, named.complement) == (
            declared.task, declared.direction, declared.complement):
        return declared
    what = named.task or "no model"
    return Kind(declared.direction, declared.task, declared.complement,
                f"{declared.source} (the option decides; the column's name says "
                f"{named.direction} is better, {what})", bounded=declared.bounded)


def summary_column(raw: RawTable, spellings: Spellings,
                    method_j: int) -> tuple[int, Kind] | None:
    """The one column whose header names a modelled metric as a summary (``mDice``,
    ``Mean DSC``, ``Avg. Dice``) when no other header names a metric: per-structure columns
    beside it (Liver, Spleen, Fat) measure the same. None otherwise (``DSC`` beside ``HD95``
    does not say what ``Aorta`` holds)."""
    known = [(j, k) for j, h in enumerate(raw.header) if j != method_j
             and (k := classify(h, spellings)).known]
    if len(known) != 1 or not known[0][1].task:
        return None
    j, k = known[0]
    h = column_name(raw.header[j]).strip()
    summary = re.match(r"(?i)(?:m(?=[A-Z]|dice|dsc|iou|acc)|mean\b|avg\.?|average\b|overall\b)",
                       h)
    return (j, k) if summary else None


def mean_column(raw: RawTable, spellings: Spellings,
                 method_j: int) -> tuple[int, Kind, set] | None:
    """The column naming a metric that is, row by row, the mean of the columns naming none
    (``DSC`` beside ``Aorta``, ``Liver``, ``Spleen``: (85 + 90 + 65) / 3 = 80.00): those
    are per-structure values of its metric. Within the rounding of the printed mean in at
    least two thirds of the rows with every value, and at least two such rows."""
    kinds = {j: classify(h, spellings) for j, h in enumerate(raw.header) if j != method_j}
    unknown = [j for j, k in kinds.items() if not k.known and not k.ignore
               and any(c.numeric for c in column_cells(raw, j))]
    if len(unknown) < 2:
        return None
    cols = {j: column_cells(raw, j) for j in [*unknown, *kinds]}
    for j, k in kinds.items():
        if not k.known or not k.direction:
            continue
        rows = [i for i in range(len(raw.rows)) if cols[j][i].numeric
                and all(cols[u][i].numeric for u in unknown)]
        def close(i, j=j):
            target = cols[j][i]
            mean = sum(cols[u][i].value for u in unknown) / len(unknown)
            tol = max(10.0 ** -(target.decimals or 0), 0.005 * abs(target.value))
            return abs(mean - target.value) <= tol
        if len(rows) >= 2 and sum(map(close, rows)) * 3 >= 2 * len(rows):
            return j, k, set(unknown)
    return None


def sibling_kind(kind: Kind, raw: RawTable, j: int, sibling, method_j: int) -> Kind:
    """An unknown column's kind taken from the summary column beside it (on one scale), or
    from the column that is the row mean of it and its neighbours (:func:`mean_column`)."""
    if kind.known or kind.ignore or not sibling:
        return kind
    k = sibling[1]
    if len(sibling) == 3 and j in sibling[2]:
        return Kind(k.direction, k.task, k.complement, f"the column {raw.header[sibling[0]]!r}"
                    " is, row by row, the mean of the per-structure columns beside it",
                    bounded=k.bounded)
    if len(sibling) == 3 or not same_scale(raw, j, sibling[0], method_j):
        return kind
    return Kind(k.direction, k.task, k.complement, f"the column {raw.header[sibling[0]]!r} "
                "names the metric of the per-structure columns beside it", bounded=k.bounded)


_AVERAGE = re.compile(r"(?i)^(?:overall|average|avg\.?|mean)(?:\s+(?:average|avg\.?|mean))?$")


def average_kind(kind: Kind, raw: RawTable, j: int, spellings: Spellings,
                  method_j: int) -> Kind:
    """An unknown column named only as an average (``Overall Average``, ``Avg.``) beside
    columns that all name one modelled metric on its scale (``Emotion Acc``, ``Avg. Age
    Acc``): the average of those, so that metric."""
    if kind.known or kind.ignore or not _AVERAGE.match(plain_text(column_name(raw.header[j]))):
        return kind
    known = [(k, c) for k, h in enumerate(raw.header) if k not in (j, method_j)
             and (c := classify(h, spellings)).known]
    kinds = {(c.direction, c.task) for _, c in known}
    if len(kinds) != 1 or not known[0][1].task or not all(same_scale(raw, j, k, method_j)
                                                          for k, _ in known):
        return kind
    c = known[0][1]
    return Kind(c.direction, c.task, c.complement, "an average of the columns beside it, "
                f"which all name {c.task} metrics", bounded=c.bounded)


def same_scale(raw: RawTable, j: int, k: int, method_j: int) -> bool:
    """Columns ``j`` and ``k`` print values on one scale (both in [0, 1] or both in
    (1, 100]): a per-structure column of the summary's metric, not a count or a distance."""
    def scale(col):
        vals = [c.value for c in column_cells(raw, col) if c.numeric]
        if not vals or min(vals) < 0:
            return None
        return "fraction" if max(vals) <= 1 else ("percent" if max(vals) <= 100 else None)
    a = scale(j)
    return a is not None and a == scale(k)
