"""Checks of a text sheet before it is split into cells: its encoding, binary files, control
characters, a tab-separated file named ``.csv``, a quote that is never closed, and more
records than a sheet may hold. Each gives one line naming what and where."""

from __future__ import annotations

import re

__all__ = ["MAX_ROWS", "binary_problem", "control_problem", "looks_tab_separated",
           "too_many_rows", "text_ok", "first_lines", "text_encoding"]

MAX_ROWS = 1_048_576  # records of a text sheet: Excel's own limit of rows
# bytes no text file holds (NUL and the C0 controls other than tab, LF, CR; DEL)
_CONTROL_BYTES = bytes([*range(0, 9), 11, 12, *range(14, 32), 127])
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def binary_problem(raw: bytes) -> str | None:
    """What to expect instead, when ``raw`` (not UTF-16) is not a text file."""
    if raw[:4] == b"PK\x03\x04":
        return ("a text file (this one is a zip archive: an .xlsx workbook under a text "
                "name? give it its .xlsx name)")
    head = raw[:65536]
    control = len(head) - len(head.translate(None, _CONTROL_BYTES))
    if control > max(8, len(head) // 100):
        return (f"a text file (this one is not: {control:,} control bytes in its first "
                f"{len(head):,}; a binary file, or a spreadsheet saved in another format)")
    return None


def control_problem(text: str) -> tuple[int, str] | None:
    """(line, expected) of the first control character (NUL, ...) in a text sheet."""
    m = _CONTROL.search(text)
    if m is None:
        return None
    line = text.count("\n", 0, m.start()) + 1
    return line, (f"text without control characters (line {line} holds "
                  f"{m.group()!r}, which no sheet cell should; remove it)")


def looks_tab_separated(header: str) -> bool:
    """A '.csv' whose header has tabs and more of them than ',' and ';'."""
    tabs = header.count("\t")
    return tabs > 0 and tabs > header.count(",") and tabs > header.count(";")


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


def text_encoding(raw: bytes, t) -> tuple[str, str] | None:
    """(encoding, errors) of a text file: UTF-8 (with or without BOM), UTF-16 (BOM or NUL
    bytes), else Windows-1252 (noted); None (a problem) when it is none of these."""
    if raw[:2] in (b"\xff\xfe", b"\xfe\xff"):
        t.note(None, None, None, "file is UTF-16 (byte-order mark); decoded as UTF-16")
        return "utf-16", "strict"
    head = raw[:4096]
    if head and head.count(b"\x00") > len(head) // 4:
        enc = "utf-16-le" if head[1:2] == b"\x00" else "utf-16-be"
        try:
            raw.decode(enc)
        except UnicodeDecodeError:
            t.problem(None, None, None, "a text file in UTF-8 (this one holds NUL bytes: "
                                        "UTF-16 or binary?); save it as CSV UTF-8")
            return None
        t.note(None, None, None, f"file is UTF-16 without byte-order mark; decoded as {enc}")
        return enc, "strict"
    try:
        raw.decode("utf-8-sig")
        return "utf-8-sig", "strict"
    except UnicodeDecodeError:
        t.note(None, None, None, "file is not UTF-8; read as Windows-1252 (save as UTF-8 "
                                 "to avoid this)")
        return "cp1252", "replace"
