"""A results table's test-set sizes: the n column(s) (one per data-set group), the n row,
the size a column's header or the caption prints, and a given ``--n`` (one size, or one
per group) beside them; a given size that replaces a printed one, or is not used beside
it (``--dir``), is said. :mod:`falseclaims.table.model` asks it per table and column.
"""

from __future__ import annotations

import re

from falseclaims.io.cells import GROUPED, grouped_count
from falseclaims.table.cells import clean
from falseclaims.table.kinds import column_cells
from falseclaims.table.readers import RawTable
from falseclaims.table.rows import method_names, table_error

__all__ = ["MAX_N", "cell_size", "column_n", "grouped_count", "n_columns", "n_group", "n_row",
           "table_size"]


_N_HEADERS = re.compile(r"^(?:n|n_?test|n test|#? ?test(?: set)?(?: size| cases| images)?|"
                        r"test ?size|#? ?cases|n cases|n images|# ?images|n\s*\(test\)|"
                        # a count of the evaluated cases is the test-set size, never a score
                        r"(?:#|n|no\.?|number of)? ?(?:test )?(?:patients|subjects|participants)"
                        r")$")


MAX_N = 10**9  # the test-set size bound of every command (cli.conventions.MAX_N)


def cell_size(raw, text, where, h) -> int | None:
    """A printed test-set size (``120``, ``1e4``, ``1,512``, ``1 512``), or None for a
    missing cell."""
    t = clean(str(text)).strip()
    if t.lower() in ("", "-", "--", "n/a", "na", "–"):
        return None
    try:
        v = grouped_count(t)
    except ValueError as exc:
        raise table_error(raw, f"column {h!r}, {where}: test-set size {exc}") from None
    try:
        v = float(t) if v is None else v
    except ValueError:
        raise table_error(raw, f"column {h!r}, {where}: test-set size {text!r} is not a number"
                   ) from None
    if v != v or v != int(v) or v < 2:
        raise table_error(raw, f"column {h!r}, {where}: test-set size {text!r} is not a whole number "
                        ">= 2")
    if v > MAX_N:
        raise table_error(raw, f"column {h!r}, {where}: test-set size {text!r} is above the limit "
                        f"of 10^9")
    return int(v)


def n_group(h: str) -> str | None:
    """``''`` for an n column of the whole table, the group for ``BTCV n``, else None."""
    low = h.strip().lower()
    if _N_HEADERS.match(low):
        return ""
    words = low.split()
    for k in range(1, len(words)):
        if _N_HEADERS.match(" ".join(words[k:])):
            return " ".join(h.split()[:k])
    return None


def n_columns(raw: RawTable, used: set[int]) -> dict[int, tuple[str, int]]:
    """{column: (group, n)} of the n columns (all rows equal: one test set)."""
    out = {}
    for j, h in enumerate(raw.header):
        group = n_group(h) if j not in used else None
        if group is None or _scores(raw, j):
            continue
        sizes = {v for i, r in enumerate(raw.rows)
                 if (v := cell_size(raw, r[j], raw.where[i], h)) is not None}
        if len(sizes) > 1:
            raise table_error(raw, f"column {h!r}: test-set sizes differ ({sorted(sizes)}); the "
                            "comparison needs one test set shared by all methods")
        if sizes:
            out[j] = (group, sizes.pop())
    return out


def _scores(raw: RawTable, j: int) -> bool:
    """Every filled cell a score, not a count (``79.37\\% $\\pm$ 0.00\\%`` under ``Test``
    beside ``Train``, a split, not the test-set size): the column is no n column."""
    cells = [c for c in column_cells(raw, j) if c.raw.strip()]
    return bool(cells) and all(c.numeric and (c.percent or c.sd is not None or c.decimals)
                               and not GROUPED.fullmatch(clean(c.raw).strip()) for c in cells)


def _group_of(h: str, raw: RawTable, keys) -> str | None:
    """The one ``--n`` key named by the column header, else by the row group or caption. A
    key that another column's header names is that column's: the caption names it for that
    column ("TNBC is patient-macro transfer"), not for its neighbours."""
    def names(k, where):
        return re.search(rf"(?<![A-Za-z0-9]){re.escape(k)}(?![A-Za-z0-9])", where or "", re.I)

    headed = {k for k in keys if k for other in raw.header if other != h and names(k, other)}
    for where in (h, raw.group, raw.caption):
        hit = [k for k in keys if k and names(k, where)
               and (where == h or where == raw.group or k not in headed)]
        if len(hit) > 1:
            raise table_error(raw, f"column {h!r}: names several --n groups ({', '.join(hit)})")
        if hit:
            return hit[0]
    return None


def n_row(raw: RawTable, method_j: int, notes: list[str]) -> tuple[RawTable, dict]:
    """The table without its n row (``n & 30 & 30 & 100``) and {column: size}."""
    names = method_names(raw, method_j)  # once: per row it made a 3,000-row table quadratic
    for i, r in enumerate(raw.rows):
        if _N_HEADERS.match(names[i].lower()):
            sizes = {j: cell_size(raw, c, raw.where[i], raw.header[j]) for j, c in enumerate(r)
                     if j != method_j}
            notes.append(f"{raw.where[i]}: test-set sizes per column (an n row)")
            return RawTable(raw.source, raw.name, raw.format, raw.header,
                            raw.rows[:i] + raw.rows[i + 1:], raw.where[:i] + raw.where[i + 1:],
                            raw.bold[:i] + raw.bold[i + 1:] if raw.bold else [], raw.notes,
                            raw.caption, raw.group), sizes
    return raw, {}


# a test-set size printed in a column's header: "Internal (n=500)", "External (N = 1,024)"
# a size's digits: 1,024 / 1.024 / 1 024 (space, no-break, thin) / 1'024 / 1024
_GROUPS = (r"[1-9]\d{0,2}(?:,\d{3}){1,3}|[1-9]\d{0,2}(?:\.\d{3}){1,3}|"
           r"[1-9]\d{0,2}(?:[ \u00a0\u2009\u202f]\d{3}){1,3}|[1-9]\d{0,2}(?:['’]\d{3}){1,3}")


_COUNT = _GROUPS + r"|\d{1,10}"


_HEADER_N = re.compile(r"\(\s*[nN]\s*=\s*(" + _COUNT + r")\s*\)")


# "n = 50" in a caption or heading ("(test set, n = 50)", "internal (n=412) and external
# (n=198)"), not a count of repetitions or readers ("n = 5 runs", "n=3 radiologists")
_CAPTION_N = re.compile(r"(?<![A-Za-z])[nN]\s*=\s*(" + _COUNT + ")"
                        r"(?![\d,]|\.\d|[eE]\d|\s*(?:\^|×|\\times|x)\s*\d)"
                        r"(?!\s*-?\s*(?:runs?|seeds?|folds?|repeats?|repetitions?|trials?|"
                        r"epochs?|iterations?|shots?|experiments?|times|readers?|raters?|"
                        r"annotators?|radiologists?|observers?|models?|methods?|classes)\b|"
                        r"\s*-\s*fold)")


# a count of test items: "12 test scans", "test set (120 CT scans)", "the testing set
# includes 20 scans"; never a count without the word test (training sets print them too)
_TEST_ITEMS = (r"(?:scans|images|patients|cases|subjects|volumes|slides|studies|exams|"
               r"samples|eyes|lesions|nodules|videos|recordings|pairs)\b")


_TEST_COUNT = re.compile(
    rf"(?<![\d,.])({_GROUPS}|\d{{1,9}})\s+(?:held-?out\s+|test(?:ing)?\s+)(?:[A-Za-z-]+\s+)?"
    rf"{_TEST_ITEMS}|(?:\btest(?:ing)?\b|\bheld-?out\b)[^.;:()]{{0,30}}?\(?\s*"
    rf"(?<![\d,.])({_GROUPS}|\d{{1,9}})\s+(?:[A-Za-z-]+\s+)?{_TEST_ITEMS}", re.I)


def _caption_n(column: str, caption: str) -> tuple[int | None, str]:
    """The test-set size the caption prints for a column: its one ``n = N``, or, with
    several, the one after a word the column's name holds ("internal (n=412)" for
    "Internal AUC"); without ``n =``, its one count of test items ("12 test scans"); none
    when that is not unique."""
    try:
        hits = [(m.start(), grouped_count(m[1]) or int(m[1]))
                for m in _CAPTION_N.finditer(caption or "")]
        sizes = {v for _, v in hits if 2 <= v <= MAX_N}
        if len(sizes) == 1:
            return sizes.pop(), "printed in the caption"
        counts = {v for m in _TEST_COUNT.finditer(caption or "")
                  if 2 <= (v := grouped_count(m[1] or m[2]) or int(m[1] or m[2])) <= MAX_N}
    except ValueError as exc:
        return None, f"the caption's n = {exc}, or give --n"
    if not hits and len(counts) == 1:
        return counts.pop(), "a count of test items in the caption"
    words = set(re.findall(r"[a-z0-9]+", column.lower()))
    named = {(w, v) for at, v in hits if 2 <= v <= MAX_N
             for w in re.findall(r"[A-Za-z0-9]+", caption[max(0, at - 30):at])[-2:]
             if w.lower() in words and len(w) > 2}
    if len({v for _, v in named}) == 1:
        w, v = named.pop()
        return v, f"printed in the caption beside {w!r}"
    return None, ""


def column_n(col, raw, given: dict, n_cols: dict, row_n, table, fallback: bool) -> None:
    """A column's n: its ``--n GROUP=N``, its group's n column, the n its header prints, the
    n row, the table's n. ``fallback`` (``--dir``): a bare ``--n`` serves only a column the
    table gives no size (its header, the caption); a given size that replaces one the table
    prints, or is not used beside one, is said in the column's notes."""
    key = _group_of(col.column, raw, [k for k in given if k]) if given else None
    group_cols = [(g, v, j) for j, (g, v) in n_cols.items()
                  if g and g.lower() in col.column.lower()]
    try:
        header_n = {v for m in _HEADER_N.findall(col.column)
                    if 2 <= (v := grouped_count(m) or int(m)) <= MAX_N}
    except ValueError as exc:
        raise table_error(raw, f"column {col.column!r}: the header's n = {exc}") from None
    bare = table[1] == "--n"
    own_first = table[0] is None or (bare and fallback)  # the table's own size decides
    if key is not None:
        col.n, col.n_source, col.group = given[key], f"--n {key}={given[key]}", key
    elif group_cols:
        g, v, j = group_cols[0]
        col.n, col.n_source, col.group = v, f"column {raw.header[j]!r}", g
    elif len(header_n) == 1 and own_first and row_n is None:
        col.n, col.n_source = header_n.pop(), "printed in the column header"
    elif row_n is not None:
        col.n, col.n_source = row_n, "the n row"
    elif table[0] is None and any(given):
        # per-group sizes were given but none for this column: ranked, never given another
        # group's n
        col.n, col.n_source = None, (f"no --n group names this column (groups "
                                     f"{', '.join(k for k in given if k)}; give GROUP=N for "
                                     "it, or a bare N)")
    elif own_first and any(cap := _caption_n(col.column, raw.caption)):
        col.n, col.n_source = cap
    else:
        col.n, col.n_source = table
    if header_n and col.n is not None and col.n not in header_n:
        col.notes.append(f"the header prints n = {', '.join(map(str, sorted(header_n)))}; "
                         f"n = {col.n} ({col.n_source}) used")
    _given_n_note(col, raw, table[0] if bare else None, header_n, fallback)
    col.group = col.group or raw.group


def _given_n_note(col, raw, bare_n: int | None, header_n: set, fallback: bool) -> None:
    """Never silent: a given ``--n`` that replaces the caption's size, or a bare ``--n``
    not used because the table gives this column its own size."""
    if col.n_source.startswith("--n"):
        cap, where = _caption_n(col.column, raw.caption)
        if cap is not None and cap != col.n and not header_n:
            given = col.n_source if "=" in col.n_source else f"--n {col.n}"
            col.notes.append(f"{given} replaces n = {cap} ({where}): the given size decides; "
                             "check which is the test set")
    elif bare_n is not None and col.n is not None and col.n != bare_n:
        col.notes.append(f"--n {bare_n} not used for this column: the table gives n = "
                         f"{col.n} ({col.n_source})" + ("; under --dir a given --n serves only "
                                                        "tables without a size of their own"
                                                        if fallback else ""))


def table_size(raw: RawTable, n, n_cols: dict, n_fallback: bool, notes: list[str]):
    """(the sizes given per group, the table's n, where it came from): ``--n`` or the
    table's one n column; a differing pair is an error unless ``n_fallback`` (``--dir``:
    the column's n, and the ``--n`` not used said in ``notes``)."""
    whole = [(j, v) for j, (g, v) in n_cols.items() if g == ""]
    n_col = whole[0][1] if whole else None
    given = n if isinstance(n, dict) else ({"": n} if n is not None else {})
    if "" in given and n_col is not None and given[""] != n_col:
        if not n_fallback:
            raise table_error(raw, f"--n {given['']} differs from the table's column "
                            f"{raw.header[whole[0][0]]!r} ({n_col})")
        notes.append(f"--n {given['']} not used: the table gives n = {n_col} (column "
                     f"{raw.header[whole[0][0]]!r}); "
                     "under --dir a given --n serves only tables without a size of their own")
        given = {k: v for k, v in given.items() if k}  # --dir: --n for tables without one
    table_n = given.get("", n_col)
    table_src = "--n" if "" in given else (f"column {raw.header[whole[0][0]]!r}" if whole
                                           else "")
    return given, table_n, table_src


