"""Interpret a :class:`~falseclaims.table.readers.RawTable`: methods as rows, metric columns,
the test-set size, each column's task and units. Every refusal names file, table, row and
column; every choice made from the data (units, skipped rows and columns) is a note.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from falseclaims.table.cells import Cell, clean, parse_printed_cell, plain_text
from falseclaims.table.readers import RawTable, TableReadError
from falseclaims.tasks import TASKS

__all__ = ["MetricColumn", "ResultsTable", "UNITS", "interpret_table", "metric_task"]

UNITS = ("auto", "percent", "fraction")
_N_HEADERS = re.compile(r"^(?:n|n_?test|n test|#? ?test(?: set)?(?: size| cases| images)?|"
                        r"test ?size|#? ?cases|n cases|n images|#? ?images|n\s*\(test\))$")


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


# a qualified metric is not the plain one: balanced accuracy, top-5 accuracy, surface Dice
_QUALIFIED = re.compile(r"balanced|weighted|top-?\s*[2-9]|surface|normali[sz]ed|\bnsd\b|"
                        r"\bauc\b|\bf1\b|\biou\b|\bhd\d*\b|sensitivity|specificity")


def metric_task(header: str, cfg: dict) -> str | None:
    """The task a metric name stands for (config ``analysis.metrics`` spellings), or None
    (also for qualified names such as balanced or top-5 accuracy, surface Dice)."""
    low = header.lower()
    if _QUALIFIED.search(low):
        return None
    words = re.findall(r"[a-z]+", low)
    for task in TASKS:
        for spelling in cfg["analysis"]["metrics"][task]:
            s = spelling.lower()
            if " " in s and s in " ".join(words):
                return task
            if s in words or any(w in (f"m{s}", f"{s}s") for w in words):
                return task
    return None


def _cells(raw: RawTable, j: int) -> list[Cell]:
    return [parse_printed_cell(r[j], bold=bool(raw.bold[i][j]) if raw.bold else False)
            for i, r in enumerate(raw.rows)]


def _method_column(raw: RawTable) -> int:
    for j in range(len(raw.header)):
        cells = [c for c in _cells(raw, j) if c.raw.strip()]
        text = [c for c in cells if not c.numeric and plain_text(c.raw)]
        if cells and len(text) * 2 > len(cells):
            return j
    raise _err(raw, f"no method column (a column of names); columns are {raw.header}")


def _n_column(raw: RawTable, used: set[int]) -> tuple[int | None, int | None]:
    for j, h in enumerate(raw.header):
        if j in used or not _N_HEADERS.match(h.strip().lower()):
            continue
        sizes = set()
        for i, c in enumerate(_cells(raw, j)):
            if c.numeric:
                if c.value != int(c.value) or c.value < 2:
                    raise _err(raw, f"column {h!r}, {raw.where[i]}: test-set size {c.raw!r} is "
                                    "not a whole number >= 2")
                sizes.add(int(c.value))
        if len(sizes) > 1:
            raise _err(raw, f"column {h!r}: test-set sizes differ ({sorted(sizes)}); the "
                            "comparison needs one test set shared by all methods")
        if sizes:
            return j, sizes.pop()
    return None, None


def _units(raw, h, cells, idx, units, where) -> tuple[str, str]:
    vals = [(cells[i].value, where[i]) for i in idx]
    if units != "auto":
        return units, f"declared (--units {units})"
    if "%" in h or any(cells[i].percent for i in idx):
        return "percent", "detected: a % sign in the header or a cell"
    small = [v for v in vals if abs(v[0]) <= 1]
    big = [v for v in vals if abs(v[0]) > 1]
    if big and small:
        raise _err(raw, f"column {h!r}: {small[0][0]:g} ({small[0][1]}) reads as a fraction but "
                        f"{big[0][0]:g} ({big[0][1]}) as percent; give --units percent or "
                        "--units fraction")
    if big:
        return "percent", "detected: values above 1"
    return "fraction", "detected: every value in [0, 1]"


def _column(raw, j, task, task_source, method_j, units) -> MetricColumn:
    h = raw.header[j]
    cells = _cells(raw, j)
    names = [plain_text(r[method_j]) if isinstance(r[method_j], str) else str(r[method_j])
             for r in raw.rows]
    notes, idx = [], []
    for i, c in enumerate(cells):
        if c.numeric:
            idx.append(i)
        elif c.raw.strip() and plain_text(c.raw).lower() not in ("", "-", "n/a", "na", "--"):
            raise _err(raw, f"column {h!r}, {raw.where[i]} (method {names[i]!r}): "
                            f"{c.raw!r} is not a number")
    missing = [names[i] for i, c in enumerate(cells) if not c.numeric and names[i]]
    if missing:
        notes.append(f"{len(missing)} method(s) without a value in {h!r}: {missing}")
    u, u_source = _units(raw, h, cells, idx, units, raw.where)
    scale = 100.0 if u == "percent" else 1.0
    for i in idx:
        v = cells[i].value / scale
        if not 0.0 <= v <= 1.0:
            raise _err(raw, f"column {h!r}, {raw.where[i]} (method {names[i]!r}): "
                            f"{cells[i].raw!r} is outside [0, {scale:g}] ({u})")
        if cells[i].ignored:
            notes.append(f"{names[i]}: {cells[i].ignored!r} in {h!r} ignored")
    if len(idx) < 2:
        only = f" ({names[idx[0]]}, {raw.where[idx[0]]})" if idx else ""
        raise _err(raw, f"column {h!r}: needs at least 2 methods with a value; found "
                        f"{len(idx)}{only}")
    extra = 2 if u == "percent" else 0
    return MetricColumn(
        h, j, task, task_source, u, u_source, [names[i] for i in idx],
        [round(cells[i].value / scale, cells[i].decimals + extra) for i in idx],
        [None if cells[i].sd is None else round(cells[i].sd / scale, 12) for i in idx],
        [cells[i].decimals + extra for i in idx], [clean(cells[i].raw) for i in idx],
        [cells[i].bold for i in idx], [cells[i].underline for i in idx],
        [raw.where[i] for i in idx], notes)


def _data_rows(raw: RawTable, method_j: int, notes: list[str]) -> RawTable:
    """Drop section rows (no number) and name duplicate methods apart."""
    keep, rows, seen = [], [], {}
    for i, r in enumerate(raw.rows):
        name0 = plain_text(str(r[method_j]))
        rest = [plain_text(str(c)) for k, c in enumerate(r) if k != method_j]
        numbers = any(parse_printed_cell(c).numeric for k, c in enumerate(r) if k != method_j)
        if not numbers and all(t in ("", name0) for t in rest):  # a heading across the row
            label = " ".join(dict.fromkeys(plain_text(str(c)) for c in r if plain_text(str(c))))
            label = label[:40]
            notes.append(f"{raw.where[i]} has no number: skipped as a section row ({label!r})")
            continue
        name = plain_text(r[method_j]) if isinstance(r[method_j], str) else str(r[method_j])
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
                    else [], raw.notes)


def interpret_table(raw: RawTable, cfg: dict, *, n: int | None = None,
                    task: str | None = None, units: str = "auto",
                    metrics: list[str] | None = None,
                    n_fallback: bool = False) -> ResultsTable:
    """Methods (rows) and metric columns of ``raw``; see the module doc. ``n_fallback``:
    ``n`` only for a table without an n column (else a differing n column is an error)."""
    if units not in UNITS:
        raise ValueError(f"--units must be one of {UNITS}; got {units!r}")
    notes = list(raw.notes)
    method_j = _method_column(raw)
    if not any(c.numeric for j in range(len(raw.header)) if j != method_j
               for c in _cells(raw, j)):
        raise _err(raw, f"no numeric column (no number outside the method column "
                        f"{raw.header[method_j]!r}); columns are {raw.header}")
    raw = _data_rows(raw, method_j, notes)
    if len(raw.rows) < 2:
        raise _err(raw, f"needs at least 2 method rows; found {len(raw.rows)}"
                        + (f" ({raw.where[0]})" if raw.rows else ""))
    n_j, n_col = _n_column(raw, {method_j})
    if n is not None and n_col is not None and n != n_col:
        if not n_fallback:
            raise _err(raw, f"--n {n} differs from the table's column {raw.header[n_j]!r} "
                            f"({n_col})")
        n = None  # --dir: --n stands for the tables without an n column
    n_source = "--n" if n is not None else (f"column {raw.header[n_j]!r}" if n_col else "")
    n = n if n is not None else n_col
    cols, skipped = [], []
    wanted = {m.lower() for m in metrics} if metrics else None
    for j, h in enumerate(raw.header):
        if j in (method_j, n_j) or not any(c.numeric for c in _cells(raw, j)):
            continue
        if wanted is not None and h.lower() not in wanted:
            continue
        t = metric_task(h, cfg)
        if t is None and task is None:
            skipped.append(h or f"column {j + 1}")
            continue
        source = "metric name" if t is not None and (task is None or t == task) else "--task"
        cols.append(_column(raw, j, t if source == "metric name" else task, source, method_j,
                            units))
    if wanted is not None:
        found = {c.column.lower() for c in cols} | {s.lower() for s in skipped}
        absent = sorted(wanted - found)
        if absent:
            raise _err(raw, f"--metric {absent}: no such numeric column; columns are "
                            f"{raw.header}")
    if skipped:
        names = ", ".join(repr(s) for s in skipped)
        if not cols:
            raise _err(raw, f"unknown metric in column(s) {names} (known: "
                            f"{_known(cfg)}); give --task classification|segmentation")
        notes.append(f"column(s) {names} skipped: not a known metric (give --task and "
                     "--metric to analyse them)")
    if not cols:
        raise _err(raw, f"no numeric metric column; columns are {raw.header}")
    return ResultsTable(raw.source, raw.name, raw.format, n, n_source, cols, notes)


def _known(cfg: dict) -> str:
    return "; ".join(f"{t}: " + ", ".join(cfg["analysis"]["metrics"][t]) for t in TASKS)
