"""Test-set sizes kept in a second table, one row per data set (config ``sizes:``).

A survey of claims on public benchmarks often records only the data set a paper was
tested on; the size of that data set's official test split sits in another table
(``name``, ``size``). :func:`join_sizes` fills ``n_test`` from it, by the sheet's data-set
column (``sizes: {on: ...}``), where the sheet gives no size. A size read from the table is
the size of the benchmark's official test split, so it also counts as a distinct test set:
an empty split becomes ``train_test`` (noted). Every row whose data set has no size in the
table is noted, and so is every size the table gives that the sheet already had.
Names match after case folding and collapsing spaces, hyphens and underscores.
"""

from __future__ import annotations

import re
from pathlib import Path

from falseclaims.sheets.read.cells import clean_text, is_missing, parse_size
from falseclaims.sheets.read.errors import CellError, not_a_sheet_file
from falseclaims.io.raw_reader import read_raw_table
from falseclaims.sheets.read.prepare import add_column, _own_rows
from falseclaims.io.raw_table import RawTable
from falseclaims.sheets.read.rows import resolve_column
from falseclaims.sheets.read.venue import SizesTable

__all__ = ["join_sizes", "read_sizes", "dataset_key"]

OFFICIAL_SPLIT = "train_test"


def dataset_key(name) -> str:
    """How data-set names are compared: 'CIFAR-10', 'cifar 10' and 'Cifar_10' are one."""
    return re.sub(r"[\s_\-]+", " ", clean_text(str(name)).casefold()).strip()


def read_sizes(spec: SizesTable, base: Path, where: str,
               t: RawTable) -> dict[str, tuple[int, str]]:
    """{data-set key: (size, name as written)} of the sizes table; its problems (a missing
    file or column, a size that is not a whole number, one name given two sizes) name the
    sizes file and go on ``t``, so that they are reported with the sheet's."""
    if odd := not_a_sheet_file(base / spec.file, str(spec.file)):
        t.problems.append(odd)
        return {}
    s = read_raw_table(base / spec.file, spec.sheet, spec.header_row, display=str(spec.file))
    out = _sizes(s, spec, where) if s.header and not s.problems else {}
    t.problems.extend(s.problems)
    return {} if s.problems else out


def _sizes(s: RawTable, spec: SizesTable, where: str) -> dict[str, tuple[int, str]]:
    cols = {}
    for key, default in (("name", 0), ("size", 1)):
        given = getattr(spec, key)
        j = resolve_column(s, str(given)) if given is not None else default
        if j is None or j >= len(s.header):
            s.problem(None, given, None, f"a column of the sizes table (named in {where} "
                      f"sizes: {key}); found: " + ", ".join(s.header))
            return {}
        cols[key] = j
    name_col, size_col = s.header[cols["name"]], s.header[cols["size"]]
    out: dict[str, tuple[int, str]] = {}
    for rownum, cells in s.rows:
        name, raw = cells[cols["name"]], cells[cols["size"]]
        if is_missing(name):
            continue
        try:
            size, _ = parse_size(raw, counted=True)
        except CellError as exc:
            s.problem(rownum, size_col, raw, exc.expected)
            continue
        if size is None or size < 1:
            s.problem(rownum, size_col, raw,
                      "the test-set size of this data set (a whole number of at least 1)")
            continue
        k = dataset_key(name)
        if k in out and out[k][0] != size:
            s.problem(rownum, name_col, name, f"one size per data set ({out[k][1]!r} has "
                      f"{out[k][0]} above, this row {size})")
            continue
        out[k] = (size, clean_text(str(name)))
    return out


def join_sizes(t: RawTable, idx: dict, their: dict, spec: SizesTable | None, base: Path,
               where: str) -> None:
    """Fill empty ``n_test`` cells of ``t`` from the venue's sizes table (``spec``: its
    ``sizes:`` block; no-op without). ``idx``/``their`` (from map_columns) gain ``n_test``
    and ``split`` columns when the sheet has none."""
    if not spec or not t.header:
        return
    on = resolve_column(t, str(spec.on))
    if on is None:
        t.problem(None, str(spec.on), None,
                  f"a data-set column of the sheet (named in {where} sizes: on, and not "
                  "mapped to ignore in columns:); found: " + ", ".join(t.header))
        return
    sizes = read_sizes(spec, base, where, t)
    if not sizes:
        return
    _own_rows(t)
    for col, label in (("n_test", "(test-set size from the sizes table)"),
                       ("split", "(official test split: sizes table)")):
        if col not in idx:
            idx[col] = len(t.header)
            their[col] = add_column(t, label, [None] * len(t.rows))
    n_j, split_j, file = idx["n_test"], idx["split"], spec.file
    for rownum, cells in t.rows:
        raw = cells[on]
        if is_missing(raw):
            if is_missing(cells[n_j]):
                t.note(rownum, t.header[on], None, f"no data set named: no test-set size "
                       f"from {file}; n_test left missing")
            continue
        hit = sizes.get(dataset_key(raw))
        if hit is None:
            if is_missing(cells[n_j]):
                t.note(rownum, t.header[on], clean_text(str(raw)),
                       f"data set {clean_text(str(raw))!r} has no size in {file}; n_test "
                       "left missing")
            continue
        size, name = hit
        if not is_missing(cells[n_j]):
            t.note(rownum, t.header[n_j], cells[n_j], f"the sheet's test-set size kept "
                   f"({file} gives {size} for {name!r})")
            continue
        cells[n_j] = size
        t.note(rownum, t.header[n_j], size, f"n_test {size} derived: the official test split of "
               f"{name!r} ({file}, config sizes)")
        if is_missing(cells[split_j]):
            cells[split_j] = OFFICIAL_SPLIT
            t.note(rownum, t.header[split_j], OFFICIAL_SPLIT,
                   f"split {OFFICIAL_SPLIT!r} derived: the official test split of {name!r}, "
                   f"a distinct test set (config sizes)")
