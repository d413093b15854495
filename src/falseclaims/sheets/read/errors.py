"""Errors of the sheet readers: the one :class:`~falseclaims.errors.Problem` and a thin
subclass of the one input error, kept so that callers can catch sheet errors by name."""

from __future__ import annotations

import stat
from collections.abc import Sequence
from pathlib import Path

from falseclaims.errors import FalseclaimsInputError, Problem

__all__ = ["Problem", "SheetValidationError", "CellError", "not_a_sheet_file"]


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


_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe (FIFO)"),
          (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"))


def not_a_sheet_file(path: str | Path, shown: str | None = None) -> Problem | None:
    """The problem of a sheet path that exists but is no regular file (a folder, a named
    pipe, a device), naming what it is: "not found" would send the user looking for a
    file that is there, and reading a pipe would wait for a writer. None otherwise (a
    missing file is the reader's "not found")."""
    try:
        mode = Path(path).stat().st_mode
    except OSError:
        return None
    what = next((name for test, name in _KINDS if test(mode)), None)
    if what is None:
        return None
    return Problem(shown or str(path), expected=f"a sheet file (CSV, TSV or XLSX); {path} "
                   f"is {what}")
