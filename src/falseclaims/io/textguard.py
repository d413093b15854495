"""Checks of a text sheet before it is split into cells, beyond the text-table policy of
:mod:`falseclaims.io.textio` (gzip, encodings, binary files, separators): control characters
and more records than a sheet may hold. Each gives one line naming what and where."""

from __future__ import annotations

import re

__all__ = ["MAX_ROWS", "control_problem", "too_many_rows", "text_ok", "first_lines"]

MAX_ROWS = 1_048_576  # records of a text sheet: Excel's own limit of rows
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def control_problem(text: str) -> tuple[int, str] | None:
    """(line, expected) of the first control character (NUL, ...) in a text sheet."""
    m = _CONTROL.search(text)
    if m is None:
        return None
    line = text.count("\n", 0, m.start()) + 1
    return line, (f"text without control characters (line {line} holds "
                  f"{m.group()!r}, which no table cell should; remove it)")


def too_many_rows(text: str) -> int | None:
    """The number of lines when it exceeds :data:`MAX_ROWS` (counted before splitting)."""
    n = text.count("\n") + (not text.endswith("\n"))
    return n if n > MAX_ROWS + 1 else None  # + the header row


def text_ok(t, text: str) -> bool:
    """False (one problem on the RawTable ``t``) for a control character or more rows
    than a sheet holds."""
    bad = control_problem(text)
    if bad:
        t.problem(bad[0], None, None, bad[1])
        return False
    n = too_many_rows(text)
    if n:
        t.problem(None, None, None, f"a sheet of at most {MAX_ROWS:,} rows (Excel's limit); "
                                    f"this file has {n:,} lines")
        return False
    return True


def first_lines(text: str, n: int) -> str:
    """The first ``n`` lines of ``text`` (a quick look at a large file)."""
    pos = -1
    for _ in range(n):
        pos = text.find("\n", pos + 1)
        if pos < 0:
            return text
    return text[:pos + 1]
