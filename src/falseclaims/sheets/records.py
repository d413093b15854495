"""One parsed data row of a sheet, as it passes from cell parsing (normalise.py) through the
layout, unit and row checks (wide.py, units.py, rows.py, reader.py) to the output tables.

``rec[col]`` / ``rec.get(col)`` are the parsed values of our columns; the attributes say
where a value came from and how it was written.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["SheetRecord"]

_NONE: frozenset = frozenset()


@dataclass(slots=True, eq=False)
class SheetRecord:
    """One data row after cell parsing.

    ``row``: spreadsheet row; ``their``: our column -> the user's column name;
    ``values``: our column -> parsed value (None when missing); ``measures``: the Measure
    (or list of Measures, for a split cell) of each metric cell; ``percent``: number
    columns written with a '%' sign; ``xlsx_percent``: columns whose XLSX cell is formatted
    as percent; ``parts``: the cell rule of each split value cell; ``sd_in_cell``: SD columns
    filled from the value cell ("0.85 ± 0.03"); ``bad``: columns with a problem already
    reported (later checks skip them).
    """

    row: int
    their: dict
    values: dict
    measures: dict = field(default_factory=dict)
    percent: frozenset | set = _NONE
    xlsx_percent: frozenset | set = _NONE
    parts: dict | None = None
    sd_in_cell: frozenset | set = _NONE
    bad: frozenset | set = _NONE

    def __getitem__(self, col: str):
        return self.values[col]

    def __setitem__(self, col: str, value) -> None:
        self.values[col] = value

    def get(self, col: str, default=None):
        return self.values.get(col, default)

    def name(self, col: str) -> str:
        """The user's name of our column ``col`` (for messages)."""
        return self.their.get(col, col)

    def mark_bad(self, col: str) -> None:
        """``col`` has a reported problem."""
        self.bad = self.bad | {col}

    def measure(self, col: str):
        return self.measures.get(col)
