"""Errors of the per-case readers: every problem located by file, line, column and value."""

from __future__ import annotations

import os
from collections.abc import Sequence

from falseclaims.errors import FalseclaimsInputError
from falseclaims.sheets.errors import Problem as SheetProblem

PathLike = str | os.PathLike
MAX_LISTED = 30  # problems listed in the message; all are kept in .problems


def Problem(file, row, column, value, expected) -> SheetProblem:  # noqa: N802
    """A located problem in a per-case file (same form as the sheet readers', no sheet)."""
    return SheetProblem(str(file), None, row, column, value, expected)


class PerCaseValidationError(FalseclaimsInputError):
    """All problems found in per-case input; ``problems`` holds :class:`Problem` items."""

    def __init__(self, problems: Sequence[Problem], hint: str | None = None):
        self.problems = list(problems)
        self.hint = hint
        if len(self.problems) == 1:  # one line, e.g. the percent hint
            super().__init__(str(self.problems[0]) + (f"; {hint}" if hint else ""))
            return
        lines = [str(p) for p in self.problems[:MAX_LISTED]]
        more = len(self.problems) - MAX_LISTED
        if more > 0:
            lines.append(f"... and {more} more problem(s)")
        if hint:
            lines.append(f"hint: {hint}")
        super().__init__(
            f"{len(self.problems)} problem(s) in per-case input:\n  " + "\n  ".join(lines)
        )


