"""Units of metric values: fractions, percent, or automatic detection (refusing ambiguity).

Only fraction-scale metrics (accuracy, DSC, AUC, ...) are converted, and only they decide
``units: auto``; kappa/MCC (on [-1, 1]) and distances such as HD95 keep the number as written
and may not carry "%" (``columns.metric_scale``). Rules (data/README.md, "Units"):

* A cell with a "%" sign is percent whatever ``units`` says; an XLSX cell formatted as
  percent already stores a fraction. Both are noted.
* ``units: fraction`` keeps other values; ``units: percent`` divides them by 100, except
  that an unmarked value <= 1 next to values > 1 is refused naming the cell (0.931 in a
  percent column is a fraction written by mistake, not 0.931 %; write "0.931%" if meant).
* ``units: auto`` looks at the unmarked values of fraction-scale metrics: all <= 1 ->
  fraction; all > 1 -> percent; a mix with a clear majority -> the minority cells are
  refused one by one (e.g. one 0.83 among 83.2 values); an even mix, or values <= 1 next to
  "%" cells -> refused, asking the user to declare ``units:``.
* An SD in the same cell as its value shares the value's unit; an SD in its own cell is
  percent if it has a "%" sign or if its row's value was read as percent.
Every conversion is written to the notes.
"""

from __future__ import annotations

from falseclaims.sheets.read.columns import metric_scale
from falseclaims.io.raw_reader import RawTable
from falseclaims.sheets.read.records import SheetRecord

__all__ = ["attach_cell_sd", "convert_units"]


def attach_cell_sd(records: list[SheetRecord], table: RawTable, value_col="value", sd_col="sd"):
    """Move an SD written in the value cell ("0.85 ± 0.03") into the sd field."""
    for rec in records:
        m = rec.measure(value_col)
        if m is None or m.sd is None:
            continue
        if rec.get(sd_col) is not None and abs(rec[sd_col] - m.sd) > 1e-12:
            table.problem(rec.row, rec.name(sd_col), rec[sd_col],
                          f"no SD here, or the same SD as in the value cell ({m.sd:g})")
            continue
        rec[sd_col] = m.sd
        rec.mark("sd_in_cell", sd_col)


def _fmt(x: float) -> str:
    return f"{x:.10g}"


def convert_units(records: list[SheetRecord], table: RawTable, units: str, where: str,
                  value_col="value", sd_col="sd") -> str:
    """Convert values (and SDs) to fractions in place; returns the units used for unmarked
    values ('fraction', 'percent' or 'refused'). Three steps: detect (which values carry a
    percent mark, which metrics are on a fraction scale), decide (the units of unmarked
    values: declared, or detected by ``auto``), apply (divide by 100, with a note each)."""
    _refuse_marks_off_fraction_scale(records, table, value_col, sd_col)
    frac = [r for r in records if r.get(value_col) is not None and r.get("metric")
            and metric_scale(r["metric"]) == "fraction"]
    unmarked = [r for r in frac if not _marked(r, value_col)]
    decided = _decide_auto(frac, unmarked, table, where, value_col) if units == "auto" \
        else units
    if decided == "refused":
        return decided
    if units == "percent":
        refused = _check_declared_percent(unmarked, table, where, value_col)
        if refused is not None:
            return refused
    if units == "fraction":
        _check_declared_fraction(unmarked, table, where, value_col)
    for r in frac:
        if value_col not in r.bad:
            _apply_units(r, table, units, decided, value_col, sd_col)
    return decided


def _percent_sign(r: SheetRecord, value_col: str) -> bool:
    """A value written with '%'."""
    m = r.measure(value_col)
    return m is not None and m.percent_sign


def _marked(r: SheetRecord, value_col: str) -> bool:
    """A value written with '%' or in an XLSX cell formatted as percent."""
    return _percent_sign(r, value_col) or value_col in r.xlsx_percent


def _refuse_marks_off_fraction_scale(records: list[SheetRecord], table: RawTable, value_col: str,
                                     sd_col: str) -> None:
    """A '%' on a metric that is not a fraction (a distance, kappa) is a cell problem."""
    for r in records:
        if r.get(value_col) is None or not r.get("metric"):
            continue
        scale = metric_scale(r["metric"])
        if scale == "fraction":
            continue
        if _percent_sign(r, value_col) or sd_col in r.percent:
            col = value_col if _percent_sign(r, value_col) else sd_col
            what = {"distance": "is a distance, not a fraction",
                    "decibel": "is a level in dB, not a fraction"}.get(
                scale, "lies in [-1, 1] and is never converted from percent")
            table.problem(r.row, r.name(col), r[col],
                          f"no '%' sign: {r['metric']!r} {what}", cell=True)
            r.mark_bad(col)


def _decide_auto(frac: list[SheetRecord], unmarked: list[SheetRecord], table: RawTable, where: str,
                 value_col: str) -> str:
    """``units: auto``: percent or fraction from the unmarked values, a minority flagged
    as implausible; 'refused' when both kinds are equally common or next to '%' cells."""
    small = [r for r in unmarked if abs(r[value_col]) <= 1]
    large = [r for r in unmarked if abs(r[value_col]) > 1]
    # XLSX percent-formatted cells store unambiguous fractions; only '%' text counts here
    pct_cells = [r for r in frac if _percent_sign(r, value_col)]
    if small and large and len(small) != len(large):
        decided = "percent" if len(large) > len(small) else "fraction"
        minority = small if decided == "percent" else large
        majority = large if decided == "percent" else small
        for r in minority:
            table.problem(r.row, _col(r, value_col), _fmt(r[value_col]), _implausible(
                r, value_col, majority, decided, "units: auto"), cell=True)
            r.mark_bad(value_col)
        table.note(None, _col(majority[0], value_col), None,
                   f"units auto-detected as {decided}: {len(majority)} of "
                   f"{len(unmarked)} unmarked fraction-scale values say so")
        return decided
    if small and large:
        table.problem(None, _col(small[0], value_col), None, _refusal(
            f"values <= 1 (e.g. row {small[0].row}: {_fmt(small[0][value_col])}) "
            f"and values > 1 (e.g. row {large[0].row}: {_fmt(large[0][value_col])})",
            where))
        return "refused"
    if small and pct_cells:
        table.problem(None, _col(small[0], value_col), None, _refusal(
            f"unmarked values <= 1 (e.g. row {small[0].row}: "
            f"{_fmt(small[0][value_col])}) next to percent cells (e.g. row "
            f"{pct_cells[0].row})", where))
        return "refused"
    if large:
        table.note(None, _col(large[0], value_col), None,
                   f"units auto-detected as percent: all {len(large)} unmarked "
                   "fraction-scale values are > 1")
        return "percent"
    if small:
        table.note(None, _col(small[0], value_col), None,
                   f"units auto-detected as fraction: all {len(small)} unmarked "
                   "fraction-scale values are <= 1")
    return "fraction"


def _check_declared_percent(unmarked: list[SheetRecord], table: RawTable, where: str,
                            value_col: str) -> str | None:
    """``units: percent``: values <= 1 among values > 1 are implausible cells; a whole
    column of values <= 1 is refused (dividing it by 100 would be silent)."""
    small = [r for r in unmarked if abs(r[value_col]) <= 1]
    large = [r for r in unmarked if abs(r[value_col]) > 1]
    if small and large:
        for r in small:
            table.problem(r.row, _col(r, value_col), _fmt(r[value_col]), _implausible(
                r, value_col, large, "percent", "units: percent"), cell=True)
            r.mark_bad(value_col)
    elif small:
        return _all_fractions(table, small, value_col, where)
    return None


def _check_declared_fraction(unmarked: list[SheetRecord], table: RawTable, where: str,
                             value_col: str) -> None:
    """``units: fraction`` on a sheet whose unmarked values are mostly in (1, 100]: the
    values look like percent, so the key is likely wrong; refused in one sheet-level line
    (read as fractions, every such cell would be a problem of its own, or with
    ``on_bad_cell: exclude`` an excluded paper)."""
    small = [r for r in unmarked if abs(r[value_col]) <= 1]
    large = [r for r in unmarked if 1 < abs(r[value_col]) <= 100]
    if len(large) <= len(small):
        return
    e = large[0]
    # one such value is one cell to look at: named by its row (several: the sheet's units)
    table.problem(e.row if len(large) == 1 else None, _col(e, value_col), None, (
        f"values as fractions (units: fraction in {where}), but {len(large)} of "
        f"{len(unmarked)} unmarked fraction-scale values lie in (1, 100] (e.g. row {e.row}: "
        f"{_fmt(e[value_col])}): they look like percent, so the units key is likely wrong; "
        "declare `units: percent` (or `units: auto`) for the venue"))
    for r in large:  # said once above, not again cell by cell; '%' cells still convert
        r.mark_bad(value_col)


def _apply_units(r: SheetRecord, table: RawTable, units: str, decided: str, value_col: str,
                 sd_col: str) -> None:
    """Divide one row's value (and its SD) by 100 where percent, with a note each."""
    if _percent_sign(r, value_col):
        why = "'%' sign"
    elif value_col in r.xlsx_percent:
        why = None
        table.note(r.row, _col(r, value_col), _fmt(r[value_col]),
                   "XLSX cell formatted as percent: its stored fraction is used")
    elif decided == "percent":
        why = f"units: {'percent' if units == 'percent' else 'auto -> percent'}"
    else:
        why = None
    value_pct = why is not None
    if value_pct:
        new = round(r[value_col] / 100.0, 12)
        table.note(r.row, _col(r, value_col), _fmt(r[value_col]),
                   f"{_fmt(r[value_col])} read as {_fmt(new)} (percent: {why})")
        r[value_col] = new
    sd = r.get(sd_col)
    if sd is None:
        return
    in_cell = sd_col in r.sd_in_cell
    if in_cell:
        sd_pct, sd_why = value_pct, why
    elif sd_col in r.percent:
        sd_pct, sd_why = True, "'%' sign"
    elif sd_col in r.xlsx_percent:
        sd_pct, sd_why = False, None
        table.note(r.row, _col(r, sd_col), _fmt(sd),
                   "XLSX cell formatted as percent: its stored fraction is used")
    else:
        sd_pct, sd_why = value_pct, "the row's value is percent"
    if sd_pct:
        new = round(sd / 100.0, 12)
        table.note(r.row, _col(r, value_col if in_cell else sd_col), _fmt(sd),
                   f"SD {_fmt(sd)} read as {_fmt(new)} (percent: {sd_why})")
        r[sd_col] = new


def _all_fractions(table: RawTable, small: list[SheetRecord], col: str, where: str) -> str:
    """Refuse `units: percent` for a column whose unmarked values are all <= 1."""
    table.problem(None, _col(small[0], col), None, (
        f"values in percent (units: percent in {where}), but all {len(small)} unmarked "
        f"fraction-scale values are <= 1 (e.g. row {small[0].row}: "
        f"{_fmt(small[0][col])}): they are fractions; declare `units: fraction` (or "
        "`units: auto`) for the venue"))
    return "refused"


def _col(rec: SheetRecord, col: str) -> str:
    return rec.name(col)


def _implausible(rec: SheetRecord, col: str, others: list[SheetRecord], unit: str, why: str) -> str:
    e = others[0]
    if unit == "percent":
        return (f"a value in percent like the other {len(others)} values (e.g. row "
                f"{e.row}: {_fmt(e[col])}; {why}); {_fmt(rec[col])} looks like a "
                f"fraction: write {_fmt(100 * rec[col])}, or '{_fmt(rec[col])}%' if it "
                "really is below 1 %")
    return (f"a fraction like the other {len(others)} values (e.g. row {e.row}: "
            f"{_fmt(e[col])}; {why}); {_fmt(rec[col])} looks like percent: write "
            f"{_fmt(rec[col] / 100)} or add a '%' sign, or declare `units: fraction` or "
            "`units: percent` for the venue")


def _refusal(what: str, where: str) -> str:
    return (f"one unit for all values, but the sheet mixes {what}; units: auto cannot tell "
            f"fractions from percent here. Declare `units: fraction` or `units: percent` in "
            f"{where} (cells with a '%' sign are always read as percent)")
