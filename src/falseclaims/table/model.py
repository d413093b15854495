"""Interpret a :class:`~falseclaims.table.readers.RawTable`: methods as rows, metric columns,
the test-set size, each column's task and units. Every refusal names file, table, row and
column; every choice made from the data (units, skipped rows and columns) is a note.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from falseclaims.config import Analysis
from falseclaims.table.cells import MISSING, Cell, clean, parse_printed_cell, plain_text
from falseclaims.table.kinds import (average_kind, column_cells, column_name, kind_of,
                                     mean_column, metric_options, sibling_kind,
                                     summary_column)
from falseclaims.table.readers import ROWS_HEADER, VALUE_LIST, RawTable, TableReadError
from falseclaims.metrics import (Kind, Spellings, classify, is_distance,
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


def _err(raw: RawTable, text: str) -> TableReadError:
    return TableReadError(f"{raw.source}, {raw.name}: {text}")


def method_column(raw: RawTable) -> int:
    """The column of names: among the leading text columns the one with the most distinct
    names (``Op`` × / + beside ``Model`` names the group, not the method)."""
    text = text_columns(raw)
    if not text:
        raise _err(raw, f"no method column (a column of names); columns are {raw.header}")
    names = {j: {plain_text(str(r[j])) for r in raw.rows} - {""} for j in text}
    filled = {j: sum(bool(plain_text(str(r[j]))) for r in raw.rows) for j in text}
    return max(text, key=lambda j: (len(names[j]), filled[j], -j))


def _composite_names(raw: RawTable, method_j: int, notes: list[str]) -> RawTable:
    """Methods named by several label columns (Teacher, Student, Method) whose blanks
    continue the row above: when the method column alone repeats names, the method is
    the labels joined (``R101 / R50 / SimKD``)."""
    labels = [j for j in text_columns(raw) if j != method_j]
    names = [plain_text(str(r[method_j])) for r in raw.rows]
    if not labels or len(set(names)) == len(names):
        return raw
    rows, last = [], {j: "" for j in labels}
    for r in raw.rows:
        r = list(r)
        parts = {method_j: plain_text(str(r[method_j]))}
        for j in labels:
            last[j] = plain_text(str(r[j])) or last[j]
            if last[j] and last[j].lower() not in MISSING:
                parts[j] = last[j]
        r[method_j] = " / ".join(parts[j] for j in sorted(parts))  # in reading order
        rows.append(r)
    notes.append(f"methods named by the columns {[raw.header[j] for j in labels]} and "
                 f"{raw.header[method_j]!r} together (a blank continues the row above)")
    return RawTable(raw.source, raw.name, raw.format, raw.header, rows, raw.where, raw.bold,
                    raw.notes, raw.caption, raw.group)


MAX_N = 10**9  # the test-set size bound of every command (cli.conventions.MAX_N)


def cell_size(raw, text, where, h) -> int | None:
    """A printed test-set size (``120``, ``1e4``), or None for a missing cell."""
    t = clean(str(text)).replace(",", "").strip()
    if t.lower() in ("", "-", "--", "n/a", "na", "–"):
        return None
    try:
        v = float(t)
    except ValueError:
        raise _err(raw, f"column {h!r}, {where}: test-set size {text!r} is not a number"
                   ) from None
    if v != v or v != int(v) or v < 2:
        raise _err(raw, f"column {h!r}, {where}: test-set size {text!r} is not a whole number "
                        ">= 2")
    if v > MAX_N:
        raise _err(raw, f"column {h!r}, {where}: test-set size {text!r} is above the limit "
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
            raise _err(raw, f"column {h!r}: test-set sizes differ ({sorted(sizes)}); the "
                            "comparison needs one test set shared by all methods")
        if sizes:
            out[j] = (group, sizes.pop())
    return out


def _scores(raw: RawTable, j: int) -> bool:
    """Every filled cell a score, not a count (``79.37\\% $\\pm$ 0.00\\%`` under ``Test``
    beside ``Train``, a split, not the test-set size): the column is no n column."""
    cells = [c for c in column_cells(raw, j) if c.raw.strip()]
    return bool(cells) and all(c.numeric and (c.percent or c.sd is not None or c.decimals)
                               for c in cells)


def _units(raw, h, cells, idx, units, where) -> tuple[str, str]:
    vals = [(cells[i].value, where[i]) for i in idx]
    if units != "auto":
        return units, f"declared (--units {units})"
    marked = [i for i in idx if cells[i].percent]
    if marked and not _percent_header(h):
        bare = [i for i in idx if not cells[i].percent and abs(cells[i].value) <= 1]
        if bare and any(abs(cells[i].value) > 1 for i in marked):
            raise _err(raw, f"column {h!r}: {cells[bare[0]].raw!r} ({where[bare[0]]}) reads "
                            f"as a fraction but {cells[marked[0]].raw!r} ({where[marked[0]]}) "
                            "as percent; give --units percent or --units fraction")
    if _percent_header(h) and not marked and vals and all(abs(v) <= 1 for v, _ in vals):
        # "Dice (%)" over 0.85 and 0.87: fractions under a % header, or scores below 1 %?
        raise _err(raw, f"column {h!r}: the header says % but every value is at most 1 "
                        f"({vals[0][0]:g}, {vals[0][1]}); give --units percent or --units "
                        "fraction")
    if _percent_header(h) or marked:
        return "percent", "detected: a % sign in the header or a cell"
    small = [v for v in vals if 0 < abs(v[0]) <= 1]  # 0 reads the same in both units
    big = [v for v in vals if abs(v[0]) > 1]
    if big and small:
        raise _err(raw, f"column {h!r}: {small[0][0]:g} ({small[0][1]}) reads as a fraction but "
                        f"{big[0][0]:g} ({big[0][1]}) as percent; give --units percent or "
                        "--units fraction")
    if big:
        return "percent", "detected: values above 1"
    return "fraction", "detected: every value in [0, 1]"


def _names(raw, method_j) -> list[str]:
    """The method names; a name that only a footnote mark tells apart from another row's
    (``MedSliM`` and ``MedSliM†``, a variant the footnote explains) keeps its mark."""
    cells = [r[method_j] for r in raw.rows]
    plain = [plain_text(c) if isinstance(c, str) else str(c) for c in cells]
    marked = [plain_text(c, marks=True) if isinstance(c, str) else str(c) for c in cells]
    n_plain, n_marked = Counter(plain), Counter(marked)
    return [m if n_plain[p] > 1 and m != p and n_marked[m] == 1 else p
            for p, m in zip(plain, marked)]


_VALUE_AND_NAME = re.compile(r"^\s*[-+]?\d*\.?\d+\s*%?\s+([A-Za-z][\w@-]*)\s*$")


def _other_metric(text: str, h: str, spellings: Spellings) -> str | None:
    """The metric a cell names beside its number when the header does not name it (``3.7
    MAE`` in an accuracy column: a result in another metric), else None."""
    m = _VALUE_AND_NAME.match(text)
    if not m or m[1].lower() in h.lower() or not classify(m[1], spellings).known:
        return None
    return m[1]


def _values(raw, j, method_j, spellings) -> tuple[list[Cell], list[int], list[str], list[str]]:
    """Cells of column j, the rows with a number, method names, notes; a text cell among
    numbers is refused naming its row (a number in another metric is left out, noted)."""
    h = raw.header[j]
    cells, names = column_cells(raw, j), _names(raw, method_j)
    idx, notes = [], []
    for i, c in enumerate(cells):
        if c.numeric:
            idx.append(i)
        elif (other := _other_metric(plain_text(c.raw), h, spellings)) is not None:
            notes.append(f"{names[i]}: {plain_text(c.raw)!r} in {h!r} is another metric "
                         f"({other}), not this column's: left out, {raw.where[i]}")
        elif c.raw.strip() and plain_text(c.raw).lower() not in MISSING:
            hint = (" (an undefined macro: give --macros FILE, the file of the paper's source "
                    "that defines it)" if _LONE_MACRO.fullmatch(c.raw.strip()) else "")
            raise _err(raw, f"column {h!r}, {raw.where[i]} (method {names[i]!r}): "
                            f"{c.raw!r} is not a number{hint}")
    missing = [names[i] for i, c in enumerate(cells) if not c.numeric and names[i]]
    if missing:
        notes.append(f"{len(missing)} method(s) without a value in {h!r}: {missing}")
    if len(idx) < 2:
        only = f" ({names[idx[0]]}, {raw.where[idx[0]]})" if idx else ""
        raise _err(raw, f"column {h!r}: needs at least 2 methods with a value; found "
                        f"{len(idx)}{only}")
    for i in idx:
        if cells[i].ignored:
            notes.append(f"{names[i]}: {cells[i].ignored!r} in {h!r} ignored")
    if any(cells[i].sd_in_parentheses for i in idx):
        notes.append(f"{h!r}: the number in parentheses is read as the SD (mean (SD))")
    return cells, idx, names, notes


def _column(raw, j, kind: Kind, method_j, units, spellings, sds_used=True) -> MetricColumn:
    """A column with a probability model: values as fractions (error rates as 1 - value)."""
    h = raw.header[j]
    cells, idx, names, notes = _values(raw, j, method_j, spellings)
    u, u_source = _units(raw, h, cells, idx, units, raw.where)
    scale = 100.0 if u == "percent" else 1.0
    bad_sd = set()
    for i in idx:
        v = cells[i].value / scale
        if not 0.0 <= v <= 1.0:
            raise _err(raw, f"column {h!r}, {raw.where[i]} (method {names[i]!r}): "
                            f"{cells[i].raw!r} is outside [0, {scale:g}] ({u})")
        try:
            _check_sd(raw, h, names[i], cells[i], scale)
        except TableReadError as exc:
            if sds_used:  # the analysis would use it as a per-case SD: refused
                raise
            bad_sd.add(i)  # a misprint (0.79 for 0.079) beside a value still read
            notes.append(f"{str(exc).split(': ', 1)[-1]} (not used: the ± values are not "
                         "taken as per-case SDs here; the mean is read)")
    extra = 2 if u == "percent" else 0
    values = [round(cells[i].value / scale, cells[i].decimals + extra) for i in idx]
    if kind.complement:
        values = [round(1.0 - v, cells[i].decimals + extra) for v, i in zip(values, idx)]
        notes.append(f"{h!r} is an error rate: analysed as accuracy = 1 - error rate")
    return MetricColumn(
        column_name(h), j, kind.task, kind.source.replace("header arrow and ", ""), u,
        u_source, [names[i] for i in idx], values,
        [None if cells[i].sd is None or i in bad_sd else round(cells[i].sd / scale, 12)
         for i in idx],
        [cells[i].decimals + extra for i in idx], [clean(cells[i].raw) for i in idx],
        [cells[i].bold for i in idx], [cells[i].underline for i in idx],
        [raw.where[i] for i in idx], notes,
        # an error rate is analysed as accuracy: its values are now higher-is-better
        "higher" if kind.complement else kind.direction,
        f"{kind.source}: lower error rate is better" if kind.complement else kind.source,
        complement=kind.complement)


def _check_sd(raw, h, name, cell, scale) -> None:
    """A printed SD larger than a score in [0, 1] can have: by the Bhatia-Davis inequality
    the variance of a variable in [0, 1] with mean m is at most m (1 - m) [BhatiaDavis2000]
    (checked with the printed values' rounding in the SD's favour)."""
    if cell.sd is None:
        return
    half = 0.5 * 10.0 ** (-cell.decimals) / scale
    m, sd = cell.value / scale, cell.sd / scale
    worst = max(min(m + half, 1.0) * (1 - min(m + half, 1.0)),
                max(m - half, 0.0) * (1 - max(m - half, 0.0)),
                0.25 if m - half <= 0.5 <= m + half else 0.0)
    limit = worst ** 0.5 + 0.5 * 10.0 ** (-_sd_decimals(cell)) / scale
    if sd > limit + 1e-12:
        raise _err(raw, f"column {h!r} (method {name!r}): ± {cell.sd:g} is impossible for a "
                        f"mean of {cell.value:g} on [0, {scale:g}] (an SD there is at most "
                        f"{worst ** 0.5 * scale:.3g}); is it a range or a variance?")


def _sd_decimals(cell: Cell) -> int:
    m = re.search(r"±\s*[-+]?\d*\.?(\d*)", clean(cell.raw))
    return len(m[1]) if m else 0


def _mixed_scale_winner_differs(values: list[float], direction: str) -> bool:
    """Whether the values in (0, 1] may be fractions printed beside percents (0.96 x 100
    lands among the others: within half to twice their median) and, read so, change the
    best. 0.51 beside 1.28 .. 5.65 (KITTI APs) are small percents: 51 is no neighbour."""
    big = sorted(abs(v) for v in values if abs(v) > 1)
    mid = big[len(big) // 2]
    scaled = [v * 100 if 0 < abs(v) <= 1 and 0.5 <= abs(v) * 100 / mid <= 2 else v
              for v in values]
    pick = max if direction == "higher" else min
    return pick(range(len(values)), key=values.__getitem__) != pick(
        range(len(values)), key=scaled.__getitem__)


def _in_range(raw, h, cells, idx, names, top: float) -> None:
    """A bounded score (AUC, sensitivity) outside [0, 1] or [0, 100]: a misprint; ranked, the
    impossible value would win."""
    for i in idx:
        if not 0.0 <= cells[i].value <= top:
            raise _err(raw, f"column {h!r}, {raw.where[i]} (method {names[i]!r}): "
                            f"{cells[i].raw!r} is outside [0, {top:g}]")


def _no_negative_distance(raw, h, cells, idx, names) -> None:
    """A Hausdorff, surface or registration distance is never below 0: a negative one is a
    difference, a misprint or another column's value; ranked, it would win "lower is better"
    silently. A signed distance (mean signed surface distance) is best nearest 0, not
    lowest: not ranked either."""
    if not is_distance(h):
        return
    for i in idx:
        if cells[i].value < 0:
            raise _err(raw, f"column {h!r}, {raw.where[i]} (method {names[i]!r}): "
                            f"{cells[i].raw!r} is negative, but a distance is at least 0 "
                            "(a difference or a signed distance: best nearest 0, not lowest)")


def _ranked(raw, j, kind: Kind, method_j, spellings) -> MetricColumn:
    """A column without a probability model: the printed values, ranked by direction."""
    h = raw.header[j]
    cells, idx, names, notes = _values(raw, j, method_j, spellings)
    _no_negative_distance(raw, h, cells, idx, names)
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


def _modifier_names(raw: RawTable, method_j: int, notes: list[str]) -> RawTable:
    """A row named only by a modifier that repeats under several rows (``+BED-Loss`` below
    each baseline) is the method above it with that modifier: ``TransUNet +BED-Loss``."""
    names = [plain_text(str(r[method_j])) for r in raw.rows]
    repeated = {n for n in names if n.startswith("+") and names.count(n) > 1}
    if not repeated:
        return raw
    rows, base = [], ""
    for r, name in zip(raw.rows, names):
        if name in repeated and base:
            r = [*r[:method_j], f"{base} {name}", *r[method_j + 1:]]
        elif name and not name.startswith("+"):
            base = name
        rows.append(r)
    notes.append(f"rows named only {sorted(repeated)} are the method above each, with it")
    return RawTable(raw.source, raw.name, raw.format, raw.header, rows, raw.where, raw.bold,
                    raw.notes, raw.caption, raw.group)


def _data_rows(raw: RawTable, method_j: int, notes: list[str]) -> RawTable:
    """Drop section rows (no number) and name duplicate methods apart."""
    raw = _modifier_names(raw, method_j, notes)
    names = _names(raw, method_j)
    keep, rows, seen = [], [], {}
    for i, r in enumerate(raw.rows):
        if is_section_row(r, method_j):
            label = " ".join(dict.fromkeys(plain_text(str(c)) for c in r if plain_text(str(c))))
            label = label[:40]
            notes.append(f"{raw.where[i]} has no number: skipped as a section row ({label!r})")
            continue
        name = names[i]
        if is_note_row(r, method_j):
            notes.append(f"{raw.where[i]}: row {name!r} holds one text across the value "
                         "columns, no number (a note, e.g. a test statistic): skipped")
            continue
        if _NON_METHOD_ROW.match(name):
            notes.append(f"{raw.where[i]}: row {name!r} is no method (a difference, a "
                         "statistic over the rows or a p-value): skipped")
            continue
        if not name and not any(parse_printed_cell(c).numeric for c in r):
            notes.append(f"{raw.where[i]} has no method name and no number: skipped")
            continue
        if not name:
            raise _err(raw, f"{raw.where[i]}: no method name in column "
                            f"{raw.header[method_j]!r}")
        seen[name] = seen.get(name, 0) + 1
        if seen[name] > 1:
            r = list(r)
            r[method_j] = f"{name} ({seen[name]})"
            notes.append(f"{raw.where[i]}: method {name!r} appears again; named "
                         f"{name + ' (' + str(seen[name]) + ')'!r}")
        keep.append(i)
        rows.append(r)
    return RawTable(raw.source, raw.name, raw.format, raw.header, rows,
                    [raw.where[i] for i in keep], [raw.bold[i] for i in keep] if raw.bold
                    else [], raw.notes, raw.caption, raw.group)


_LONE_MACRO = re.compile(r"\\[A-Za-z]+\s*(?:\{\})?")
# a row below the methods that is none: Improvement / Δ (vs. ...), Mean / Std over the rows,
# a p-value; ranked, a negative difference "wins" a lower-is-better column
_NON_METHOD_ROW = re.compile(
    r"(?i)^(?:(?:Δ|delta|gain|improvement|difference|diff\.?)(?:\s*(?:\(.*|(?:over|vs\.?|"
    r"w\.?r\.?t\.?|relative to|compared to)\b.*))?|std\.?|sd|s\.d\.|stdev|std\.? ?dev\.?|"
    r"standard deviation|variance|mean|average|avg\.?|median|p|p-?values?|p ?\(.*\))$")
# a row named only by a number, fraction or percentage (1/16, 10%, 0.5): a setting
_SETTING_NAME = re.compile(r"\s*[-+]?\d[\d.,]*\s*(?:/\s*\d[\d.,]*)?\s*%?\s*")
# a row named by a repetition and its number (Fold0, Fold 1, Run 2, Seed 3, Case 12): the
# folds of one cross-validation or the cases of one test set, not methods
_REPEAT_NAME = re.compile(r"(?i)\s*(?:fold|run|seed|split|trial|repeat|repetition|iteration|"
                          r"case|patient|subject|scan|volume|image|sample)s?\s*[-_#]?\s*"
                          r"\d+\s*")
_SD_CELL = re.compile(r"^(?:±\s*(?P<a>[-+]?\d*\.?\d+)\s*%?|\(\s*(?P<b>\d*\.?\d+)\s*%?\s*\))$")
_V = r"[-+]?\d*\.?\d+%?(?:\s*±\s*\d*\.?\d+%?)?"
_PAIR = re.compile(rf"^\s*({_V})\s*[/|]\s*({_V})\s*$")
_ALTERNATIVES = re.compile(r"([^\s/()|]+)\s*[/|]\s*([^\s/()|]+)")


# lengths, pixels, times; metres and degrees (trajectory and angle errors: 0.064 m, 0.095 °/m)
_UNITS_IN_CELLS = r"mm|cm|µm|μm|px|ms|s|m|°/m|°"
_UNIT_CELL = re.compile(rf"^[-+]?\d*\.?\d+%?(?:\s*±\s*\d*\.?\d+%?)?\s*({_UNITS_IN_CELLS})$")


def _units_in_cells(raw: RawTable, method_j: int, notes: list[str]) -> RawTable:
    """A unit printed in every filled cell of a column (``6.4\\,mm`` under ``HD95``): the
    numbers are read and the unit joins the header (``HD95 (mm)``), noted. Cells with
    different units, or a unit in some cells only, stay as printed (refused, naming one)."""
    rows, header = [list(r) for r in raw.rows], list(raw.header)
    for j in range(len(header)):
        texts = [clean(str(r[j])) for r in rows]
        given = [t for t in texts if t and plain_text(t).lower() not in MISSING]
        units = {m[1] if (m := _UNIT_CELL.match(t)) else None for t in given}
        if j == method_j or not given or len(units) != 1 or None in units:
            continue
        unit = units.pop()
        tail = re.compile(rf"(?:\\[,;:! ]|~|\s|\$)*(?:\\(?:text|mathrm)\s*\{{)?{unit}\}}?"
                          r"[\s$]*$")
        cut = [tail.sub("", str(r[j])) if t else str(r[j]) for r, t in zip(rows, texts)]
        if not all(parse_printed_cell(c).numeric for c, t in zip(cut, texts) if t in given):
            continue
        for r, c in zip(rows, cut):
            r[j] = c
        if unit not in header[j]:
            header[j] = f"{header[j]} ({unit})"
        notes.append(f"{raw.header[j]!r}: the unit {unit!r} printed in every cell, read as "
                     f"the column's unit ({header[j]!r})")
    return RawTable(raw.source, raw.name, raw.format, header, rows, raw.where, raw.bold,
                    raw.notes, raw.caption, raw.group)


def _cell_shapes(raw: RawTable, method_j: int, notes: list[str]) -> RawTable:
    """Cells as some papers print them: the SD in a cell of its own (``0.91 & $\\pm$
    0.03``) is joined to the value on its left; two values in one cell (``0.91/12.3`` under
    ``Dice/HD95``) become two columns; other two-value cells are refused, naming the cell."""
    rows = [list(r) for r in raw.rows]
    header = list(raw.header)
    bold = [list(b) for b in raw.bold] if raw.bold else []
    for j in range(len(header) - 1, 0, -1):
        if j == method_j:
            continue
        texts = [clean(str(r[j])) for r in rows]
        filled = [t for t in texts if t]
        if filled and all(_SD_CELL.match(t) for t in filled) and j - 1 != method_j:
            for r, t in zip(rows, texts):
                if t:
                    m = _SD_CELL.match(t)
                    r[j - 1] = f"{clean(str(r[j - 1]))} ± {m['a'] or m['b']}"
            notes.append(f"column {j + 1}: SDs in cells of their own, joined to "
                         f"{header[j - 1]!r}")
            for r in rows:
                del r[j]
            for b in bold:
                b[j - 1] = b[j - 1] or b[j]
                del b[j]
            del header[j]
            continue
        given = [t for t in filled if plain_text(t).lower() not in MISSING]
        lists = [t.split(";") for t in given if VALUE_LIST.match(t)]
        if given and len(lists) == len(given) and len({len(v) for v in lists}) == 1:
            k = len(lists[0])  # "0.97; 0.98; 0.99": k results per cell, k columns
            for r, t in zip(rows, texts):
                r[j:j + 1] = ([v.strip() for v in t.split(";")] if VALUE_LIST.match(t)
                              else [t] * k)
            for b in bold:
                b[j:j + 1] = [b[j]] * k
            notes.append(f"{header[j]!r}: {k} values per cell separated by ';', read as "
                         f"{k} columns (the header does not say what each measures)")
            header[j:j + 1] = [f"{header[j]} (value {i} of {k})" for i in range(1, k + 1)]
            continue
        pairs = [_PAIR.match(t) for t in filled]
        if filled and all(pairs):
            alt = list(_ALTERNATIVES.finditer(header[j]))
            parts = ([header[j][:alt[0].start()] + alt[0][k] + header[j][alt[0].end():]
                      for k in (1, 2)] if len(alt) == 1 else [])
            parts = [" ".join(p.split()) for p in parts]
            if len(parts) != 2 or not all(parts):
                i = next(i for i, t in enumerate(texts) if t)
                raise _err(raw, f"column {header[j]!r}, {raw.where[i]}: {texts[i]!r} holds two "
                                "values and the header does not name both (e.g. 'Dice/HD95'); "
                                "split the column in two")
            for r, t in zip(rows, texts):
                m = _PAIR.match(t)
                r[j:j + 1] = [m[1], m[2]] if m else ["", ""]
            for b in bold:
                b[j:j + 1] = [b[j], b[j]]
            notes.append(f"{header[j]!r}: two values per cell, read as two columns "
                         f"{parts[0]!r} and {parts[1]!r}")
            header[j:j + 1] = parts
    return RawTable(raw.source, raw.name, raw.format, header, rows, raw.where, bold,
                    raw.notes, raw.caption, raw.group)


def is_section_row(r, method_j) -> bool:
    """A heading across the row (``\\multicolumn{5}{l}{BTCV}``): no number, one text."""
    name0 = str(r[method_j]).strip()
    rest = [str(c).strip() for k, c in enumerate(r) if k != method_j]
    numbers = any(parse_printed_cell(c).numeric for k, c in enumerate(r) if k != method_j)
    return not numbers and all(t in ("", name0) or not plain_text(t) and not
                               _LONE_MACRO.fullmatch(t) for t in rest)


def is_note_row(r, method_j) -> bool:
    """A named row whose value cells are one text spanning them (``Statistical test &
    \\multicolumn{4}{l}{$t=22.14$, $p<0.001$}``): a remark, not a method's results."""
    rest = [str(c).strip() for k, c in enumerate(r) if k != method_j]
    text = plain_text(rest[0]).strip() if rest else ""
    return (len(rest) >= 2 and len(set(rest)) == 1 and bool(text) and text.lower() not in
            MISSING and not parse_printed_cell(rest[0]).numeric)


def text_columns(raw: RawTable) -> list[int]:
    """The leading label columns: text, or numbers printed once per group (``3`` folds
    in the middle row of three)."""
    out = []
    for j in range(len(raw.header)):
        cells = [c for c in column_cells(raw, j) if c.raw.strip()]
        text = [c for c in cells if not c.numeric and plain_text(c.raw)]  # "×", "-" too
        if cells and len(text) * 2 > len(cells):
            out.append(j)
        elif cells and out and len(cells) * 2 <= len(raw.rows):
            out.append(j)
        elif cells and out:
            break  # the label columns end at the first column of values
    return out


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
            raise _err(raw, f"column {h!r}: names several --n groups ({', '.join(hit)})")
        if hit:
            return hit[0]
    return None


def _n_row(raw: RawTable, method_j: int, notes: list[str]) -> tuple[RawTable, dict]:
    """The table without its n row (``n & 30 & 30 & 100``) and {column: size}."""
    names = _names(raw, method_j)  # once: per row it made a 3,000-row table quadratic
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


def _column_n(col, raw, given: dict, n_cols: dict, row_n, table) -> None:
    """A column's n: its ``--n GROUP=N``, its group's n column, the n row, the table's n."""
    key = _group_of(col.column, raw, [k for k in given if k]) if given else None
    group_cols = [(g, v, j) for j, (g, v) in n_cols.items()
                  if g and g.lower() in col.column.lower()]
    if key is not None:
        col.n, col.n_source, col.group = given[key], f"--n {key}={given[key]}", key
    elif group_cols:
        g, v, j = group_cols[0]
        col.n, col.n_source, col.group = v, f"column {raw.header[j]!r}", g
    elif row_n is not None:
        col.n, col.n_source = row_n, "the n row"
    elif table[0] is None and any(given):
        # per-group sizes were given but none for this column: ranked, never given another
        # group's n
        col.n, col.n_source = None, (f"no --n group names this column (groups "
                                     f"{', '.join(k for k in given if k)}; give GROUP=N for "
                                     "it, or a bare N)")
    else:
        col.n, col.n_source = table
    col.group = col.group or raw.group


def _refuse_data_set_rows(raw: RawTable) -> None:
    """As printed (not pivoted or transposed), the method column's header names data sets
    (``Data``, ``Task``, ``Organ``): its rows are no methods."""
    if raw.rows_are:
        raise _err(raw, f"the rows of {raw.rows_are!r} are data sets (tasks, organs), not "
                        "methods to rank; with methods as columns give --transpose and the "
                        "metric (--metric COLUMN=KIND)")


def _refuse_data_set_labels(raw: RawTable, method_j: int) -> None:
    """A label column beside the methods whose header names data sets, printed on a group's
    first row only (``Dataset``: BraTS 2021, blank, BraTS 2024, blank), left in one table:
    ranking its rows together compares results on different test sets. (The same methods
    under each label are split into one table per data set before this; a label in every
    row, ``Data``: ``+ wrist`` for training data added, is a description of the row.)"""
    for j in text_columns(raw):
        printed = [plain_text(str(r[j])) for r in raw.rows]
        if (j != method_j and ROWS_HEADER.match(plain_text(raw.header[j]))
                and len(set(printed) - {""}) > 1 and "" in printed):
            raise _err(raw, f"column {raw.header[j]!r} names data sets "
                            f"({sorted(set(printed) - {''})[:3]}): "
                            "rows of different data sets are not one comparison; give each "
                            "data set's rows as their own table")


def _no_methods(raw: RawTable, method_j: int) -> None:
    """Refuse rows that are no methods: settings named by numbers (1/16, 10%) or numbered
    folds, runs or cases of one method (Fold0 .. Fold4)."""
    names = _names(raw, method_j)
    if all(_SETTING_NAME.fullmatch(x) for x in names):
        raise _err(raw, f"the rows of {raw.header[method_j]!r} are named only by numbers "
                        f"({', '.join(names[:4])}): settings of one method (a "
                        "labelled fraction, a size), not methods to rank")
    if all(_REPEAT_NAME.fullmatch(x) for x in names):
        raise _err(raw, f"the rows of {raw.header[method_j]!r} are numbered folds, runs or "
                        f"cases ({', '.join(names[:4])}): repetitions of one method, not "
                        "methods to rank")


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
    _refuse_data_set_rows(raw)
    _refuse_data_set_labels(raw, method_j)
    raw = _cell_shapes(_units_in_cells(raw, method_j, notes), method_j, notes)
    raw = _data_rows(_composite_names(raw, method_j, notes), method_j, notes)
    if not any(c.numeric for j in range(len(raw.header)) if j != method_j
               for c in column_cells(raw, j)):
        macros = [c.raw for j in range(len(raw.header)) if j != method_j
                  for c in column_cells(raw, j) if _LONE_MACRO.fullmatch(c.raw.strip())]
        hint = (f" (cells such as {macros[0]!r} are macros defined elsewhere: give --macros "
                "FILE, the file of the paper's source that defines them)" if macros else "")
        raise _err(raw, f"no numeric column (no number outside the method column "
                        f"{raw.header[method_j]!r}); columns are {raw.header}{hint}")
    raw, n_rows = _n_row(raw, method_j, notes)
    if len(raw.rows) < 2:
        raise _err(raw, f"needs at least 2 method rows; found {len(raw.rows)}"
                        + (f" ({raw.where[0]})" if raw.rows else ""))
    _no_methods(raw, method_j)
    n_cols = _n_columns(raw, {method_j})
    given, table_n, table_src = _table_n(raw, n, n_cols, n_fallback)
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
        _column_n(col, raw, given, n_cols, n_rows.get(j), (table_n, table_src))
        cols.append(col)
    heads = {column_name(h).lower() for h in raw.header} | {h.lower() for h in raw.header}
    absent = sorted(set(picked) - heads)
    if absent:
        raise _err(raw, f"--metric {absent}: no such column; columns are {raw.header}")
    notes += _unread_notes(raw, method_j, n_cols, cols, ignored, skipped, unread)
    return ResultsTable(raw.source, raw.name, raw.format, table_n, table_src, cols, notes)


def _read_column(raw, j, kind: Kind, method_j, units, spellings, sds_used) -> MetricColumn:
    col = (_column(raw, j, kind, method_j, units, spellings, sds_used) if kind.task
           else _ranked(raw, j, kind, method_j, spellings))
    if len(col.values) > 1 and len(set(col.values)) == 1:
        # one value for every method: no winner to name (the first row is none)
        raise _err(raw, f"column {raw.header[j]!r}: every method has the same value "
                        f"{col.printed[0]}: no winner")
    return col


def _table_n(raw: RawTable, n, n_cols: dict, n_fallback: bool):
    """(the sizes given per group, the table's n, where it came from): ``--n`` or the
    table's one n column; a differing pair is an error unless ``n_fallback`` (``--dir``)."""
    whole = [(j, v) for j, (g, v) in n_cols.items() if g == ""]
    n_col = whole[0][1] if whole else None
    given = n if isinstance(n, dict) else ({"": n} if n is not None else {})
    if "" in given and n_col is not None and given[""] != n_col:
        if not n_fallback:
            raise _err(raw, f"--n {given['']} differs from the table's column "
                            f"{raw.header[whole[0][0]]!r} ({n_col})")
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
            raise _err(raw, f"unknown metric in column(s) {names}: neither the name, an arrow "
                            f"nor the caption says what it measures; {hint}")
        notes.append(f"column(s) {names} not read: unknown metric ({hint})")
    if unread and not cols:
        raise unread[0]
    prefix = f"{raw.source}, {raw.name}: "
    notes += [f"not read: {str(e).removeprefix(prefix)}" for e in unread]
    if not cols:
        raise _err(raw, f"no numeric metric column; columns are {raw.header}")
    return notes
