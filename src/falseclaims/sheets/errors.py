"""Validation problems of extraction sheets, collected and raised all at once."""

from __future__ import annotations

from dataclasses import dataclass

from falseclaims.errors import FalseclaimsInputError

__all__ = ["Problem", "SheetValidationError", "CellError"]


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a sheet, located as the user sees it.

    ``row`` is the spreadsheet row number (header = row 1, first data row = row 2) or
    ``None`` for sheet-level problems; ``column`` is the column name as written in the file.
    """

    file: str
    sheet: str | None
    row: int | None
    column: str | None
    value: object
    expected: str

    def __str__(self) -> str:
        where = [self.file]
        if self.sheet:
            where.append(f"sheet '{self.sheet}'")
        if self.row is not None:
            where.append(f"row {self.row}")
        if self.column:
            where.append(f"column '{self.column}'")
        got = "" if self.value is None else f": got {self.value!r}"
        return f"{', '.join(where)}{got}; expected {self.expected}"


class SheetValidationError(FalseclaimsInputError):
    """Raised with every problem found in a venue's sheets (not only the first)."""

    def __init__(self, problems: list[Problem], venue: str = ""):
        self.problems = list(problems)
        self.venue = venue
        head = f"venue '{venue}': " if venue else ""
        lines = [f"{head}{len(self.problems)} problem(s) in the extraction sheets:"]
        lines += [f"  - {p}" for p in self.problems]
        super().__init__("\n".join(lines))


class CellError(ValueError):
    """A single cell could not be read; ``expected`` says what would have been valid."""

    def __init__(self, expected: str):
        self.expected = expected
        super().__init__(expected)
