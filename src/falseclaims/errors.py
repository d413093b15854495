"""Errors the user can fix by changing an input (sheet, per-case file, table, config).

Every reader reports a bad input the same way: a list of :class:`Problem` (where, what was
found, what was expected) in one :class:`FalseclaimsInputError`, whose message comes from
:func:`format_problems`. Pipeline steps report these as one ``ERROR`` block without a
Python traceback (``falseclaims.pipeline.run_step``); anything else is a bug and keeps its
traceback.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import KW_ONLY, dataclass

__all__ = ["FalseclaimsInputError", "Problem", "format_problems", "MAX_LISTED"]

MAX_LISTED = 30  # problems listed in a message; all are kept in ``.problems``


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input, located as the user sees it.

    ``row`` is the spreadsheet row or file line (header = 1, first data row = 2) or ``None``
    for file-level problems; ``column`` is the column name as written in the file (or a
    config key). ``sheet`` names a workbook sheet. A problem is either ``value`` (None: not
    shown) against ``expected``, or a free ``message`` saying what is wrong (e.g. "file not
    found").
    """

    file: str | None = None
    _: KW_ONLY  # Problem(file, row=..., column=...): no positional order to get wrong
    row: int | None = None
    column: str | None = None
    value: object = None
    expected: str = ""
    sheet: str | None = None
    message: str | None = None

    def __post_init__(self):
        if self.file is not None and not isinstance(self.file, str):
            object.__setattr__(self, "file", os.fspath(self.file)
                               if isinstance(self.file, os.PathLike) else str(self.file))

    def where(self) -> str:
        """'file, sheet 'S', row 3, column 'C'' (the parts that are known)."""
        parts = [] if self.file is None else [self.file]
        if self.sheet:
            parts.append(f"sheet '{self.sheet}'")
        if self.row is not None:
            parts.append(f"row {self.row}")
        if self.column:
            parts.append(f"column '{self.column}'")
        return ", ".join(parts)

    def __str__(self) -> str:
        where = self.where()
        if self.message is not None:
            return f"{where}: {self.message}" if where else self.message
        got = "" if self.value is None else f": got {self.value!r}"
        text = f"{where}{got}; expected {self.expected}"
        return text.removeprefix("; ") if not where and not got else text


def format_problems(problems: Sequence[Problem], subject: str = "the input",
                    context: str = "", hint: str | None = None) -> str:
    """The one message of an input error: a single problem on one line; several as
    "N problem(s) in <subject>:" and one "  - " line each (at most :data:`MAX_LISTED`).
    ``context`` (e.g. "venue 'x'") opens the message; ``hint`` ends it."""
    head = f"{context}: " if context else ""
    if len(problems) == 1:
        return head + str(problems[0]) + (f"; {hint}" if hint else "")
    lines = [f"{head}{len(problems)} problem(s) in {subject}:"]
    lines += [f"  - {p}" for p in problems[:MAX_LISTED]]
    if len(problems) > MAX_LISTED:
        lines.append(f"  - ... and {len(problems) - MAX_LISTED} more problem(s)")
    if hint:
        lines.append(f"  hint: {hint}")
    return "\n".join(lines)


class FalseclaimsInputError(ValueError):
    """A problem in the user's input; ``problems`` locates each one (file, sheet, row,
    column, value, expected). A plain string is one problem with that message."""

    def __init__(self, problems: str | Problem | Sequence[Problem] = (), *,
                 subject: str = "the input", context: str = "", hint: str | None = None):
        if isinstance(problems, str):
            problems = [Problem(message=problems)]
        elif isinstance(problems, Problem):
            problems = [problems]
        self.problems: list[Problem] = list(problems)
        self.subject, self.context, self.hint = subject, context, hint
        super().__init__(format_problems(self.problems, subject, context, hint))


class TableReadError(FalseclaimsInputError):
    """A results table (``falseclaims table``) that cannot be read; the message names file,
    table, row, column."""
