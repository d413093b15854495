"""Raw-cell steps of a venue block that run before cells are parsed (sheets/read/reader.py).

* ``header_rows: 2``: the row above ``header_row`` is the top row of a two-row (often
  merged) header; each column's name is "top bottom" ("Results Ours", "Split sizes test"),
  a merged top cell naming every column under it. The merged-header refusals of the
  reader for these two rows are dropped (they are what the two rows are).
* ``cell_overrides: {"B12": "0.85", "results!C7": 12}``: one cell corrected in config,
  by its spreadsheet reference (letter and row), instead of an edit of the sheet (noted).
* ``columns: {their: ignore}`` drops a column (by name, ``"@J"`` or ``"@10"``);
  ``{their: [ours, ours]}`` lets one column fill two fields.
* ``split_cells: {their: [n_train, n_val, n_test]}``: "898/500/200" fills three fields (a
  field another column gives is filled there where that column is empty; a single number
  is the column's own field, else the last).
* ``derive: {split: from_sizes}``: an empty split is read from which size columns are
  filled (train/val/test, train/test) or from "5-folds" in a size column (cv_only, or
  cv_plus_test with a test size).
* Arithmetic cells ("=9+16") are computed and "see Fig. 3" in a value cell marks the
  paper's values as only in figures (long layout: the results row is dropped). Every
  change is a note.
"""

from __future__ import annotations

import ast
import operator
import re

from falseclaims.io.raw_table import clean_text, is_missing
from falseclaims.io.raw_reader import ColumnRows, RawTable, read_raw_table
from falseclaims.sheets.read.rows import release_problems, resolve_column

__all__ = ["combine_header", "apply_overrides", "reshape_columns", "prepare_cells",
           "add_column", "figure_rows_long", "IGNORE", "FIGURE_CELL"]

IGNORE = "ignore"
_MERGED = re.compile(r"merged header cells ([A-Z]+)(\d+):([A-Z]+)(\d+)")
_REF = re.compile(r"^(?:(results)!)?([A-Za-z]{1,3})([1-9]\d*)$")
FIGURE_CELL = re.compile(r"(?i)^\(?\s*(?:see|in|only in)?\s*(?:fig(?:ure)?s?\.?|suppl)")
_ARITH = re.compile(r"^=\s*[\d.+\-*/() ]+$")
_FOLDS = re.compile(r"(?i)^(\d+)\s*-?\s*(?:folds?|fold\s*cv|cv)\b")
_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
        ast.Div: operator.truediv, ast.USub: operator.neg}


def _letters_num(letter: str) -> int:
    n = 0
    for ch in letter:
        n = n * 26 + ord(ch) - 64
    return n


def _own_rows(t: RawTable) -> None:
    """Row lists that can be edited in place (a text table's rows are held by column)."""
    if isinstance(t.rows, ColumnRows):
        t.rows = list(t.rows)


def combine_header(t: RawTable, path, sheet, header_row: int) -> None:
    """Name each column "top bottom" from rows ``header_row - 1`` and ``header_row``."""
    top = read_raw_table(path, sheet, header_row - 1, display=t.file)
    names = dict(zip(top.letters, (None if h in top.headerless else h for h in top.header)))
    spans = []  # (first letter number, last letter number, value) of merged top cells
    for p in top.problems + t.problems:
        m = _MERGED.search(p.expected or "")
        if m and int(m[2]) <= header_row - 1 <= int(m[4]) and m[1] != m[3]:
            spans.append((_letters_num(m[1]), _letters_num(m[3]), names.get(m[1])))
    low_names = [None if h in t.headerless else h for h in t.header]
    t.low_names = dict(zip(t.letters, low_names))  # for sheet inspect's role guesses
    for k, letter in enumerate(t.letters):
        if not letter:
            continue
        up = names.get(letter)
        for a, b, value in spans:
            if a <= _letters_num(letter) <= b and value:
                up = value
        low = None if t.header[k] in t.headerless else t.header[k]
        name = " ".join(x for x in (up, low) if x) if up != low else low
        if name:
            t.headerless.discard(t.header[k])
            t.header[k] = clean_text(name)
    _drop_repeated(t, [names.get(x) for x in t.letters], low_names)
    t.problems = [p for p in t.problems if not _two_row_merge(p, header_row)
                  and not (p.row in t._repeated and "merged range" in (p.expected or ""))]
    t.cell_problems = set()  # no cell problem is read before this step
    t.note(header_row, None, None, f"two-row header: rows {header_row - 1}-{header_row} "
                                   "combined into one name per column (config header_rows: 2)")


def _drop_repeated(t: RawTable, *rows_of_names) -> None:
    """Skip data rows repeating the top or the bottom header row (noted)."""
    keep, t._repeated = [], set()
    wanted = [[None if n is None else n.lower() for n in names] for names in rows_of_names]
    for rownum, cells in t.rows:
        filled = [c for c in cells if not is_missing(c)]
        for names in wanted:
            same = sum(1 for c, n in zip(cells, names)
                       if n and isinstance(c, str) and clean_text(c).lower() == n)
            if same >= 2 and 2 * same >= len(filled):
                t.note(rownum, None, "; ".join(map(str, filled))[:200],
                       "repeated header row skipped")
                t._repeated.add(rownum)
                break
        else:
            keep.append((rownum, cells))
    t.rows = keep


def _two_row_merge(p, header_row: int) -> bool:
    m = _MERGED.search(p.expected or "")
    return bool(m) and header_row - 1 <= int(m[2]) and int(m[4]) <= header_row


def apply_overrides(t: RawTable, overrides: dict, results: bool, where: str) -> None:
    """Replace the cells named in ``cell_overrides`` (``results!`` keys: results table)."""
    todo = {}
    for ref, value in (overrides or {}).items():
        m = _REF.match(str(ref))
        if m is None:
            t.problem(None, None, ref, f"a cell reference such as 'B12' or 'results!B12' "
                                       f"in {where} cell_overrides")
        elif bool(m[1]) == results:
            todo[(m[2].upper(), int(m[3]))] = (str(ref), value)
    if not todo:
        return
    _own_rows(t)
    rows = {r: cells for r, cells in t.rows}
    for (letter, rownum), (ref, value) in todo.items():
        if letter not in t.letters or rownum not in rows:
            t.problem(rownum, None, ref, f"a data cell of {t.file} (named in {where} "
                                         "cell_overrides)")
            continue
        j = t.letters.index(letter)
        old = rows[rownum][j]
        rows[rownum][j] = value
        t.note(rownum, t.header[j], value, f"cell {letter}{rownum} {old!r} replaced by "
                                           f"{value!r} (config cell_overrides)")


def reshape_columns(t: RawTable, mapping: dict, split_cells: dict, where: str) -> dict:
    """Drop ``ignore`` columns, copy a column mapped to several fields and cut
    ``split_cells`` columns; returns the mapping map_columns reads ({their: ours})."""
    out = {}
    drop = []
    for their, ours in (mapping or {}).items():
        if ours == IGNORE:
            j = resolve_column(t, str(their))
            if j is not None:
                drop.append(j)
        elif isinstance(ours, list):
            j = resolve_column(t, str(their))
            if j is None:
                out[their] = ours[0] if ours else their  # map_columns names the problem
                continue
            out[their] = ours[0]
            for extra in ours[1:]:
                out[add_column(t, f"{t.header[j]} (as {extra})",
                                [c[j] for _, c in t.rows])] = extra
        else:
            out[their] = ours
    for their, fields in (split_cells or {}).items():
        j = resolve_column(t, str(their))
        if j is None:
            t.problem(None, str(their), None, f"a column of the sheet (named in {where} "
                                              "split_cells)")
            continue
        _split_column(t, j, fields, out.get(their), out, drop)
    if drop:
        _forget_unread_cells(t, {t.header[j] for j in drop})
        _drop_columns(t, sorted(set(drop)))
    return out


def _forget_unread_cells(t: RawTable, names: set) -> None:
    """A data cell's problem in a column mapped to ``ignore`` (a cited-references cell of
    18,552 characters) stops nothing: the cell is never read. Each becomes a note."""
    release_problems(t, lambda _, p: p.column in names and (
        (p.row or 0) > t.header_row
        or (p.expected or "").startswith("the cells above fixed")),
        "not read (column mapped to ignore): expected ")


def _split_column(t: RawTable, j: int, fields: list, own, out: dict, drop: list) -> None:
    """Cut column ``j``'s "898/500/200" cells into ``fields``. A field that another column
    gives is filled there where that column is empty; a single number stays the column's
    own field (its mapping), else the last field."""
    _own_rows(t)
    single = fields.index(own) if own in fields else len(fields) - 1
    parts = [_split_sizes(t, r, t.header[j], c[j], len(fields), single) for r, c in t.rows]
    others = {ours: resolve_column(t, str(th)) for th, ours in out.items()
              if ours in fields and ours != own}
    for k, f in enumerate(fields):
        target = j if f == own else others.get(f)
        if target is None:
            out[add_column(t, f"{t.header[j]} ({f})", [p[k] for p in parts])] = f
            continue
        for (rownum, cells), p in zip(t.rows, parts):
            if p[k] is None or (target == j and p[k] == cells[j]):
                continue
            if target != j and not is_missing(cells[target]):
                if str(cells[target]).strip() != str(p[k]):
                    t.problem(rownum, t.header[target], cells[target],
                              f"{p[k]} as in column {t.header[j]!r} (config split_cells)",
                              cell=True)
                continue
            cells[target] = p[k]
    if own not in fields:
        drop.append(j)


def _split_sizes(t: RawTable, rownum: int, name: str, raw, n: int, single: int) -> list:
    if is_missing(raw):
        return [None] * n
    text = clean_text(str(raw))
    pieces = [p.strip() for p in re.split(r"\s*[/;|]\s*", text)]
    if len(pieces) == 1:
        return [raw if k == single else None for k in range(n)]
    if len(pieces) != n:
        t.problem(rownum, name, text, f"{n} sizes separated by '/' (config split_cells)",
                  cell=True)
        return [None] * n
    t.note(rownum, name, text, f"{text!r} cut into {n} sizes (config split_cells)")
    return [None if is_missing(p) else p for p in pieces]


def add_column(t: RawTable, name: str, values: list) -> str:
    _own_rows(t)
    for (_, cells), v in zip(t.rows, values):
        cells.append(v)
    t.header = [*t.header, name]
    t.letters = [*t.letters, ""]
    return name


def _drop_columns(t: RawTable, cols: list[int]) -> None:
    _own_rows(t)
    keep = [k for k in range(len(t.header)) if k not in cols]
    for c in cols:
        t.note(None, t.header[c], None, f"column {t.header[c]!r} ignored (config columns: "
                                        "ignore)")
    t.rows = [(r, [cells[k] for k in keep]) for r, cells in t.rows]
    t.headerless -= {t.header[c] for c in cols}
    t.header = [t.header[k] for k in keep]
    t.letters = [t.letters[k] for k in keep]


MAX_ARITH_CHARS = 200  # "=9+16" cells are short; an 8 KB one would exhaust the recursion


def _arith(text: str):
    if len(text) > MAX_ARITH_CHARS:
        raise ValueError(f"an arithmetic cell longer than {MAX_ARITH_CHARS} characters")

    def ev(node):
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
            return node.value
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            return _OPS[type(node.op)](ev(node.left), ev(node.right))
        if isinstance(node, ast.UnaryOp) and type(node.op) in _OPS:
            return _OPS[type(node.op)](ev(node.operand))
        raise ValueError(text)
    try:
        value = ev(ast.parse(text[1:].strip(), mode="eval").body)
    except (RecursionError, MemoryError, OverflowError):
        raise ValueError("an arithmetic cell nested too deeply") from None
    return int(value) if float(value).is_integer() else value


def prepare_cells(t: RawTable, idx: dict, their: dict, derive_cfg: dict, layout: str) -> None:
    """Arithmetic cells, "see Fig. N" value cells and ``derive: {split: from_sizes}`` (the
    venue's ``derive`` block)."""
    values = [c for c in ("value_proposed", "value_best_prior", "values_compared", "value")
              if c in idx]
    derive = derive_cfg.get("split") == "from_sizes"
    if not t.rows or not (derive or _any_special(t, sorted(set(idx.values())))):
        return
    _own_rows(t)
    if derive and "split" not in idx:
        idx["split"] = len(t.header)
        their["split"] = add_column(t, "(split derived from sizes)", [None] * len(t.rows))
    if derive and "cv_folds" not in idx:
        idx["cv_folds"] = len(t.header)
        their["cv_folds"] = add_column(t, "(folds from sizes)", [None] * len(t.rows))
    fig = None
    if layout == "wide_top2" and values:
        fig = idx.get("values_only_in_figures")
        if fig is None:
            fig = idx["values_only_in_figures"] = len(t.header)
            their["values_only_in_figures"] = add_column(t, "(values in figures)",
                                                          [None] * len(t.rows))
    mapped = sorted(set(idx.values()))
    for rownum, cells in t.rows:
        for j in mapped:
            c = cells[j]
            if isinstance(c, str) and _ARITH.match(c.strip()):
                try:
                    cells[j] = _arith(c.strip())
                    t.note(rownum, t.header[j], c, f"{c!r} computed as {cells[j]!r}")
                except (ValueError, SyntaxError, ZeroDivisionError):
                    pass  # left as written: the cell's parser names it
        if fig is not None:
            _figure_cells(t, rownum, cells, [idx[v] for v in values], fig)
        if derive:
            _derive_split(t, rownum, cells, idx)


def _any_special(t: RawTable, cols: list[int]) -> bool:
    """Whether a mapped column holds "=9+16" or "see Fig. N" (each distinct cell checked
    once: a text table of 10^6 rows pays one pass per column, no per-cell Python)."""
    for j in cols:
        col = (t.rows.columns[j] if isinstance(t.rows, ColumnRows)
               else [c[j] for _, c in t.rows])
        for v in set(col):
            if isinstance(v, str) and (_ARITH.match(v.strip()) or FIGURE_CELL.match(v.strip())):
                return True
    return False


def _figure_cells(t: RawTable, rownum: int, cells: list, value_cols: list[int], fig: int):
    hits = [j for j in value_cols if isinstance(cells[j], str)
            and FIGURE_CELL.match(clean_text(cells[j]))]
    if not hits:
        return
    for j in hits:
        t.note(rownum, t.header[j], cells[j], f"{clean_text(cells[j])!r}: values only in "
               "figures (the paper is excluded as values_only_in_figures)")
        cells[j] = None
    cells[fig] = True


def _derive_split(t: RawTable, rownum: int, cells: list, idx: dict) -> None:
    folds = None
    for col in ("n_val", "n_train", "n_test"):
        j = idx.get(col)
        m = _FOLDS.match(clean_text(str(cells[j]))) if j is not None and isinstance(
            cells[j], str) else None
        if m:
            folds = int(m[1])
            t.note(rownum, t.header[j], cells[j], f"{cells[j]!r} read as {folds} folds "
                                                  "(config derive: split: from_sizes)")
            cells[j] = None
    if folds is not None and is_missing(cells[idx["cv_folds"]]):
        cells[idx["cv_folds"]] = folds
    if not is_missing(cells[idx["split"]]):
        return
    filled = {c for c in ("n_train", "n_val", "n_test")
              if c in idx and not is_missing(cells[idx[c]])}
    if folds is not None:
        split = "cv_plus_test" if "n_test" in filled else "cv_only"
    elif {"n_train", "n_val", "n_test"} <= filled:
        split = "train_val_test"
    elif "n_test" in filled:
        split = "train_test"
    else:
        return
    cells[idx["split"]] = split
    t.note(rownum, t.header[idx["split"]], split, f"split {split!r} derived from the filled "
           f"size columns ({', '.join(sorted(filled)) or 'folds'}; config derive)")


def figure_rows_long(ptab: RawTable, pidx: dict, ptheir: dict, rtab: RawTable,
                     ridx: dict) -> None:
    """Long layout: a results row whose value reads "see Fig. 3" is dropped and its paper's
    values are marked as only in figures (both noted)."""
    if "value" not in ridx or "paper_id" not in ridx or "paper_id" not in pidx \
            or not rtab.rows or not _any_special(rtab, [ridx["value"]]):
        return
    _own_rows(rtab)
    j, k = ridx["value"], ridx["paper_id"]
    keep, ids = [], set()
    for rownum, cells in rtab.rows:
        v = cells[j]
        if isinstance(v, str) and FIGURE_CELL.match(clean_text(v)) and not is_missing(cells[k]):
            pid = clean_text(str(cells[k]))
            ids.add(pid)
            rtab.note(rownum, rtab.header[j], v, f"{clean_text(v)!r}: values only in figures; "
                      f"results row dropped and paper {pid!r} marked values_only_in_figures")
        else:
            keep.append((rownum, cells))
    rtab.rows = keep
    if not ids:
        return
    _own_rows(ptab)
    if "values_only_in_figures" not in pidx:
        pidx["values_only_in_figures"] = len(ptab.header)
        ptheir["values_only_in_figures"] = add_column(ptab, "(values in figures)",
                                                       [None] * len(ptab.rows))
    f, i = pidx["values_only_in_figures"], pidx["paper_id"]
    for _, cells in ptab.rows:
        if not is_missing(cells[i]) and clean_text(str(cells[i])) in ids:
            cells[f] = True
