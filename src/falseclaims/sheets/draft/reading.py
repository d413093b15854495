"""How a text sheet was read, in words for ``sheet inspect`` and its review page: the
separator, the encoding and decimal commas, which the reader decides on its own (a German
Excel's ';'-separated Windows-1252 file with '0,85') and the user should see."""

from __future__ import annotations

import re
from pathlib import Path

from falseclaims.io.raw_reader import TEXT_SUFFIXES
from falseclaims.io.raw_table import is_missing
from falseclaims.io.textio import text_suffix

__all__ = ["text_reading"]

_SEP_WORDS = {",": "','-separated", ";": "';'-separated", "\t": "tab-separated"}
_DECIMAL_COMMA = re.compile(r"^\s*-?\d*,\d+\s*%?\s*(?:(?:±|\+/-|\()\s*\d*,?\d+\)?)?\s*$")


def text_reading(path: Path, t, columns) -> str | None:
    """'';'-separated, Windows-1252 (not UTF-8), decimal commas in D, E' for a text
    file; None for a workbook. ``columns``: the column guesses (their roles say which
    columns hold values, where a comma is a decimal comma)."""
    suffix = text_suffix(path)
    if suffix not in TEXT_SUFFIXES:
        return None
    notes = [n["note"] for n in t.notes if n["row"] is None and n["column"] is None]
    sep = TEXT_SUFFIXES[suffix]
    if any(n.startswith("';'-separated") for n in notes):
        sep = ";"
    elif any("tab-separated" in n for n in notes):
        sep = "\t"
    words = [_SEP_WORDS.get(sep, repr(sep) + "-separated")]
    coded = [n.split(";")[0].removeprefix("file is ") for n in notes
             if n.startswith("file is ")]
    words.append(", ".join(coded) if coded else "UTF-8")
    commas = [c.letter for k, c in enumerate(columns)
              if c.role.startswith(("value", "sd"))
              and any(isinstance(row[k], str) and not is_missing(row[k])
                      and _DECIMAL_COMMA.match(row[k]) for _, row in t.rows)]
    words.append(f"decimal commas in {', '.join(commas)}" if commas else "decimal points")
    return "; ".join(words)
