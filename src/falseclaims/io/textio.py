"""One reader for the text tables users bring: survey sheets, per-case files, estimation
inputs and table-mode files (CSV/TSV, optionally gzip-compressed).

One policy for all of them (docs/robustness.md, "Text tables"):

- **compression**: a gzip file (magic bytes ``1f 8b``, whatever its name; ``x.csv.gz``
  names the format by ``.csv``) is read decompressed, with a note;
- **encoding**: UTF-8 with or without byte-order mark; UTF-16 with a byte-order mark, or
  without one when its NUL bytes show it (noted); anything else is read as Windows-1252
  with a note (never silently); a zip archive or a binary file is refused;
- **separator**: a tab for ``.tsv``/``.tab``/``.txt``; for ``.csv`` a ``,`` unless the
  header has more ``;`` than ``,`` (``;``-separated, noted) or more tabs than both (noted);
- **decimal commas** (``0,85``) in the columns a caller reads as numbers: read as decimal
  points (one note per column) in ``;``- and tab-separated files; in a ``,``-separated file
  such a (quoted) cell is ambiguous and the caller's number check refuses it naming file,
  row and column with :data:`DECIMAL_COMMA_EXPECTED`;
- **exports** (docs/robustness.md, "Text exports"): CR, LF and CR LF line ends alike; a
  first line ``sep=;`` declares the separator (skipped, noted); text padded with NUL
  bytes, or a file whose last 64 KB are NUL (sparse), is refused, the latter before it is
  read; :func:`decode` drops a trailing Ctrl-Z (noted); :func:`read_frame` drops trailing
  unnamed columns with no value and empty fields past the header in every row (noted;
  sheets drop unnamed empty columns in :mod:`.raw_table`) and refuses a control character
  naming its line;
- **notes** have one wording (the ``NOTE_*`` texts below) wherever a file was read with a
  fallback; callers add the file name in their own form (a column of ``notes.csv``, or
  ``"<file>: "`` in front of a per-case note).

A file that cannot be read raises :class:`TextProblem` (what was expected, and the row
when known); each caller turns it into its own error type. Checks of which columns and
values a file must hold stay with the callers.

Two fast paths, written once here: :func:`read_frame` (pandas' C parser, every cell as
text) for per-case, estimation and table-mode files, and :func:`split_records` (records
with their record numbers, split with ``str`` methods when the text has no quotes, else the
csv module) for survey sheets, which keep row numbers and formulas.
"""

from __future__ import annotations

import csv
import gzip
import io
import re
import zlib
from operator import methodcaller
from pathlib import Path

from falseclaims.io.textguard import control_problem

__all__ = ["TextProblem", "GZIP_MAGIC", "SEPARATORS", "NOTE_GZIP", "NOTE_UTF16_BOM",
           "NOTE_CP1252", "NOTE_SEMICOLON", "NOTE_TAB", "DECIMAL_COMMA",
           "DECIMAL_COMMA_EXPECTED", "duplicated_names", "is_gzip", "text_suffix", "read_bytes",
           "decode",
           "binary_problem", "sniff_separator", "semicolon_separated", "looks_tab_separated",
           "decimal_note", "decimal_commas", "read_frame", "first_line", "sep_line", "NOTE_EMPTY_COLUMNS",
           "rename_columns", "split_records",
           "csv_records", "encoding_of", "MAX_GZIP_BYTES"]

GZIP_MAGIC = b"\x1f\x8b"
SEPARATORS = {".csv": ",", ".tsv": "\t", ".tab": "\t", ".txt": "\t"}

NOTE_GZIP = "gzip-compressed; read decompressed"
NOTE_UTF16_BOM = "file is UTF-16 (byte-order mark); decoded as UTF-16"
NOTE_UTF16_NO_BOM = "file is UTF-16 without byte-order mark; decoded as {encoding}"
NOTE_CP1252 = "file is not UTF-8; read as Windows-1252 (save as UTF-8 to avoid this)"
NOTE_CTRL_Z = "file ends in Ctrl-Z (an old DOS end-of-file mark); dropped"
NOTE_SEMICOLON = "';'-separated file (header has more ';' than ',')"
NOTE_TAB = ("file named .csv looks tab-separated (header has more tabs than ',' and ';'); "
            "read as tab-separated")

DECIMAL_COMMA = re.compile(r"[+-]?\d*,\d+")
DECIMAL_COMMA_EXPECTED = ("a number with a decimal point (a decimal comma inside a "
                          "','-separated file is ambiguous: write 0.85, or save the file "
                          "';'-separated)")

# bytes no text file holds (NUL and the C0 controls other than tab, LF, CR; DEL)
_CONTROL_BYTES = bytes([*range(0, 9), 11, 12, *range(14, 32), 127])


class TextProblem(ValueError):
    """A text table that cannot be read: ``expected`` says what it should be."""

    def __init__(self, expected: str, row: int | None = None, value=None):
        super().__init__(expected)
        self.expected, self.row, self.value = expected, row, value


# ---------------------------------------------------------------- bytes and encodings
def is_gzip(path) -> bool:
    """True for a gzip-compressed file (by its magic bytes, whatever its name)."""
    with open(path, "rb") as fh:
        return fh.read(2) == GZIP_MAGIC


def text_suffix(path) -> str:
    """The suffix that names the text format: '.tsv' for both 'x.tsv' and 'x.tsv.gz'."""
    p = Path(path)
    return (Path(p.stem).suffix if p.suffix.lower() == ".gz" else p.suffix).lower()


# a resource limit, not an assumption: a 100 KB gzip of one repeated line can unpack to
# gigabytes (a gzip bomb); 100 MB of text is millions of per-case rows
MAX_GZIP_BYTES = 100 * 2**20


def require_regular_file(path, what: str, folder_hint: str = "") -> Path:
    """``path`` when it names a regular file or nothing yet (the reader says "not found");
    else the one error that says what it is: '-' (standard input is not read), a directory,
    or a pipe or a device (a FIFO was "file not found", /dev/null "unsupported file type")."""
    p = Path(path)
    keep = "save it to a file and give the file's name"
    if str(path) == "-":
        raise ValueError(f"-: standard input is not read; {keep}")
    if p.is_dir():
        raise ValueError(f"{p}: is a directory, expected a {what}{folder_hint}")
    if p.exists() and not p.is_file():
        raise ValueError(f"{p}: is not a regular file (a pipe or a device?); {keep}")
    return p


def read_bytes(path, notes: list[str]) -> bytes:
    """The file's bytes, decompressed when it is gzip (noted; at most ``MAX_GZIP_BYTES``)."""
    if (bad := _nul_tail(path)) is not None:
        raise TextProblem(bad)
    raw = Path(path).read_bytes()
    if raw[:2] != GZIP_MAGIC:
        return raw
    limit = MAX_GZIP_BYTES  # read at call time (tests lower it)
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(raw)) as fh:
            raw = fh.read(limit + 1)  # never more than the limit in memory
    except (OSError, EOFError, zlib.error) as exc:
        raise TextProblem(f"a readable gzip file ({exc})") from None
    if len(raw) > limit:
        raise TextProblem(f"a gzip file that unpacks to at most {limit // 2**20:,} MB (this one "
                          "unpacks to more: unpack it yourself if it is meant to be read)")
    notes.append(NOTE_GZIP)
    return raw


_NUL_WHY = ("a file not completely written or copied, or a preallocated or sparse one; copy "
            "it again from where it was made")


# a text file whose last block is all NUL bytes is refused before the whole is read: a
# sparse file that says 1 GB (a failed download or copy) held the memory and then crashed
# the csv module ("field larger than field limit")
_TAIL_BYTES = 65536


def _nul_tail(path) -> str | None:
    """The problem of a file whose last block is only NUL bytes (read: that block)."""
    with open(path, "rb") as fh:
        size = fh.seek(0, 2)
        if size <= _TAIL_BYTES:
            return None  # read whole, and binary_problem counts the padding exactly
        fh.seek(size - _TAIL_BYTES)
        tail = fh.read()
    if tail.count(0) < len(tail):
        return None
    return (f"a text file (this one's last {_TAIL_BYTES:,} of {size:,} bytes are NUL bytes: "
            f"{_NUL_WHY})")


def binary_problem(raw: bytes) -> str | None:
    """What to expect instead, when ``raw`` (not UTF-16) is not a text file."""
    if raw[:4] == b"PK\x03\x04":
        return ("a text file (this one is a zip archive: an .xlsx workbook under a text "
                "name? give it its .xlsx name)")
    body = raw.rstrip(b"\x00")
    pad = len(raw) - len(body)
    if pad and body and len(body[:65536].translate(None, _CONTROL_BYTES)) == len(body[:65536]):
        # text, then only NULs: padding, not a binary file
        return (f"a text file (this one ends in {pad:,} NUL bytes from byte {len(body):,} "
                f"on: {_NUL_WHY})")
    head = raw[:65536]
    control = len(head) - len(head.translate(None, _CONTROL_BYTES))
    if control > max(8, len(head) // 100):
        return (f"a text file (this one is not: {control:,} control bytes in its first "
                f"{len(head):,}; a binary file, or a spreadsheet saved in another format)")
    return None


def _utf16_nuls(raw: bytes) -> bool:
    """NUL bytes as UTF-16 text without a byte-order mark has them: over a quarter of the
    first 4 KB, and not only at the end (a text padded with NULs, an incompletely written
    or preallocated file, was decoded as UTF-16 into one column of CJK-looking
    characters)."""
    head = raw[:4096]
    if not head or head.count(b"\x00") <= len(head) // 4:
        return False
    return b"\x00" in raw[:4096].rstrip(b"\x00")


def encoding_of(raw: bytes, notes: list[str]) -> tuple[str, str]:
    """(encoding, errors) of a text file's bytes under the module's policy (noted)."""
    if raw[:2] in (b"\xff\xfe", b"\xfe\xff"):
        notes.append(NOTE_UTF16_BOM)
        return "utf-16", "strict"
    head = raw[:4096]
    if _utf16_nuls(raw):
        enc = "utf-16-le" if head[1:2] == b"\x00" else "utf-16-be"
        try:
            raw.decode(enc)
        except UnicodeDecodeError:
            raise TextProblem("a text file in UTF-8 (this one holds NUL bytes: UTF-16 or "
                              "binary?); save it as CSV UTF-8") from None
        notes.append(NOTE_UTF16_NO_BOM.format(encoding=enc))
        return enc, "strict"
    try:
        raw.decode("utf-8-sig")
        return "utf-8-sig", "strict"
    except UnicodeDecodeError:
        notes.append(NOTE_CP1252)
        return "cp1252", "replace"


def decode(raw: bytes, notes: list[str]) -> tuple[str, tuple[str, str]]:
    """(text, (encoding, errors)) of a text file's bytes; a workbook or a binary file is
    refused (:class:`TextProblem`)."""
    if raw[:4] == b"PK\x03\x04":  # a workbook under a text name (before UTF-16 sniffing)
        raise TextProblem(binary_problem(raw))
    encoding = encoding_of(raw, notes)
    if not encoding[0].startswith("utf-16") and (bad := binary_problem(raw)):
        raise TextProblem(bad)
    text = raw.decode(*encoding)
    if text.endswith("\x1a"):
        notes.append(NOTE_CTRL_Z)
        text = text[:-1]
    return text, encoding


# ---------------------------------------------------------------- separators
def semicolon_separated(header: str) -> bool:
    """A CSV header with more ';' than ',' is ';'-separated (spreadsheets in locales with a
    decimal comma write such files)."""
    return header.count(";") > header.count(",")


def looks_tab_separated(header: str) -> bool:
    """A '.csv' whose header has tabs and more of them than ',' and ';'."""
    tabs = header.count("\t")
    return tabs > 0 and tabs > header.count(",") and tabs > header.count(";")


def sniff_separator(header: str, suffix: str, notes: list[str]) -> str:
    """The separator of a text table from its name and header line (noted when sniffed)."""
    sep = SEPARATORS.get(suffix, ",")
    if sep == "," and semicolon_separated(header):
        notes.append(NOTE_SEMICOLON)
        return ";"
    if sep == "," and looks_tab_separated(header):
        notes.append(NOTE_TAB)
        return "\t"
    return sep


# ---------------------------------------------------------------- decimal commas
def decimal_note(n: int, column: str | None = None) -> str:
    where = "" if column is None else f"column {column!r}: "
    return f"{where}{n} decimal comma(s) read as decimal point(s)"


def decimal_commas(df, columns, sep: str, notes: list[str]) -> None:
    """Decimal commas (``0,85``) in ``columns`` of a text frame read as points, in place,
    one note per column; only in ';'- and tab-separated files (see the module's policy)."""
    if sep == ",":
        return
    for c in columns:
        decimal = df[c].str.fullmatch(DECIMAL_COMMA.pattern)
        if decimal.any():
            df[c] = df[c].where(~decimal, df[c].str.replace(",", ".", regex=False))
            notes.append(decimal_note(int(decimal.sum()), c))


# ---------------------------------------------------------------- frames (pandas)
def duplicated_names(names) -> list[str]:
    """The header names given more than once (after stripping spaces), in order."""
    seen: set[str] = set()
    twice: list[str] = []
    for name in (str(n).strip() for n in names):
        if name in seen and name not in twice:
            twice.append(name)
        seen.add(name)
    return twice


def first_line(text: str) -> str:
    """The text's first line, ended by CR, LF or CR LF (the separator is sniffed from it;
    a classic Mac file, CR only, has no LF at all)."""
    m = _LINE_END.search(text)
    return text if m is None else text[:m.start()]


_LINE_END = re.compile(r"\r\n?|\n")


def _header_cells(text: str, sep: str) -> list[str]:
    """The header's cells as the csv module splits them; ``newline=""`` lets it end lines
    at CR, LF or CR LF, as pandas does (a classic Mac "CSV (Macintosh)" file, CR only,
    crashed here with "new-line character seen in unquoted field")."""
    head = text[:1 << 20]  # a header is far shorter: no copy of a 10^6-row text
    if len(head) < len(text) and _LINE_END.search(head) is None:
        head = text
    return next(csv.reader(io.StringIO(head, newline=""), delimiter=sep), [])


def _trailing_unnamed(names) -> int:
    """How many columns at the end of the header have no name (a spreadsheet's export of
    formatted empty cells writes ``a,b,,,``)."""
    n = 0
    for name in reversed(list(names)):
        if str(name).strip():
            break
        n += 1
    return n


def _check_unique_header(names) -> None:
    """Refuse a header naming a column twice: pandas would rename the second 'alg_a' to
    'alg_a.1', a method the file never names."""
    twice = duplicated_names(names)
    if twice:
        raise TextProblem(f"each column name once in the header ({', '.join(map(repr, twice))}"
                          " given more than once)", 1)


NOTE_EMPTY_COLUMNS = ("{n} empty column(s) without a name at the end of the header dropped "
                      "(a spreadsheet's export writes them for formatted empty cells)")


def _drop_empty_trailing(df, unnamed: int, notes: list[str]):
    """(``df`` without its trailing unnamed columns that hold no value, how many were
    dropped; noted). Only the rows read are looked at (``nrows``); an unnamed column
    holding a value, and every column left of it, is kept for the caller's checks."""
    drop = 0
    for c in reversed(df.columns[len(df.columns) - unnamed:]):
        if (df[c].str.strip() != "").any():
            break
        drop += 1
    if drop:
        df = df.drop(columns=list(df.columns[len(df.columns) - drop:]))
        notes.append(NOTE_EMPTY_COLUMNS.format(n=drop))
    return df, drop


def read_frame(path, nrows: int | None = None):
    """(frame, separator, notes) of a text table: every cell a stripped string ('' for
    empty), column names stripped. ``nrows=0`` reads the header only. Unreadable files
    raise :class:`TextProblem` (a ragged row names its line)."""
    notes: list[str] = []
    raw = read_bytes(path, notes)
    text, (encoding, _) = decode(raw, notes)
    # UTF-8 and Windows-1252 keep the C0 controls as the bytes they are: looked for in the
    # bytes (C speed), located in the text only when there
    if encoding.startswith("utf-16") or len(raw.translate(None, _CONTROL_BYTES)) < len(raw):
        bad = control_problem(text)
        if bad:
            raise TextProblem(bad[1], bad[0])
    del raw
    declared, text = sep_line(text, notes)
    sep = declared or sniff_separator(first_line(text), text_suffix(path), notes)
    header = _header_cells(text, sep)
    unnamed = _trailing_unnamed(header)
    _check_unique_header(header[:len(header) - unnamed])
    df = _pandas_frame(text, sep, nrows, header, bool(declared), notes)
    dropped = 0
    if unnamed and len(df.columns) == len(header):
        df, dropped = _drop_empty_trailing(df, unnamed, notes)
    _check_unique_header(header[:len(header) - dropped])
    df.columns = [str(c).strip() for c in df.columns]
    for c in df.columns:
        df[c] = _stripped(df[c])
    return df, sep, notes


NOTE_PAST_HEADER = ("each row has {n} empty field(s) past the header's last column (a "
                    "spreadsheet's export of formatted empty cells): dropped")
NOTE_SEP_LINE = ("first line {line!r} (a separator declaration for Excel) read as the "
                 "separator and skipped; row numbers count from the header, as Excel shows them")
_SEP_LINE = re.compile(r"sep=(.)(?:\r\n?|\n)")


def sep_line(text: str, notes: list[str]) -> tuple[str | None, str]:
    """(declared separator, text without the line) of a text starting ``sep=;``: some
    programs write that line for Excel, which hides it (read as data, the file's only
    column was 'sep=')."""
    m = _SEP_LINE.match(text)
    if m is None or m[1] in "\"\r\n":
        return None, text
    notes.append(NOTE_SEP_LINE.format(line=m[0].rstrip()))
    return m[1], text[m.end():]


def _pandas_frame(text: str, sep: str, nrows: int | None, header: list[str], offset: bool,
                  notes: list[str]):
    """The text read by pandas' C parser, every cell as text. Rows that all run past the
    header (``a,b`` over ``1,2,,``) are read in full: pandas took their first fields as an
    index and shifted every value one column left, silently."""
    import pandas as pd

    def read(names=None):
        try:
            return pd.read_csv(io.StringIO(text), sep=sep, dtype=str, keep_default_na=False,
                               na_filter=False, nrows=nrows, names=names,
                               header=0 if names else "infer")
        except pd.errors.EmptyDataError:
            raise TextProblem("a header row") from None
        except pd.errors.ParserError as exc:
            m = re.search(r"Expected (\d+) fields in line (\d+), saw (\d+)", str(exc))
            if m is None:
                raise TextProblem(f"a readable CSV table ({exc})") from None
            shown = "tab" if sep == "\t" else repr(sep)
            raise TextProblem(f"{m[1]} fields like the header (a {shown} inside a value? "
                              "quote the value)", int(m[2]) - offset, f"{m[3]} fields") from None

    df = read()
    if isinstance(df.index, pd.RangeIndex):
        return df
    if header and str(header[0]).lstrip().startswith("#"):
        # one field over wider rows: a comment line above the header, not a header
        raise TextProblem("the header line (a comment line? the first line names the "
                          "columns: remove the lines above it)", 1, str(header[0])[:40])
    width = len(header)
    df = read(list(range(width + df.index.nlevels)))
    past = df.iloc[:, width:]
    filled = (past.apply(lambda c: c.str.strip()) != "").any(axis=1)
    if filled.any():
        i = int(filled.to_numpy().argmax())
        raise TextProblem(f"{width} fields like the header (a value past its last column: "
                          "name that column in the header)", i + 2,
                          f"{df.shape[1]} fields")
    df = df.iloc[:, :width].copy()
    df.columns = [h if h else f"Unnamed: {j}" for j, h in enumerate(header)]
    notes.append(NOTE_PAST_HEADER.format(n=past.shape[1]))
    return df


def _stripped(col):
    """``col.str.strip()``, rebuilt only when a cell changes (str.strip returns the same
    object for a clean cell; most files have no padding, and rebuilding costs)."""
    import pandas as pd

    vals = col.to_numpy(dtype=object)
    out = list(map(str.strip, vals))  # cells are str (read with dtype=str, no NA filter)
    if all(a is b for a, b in zip(vals, out)):
        return col
    return pd.Series(out, index=col.index, dtype=col.dtype)


def rename_columns(columns: list[str], mapping: dict[str, str] | None) -> list[str]:
    """The column names with ``mapping`` ({column in the file: our name}) applied; a mapped
    column the file lacks raises :class:`TextProblem` naming it and the file's columns."""
    if not mapping:
        return list(columns)
    missing = [c for c in mapping if c not in columns]
    if missing:
        raise TextProblem(f"a column {missing[0]!r} (mapped to {mapping[missing[0]]!r}); the "
                          f"file's columns are {', '.join(map(repr, columns))}")
    return [mapping.get(c, c) for c in columns]


# ---------------------------------------------------------------- records (sheets)
def split_records(text: str, sep: str, same: dict):
    """The records of a text: ``("columns", row numbers, columns)`` for a quote-free text of
    one width, ``("rows", grid)`` for other quote-free texts, or None (quotes, mixed line
    ends, NUL bytes or an over-long field: read with :func:`csv_records`). ``same`` maps
    each distinct cell text to one str object (sheets repeat ids, metric names, values)."""
    split = _split_columns(text, sep, same)
    if split is not None:
        return ("columns", *split)
    grid = _split_plain(text, sep, same)
    return None if grid is None else ("rows", grid)


def csv_records(path, encoding: tuple[str, str], sep: str, same: dict, grid: list,
                hint: str = "", skip_sep_line: bool = False):
    """Append (record number, cells) to ``grid`` with the csv module, streamed from the file
    (gzip included; a StringIO of the text would hold 4 bytes per character); returns
    (first line, last line) of the last record. A csv error raises :class:`TextProblem`
    naming the line (``hint`` ends its text)."""
    opener = gzip.open if is_gzip(path) else open
    with opener(path, "rt", encoding=encoding[0], errors=encoding[1], newline="") as fh:
        reader = csv.reader(fh, delimiter=sep)
        start = end = 0
        if skip_sep_line:  # Excel's 'sep=;' line (see sep_line): not a record
            fh.readline()
        try:
            # a row's number is its record number (csv line numbers count physical lines)
            for i, row in enumerate(reader, start=1):
                grid.append((i, [same.setdefault(c, c) for c in row]))
                start, end = end + 1, reader.line_num
        except csv.Error as exc:  # e.g. a field over csv.field_size_limit() characters
            raise TextProblem(f"a readable {'CSV' if sep != chr(9) else 'TSV'} record (line "
                              f"{reader.line_num}: {exc}{hint})", reader.line_num) from None
    return start, end


def _plain_lines(text: str) -> list[str] | None:
    """The records of a text without quote characters (None: quotes, mixed line ends or
    NUL bytes, read by the csv module)."""
    if '"' in text or "\x00" in text:
        return None
    if "\r" in text:
        crlf = text.count("\r\n")
        if text.count("\r") != crlf or text.count("\n") != crlf:
            return None  # mixed line ends
        lines = text.split("\r\n")
    else:
        lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the terminator of the last record
    if lines and max(map(len, lines)) > csv.field_size_limit():
        return None
    return lines


def _split_columns(text: str, sep: str, same: dict) -> tuple[list, list] | None:
    """(row numbers, columns) of a quote-free text whose records all have one width and no
    blank line (else None), split in blocks of about 1 MB with str methods: no list per
    row, and no string per line for the whole file at once."""
    if '"' in text or "\x00" in text:
        return None
    nl = "\n"
    if "\r" in text:
        crlf = text.count("\r\n")
        if text.count("\r") != crlf or text.count("\n") != crlf:
            return None  # mixed line ends
        nl = "\r\n"
    end = len(text) - len(nl) if text.endswith(nl) else len(text)
    if end <= 0:
        return None
    limit = csv.field_size_limit()
    columns: list[list] | None = None
    setdefault = same.setdefault
    n = pos = 0
    while pos <= end:
        stop = text.find(nl, min(pos + (1 << 20), end), end)
        stop = end if stop < 0 else stop
        chunk = text[pos:stop]
        lines = chunk.split(nl)
        if columns is None:
            width = lines[0].count(sep) + 1
            columns = [[] for _ in range(width)]
        if "" in lines or max(map(len, lines)) > limit \
                or not all(map((width - 1).__eq__, map(methodcaller("count", sep), lines))):
            return None
        n += len(lines)
        del lines
        flat = chunk.replace(nl, sep).split(sep) if nl != sep else chunk.split(sep)
        del chunk
        for j, col in enumerate(columns):
            part = flat[j::width]
            col.extend(map(setdefault, part, part))
        pos = stop + len(nl)
    return list(range(1, n + 1)), columns


def _split_plain(text: str, sep: str, same: dict) -> list | None:
    """Records of a text without quote characters, split with str methods: exactly what
    ``csv.reader`` returns for such a text (one record per line, no escapes), 5x faster.
    None when the text has quotes, mixed line ends, NUL bytes or a field longer
    than the csv module accepts (the csv module reads it, or reports the problem)."""
    lines = _plain_lines(text)
    if lines is None:
        return None
    setdefault = same.setdefault
    grid = []
    for i, line in enumerate(lines, start=1):
        if line:
            cells = line.split(sep)
            grid.append((i, list(map(setdefault, cells, cells))))
        else:
            grid.append((i, []))  # csv.reader: an empty line is an empty record
    return grid
