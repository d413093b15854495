"""Interpret a :class:`~falseclaims.table.readers.RawTable`: methods as rows, metric columns,
the test-set size, each column's task and units. Every refusal names file, table, row and
column; every choice made from the data (units, skipped rows and columns) is a note.
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
from falseclaims.metrics import (Kind, Spellings, classify, is_distance, is_signed_deviation,
                                 metric_task)

__all__ = ["MetricColumn", "ResultsTable", "UNITS", "interpret_table", "metric_task"]

UNITS = ("auto", "percent", "fraction")
_N_HEADERS = re.compile(r"^(?:n|n_?test|n test|#? ?test(?: set)?(?: size| cases| images)?|"
                        r"test ?size|#? ?cases|n cases|n images|# ?images|n\s*\(test\)|"
                        # a count of the evaluated cases is the test-set size, never a score
                        r"(?:#|n|no\.?|number of)? ?(?:test )?(?:patients|subjects|participants)"
                        r")$")
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


MAX_N = 10**9  # the test-set size bound of every command (cli.conventions.MAX_N)


# a count printed with digit groups: 1,512 / 1 512 (space, no-break or thin space) /
# 1'512 / 1.512; one separator throughout, three digits after each
GROUP_SEPARATORS = ",.'’ \u00a0\u2009\u202f"
_GROUPED = re.compile(r"[1-9]\d{0,2}([" + GROUP_SEPARATORS + r"])\d{3}(?:\1\d{3})*")


def grouped_count(text: str) -> int | None:
    """The count ``text`` prints with digit groups; None when it prints none. ValueError
    when a '.' may as well be a decimal point before a whole number (``2.000``: 2 or
    2000); ``1.512`` is no whole number, so its '.' groups digits."""
    if not (m := _GROUPED.fullmatch(text.strip())):
        return None
    if m[1] == "." and text.count(".") == 1 and float(text) == int(float(text)):
        raise ValueError(f"{text.strip()!r} is {int(float(text))} or "
                         f"{int(text.replace('.', ''))} ('.' a decimal point or a digit "
                         "group): write it without the '.'")
    return int(re.sub(r"\D", "", text))


def cell_size(raw, text, where, h) -> int | None:
    """A printed test-set size (``120``, ``1e4``, ``1,512``, ``1 512``), or None for a
    missing cell."""
    t = clean(str(text)).strip()
    if t.lower() in ("", "-", "--", "n/a", "na", "–"):
        return None
    try:
        v = grouped_count(t)
    except ValueError as exc:
        raise table_error(raw, f"column {h!r}, {where}: test-set size {exc}") from None
    try:
        v = float(t) if v is None else v
    except ValueError:
        raise table_error(raw, f"column {h!r}, {where}: test-set size {text!r} is not a number"
                   ) from None
    if v != v or v != int(v) or v < 2:
        raise table_error(raw, f"column {h!r}, {where}: test-set size {text!r} is not a whole number "
                        ">= 2")
    if v > MAX_N:
        raise table_error(raw, f"column {h!r}, {where}: test-set size {text!r} is above the limit "
                        f"of 10^9")
    return int(v)


def n_group(h: str) -> str | None:
    """``''`` for an n column of the whole table, the group for ``BTCV n``, else None."""
    low = h.strip().lower()
    if _N_HEADERS.match(low):
        return ""
    words = low.split()
    for k in range(1, len(words)):
        if _N_HEADERS.match(" ".join(words[k:])):
            return " ".join(h.split()[:k])
    return None


def _n_columns(raw: RawTable, used: set[int]) -> dict[int, tuple[str, int]]:
    """{column: (group, n)} of the n columns (all rows equal: one test set)."""
    out = {}
    for j, h in enumerate(raw.header):
        group = n_group(h) if j not in used else None
        if group is None or _scores(raw, j):
            continue
        sizes = {v for i, r in enumerate(raw.rows)
                 if (v := cell_size(raw, r[j], raw.where[i], h)) is not None}
        if len(sizes) > 1:
            raise table_error(raw, f"column {h!r}: test-set sizes differ ({sorted(sizes)}); the "
                            "comparison needs one test set shared by all methods")
        if sizes:
            out[j] = (group, sizes.pop())
    return out


def _scores(raw: RawTable, j: int) -> bool:
    """Every filled cell a score, not a count (``79.37\\% $\\pm$ 0.00\\%`` under ``Test``
    beside ``Train``, a split, not the test-set size): the column is no n column."""
    cells = [c for c in column_cells(raw, j) if c.raw.strip()]
    return bool(cells) and all(c.numeric and (c.percent or c.sd is not None or c.decimals)
                               and not _GROUPED.fullmatch(clean(c.raw).strip()) for c in cells)


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


def _group_of(h: str, raw: RawTable, keys) -> str | None:
    """The one ``--n`` key named by the column header, else by the row group or caption. A
    key that another column's header names is that column's: the caption names it for that
    column ("TNBC is patient-macro transfer"), not for its neighbours."""
    def names(k, where):
        return re.search(rf"(?<![A-Za-z0-9]){re.escape(k)}(?![A-Za-z0-9])", where or "", re.I)

    headed = {k for k in keys if k for other in raw.header if other != h and names(k, other)}
    for where in (h, raw.group, raw.caption):
        hit = [k for k in keys if k and names(k, where)
               and (where == h or where == raw.group or k not in headed)]
        if len(hit) > 1:
            raise table_error(raw, f"column {h!r}: names several --n groups ({', '.join(hit)})")
        if hit:
            return hit[0]
    return None


def _n_row(raw: RawTable, method_j: int, notes: list[str]) -> tuple[RawTable, dict]:
    """The table without its n row (``n & 30 & 30 & 100``) and {column: size}."""
    names = method_names(raw, method_j)  # once: per row it made a 3,000-row table quadratic
    for i, r in enumerate(raw.rows):
        if _N_HEADERS.match(names[i].lower()):
            sizes = {j: cell_size(raw, c, raw.where[i], raw.header[j]) for j, c in enumerate(r)
                     if j != method_j}
            notes.append(f"{raw.where[i]}: test-set sizes per column (an n row)")
            return RawTable(raw.source, raw.name, raw.format, raw.header,
                            raw.rows[:i] + raw.rows[i + 1:], raw.where[:i] + raw.where[i + 1:],
                            raw.bold[:i] + raw.bold[i + 1:] if raw.bold else [], raw.notes,
                            raw.caption, raw.group), sizes
    return raw, {}


# a test-set size printed in a column's header: "Internal (n=500)", "External (N = 1,024)"
# a size's digits: 1,024 / 1.024 / 1 024 (space, no-break, thin) / 1'024 / 1024
_GROUPS = (r"[1-9]\d{0,2}(?:,\d{3}){1,3}|[1-9]\d{0,2}(?:\.\d{3}){1,3}|"
           r"[1-9]\d{0,2}(?:[ \u00a0\u2009\u202f]\d{3}){1,3}|[1-9]\d{0,2}(?:['’]\d{3}){1,3}")
_COUNT = _GROUPS + r"|\d{1,10}"
_HEADER_N = re.compile(r"\(\s*[nN]\s*=\s*(" + _COUNT + r")\s*\)")


# "n = 50" in a caption or heading ("(test set, n = 50)", "internal (n=412) and external
# (n=198)"), not a count of repetitions or readers ("n = 5 runs", "n=3 radiologists")
_CAPTION_N = re.compile(r"(?<![A-Za-z])[nN]\s*=\s*(" + _COUNT + ")"
                        r"(?![\d,]|\.\d|[eE]\d|\s*(?:\^|×|\\times|x)\s*\d)"
                        r"(?!\s*-?\s*(?:runs?|seeds?|folds?|repeats?|repetitions?|trials?|"
                        r"epochs?|iterations?|shots?|experiments?|times|readers?|raters?|"
                        r"annotators?|radiologists?|observers?|models?|methods?|classes)\b|"
                        r"\s*-\s*fold)")


# a count of test items: "12 test scans", "test set (120 CT scans)", "the testing set
# includes 20 scans"; never a count without the word test (training sets print them too)
_TEST_ITEMS = (r"(?:scans|images|patients|cases|subjects|volumes|slides|studies|exams|"
               r"samples|eyes|lesions|nodules|videos|recordings|pairs)\b")
_TEST_COUNT = re.compile(
    rf"(?<![\d,.])({_GROUPS}|\d{{1,9}})\s+(?:held-?out\s+|test(?:ing)?\s+)(?:[A-Za-z-]+\s+)?"
    rf"{_TEST_ITEMS}|(?:\btest(?:ing)?\b|\bheld-?out\b)[^.;:()]{{0,30}}?\(?\s*"
    rf"(?<![\d,.])({_GROUPS}|\d{{1,9}})\s+(?:[A-Za-z-]+\s+)?{_TEST_ITEMS}", re.I)


def _caption_n(column: str, caption: str) -> tuple[int | None, str]:
    """The test-set size the caption prints for a column: its one ``n = N``, or, with
    several, the one after a word the column's name holds ("internal (n=412)" for
    "Internal AUC"); without ``n =``, its one count of test items ("12 test scans"); none
    when that is not unique."""
    try:
        hits = [(m.start(), grouped_count(m[1]) or int(m[1]))
                for m in _CAPTION_N.finditer(caption or "")]
        sizes = {v for _, v in hits if 2 <= v <= MAX_N}
        if len(sizes) == 1:
            return sizes.pop(), "printed in the caption"
        counts = {v for m in _TEST_COUNT.finditer(caption or "")
                  if 2 <= (v := grouped_count(m[1] or m[2]) or int(m[1] or m[2])) <= MAX_N}
    except ValueError as exc:
        return None, f"the caption's n = {exc}, or give --n"
    if not hits and len(counts) == 1:
        return counts.pop(), "a count of test items in the caption"
    words = set(re.findall(r"[a-z0-9]+", column.lower()))
    named = {(w, v) for at, v in hits if 2 <= v <= MAX_N
             for w in re.findall(r"[A-Za-z0-9]+", caption[max(0, at - 30):at])[-2:]
             if w.lower() in words and len(w) > 2}
    if len({v for _, v in named}) == 1:
        w, v = named.pop()
        return v, f"printed in the caption beside {w!r}"
    return None, ""


def _column_n(col, raw, given: dict, n_cols: dict, row_n, table, fallback: bool) -> None:
    """A column's n: its ``--n GROUP=N``, its group's n column, the n its header prints, the
    n row, the table's n. ``fallback`` (``--dir``): a bare ``--n`` serves only a column the
    table gives no size (its header, the caption); a given size that replaces one the table
    prints, or is not used beside one, is said in the column's notes."""
    key = _group_of(col.column, raw, [k for k in given if k]) if given else None
    group_cols = [(g, v, j) for j, (g, v) in n_cols.items()
                  if g and g.lower() in col.column.lower()]
    try:
        header_n = {v for m in _HEADER_N.findall(col.column)
                    if 2 <= (v := grouped_count(m) or int(m)) <= MAX_N}
    except ValueError as exc:
        raise table_error(raw, f"column {col.column!r}: the header's n = {exc}") from None
    bare = table[1] == "--n"
    own_first = table[0] is None or (bare and fallback)  # the table's own size decides
    if key is not None:
        col.n, col.n_source, col.group = given[key], f"--n {key}={given[key]}", key
    elif group_cols:
        g, v, j = group_cols[0]
        col.n, col.n_source, col.group = v, f"column {raw.header[j]!r}", g
    elif len(header_n) == 1 and own_first and row_n is None:
        col.n, col.n_source = header_n.pop(), "printed in the column header"
    elif row_n is not None:
        col.n, col.n_source = row_n, "the n row"
    elif table[0] is None and any(given):
        # per-group sizes were given but none for this column: ranked, never given another
        # group's n
        col.n, col.n_source = None, (f"no --n group names this column (groups "
                                     f"{', '.join(k for k in given if k)}; give GROUP=N for "
                                     "it, or a bare N)")
    elif own_first and any(cap := _caption_n(col.column, raw.caption)):
        col.n, col.n_source = cap
    else:
        col.n, col.n_source = table
    if header_n and col.n is not None and col.n not in header_n:
        col.notes.append(f"the header prints n = {', '.join(map(str, sorted(header_n)))}; "
                         f"n = {col.n} ({col.n_source}) used")
    _given_n_note(col, raw, table[0] if bare else None, header_n, fallback)
    col.group = col.group or raw.group


def _given_n_note(col, raw, bare_n: int | None, header_n: set, fallback: bool) -> None:
    """Never silent: a given ``--n`` that replaces the caption's size, or a bare ``--n``
    not used because the table gives this column its own size."""
    if col.n_source.startswith("--n"):
        cap, where = _caption_n(col.column, raw.caption)
        if cap is not None and cap != col.n and not header_n:
            given = col.n_source if "=" in col.n_source else f"--n {col.n}"
            col.notes.append(f"{given} replaces n = {cap} ({where}): the given size decides; "
                             "check which is the test set")
    elif bare_n is not None and col.n is not None and col.n != bare_n:
        col.notes.append(f"--n {bare_n} not used for this column: the table gives n = "
                         f"{col.n} ({col.n_source})" + ("; under --dir a given --n serves only "
                                                        "tables without a size of their own"
                                                        if fallback else ""))


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
    refuse_data_set_labels(raw, method_j)
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
    raw, n_rows = _n_row(raw, method_j, notes)
    if len(raw.rows) < 2:
        raise table_error(raw, f"needs at least 2 method rows; found {len(raw.rows)}"
                        + (f" ({raw.where[0]})" if raw.rows else ""))
    refuse_non_methods(raw, method_j)
    n_cols = _n_columns(raw, {method_j})
    given, table_n, table_src = _table_n(raw, n, n_cols, n_fallback, notes)
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
        _column_n(col, raw, given, n_cols, n_rows.get(j), (table_n, table_src), n_fallback)
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


def _table_n(raw: RawTable, n, n_cols: dict, n_fallback: bool, notes: list[str]):
    """(the sizes given per group, the table's n, where it came from): ``--n`` or the
    table's one n column; a differing pair is an error unless ``n_fallback`` (``--dir``:
    the column's n, and the ``--n`` not used said in ``notes``)."""
    whole = [(j, v) for j, (g, v) in n_cols.items() if g == ""]
    n_col = whole[0][1] if whole else None
    given = n if isinstance(n, dict) else ({"": n} if n is not None else {})
    if "" in given and n_col is not None and given[""] != n_col:
        if not n_fallback:
            raise table_error(raw, f"--n {given['']} differs from the table's column "
                            f"{raw.header[whole[0][0]]!r} ({n_col})")
        notes.append(f"--n {given['']} not used: the table gives n = {n_col} (column "
                     f"{raw.header[whole[0][0]]!r}); "
                     "under --dir a given --n serves only tables without a size of their own")
        given = {k: v for k, v in given.items() if k}  # --dir: --n for tables without one
    table_n = given.get("", n_col)
    table_src = "--n" if "" in given else (f"column {raw.header[whole[0][0]]!r}" if whole
                                           else "")
    return given, table_n, table_src


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
