"""Interpret a :class:`~falseclaims.table.readers.RawTable`: methods as rows, metric columns,
the test-set size (:mod:`falseclaims.table.sizes`), each column's task and units. Every
refusal names file, table, row and column; every choice made from the data (units, skipped
rows and columns) is a note.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from falseclaims.config import Analysis
from falseclaims.engine import sd_bound_note
from falseclaims.table.cells import (MISSING, Cell, bold_name, carries_mark, clean,
                                     incomparable_marks, plain_text)
from falseclaims.table.kinds import (average_kind, column_cells, column_name, kind_of,
                                     mean_column, metric_options, sibling_kind,
                                     summary_column)
from falseclaims.table.rows import (LONE_MACRO, cell_shapes, composite_names, data_rows,
                                    method_column, method_names,
                                    refuse_data_set_labels, refuse_non_methods,
                                    refuse_rows_not_results, refuse_split_rows, table_error,
                                    units_in_cells)
from falseclaims.table.readers import RawTable, TableReadError
from falseclaims.table.sizes import column_n, n_columns, n_row, table_size
from falseclaims.metrics import (Kind, Spellings, classify, is_distance, is_signed_deviation,
                                 metric_task)

__all__ = ["MetricColumn", "ResultsTable", "UNITS", "interpret_table", "metric_task"]

UNITS = ("auto", "percent", "fraction")
# the "%" of a "95% CI" label in a header is not the unit of the column's values
_CI_PERCENT = re.compile(r"\d+(?:\.\d+)?\s*\\?%\s*(?:bootstrap\s+|boot\.?\s+)?"
                         r"(?:ci|confidence|credible|hdi|interval)", re.I)


# a % after a number names a quantity of the column (``5%`` labelled data, ``target 10%``),
# not the unit of its values; ``Dice (%)``, ``Acc. %`` and ``[%]`` do name the unit
_QUANTITY_PERCENT = re.compile(r"\d\s*\\?%")


def _percent_header(h: str) -> bool:
    """A % sign in the header that marks the values as percent (not ``95% CI``, not the
    ``5%`` of a labelled-data ratio)."""
    return "%" in _QUANTITY_PERCENT.sub(" ", _CI_PERCENT.sub(" ", h))


@dataclass
class MetricColumn:
    column: str
    index: int
    task: str
    task_source: str
    units: str
    units_source: str
    methods: list[str]
    values: list[float]          # fractions
    sds: list[float | None]      # fractions
    decimals: list[int]          # decimals of the value as a fraction
    printed: list[str]
    bold: list[bool]
    underline: list[bool]
    where: list[str]
    notes: list[str] = field(default_factory=list)
    direction: str = "higher"        # "higher" | "lower" is better (of the printed values)
    direction_source: str = ""
    n: int | None = None             # this column's test-set size (a data-set group's n)
    n_source: str = ""
    group: str = ""                  # the data set (a --n key or a row group)
    complement: bool = False         # values are 1 - printed (an error rate as accuracy)
    name_bold: list[bool] = field(default_factory=list)  # the method's name set in bold


@dataclass
class ResultsTable:
    source: str
    name: str
    format: str
    n: int | None
    n_source: str
    metrics: list[MetricColumn]
    notes: list[str] = field(default_factory=list)

    @property
    def label(self) -> str:
        return f"{self.source}, {self.name}"


def _units(raw, h, cells, idx, units, where) -> tuple[str, str]:
    """The column's units, declared or detected; under percent an unmarked value at most 1
    beside values above 1 is refused naming the cell (read as percent it would be a
    hundredth of what a fraction means: ``0.85`` beside ``86`` became 0.0085)."""
    if units == "auto":
        u, source = _detected_units(raw, h, cells, idx, where)
    else:
        u, source = units, f"declared (--units {units})"
    if u == "percent":
        # the authors' % header outranks the flag: "Error rate (%)" may print 0.35 beside 1.2
        _no_fraction_among_percents(raw, h, cells, idx, where,
                                    declared=units == "percent" and not _percent_header(h))
    return u, source


def _mean_percent(cell: Cell) -> bool:
    """A % sign on the value itself: ``85.3%``, ``85.3 ± 2.1%`` (the convention: one % after
    the SD marks both), not ``0.91 ± 5%``, whose value reads as a fraction."""
    if not cell.percent:
        return False
    mean, pm, sd = clean(cell.raw).partition("±")
    return "%" in mean or not pm or cell.value > 1 or cell.sd is None or cell.sd <= 1


def _detected_units(raw, h, cells, idx, where) -> tuple[str, str]:
    vals = [(cells[i].value, where[i]) for i in idx]
    marked = [i for i in idx if cells[i].percent]
    if (marked and not _percent_header(h) and all(abs(v) <= 1 for v, _ in vals)
            and (odd := [i for i in marked if not _mean_percent(cells[i])])):
        # "0.91 ± 5%": a fraction with its SD in percent, or 0.91 % ± 5 %? (read as the
        # latter, every Dice was a hundredth of what it is)
        raise table_error(raw, f"column {h!r}: {cells[odd[0]].raw!r} ({where[odd[0]]}) has its % "
                        "sign after an SD above 1 and every value is at most 1 (a fraction "
                        "with its SD in percent?); write the value and the SD in one unit, or "
                        "give --units percent or --units fraction")
    if marked and not _percent_header(h):
        bare = [i for i in idx if not cells[i].percent and 0 < abs(cells[i].value) <= 1]
        if bare and any(abs(cells[i].value) > 1 for i in marked):
            b = cells[bare[0]]
            raise table_error(raw, f"column {h!r}: {b.raw!r} ({where[bare[0]]}) reads "
                            f"as a fraction but {cells[marked[0]].raw!r} ({where[marked[0]]}) "
                            f"as percent; give --units fraction if {b.value:g} is a fraction "
                            f"(cells with a % sign stay percent), or write '{b.value:g}%'")
    if _percent_header(h) and not marked and vals and all(abs(v) <= 1 for v, _ in vals):
        # "Dice (%)" over 0.85 and 0.87: fractions under a % header, or scores below 1 %?
        raise table_error(raw, f"column {h!r}: the header says % but every value is at most 1 "
                        f"({vals[0][0]:g}, {vals[0][1]}); give --units percent or --units "
                        "fraction")
    if _percent_header(h) or marked:
        return "percent", "detected: a % sign in the header or a cell"
    small = [v for v in vals if 0 < abs(v[0]) <= 1]  # 0 reads the same in both units
    big = [v for v in vals if abs(v[0]) > 1]
    if big and small:
        v = small[0][0]
        raise table_error(raw, f"column {h!r}: {v:g} ({small[0][1]}) reads as a fraction but "
                        f"{big[0][0]:g} ({big[0][1]}) as percent; write {100 * v:g} if {v:g} "
                        f"is a fraction, or '{v:g}%' if it is {v:g} % (a column "
                        "mixing the two is refused under --units percent and --units "
                        "fraction too)")
    if big:
        return "percent", "detected: values above 1"
    return "fraction", "detected: every value in [0, 1]"


def _fraction_like(v: float, big: list[float]) -> bool:
    """Whether ``v`` in (0, 1] times 100 lands among the values above 1 (within half to twice
    their median): the same score printed as a fraction (0.96 beside 95.1), not a small
    percent (0.51 beside the KITTI APs 1.28 .. 5.65)."""
    mid = sorted(big)[len(big) // 2]
    return 0 < abs(v) <= 1 and 0.5 <= abs(v) * 100 / mid <= 2


def _no_fraction_among_percents(raw, h, cells, idx, where, declared: bool) -> None:
    """Percent by ``--units percent`` or a % header: unmarked values at most 1 beside values
    above 1 are fractions or misprints, never read as a hundredth (as survey sheets refuse
    them under ``units: percent``). Under a % header only those that look like the same
    score as a fraction are refused, printed with more decimals than the values above 1 and
    landing among them times 100 (the authors' header may print small percents); under
    ``--units percent`` over a header without % (one flag for every column) every such
    value, and a column of values all at most 1 without a % sign anywhere (fractions)."""
    bare = [i for i in idx if not cells[i].percent and 0 < abs(cells[i].value) <= 1]
    big = [abs(cells[i].value) for i in idx if abs(cells[i].value) > 1]
    why = "--units percent" if declared else "the header says %"
    if bare and big:
        places = max(cells[i].decimals for i in idx if abs(cells[i].value) > 1)
        # under a % header only a value printed with more decimals than the percents
        # (0.85 beside 86) is a fraction: 0.6 beside 89.2 is a method at 0.6 % (IoU)
        odd = bare if declared else [i for i in bare if cells[i].decimals > places
                                     and _fraction_like(cells[i].value, big)]
        if odd:
            c, k = cells[odd[0]], next(i for i in idx if abs(cells[i].value) > 1)
            raise table_error(raw, f"column {h!r}, {where[odd[0]]}: {c.raw!r} is at most 1 beside "
                            f"{cells[k].raw!r} ({where[k]}) in a percent column ({why}): read "
                            f"so it is {c.value:g} % (a fraction of {c.value / 100:g}); write "
                            f"{100 * c.value:g} if it is a fraction, or '{c.value:g}%' if you "
                            f"mean {c.value:g} %")
    elif bare and declared and not any(cells[i].percent for i in idx):
        c = cells[bare[0]]
        raise table_error(raw, f"column {h!r}: --units percent, but every value is at most 1 "
                        f"({c.raw!r}, {where[bare[0]]}) and no header or cell has a % sign: "
                        "fractions? give --units fraction (or leave --units out); if they are "
                        f"percents below 1, write '{c.value:g}%' or put % in the header")


_VALUE_AND_NAME = re.compile(r"^\s*[-+]?\d*\.?\d+\s*%?\s+([A-Za-z][\w@-]*)\s*$")


def _other_metric(text: str, h: str, spellings: Spellings) -> str | None:
    """The metric a cell names beside its number when the header does not name it (``3.7
    MAE`` in an accuracy column: a result in another metric), else None."""
    m = _VALUE_AND_NAME.match(text)
    if not m or m[1].lower() in h.lower() or not classify(m[1], spellings).known:
        return None
    return m[1]


# a cell printed as a bound (<0.001, > 0.99, ≤ 1e-3): no value to rank or test
_BOUND = re.compile(r"^\s*([<>≤≥])\s*=?\s*([-+]?\d[\d.,]*(?:e[-+]?\d+)?\s*%?)\s*$", re.I)


def _values(raw, j, method_j, spellings) -> tuple[list[Cell], list[int], list[str], list[str]]:
    """Cells of column j, the rows with a number, method names, notes; a text cell among
    numbers is refused naming its row (a number in another metric is left out, noted)."""
    h = raw.header[j]
    cells, names = column_cells(raw, j), method_names(raw, method_j)
    idx, notes = [], []
    for i, c in enumerate(cells):
        if c.numeric:
            idx.append(i)
        elif (other := _other_metric(plain_text(c.raw), h, spellings)) is not None:
            notes.append(f"{names[i]}: {plain_text(c.raw)!r} in {h!r} is another metric "
                         f"({other}), not this column's: left out, {raw.where[i]}")
        elif c.raw.strip() and plain_text(c.raw).lower() not in MISSING:
            hint = (" (an undefined macro: give --macros FILE, the file of the paper's source "
                    "that defines it)" if LONE_MACRO.fullmatch(c.raw.strip()) else "")
            if bound := _BOUND.match(plain_text(c.raw)):
                hint = (f" but a bound ({'below' if bound[1] in '<≤' else 'above'} "
                        f"{bound[2]}): a value known only to lie beyond it is not ranked")
            raise table_error(raw, f"column {h!r}, {raw.where[i]} (method {names[i]!r}): "
                            f"{c.raw!r} is not a number{hint}")
    idx = _comparable(raw, h, cells, idx, names, notes)
    missing = [names[i] for i, c in enumerate(cells) if not c.numeric and names[i]]
    if missing:
        notes.append(f"{len(missing)} method(s) without a value in {h!r}: {missing}")
    if len(idx) < 2:
        only = f" ({names[idx[0]]}, {raw.where[idx[0]]})" if idx else ""
        raise table_error(raw, f"column {h!r}: needs at least 2 methods with a value; found "
                        f"{len(idx)}{only}")
    for i in idx:
        if cells[i].ignored:
            notes.append(f"{names[i]}: {cells[i].ignored!r} in {h!r} ignored")
    if any(cells[i].sd_in_parentheses for i in idx):
        notes.append(f"{h!r}: the number in parentheses is read as the SD (mean (SD))")
    return cells, idx, names, notes


def _comparable(raw, h, cells, idx, names, notes) -> list[int]:
    """The rows of ``idx`` whose value carries no mark that a note below the table calls not
    comparable (another protocol: ranked with the others, ``3.57*`` was named the best HD95);
    each one left out is noted."""
    for mark, line in incomparable_marks(raw.notes).items():
        out = [i for i in idx if carries_mark(cells[i].raw, mark)]
        if out:
            notes.append(f"{[names[i] for i in out]}: {[cells[i].raw for i in out]} in {h!r} "
                         f"left out: they carry {mark!r}, which the note below the table "
                         f"({line}) calls not comparable with the others")
            idx = [i for i in idx if i not in out]
    return idx


def _column(raw, j, kind: Kind, method_j, units, spellings, sds_used=True) -> MetricColumn:
    """A column with a probability model: values as fractions (error rates as 1 - value)."""
    h = raw.header[j]
    cells, idx, names, notes = _values(raw, j, method_j, spellings)
    u, u_source = _units(raw, h, cells, idx, units, raw.where)
    # a cell with a % sign is percent whatever the column's units (``0.9%`` under --units
    # fraction was read as 0.9), as survey sheets read it
    scales = {i: 100.0 if u == "percent" or _mean_percent(cells[i]) else 1.0 for i in idx}
    if u == "fraction" and (marked := [i for i in idx if scales[i] == 100]):
        notes.append(f"{len(marked)} cell(s) of {h!r} with a % sign read as percent "
                     f"({u_source} reads the others)")
    bad_sd = set()
    for i in idx:
        scale = scales[i]
        if not 0.0 <= cells[i].value / scale <= 1.0:
            hint = (f"; percent? give --units percent, or write {cells[i].value / 100:g}"
                    if u == "fraction" and 1 < cells[i].value <= 100 else "")
            raise table_error(raw, f"column {h!r}, {raw.where[i]} (method {names[i]!r}): "
                            f"{cells[i].raw!r} is outside [0, {scale:g}] "
                            f"({'percent' if scale == 100 else u}){hint}")
        try:
            _check_sd(raw, h, names[i], cells[i], scale, 100 if cells[i].percent else scale)
        except TableReadError as exc:
            if sds_used:  # the analysis would use it as a per-case SD: refused
                raise
            bad_sd.add(i)  # a misprint (0.79 for 0.079) beside a value still read
            notes.append(f"{str(exc).split(': ', 1)[-1]} (not used: the ± values are not "
                         "taken as per-case SDs here; the mean is read)")
    extra = {i: 2 if scales[i] == 100 else 0 for i in idx}
    values = [round(cells[i].value / scales[i], cells[i].decimals + extra[i]) for i in idx]
    if kind.complement:
        values = [round(1.0 - v, cells[i].decimals + extra[i]) for v, i in zip(values, idx)]
        notes.append(f"{h!r} is an error rate: analysed as accuracy = 1 - error rate")
    return MetricColumn(
        column_name(h), j, kind.task, kind.source.replace("header arrow and ", ""), u,
        u_source, [names[i] for i in idx], values,
        [None if cells[i].sd is None or i in bad_sd else
         round(cells[i].sd / (100 if cells[i].percent else scales[i]), 12) for i in idx],
        [cells[i].decimals + extra[i] for i in idx], [clean(cells[i].raw) for i in idx],
        [cells[i].bold for i in idx], [cells[i].underline for i in idx],
        [raw.where[i] for i in idx], notes,
        # an error rate is analysed as accuracy: its values are now higher-is-better
        "higher" if kind.complement else kind.direction,
        f"{kind.source}: lower error rate is better" if kind.complement else kind.source,
        complement=kind.complement)


def _check_sd(raw, h, name, cell, scale, sd_scale) -> None:
    """A printed SD larger than a score in [0, 1] with that mean can have (Bhatia-Davis
    inequality, the printed values' rounding in the SD's favour): the engine's test, one
    for every command (:func:`falseclaims.engine.sd_bound_note`), on the fractions as
    printed."""
    if cell.sd is None:
        return
    places = {1.0: 0, 100.0: 2}
    note = sd_bound_note(name, cell.value / scale,
                         round(cell.sd / sd_scale, _sd_decimals(cell) + places[sd_scale]),
                         cell.decimals + places[scale])
    if note is not None:
        most = float(re.search(r"at most ([0-9.e+-]+)", note)[1].rstrip("."))
        raise table_error(raw, f"column {h!r} (method {name!r}): ± {cell.sd:g} is impossible for a "
                        f"mean of {cell.value:g} on [0, {scale:g}] (an SD there is at most "
                        f"{most * sd_scale:.3g}); is it a range or a variance?")


def _sd_decimals(cell: Cell) -> int:
    m = re.search(r"±\s*[-+]?\d*\.?(\d*)", clean(cell.raw))
    return len(m[1]) if m else 0


def _mixed_scale_winner_differs(values: list[float], direction: str) -> bool:
    """Whether the values in (0, 1] may be fractions printed beside percents (0.96 x 100
    lands among the others: within half to twice their median) and, read so, change the
    best. 0.51 beside 1.28 .. 5.65 (KITTI APs) are small percents: 51 is no neighbour."""
    big = [abs(v) for v in values if abs(v) > 1]
    scaled = [v * 100 if _fraction_like(v, big) else v for v in values]
    pick = max if direction == "higher" else min
    return pick(range(len(values)), key=values.__getitem__) != pick(
        range(len(values)), key=scaled.__getitem__)


def _in_range(raw, h, cells, idx, names, top: float) -> None:
    """A bounded score (AUC, sensitivity) outside [0, 1] or [0, 100]: a misprint; ranked, the
    impossible value would win."""
    for i in idx:
        if not 0.0 <= cells[i].value <= top:
            raise table_error(raw, f"column {h!r}, {raw.where[i]} (method {names[i]!r}): "
                            f"{cells[i].raw!r} is outside [0, {top:g}]")


def _no_negative_distance(raw, h, cells, idx, names, direction) -> None:
    """A Hausdorff, surface or registration distance is never below 0: a negative one is a
    difference, a misprint or another column's value; ranked, it would win "lower is better"
    silently. A signed distance (mean signed surface distance) is best nearest 0, not
    lowest: not ranked either."""
    distance = is_distance(h)
    if not distance and not (direction == "lower" and is_signed_deviation(h)):
        return
    for i in idx:
        if cells[i].value < 0:
            why = ("but a distance is at least 0 (a difference or a signed distance: best "
                   "nearest 0, not lowest)" if distance else "a signed bias or error is best "
                   "nearest 0, not lowest (give --ignore COLUMN)")
            raise table_error(raw, f"column {h!r}, {raw.where[i]} (method {names[i]!r}): "
                            f"{cells[i].raw!r} is negative, {why}")


def _ranked(raw, j, kind: Kind, method_j, spellings) -> MetricColumn:
    """A column without a probability model: the printed values, ranked by direction."""
    h = raw.header[j]
    cells, idx, names, notes = _values(raw, j, method_j, spellings)
    _no_negative_distance(raw, h, cells, idx, names, kind.direction)
    units, source = "as printed", "no conversion"
    if kind.bounded:  # a score in [0, 1] or [0, 100]: read as accuracy and Dice are
        try:
            units, source = _units(raw, h, cells, idx, "auto", raw.where)
        except TableReadError:
            # 95.1 beside 0.96: a tiny percent, or a fraction? ranked as printed only when
            # both readings crown the same method, else the column is not read
            values = [cells[i].value for i in idx]
            if (_mixed_scale_winner_differs(values, kind.direction)
                    or 2 * sum(abs(v) <= 1 for v in values) > len(values)):
                # most values fractions: the few above 1 are out of range, not percents
                raise
            notes.append("values above 1 and at most 1 in one column: ranked as printed "
                         "(the small ones as small percents)")
        if units in ("percent", "fraction"):
            _in_range(raw, h, cells, idx, names, 100.0 if units == "percent" else 1.0)
    elif is_distance(h) and any(cells[i].percent for i in idx):
        notes.append(f"column {column_name(h)!r}: a % sign in the cells of a distance: not "
                     "read as its unit (ranked as printed)")
    elif _percent_header(h) or any(cells[i].percent for i in idx):
        units, source = "percent", "a % sign in the header or a cell"
    return MetricColumn(
        column_name(h), j, None, "no model for the metric", units, source,
        [names[i] for i in idx], [cells[i].value for i in idx],
        [cells[i].sd for i in idx], [cells[i].decimals for i in idx],
        [clean(cells[i].raw) for i in idx], [cells[i].bold for i in idx],
        [cells[i].underline for i in idx], [raw.where[i] for i in idx], notes,
        kind.direction, kind.source)


def interpret_table(raw: RawTable, cfg: dict, *, n: int | dict | None = None,
                    task: str | None = None, units: str = "auto",
                    metrics: list[str] | None = None, n_fallback: bool = False,
                    lower_better: list[str] | None = None,
                    ignore: list[str] | None = None, sds_used: bool = True) -> ResultsTable:
    """Methods (rows) and metric columns of ``raw``; see the module doc. ``n``: one size,
    or ``{group: size}`` (a key matched in the column header, row group or caption; key
    ``''`` for the rest). ``n_fallback``: ``n`` only for a table without an n column (else a
    differing n column is an error). ``metrics``: ``COLUMN`` picks, ``COLUMN=KIND``
    declares (:data:`falseclaims.metrics.KINDS`); ``ignore``: columns not read.
    ``sds_used``: the ± values will be used as per-case SDs, so an impossible one refuses its
    column (else it is noted and left out, the mean read)."""
    spellings = Analysis.from_config(cfg).eligibility.metrics
    if units not in UNITS:
        raise ValueError(f"--units must be one of {UNITS}; got {units!r}")
    notes = list(raw.notes)
    method_j = method_column(raw)
    refuse_rows_not_results(raw)
    refuse_data_set_labels(raw, method_j)  # literature rows, rows with their own counts too
    raw = cell_shapes(units_in_cells(raw, method_j, notes), method_j, notes)
    raw = data_rows(composite_names(raw, method_j, notes), method_j, notes)
    if not any(c.numeric for j in range(len(raw.header)) if j != method_j
               for c in column_cells(raw, j)):
        macros = [c.raw for j in range(len(raw.header)) if j != method_j
                  for c in column_cells(raw, j) if LONE_MACRO.fullmatch(c.raw.strip())]
        hint = (f" (cells such as {macros[0]!r} are macros defined elsewhere: give --macros "
                "FILE, the file of the paper's source that defines them)" if macros else "")
        raise table_error(raw, f"no numeric column (no number outside the method column "
                        f"{raw.header[method_j]!r}); columns are {raw.header}{hint}")
    refuse_split_rows(raw, method_j)
    raw, n_rows = n_row(raw, method_j, notes)
    if len(raw.rows) < 2:
        raise table_error(raw, f"needs at least 2 method rows; found {len(raw.rows)}"
                        + (f" ({raw.where[0]})" if raw.rows else ""))
    refuse_non_methods(raw, method_j)
    n_cols = n_columns(raw, {method_j})
    given, table_n, table_src = table_size(raw, n, n_cols, n_fallback, notes)
    picked, kinds = metric_options(metrics, lower_better)
    dropped = {c.strip().lower() for c in ignore or []}
    cols, skipped, ignored, unread = [], [], [], []
    # the caption's metric is not given to unnamed columns when a header already names it:
    # "ACC" beside "BWT" says the caption's "accuracy" is ACC's, not BWT's
    named = {(k.direction, k.task) for j, h in enumerate(raw.header)
             if j != method_j and (k := classify(h, spellings)).known}
    cap = classify("", spellings, raw.caption) if raw.caption else Kind()
    own = cap.known and (cap.direction, cap.task) in named
    context = "" if own else raw.caption
    sibling = summary_column(raw, spellings, method_j) or mean_column(raw, spellings, method_j)
    for j, h in enumerate(raw.header):
        if j == method_j or j in n_cols or not any(c.numeric for c in column_cells(raw, j)):
            continue
        low = column_name(h).lower()
        if low in dropped or h.lower().strip() in dropped:
            ignored.append(f"{h!r} (--ignore)")
            continue
        if picked and low not in picked and h.lower().strip() not in picked:
            continue
        kind = sibling_kind(kind_of(h, kinds, task, raw, spellings, context), raw, j, sibling,
                             method_j)
        kind = average_kind(kind, raw, j, spellings, method_j)
        if kind.ignore:
            ignored.append(f"{h!r} ({kind.ignore})")
            continue
        if not kind.known:
            skipped.append(h or f"column {j + 1}")
            continue
        try:
            col = _read_column(raw, j, kind, method_j, units, spellings, sds_used)
        except TableReadError as exc:  # one bad column does not hide the others
            unread.append(exc)
            continue
        column_n(col, raw, given, n_cols, n_rows.get(j), (table_n, table_src), n_fallback)
        cols.append(col)
    heads = {column_name(h).lower() for h in raw.header} | {h.lower() for h in raw.header}
    absent = sorted(set(picked) - heads)
    if absent:
        raise table_error(raw, f"--metric {absent}: no such column; columns are {raw.header}")
    cols = _distinct_names(_caption_against_bold(raw, cols, unread), notes)
    notes += _unread_notes(raw, method_j, n_cols, cols, ignored, skipped, unread)
    return ResultsTable(raw.source, raw.name, raw.format, table_n, table_src, cols, notes)


def _distinct_names(cols: list, notes: list[str]) -> list:
    """Columns printed under one name (``Dice | Dice``) told apart by their position, noted:
    two results named alike in the output and the CSV could not be traced to their cells."""
    count = Counter(c.column for c in cols)
    for c in cols:
        if count[c.column] > 1:
            new = f"{c.column} (column {c.index + 1})"
            notes.append(f"{count[c.column]} columns are named {c.column!r}: this one is "
                         f"reported as {new!r}")
            c.column = new
    return cols


def _caption_against_bold(raw: RawTable, cols: list, unread: list) -> list:
    """Columns whose direction only the caption's metric word gives ("val-loss protocol" ->
    lower) are all refused when the authors' bold sits on the other extreme in every such
    column that has one (two or more): the word names something else, and the ranking
    would invert."""
    by_caption = [c for c in cols if "caption" in c.direction_source
                  and 0 < sum(map(bool, c.bold)) < len(c.values)]

    def against(c) -> bool:
        low, high = min(c.values), max(c.values)
        worst = low if c.direction == "higher" else high
        return low != high and all(v == worst for v, b in zip(c.values, c.bold) if b)

    if len(by_caption) < 2 or not all(against(c) for c in by_caption):
        return cols
    # the caption's word is discredited for the whole table, unbolded columns too
    by_caption = [c for c in cols if "caption" in c.direction_source]
    for c in by_caption:
        unread.append(table_error(raw, f"column {c.column!r}: the {c.direction_source} says "
                                  f"{c.direction} is better, but the bold mark is on the "
                                  f"{'lowest' if c.direction == 'higher' else 'highest'} "
                                  "value in every column it marks: direction unclear; give "
                                  "--metric COLUMN=KIND"))
    return [c for c in cols if c not in by_caption]


def _read_column(raw, j, kind: Kind, method_j, units, spellings, sds_used) -> MetricColumn:
    col = (_column(raw, j, kind, method_j, units, spellings, sds_used) if kind.task
           else _ranked(raw, j, kind, method_j, spellings))
    rows = {w: i for i, w in enumerate(raw.where)}
    col.name_bold = [bold_name(raw, rows[w], method_j) for w in col.where]
    if len(col.values) > 1 and len(set(col.values)) == 1:
        # one value for every method: no winner to name (the first row is none)
        raise table_error(raw, f"column {raw.header[j]!r}: every method has the same value "
                        f"{col.printed[0]}: no winner")
    return col


_UNIT_COUNT = re.compile(r"\d+(?:\.\d+)?\s*[KMGTB]")


def _suffixed_counts(raw: RawTable, j: int) -> bool:
    """Every filled cell a number with a unit suffix (``107G`` FLOPs, ``114M`` parameters)."""
    cells = [plain_text(str(r[j])).strip() for r in raw.rows]
    cells = [c for c in cells if c and c not in ("-", "--", "–", "—")]
    return bool(cells) and all(_UNIT_COUNT.fullmatch(c) for c in cells)


def _unread_notes(raw: RawTable, method_j: int, n_cols: dict, cols: list, ignored: list,
                  skipped: list, unread: list) -> list[str]:
    """The notes naming every column not read and why; a table where nothing was read is
    refused with the first reason instead."""
    notes = []
    words = [(h or f"column {j + 1}", j) for j, h in enumerate(raw.header)
             if j != method_j and j not in n_cols and not any(c.numeric for c in column_cells(raw, j))
             and any(str(r[j]).strip() for r in raw.rows)]
    suffixed = [w for w, j in words if _suffixed_counts(raw, j)]
    plain = [w for w, j in words if w not in suffixed]
    if suffixed:
        ignored = [*ignored, ", ".join(repr(w) for w in suffixed) + " (counts with a unit "
                   "suffix such as '107G', '114M': parameters or FLOPs, not a metric)"]
    if plain:
        ignored = [*ignored, ", ".join(repr(w) for w in plain) + " (no number in the column)"]
    if ignored:
        notes.append("column(s) not read as metrics: " + ", ".join(ignored))
    if skipped:
        names = ", ".join(repr(s) for s in skipped)
        hint = ("give --metric COLUMN=KIND (KIND: dice, accuracy, error-rate, higher, "
                "lower), --lower-better COLUMN, --task classification|segmentation or "
                "--ignore COLUMN")
        if not cols:
            raise table_error(raw, f"unknown metric in column(s) {names}: neither the name, an arrow "
                            f"nor the caption says what it measures; {hint}")
        notes.append(f"column(s) {names} not read: unknown metric ({hint})")
    if unread and not cols:
        raise unread[0]
    prefix = f"{raw.source}, {raw.name}: "
    notes += [f"not read: {str(e).removeprefix(prefix)}" for e in unread]
    if not cols:
        raise table_error(raw, f"no numeric metric column; columns are {raw.header}")
    return notes
