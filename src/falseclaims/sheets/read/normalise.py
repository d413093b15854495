"""From raw tables to parsed records: column mapping, cell parsing, constants."""

from __future__ import annotations

from dataclasses import dataclass
from operator import itemgetter

import numpy as np

from falseclaims.sheets.read import cells
from falseclaims.io.raw_table import clean_text, is_missing
from falseclaims.sheets.read.columns import ALIASES, ENUMS, REQUIRED, SPECS
from falseclaims.sheets.read.counts import COUNTS
from falseclaims.sheets.read.errors import CellError
from falseclaims.io.raw_reader import ColumnRows, RawTable, UncomputedFormula
from falseclaims.sheets.read.records import SheetRecord
from falseclaims.sheets.read.rows import column_ref
from falseclaims.sheets.read.rules import map_value, parse_compared, read_ruled_measure

__all__ = ["map_columns", "parse_records", "parse_columns", "parse_cell", "Parsed"]


# kinds whose parser takes the raw cell alone and gives (value, notes)
_PLAIN_KINDS = {"id": cells.parse_text, "text": cells.parse_text, "bool": cells.parse_bool,
                "size": cells.parse_size, "list": cells.parse_list}


# size columns of a data set, which sheets write with what they count ("462 patients")
COUNTED_SIZES = frozenset({"n_train", "n_val", "n_test", "n_test_proposed",
                           "n_test_best_prior"})


def parse_cell(kind: str, column: str, raw):
    """(value, extra, notes) for one cell; raises CellError. ``extra`` holds the Measure
    of metric cells or the percent-sign flag of plain numbers."""
    if kind == "size" and column in COUNTED_SIZES:
        value, notes = cells.parse_size(raw, counted=True)
        return value, None, notes
    if kind in _PLAIN_KINDS:
        value, notes = _PLAIN_KINDS[kind](raw)
        return value, None, notes
    if kind == "metric":
        value, notes = cells.parse_text(raw)
        if value is not None and value.lower() != value:
            notes = notes + (f"{value!r} read as {value.lower()!r}",)
        return (None if value is None else value.lower()), None, notes
    if kind == "enum":
        value, notes = cells.parse_enum(raw, ENUMS[column], ALIASES.get(column))
        return value, None, notes
    if kind == "measure":
        m = cells.parse_measure(raw)
        return (None if m is None else m.value), m, (() if m is None else m.notes)
    if kind == "number":
        return cells.parse_number(raw)
    if kind == "compared":
        value, notes = parse_compared(raw, None)
        return value, None, notes
    raise AssertionError(kind)


def _key(name: str) -> str:
    return cells._enum_key(name)


def map_columns(table: RawTable, kind: str, mapping: dict | None, where: str):
    """{our column: index in table.header} and {our column: their name}.

    The venue's mapping ({their: ours}) is applied first; other headers match our names
    exactly, or after lower-casing and turning spaces/punctuation into "_" (noted).
    Headers that match nothing are ignored with a note.
    """
    # 2x2 counts are read into values and sizes (counts.derive_counts), never as records
    spec = SPECS[kind] if kind == "papers" else {**SPECS[kind], **dict.fromkeys(COUNTS, "count")}
    mapping = dict(mapping or {})
    idx: dict[str, int] = {}
    their: dict[str, str] = {}
    for t_name, ours in mapping.items():
        if ours not in spec:
            table.problem(None, None, f"{t_name}: {ours}",
                          f"a column of the {kind} table in {where} ({', '.join(spec)})")
    mapped = {}
    for k, v in mapping.items():
        letter = column_ref(str(k))
        if letter is not None and letter in table.letters:
            mapped[table.header[table.letters.index(letter)]] = v
        elif letter is not None and table.header:
            table.problem(None, str(k), None,
                          f"a column {letter} with values (named in {where}); this sheet's "
                          f"columns run {table.letters[0]}-{table.letters[-1]}")
        else:
            mapped[clean_text(str(k))] = v
    for j, name in enumerate(table.header):
        if name in mapped:
            ours = mapped[name]
        elif name in table.headerless:
            letter = table.letters[j]
            table.problem(table.header_row, name, None,
                          f"a column name above data (this column has values but no header); "
                          f"name it in the sheet or map it in {where} columns: as "
                          f"{{\"@{letter}\": <our column>}}")
            continue
        elif name in spec:
            ours = name
        elif _key(name) in spec:
            ours = _key(name)
            table.note(None, name, None, f"column {name!r} read as {ours!r}")
        else:
            table.note(None, name, None, f"column {name!r} is not part of the {kind} table "
                                         "format; ignored (map it in config columns: to use it)")
            continue
        if ours not in spec:
            continue
        if ours in idx:
            table.problem(1, name, None, f"one column for {ours!r} (also given by column "
                                         f"{their[ours]!r})")
            continue
        idx[ours] = j
        their[ours] = name
    for t_name in mapped:
        if t_name not in table.header and table.header and column_ref(t_name) is None:
            table.problem(None, t_name, None,
                          f"this column (named in {where}) in the header; found: "
                          + ", ".join(table.header))
    return idx, their


def parse_records(table: RawTable, kind: str, idx: dict, their: dict, constants: dict,
                  where: str, values: dict | None = None, rules: dict | None = None,
                  release_rows: bool = False, optional: tuple = ()) -> list[SheetRecord]:
    """One record per data row (see :func:`parse_columns`)."""
    parsed = parse_columns(table, kind, idx, their, constants, where, values, rules,
                           release_rows, optional)
    return [] if parsed is None else parsed.records()


def parse_columns(table: RawTable, kind: str, idx: dict, their: dict, constants: dict,
                  where: str, values: dict | None = None, rules: dict | None = None,
                  release_rows: bool = False, optional: tuple = ()) -> "Parsed | None":
    """One record per data row: our columns -> parsed values (None when missing).

    Each :class:`~falseclaims.sheets.read.records.SheetRecord` also carries the spreadsheet row,
    the user's column names, the Measures of metric cells and the percent marks.
    ``values``/``rules``: the venue's per-column value maps and cell rules
    (falseclaims.sheets.read.rules); a split cell gives a list of values and Measures.
    ``release_rows``: empty ``table.rows`` once the cells are parsed (the raw rows of 10^6
    results are ~250 MB that the records need not share memory with).
    ``optional``: required columns of ``kind`` this table may lack or leave empty (the task
    of a study-design sheet, which computes no probability).
    """
    values, rules = values or {}, rules or {}
    spec = SPECS[kind]
    required = tuple(c for c in REQUIRED[kind] if c not in optional)
    if not table.header:
        return None
    const_vals = {}
    for col, raw in (constants or {}).items():
        if col not in spec:
            continue
        try:
            const_vals[col] = parse_cell(spec[col], col, raw)
        except CellError as exc:
            table.problem(None, f"constants.{col}", raw, f"{exc.expected} ({where})")
    absent = [col for col in required if col not in idx and col not in const_vals]
    for col in absent:
        table.problem(table.header_row, col, None,
                      f"a column {col!r} (required in the {kind} table; rename yours with "
                      f"config columns: or give constants: {{{col}: ...}})")
    for col in spec:
        if spec[col] == "compared":
            continue  # an optional alternative to value_best_prior, not a field left empty
        if col in optional and col not in idx and col not in const_vals:
            table.note(None, col, None, f"column {col!r} absent; left missing: a study-design "
                       f"sheet needs no {col} (no probability is computed), its papers are "
                       f"counted under '{col} not recorded'")
        elif col not in idx and col not in const_vals and col not in REQUIRED[kind]:
            table.note(None, col, None, f"column {col!r} absent; left missing")
    for col, (value, _, _) in const_vals.items():
        table.note(None, col, value, f"constant {col} = {value!r} from config used where the "
                                     "column is absent or empty")
    if absent:  # every row would lack it: the cells are not read (one problem, not 10^6)
        return None
    return _parse_rows(table, spec, idx, their, const_vals, required, values, rules,
                       release_rows)


def _parse_column(read, raws: list, const) -> tuple[list[tuple], list[tuple]]:
    """Parsed cells of one column, one ``read`` call per distinct raw value.

    Survey sheets repeat cell texts heavily (enums, yes/no, sizes, metric names), so at
    10^5 papers this replaces millions of parses by a few thousand. Each item is
    ``(ok, value, extra, notes_or_expected)``; the key includes the type, because
    ``True == 1 == 1.0`` in Python but the parsers treat them differently (and a formula
    without a stored value is a str of its own class). Returns the items and the distinct
    items.
    """
    if set(map(type, raws)) <= {str, type(None)}:
        # text cells (CSV/TSV): a str never equals None, so the raw value is the key and
        # the lookups run in C
        memo = {}
        for raw in set(raws):
            memo[raw] = _parse_one(read, raw, const)
        return list(map(memo.__getitem__, raws)), list(memo.values())
    memo: dict = {}
    out = []
    for raw in raws:
        key = (raw.__class__, raw)
        hit = memo.get(key)
        if hit is None:
            hit = memo[key] = _parse_one(read, raw, const)
        out.append(hit)
    return out, list(memo.values())


def _parse_one(read, raw, const) -> tuple:
    if const is not None and is_missing(raw):
        value, extra, _ = const
        return (True, value, extra, ())
    try:
        return (True, *read(raw))
    except CellError as exc:
        return (False, None, None, exc.expected)


def _rows_where(cells_: list, distinct: list, test) -> list[int]:
    """Indices of the cells whose (shared, memoised) parse result passes ``test``; the
    test runs once per ``distinct`` result, the scan over rows in numpy."""
    hits = [id(c) for c in distinct if test(c)]
    if not hits:
        return []
    ids = np.fromiter(map(id, cells_), dtype=np.uint64, count=len(cells_))
    return np.flatnonzero(np.isin(ids, np.array(hits, dtype=np.uint64))).tolist()


def _reader(kind_: str, col: str, values: dict, rules: dict):
    """The function reading one raw cell of ``col``: :func:`parse_cell`, or :func:`_read`
    for columns with a venue value map or cell rule (and for formulas without a value)."""
    if kind_ != "compared" and col not in values and col not in rules:
        def read(raw):
            if isinstance(raw, UncomputedFormula):
                return _read(kind_, col, raw, None, None)
            return parse_cell(kind_, col, raw)
        return read
    return lambda raw: _read(kind_, col, raw, values.get(col), rules.get(col))


def _parse_rows(table: RawTable, spec: dict, idx: dict, their: dict, const_vals: dict,
                required: tuple, values: dict, rules: dict, release_rows: bool = False
                ) -> "Parsed | None":
    """Records of :func:`parse_records`, computed column by column.

    Notes and problems are emitted in the same order as a row-by-row pass (row, then
    column, then the row's missing required values), so messages are unchanged.
    """
    rows = table.rows
    by_column = isinstance(rows, ColumnRows)  # a text table: its columns are the raws
    rownums = rows.rownums if by_column else [r for r, _ in rows]
    pct_cells = table.percent_format
    parsed, uniq, events = {}, {}, []
    cols = list(spec)
    cells_of_rows = None if by_column else [row for _, row in rows]
    bad_rows: dict[int, set] = {}
    for k, (col, kind_) in enumerate(spec.items()):
        if col in idx and by_column:
            raws = rows.columns[idx[col]]
        elif col in idx:
            raws = list(map(itemgetter(idx[col]), cells_of_rows))
        else:
            raws = [None] * len(rows)
        cells_, uniq[col] = _parse_column(_reader(kind_, col, values, rules), raws,
                                          const_vals.get(col))
        parsed[col] = cells_
        name = their.get(col, col)
        # only cells with a problem or a note need a per-row look (usually none)
        for i in _rows_where(cells_, uniq[col], lambda c: not c[0] or c[3]):
            ok, _, _, extra = cells_[i]
            if not ok:
                events.append((i, k, "problem", (rownums[i], name, raws[i], extra)))
                bad_rows.setdefault(i, set()).add(col)
            else:
                for n in extra:
                    events.append((i, k, "note", (rownums[i], name, raws[i], n)))
        del raws
    n_rows = len(rows)
    del cells_of_rows, rows
    if release_rows:
        table.rows = []
    for r, col in enumerate(required):
        if col not in idx and col not in const_vals:
            for i in range(n_rows):  # absent: reported once, by parse_records
                bad_rows.setdefault(i, set()).add(col)
            continue
        name = their.get(col, col)
        for i in _rows_where(parsed[col], uniq[col], lambda c: c[0] and c[1] is None):
            events.append((i, len(cols) + r, "problem",
                           (rownums[i], name, None, f"a value (column {col!r} is required)")))
            bad_rows.setdefault(i, set()).add(col)
    events.sort(key=lambda e: e[:2])  # stable: a cell's notes keep their order
    for _, _, what, args in events:
        if what == "problem":
            table.problem(*args, cell=True)
        else:
            table.note(*args)
    if _column_broken(table, events):
        return None  # the sheet is refused: no record per row (10^6 rows of bad cells)
    return Parsed(rownums, their, spec, idx, parsed, uniq, bad_rows, pct_cells, required,
                  const_vals, rules)


def _column_broken(table: RawTable, events: list) -> bool:
    """More problems in one column than the table lists one by one (the sheet is refused
    whatever else its rows hold)."""
    cap = table.problem_cap
    if cap is None:
        return False
    counts: dict = {}
    for _, k, what, _ in events:
        if what == "problem":
            counts[k] = counts.get(k, 0) + 1
    return any(n > cap for n in counts.values())


@dataclass
class Parsed:
    """The parsed cells of one table, column by column (``cells[col][i]`` is
    ``(ok, value, extra, notes_or_expected)`` of row ``rownums[i]``; equal raw cells share
    one tuple). Problems and notes of the cells are already on the table."""

    rownums: list[int]
    their: dict
    spec: dict
    idx: dict
    cells: dict[str, list[tuple]]
    uniq: dict[str, list[tuple]]  # the distinct parse results of each column
    bad_rows: dict[int, set]
    pct_cells: dict
    required: tuple
    const_vals: dict
    rules: dict

    def distinct(self, col: str) -> list[tuple]:
        """The distinct parse results of a column."""
        return self.uniq[col]

    def values(self, col: str) -> list:
        return list(map(itemgetter(1), self.cells[col]))

    def records(self) -> list[SheetRecord]:
        return _records(self.rownums, self.their, self.spec, self.idx, self.cells,
                        self.uniq, self.bad_rows, self.pct_cells, self.required,
                        self.const_vals, self.rules)


def _records(rownums, their, spec, idx, parsed, uniq, bad_rows, pct_cells, required,
             const_vals, rules) -> list[SheetRecord]:
    # fast path: rows without a bad cell or an XLSX percent cell; the flags ('%' sign,
    # split cell) are set only where they apply, found once per distinct parse result
    cols = list(spec)
    measure_cols = [c for c, k in spec.items() if k == "measure"]
    records = [SheetRecord(row, their, dict(zip(cols, vals)))
               for row, vals in zip(rownums, zip(*(map(itemgetter(1), parsed[c])
                                                   for c in cols)))]
    for col in measure_cols:
        for i in _rows_where(parsed[col], uniq[col], lambda c: c[2] is not None):
            records[i].set_measure(col, parsed[col][i][2])
    for col in (c for c, k in spec.items() if k == "number"):
        for i in _rows_where(parsed[col], uniq[col], lambda c: c[2]):
            records[i].mark("percent", col)
    for col in (c for c in measure_cols if c in rules):
        for i in _rows_where(parsed[col], uniq[col], lambda c: isinstance(c[2], list)):
            records[i].parts = {**(records[i].parts or {}), col: rules[col]}
    pct_rows = {r for (r, _j), flag in pct_cells.items() if flag}
    special = set(bad_rows)
    if pct_rows:
        special |= {i for i, r in enumerate(rownums) if r in pct_rows}
    for i in sorted(special):
        records[i] = _slow_record(rownums[i], their, spec, idx, parsed, i, pct_cells,
                                  required, const_vals, rules)
    return records


def _slow_record(rownum, their, spec, idx, parsed, i, pct_cells, required, const_vals,
                 rules) -> SheetRecord:
    """One record of a row holding bad or XLSX-percent cells."""
    rec = SheetRecord(rownum, their)
    for col, kind_ in spec.items():
        ok, value, extra, _ = parsed[col][i]
        if not ok:
            rec[col] = None
            rec.mark_bad(col)
            continue
        rec[col] = value
        if kind_ == "measure":
            rec.set_measure(col, extra)
            if isinstance(extra, list):
                rec.parts = {**(rec.parts or {}), col: rules[col]}
        elif kind_ == "number" and extra:
            rec.mark("percent", col)
        if col in idx and pct_cells.get((rownum, idx[col])):
            rec.mark("xlsx_percent", col)
    for col in required:
        if col not in idx and col not in const_vals:
            rec.mark_bad(col)
            continue
        if rec.get(col) is None:
            rec.mark_bad(col)
    return rec


def _read(kind: str, col: str, raw, value_map, rule):
    """parse_cell after the venue's value map and cell rule; refuses formulas that have no
    stored value."""
    if isinstance(raw, UncomputedFormula):
        raise CellError(f"a value, but this cell holds the formula {str(raw)!r} without a "
                        "stored value; open and save the file in a spreadsheet program "
                        "(which stores formula values) or type the value")
    mapped, note = map_value(value_map, raw)
    if kind == "compared":
        value, notes = parse_compared(mapped, rule)
        return value, None, ((note,) if note else ()) + tuple(notes)
    if kind == "measure" and rule is not None:
        m = read_ruled_measure(rule, mapped)
        if isinstance(m, list):
            notes = [n for x in m for n in x.notes]
            return [x.value for x in m], m, tuple(([note] if note else []) + notes)
        value = None if m is None else m.value
        return value, m, (() if m is None else m.notes) + ((note,) if note else ())
    if kind == "number" and rule is not None and rule.split and isinstance(mapped, str) \
            and rule.split in mapped:  # an SD cell split like its value cell
        parts = [parse_cell(kind, col, p) for p in mapped.split(rule.split)]
        if len(parts) != len(rule.parts):
            raise CellError(f"{len(rule.parts)} values separated by {rule.split!r}; this "
                            f"cell has {len(parts)}")
        return ([v for v, _, _ in parts], any(e for _, e, _ in parts),
                ((note,) if note else ()) + tuple(n for _, _, ns in parts for n in ns))
    value, extra, notes = parse_cell(kind, col, mapped)
    if note and _reads_as(kind, col, raw, value):
        note = None  # the rule changed nothing ('No' -> 'no'): not worth a note
    return value, extra, ((note,) if note else ()) + tuple(notes)


def _reads_as(kind: str, col: str, raw, value) -> bool:
    """True if ``raw`` reads as ``value`` without the venue's values: rule, with no note
    but case folding (a rule that does more than an alias would keeps its note)."""
    try:
        plain, _, notes = parse_cell(kind, col, raw)
    except CellError:
        return False
    folded = f"{raw!r} read as {value!r}"
    return type(plain) is type(value) and plain == value and all(
        n == folded and clean_text(str(raw)).lower() == value for n in notes)
