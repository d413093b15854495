"""``falseclaims sheet inspect FILE --sizes SIZES``: draft the join of a sizes table.

The sizes table has one row per data set: a name and the size of its official test split
(:mod:`falseclaims.sheets.read.sizes` reads it in the pipeline). The join column of the sheet is
the one whose cells name the most data sets of the table (after the same case and spacing
folding the reader uses), never a column chosen by its header alone; the block gets
``sizes: {file, on, name, size}``, the draft is read again as the pipeline reads it and the
rows whose data set has no size are counted in the draft's comments.
"""

from __future__ import annotations

import copy
from pathlib import Path

import yaml

from falseclaims.sheets.read.cells import is_missing, parse_size
from falseclaims.sheets.read.errors import CellError
from falseclaims.io.raw_reader import read_raw_table
from falseclaims.sheets.read.sizes import dataset_key

__all__ = ["draft_sizes", "sizes_columns"]


def _is_size(v) -> bool:
    try:
        n, _ = parse_size(v, counted=True)
    except CellError:
        return False
    return n is not None and n >= 1


def sizes_columns(path: str) -> tuple[str, str, dict[str, str]]:
    """(name column, size column, {data-set key: name}) of a sizes table: the size column
    is the first whose filled cells are all whole numbers, the name column the first other
    column with text. ValueError in one line when the table has no such pair."""
    t = read_raw_table(path)
    if t.problems:
        raise ValueError(str(t.problems[0]))
    cols = list(zip(*[cells for _, cells in t.rows])) if t.rows else []
    filled = [[v for v in col if not is_missing(v)] for col in cols]
    size_j = next((j for j, vs in enumerate(filled) if vs and all(map(_is_size, vs))), None)
    name_j = next((j for j, vs in enumerate(filled)
                   if j != size_j and vs and not all(map(_is_size, vs))), None)
    if size_j is None or name_j is None:
        raise ValueError(f"{path}: expected a sizes table with a data-set name column and a "
                         f"size column of whole numbers; found columns {', '.join(t.header)}")
    names = {dataset_key(v): str(v) for v in cols[name_j] if not is_missing(v)}
    return t.header[name_j], t.header[size_j], names


def draft_sizes(d, g, sizes_path: str, venue: str):
    """The draft ``d`` (a :class:`falseclaims.sheets.draft.Draft` of sheet guess ``g``) with
    a ``sizes:`` join on the sheet's data-set column, re-read as the pipeline reads it. The
    sizes file is written like the sheet's: absolute when the sheet's path is."""
    from falseclaims.sheets import SheetValidationError, read_venue
    from falseclaims.sheets.draft.locate import find_header

    name_col, size_col, names = sizes_columns(sizes_path)
    t, _, _ = find_header(Path(g.file), g.sheet, g.header_row, g.header_rows)
    hits = []
    for j, header in enumerate(t.header):
        cells = [c[j] for _, c in t.rows if not is_missing(c[j])]
        hits.append((sum(dataset_key(c) in names for c in cells), len(cells), header))
    best = max(hits, default=(0, 0, ""))
    config = copy.deepcopy(d.config)
    block = config["venues"][venue]
    shown = (str(Path(sizes_path).resolve()) if Path(str(block.get("papers", ""))).is_absolute()
             else sizes_path)
    remarks, problems = list(d.remarks), list(d.problems)
    if best[0] == 0:
        problems.append(f"--sizes {shown}: no column of the sheet names a data set of its "
                        f"{name_col!r} column (e.g. {', '.join(list(names.values())[:3])})")
        return _text(d, config, remarks, problems)
    matched, filled, on = best
    block["sizes"] = {"file": shown, "on": on, "name": name_col, "size": size_col}
    wide = (block.get("columns") or {}).get("wide") or {}
    if wide.get(on) == "ignore":  # the reader drops ignored columns before the join
        del wide[on]
    remarks.append(f"test-set sizes from {shown} joined on column {on!r}: {matched} of "
                   f"{filled} filled cells name a data set of the table (an official test "
                   "split: split train_test where the sheet gives none)")
    trial = copy.deepcopy(block)
    trial["papers"] = str(Path(g.file).resolve())
    trial["sizes"]["file"] = str(Path(sizes_path).resolve())
    try:
        s = read_venue(trial, base_dir=".", venue=venue)
    except (SheetValidationError, ValueError) as exc:
        problems.append(f"with sizes: {str(exc).splitlines()[0]}")
        return _text(d, config, remarks, problems)
    missing = s.notes["note"].str.contains(r"has no size in|^no data set named", na=False)
    remarks.append(f"read with sizes: {int(s.papers['n_test'].notna().sum())} of "
                   f"{len(s.papers)} papers have a test-set size; {int(missing.sum())} "
                   "row(s) whose data set has no size (notes.csv)")
    return _text(d, config, remarks, problems)


def _text(d, config: dict, remarks: list[str], problems: list[str]):
    """The draft's text rebuilt with the new remarks and block (its first three comment
    lines, the run instructions, kept)."""
    from falseclaims.sheets.draft.draft import Draft

    head = d.text.splitlines()[:3]
    head += [f"# {r}" for r in remarks]
    if problems:
        head += ["# STILL TO FIX (the draft does not run yet):"] + [f"#   {p}" for p in problems]
    text = "\n".join(head) + "\n" + yaml.safe_dump(config, sort_keys=False, allow_unicode=True,
                                                   width=100)
    return Draft(text, config, remarks, problems, d.findings)
