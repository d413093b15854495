"""From raw tables to parsed records: column mapping, cell parsing, constants."""

from __future__ import annotations

from falseclaims.sheets import cells
from falseclaims.sheets.cells import clean_text, is_missing
from falseclaims.sheets.columns import ALIASES, ENUMS, REQUIRED, SPECS
from falseclaims.sheets.errors import CellError
from falseclaims.sheets.io import RawTable, UncomputedFormula
from falseclaims.sheets.rows import column_ref
from falseclaims.sheets.rules import map_value, parse_compared, read_ruled_measure

__all__ = ["map_columns", "parse_records", "parse_cell"]


def parse_cell(kind: str, column: str, raw):
    """(value, extra, notes) for one cell; raises CellError. ``extra`` holds the Measure
    of metric cells or the percent-sign flag of plain numbers."""
    if kind == "id":
        value, notes = cells.parse_text(raw)
        return value, None, notes
    if kind == "text":
        value, notes = cells.parse_text(raw)
        return value, None, notes
    if kind == "metric":
        value, notes = cells.parse_text(raw)
        if value is not None and value.lower() != value:
            notes = notes + (f"{value!r} read as {value.lower()!r}",)
        return (None if value is None else value.lower()), None, notes
    if kind == "enum":
        value, notes = cells.parse_enum(raw, ENUMS[column], ALIASES.get(column))
        return value, None, notes
    if kind == "bool":
        value, notes = cells.parse_bool(raw)
        return value, None, notes
    if kind == "size":
        value, notes = cells.parse_size(raw)
        return value, None, notes
    if kind == "list":
        value, notes = cells.parse_list(raw)
        return value, None, notes
    if kind == "measure":
        m = cells.parse_measure(raw)
        return (None if m is None else m.value), m, (() if m is None else m.notes)
    if kind == "number":
        value, pct, notes = cells.parse_number(raw)
        return value, pct, notes
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
    spec = SPECS[kind]
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
                  where: str, values: dict | None = None, rules: dict | None = None
                  ) -> list[dict]:
    """One dict per data row: our columns -> parsed values (None when missing).

    Keys starting with "_" carry provenance: ``_row`` (spreadsheet row), ``_their`` (our ->
    their column names), ``_m_<col>`` (Measure of metric cells), ``_pct_<col>`` (percent
    sign in a number cell) and ``_xlpct_<col>`` (XLSX cell formatted as percent).
    ``values``/``rules``: the venue's per-column value maps and cell rules
    (falseclaims.sheets.rules); a split cell gives a list of values and Measures.
    """
    values, rules = values or {}, rules or {}
    spec = SPECS[kind]
    if not table.header:
        return []
    const_vals = {}
    for col, raw in (constants or {}).items():
        if col not in spec:
            continue
        try:
            const_vals[col] = parse_cell(spec[col], col, raw)
        except CellError as exc:
            table.problem(None, f"constants.{col}", raw, f"{exc.expected} ({where})")
    for col in REQUIRED[kind]:
        if col not in idx and col not in const_vals:
            table.problem(table.header_row, col, None,
                          f"a column {col!r} (required in the {kind} table; rename yours with "
                          f"config columns: or give constants: {{{col}: ...}})")
    for col in spec:
        if spec[col] == "compared":
            continue  # an optional alternative to value_best_prior, not a field left empty
        if col not in idx and col not in const_vals and col not in REQUIRED[kind]:
            table.note(None, col, None, f"column {col!r} absent; left missing")
    for col, (value, _, _) in const_vals.items():
        table.note(None, col, value, f"constant {col} = {value!r} from config used where the "
                                     "column is absent or empty")
    records = []
    pct_cells = table.percent_format
    # columns read without a venue rule (the common case: no per-cell lookups)
    plain = {c for c, k in spec.items() if k != "compared" and c not in values
             and c not in rules}
    for rownum, row in table.rows:
        rec = {"_row": rownum, "_their": their}
        for col, kind_ in spec.items():
            if col in idx:
                raw = row[idx[col]]
            else:
                raw = None
            if is_missing(raw) and col in const_vals:
                value, extra, _ = const_vals[col]
            else:
                try:
                    if col in plain and not isinstance(raw, UncomputedFormula):
                        value, extra, notes = parse_cell(kind_, col, raw)
                    else:
                        value, extra, notes = _read(kind_, col, raw, values.get(col),
                                                    rules.get(col))
                except CellError as exc:
                    table.problem(rownum, their.get(col, col), raw, exc.expected, cell=True)
                    rec[col] = None
                    rec.setdefault("_bad", set()).add(col)
                    continue
                for n in notes:
                    table.note(rownum, their.get(col, col), raw, n)
            rec[col] = value
            if kind_ == "measure":
                rec[f"_m_{col}"] = extra
                if isinstance(extra, list):
                    rec[f"_parts_{col}"] = rules[col]
            elif kind_ == "number":
                rec[f"_pct_{col}"] = bool(extra)
            if col in idx and pct_cells.get((rownum, idx[col])):
                rec[f"_xlpct_{col}"] = True
        for col in REQUIRED[kind]:
            if col not in idx and col not in const_vals:
                rec.setdefault("_bad", set()).add(col)  # absent: reported once, above
                continue
            if rec.get(col) is None and col not in rec.get("_bad", ()):
                table.problem(rownum, their.get(col, col), None,
                              f"a value (column {col!r} is required)", cell=True)
                rec.setdefault("_bad", set()).add(col)
        records.append(rec)
    return records


def _read(kind: str, col: str, raw, value_map, rule):
    """parse_cell after the venue's value map and cell rule; refuses formulas that have no
    stored value."""
    if isinstance(raw, UncomputedFormula):
        raise CellError(f"a value, but this cell holds the formula {str(raw)!r} without a "
                        "stored value; open and save the file in a spreadsheet program "
                        "(which stores formula values) or type the value")
    mapped, note = map_value(value_map, raw)
    if kind == "compared":
        value, _ = parse_compared(mapped, rule)
        return value, None, (note,) if note else ()
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
    return value, extra, ((note,) if note else ()) + tuple(notes)
