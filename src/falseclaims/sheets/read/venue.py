"""One venue's block of config ``venues:``, typed: read from the config once, with the
defaults of venues.schema.yaml's documentation filled in, so that the reader's steps use
attributes and no string keys (the block's own mappings, such as ``columns:`` or
``values:``, stay the user's mappings)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any


@dataclass(frozen=True)
class Venue:
    papers: str
    layout: str = "long"
    units: str = "auto"
    label: str | None = None
    papers_sheet: str | None = None
    results: str | None = None
    results_sheet: str | None = None
    header_row: int = 1
    header_rows: int = 1
    results_header_row: int | None = None
    results_header_rows: int | None = None
    cell_overrides: Any = None
    split_cells: Any = None
    group_rows_by_id: bool = False
    derive: dict = field(default_factory=dict)
    columns: dict = field(default_factory=dict)
    constants: dict = field(default_factory=dict)
    skip_rows_where: dict = field(default_factory=dict)
    id: Any = None
    values: dict | None = None
    cells: dict | None = None
    on_bad_cell: str = "stop"

    @classmethod
    def from_config(cls, block: dict) -> Venue:
        """The venue of a validated block (an absent or null key takes its default)."""
        given = {f.name: block[f.name] for f in fields(cls) if block.get(f.name) is not None}
        for key in ("header_row", "header_rows", "results_header_row", "results_header_rows"):
            if key in given:
                given[key] = int(given[key])
        if "group_rows_by_id" in given:
            given["group_rows_by_id"] = bool(given["group_rows_by_id"])
        return cls(**given)

    def header(self, kind: str) -> tuple[int, int]:
        """(header row, header rows) of the ``kind`` table: the long layout's results table
        may have its own (``results_header_row`` / ``results_header_rows``; absent: the
        papers table's)."""
        if kind == "results":
            return (self.results_header_row or self.header_row,
                    self.results_header_rows or self.header_rows)
        return self.header_row, self.header_rows

    def file(self, kind: str) -> tuple[str, str | None]:
        """(file, sheet) of the papers (``papers`` / ``wide``) or ``results`` table."""
        if kind == "results":
            return self.results, self.results_sheet
        return self.papers, self.papers_sheet
