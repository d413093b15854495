"""Errors of the sheet readers: the one :class:`~falseclaims.errors.Problem` and a thin
subclass of the one input error, kept so that callers can catch sheet errors by name."""

from __future__ import annotations

from collections.abc import Sequence

from falseclaims.errors import FalseclaimsInputError, Problem

__all__ = ["Problem", "SheetValidationError", "CellError"]


class SheetValidationError(FalseclaimsInputError):
    """Raised with every problem found in a venue's sheets (not only the first)."""

    def __init__(self, problems: str | Sequence[Problem], venue: str = ""):
        self.venue = venue
        super().__init__(problems, subject="the extraction sheets",
                         context=f"venue '{venue}'" if venue else "")


class CellError(FalseclaimsInputError):
    """A single cell could not be read; ``expected`` says what would have been valid (the
    reader adds file, row and column when it turns this into a :class:`Problem`)."""

    def __init__(self, expected: str):
        self.expected = expected
        super().__init__([Problem(expected=expected)])
