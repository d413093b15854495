"""One parsed data row of a sheet, as it passes from cell parsing (normalise.py) through the
layout, unit and row checks (wide.py, units.py, rows.py, reader.py) to the output tables.

A :class:`SheetRecord` maps our column names to parsed values (``rec[col]``,
``rec.get(col)``); its attributes say where the row came from and how its cells were
written. It is a ``dict`` with slots, not a dict and an object: a results table of 10^6
rows keeps one container per row.
"""

from __future__ import annotations

__all__ = ["SheetRecord"]


class SheetRecord(dict):
    """One data row after cell parsing: our column -> parsed value (None when missing).

    ``row``: spreadsheet row; ``their``: our column -> the user's column name (shared by
    the rows of a table); ``measures``: the Measure of each metric cell that says more than
    its value (an SD in the cell, a '%' sign) and the list of Measures of a split cell, or
    None; ``percent``: number columns written with a '%' sign; ``xlsx_percent``: columns
    whose XLSX cell is formatted as percent; ``parts``: the cell rule of each split value
    cell, or None; ``sd_in_cell``: SD columns filled from the value cell ("0.85 ± 0.03");
    ``bad``: columns with a problem already reported (later checks skip them).
    """

    __slots__ = ("row", "their", "measures", "percent", "xlsx_percent", "parts", "sd_in_cell",
                 "bad")

    def __init__(self, row: int, their: dict, values=(), *, measures: dict | None = None,
                 percent: tuple = (), xlsx_percent: tuple = (), parts: dict | None = None,
                 sd_in_cell: tuple = (), bad: tuple = ()):
        super().__init__(values)
        self.row, self.their, self.measures, self.parts = row, their, measures, parts
        self.percent, self.xlsx_percent = tuple(percent), tuple(xlsx_percent)
        self.sd_in_cell, self.bad = tuple(sd_in_cell), tuple(bad)

    def __repr__(self) -> str:
        return f"SheetRecord(row={self.row}, {dict.__repr__(self)}, bad={self.bad})"

    def clone(self) -> SheetRecord:
        """A copy whose values and measures can change without touching this record."""
        return SheetRecord(self.row, self.their, self,
                           measures=dict(self.measures) if self.measures else None,
                           percent=self.percent, xlsx_percent=self.xlsx_percent,
                           parts=self.parts, sd_in_cell=self.sd_in_cell, bad=self.bad)

    def name(self, col: str) -> str:
        """The user's name of our column ``col`` (for messages)."""
        return self.their.get(col, col)

    def mark_bad(self, col: str) -> None:
        """``col`` has a reported problem."""
        if col not in self.bad:
            self.bad += (col,)

    def mark(self, flag: str, col: str) -> None:
        """Add ``col`` to the ``percent``, ``xlsx_percent`` or ``sd_in_cell`` columns."""
        cols = getattr(self, flag)
        if col not in cols:
            setattr(self, flag, cols + (col,))

    def measure(self, col: str):
        """The Measure of metric cell ``col``; None when the cell holds a bare number."""
        return None if self.measures is None else self.measures.get(col)

    def set_measure(self, col: str, m) -> None:
        """Keep ``m`` (a Measure, a list of them, or None) if it says more than the value
        (one dict for the few cells that do, none for a table of bare numbers)."""
        if m is None or not isinstance(m, list) and m.sd is None and not m.percent_sign:
            if self.measures and col in self.measures:
                del self.measures[col]
            return
        if self.measures is None:
            self.measures = {}
        self.measures[col] = m
