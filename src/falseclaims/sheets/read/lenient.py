"""Lenient reading (``on_bad_cell: exclude``): a paper with an unreadable cell leaves the
analysis instead of stopping the run. The papers table gets an ``invalid_cell`` column (the
cell, its value and the expected form); eligibility excludes such papers with reason
``invalid_cell`` and the flow table counts them. Problems that cannot be tied to one paper
(a missing column, a bad or duplicate paper id, a sheet-wide unit conflict) and the problems
of a paper whose task cannot be read (it has no place in the per-task flow) still stop.
"""

from __future__ import annotations

import pandas as pd

from falseclaims.io.raw_reader import RawTable
from falseclaims.sheets.read.records import SheetRecord

__all__ = ["exclude_bad_cells"]


def _row_ids(records: list[SheetRecord], need_task: bool = False) -> dict[int, str]:
    # a paper without a readable task has no place in the per-task flow: its problems stop
    return {r.row: r.get("paper_id") for r in records
            if r.get("paper_id") is not None and "paper_id" not in r.bad
            and not (need_task and (r.get("task") is None or "task" in r.bad))}


def exclude_bad_cells(papers: pd.DataFrame, results: pd.DataFrame, precs: list[SheetRecord],
                      rrecs: list[SheetRecord], ptab: RawTable, rtab: RawTable):
    """Turn cell problems into exclusions; returns (papers, results)."""
    detail: dict[str, list[str]] = {}
    bad_result_rows: set[int] = set()
    row_maps = [(ptab, _row_ids(precs, need_task=True))]
    if rtab is not ptab:
        row_maps.append((rtab, _row_ids(rrecs)))
    known = set(papers["paper_id"].dropna())
    for table, ids in row_maps:
        keep = []
        for k, p in enumerate(table.problems):
            pid = ids.get(p.row) if k in table.cell_problems else None
            if pid is None or pid not in known:
                keep.append(p)
                continue
            detail.setdefault(pid, []).append(str(p))
            if table is rtab:
                bad_result_rows.add(p.row)
        table.problems = keep
        table.cell_problems = set()
    text = {pid: d[0] + (f" (and {len(d) - 1} more invalid cell(s))" if len(d) > 1 else "")
            for pid, d in detail.items()}
    papers = papers.copy()
    col = papers["paper_id"].map(text)
    papers.insert(papers.columns.get_loc("source_file"), "invalid_cell",
                  col.astype("string"))
    for pid, d in sorted(detail.items()):
        for line in d:
            ptab.note(None, "paper_id", pid, f"paper excluded (on_bad_cell: exclude): {line}")
    drop = results["source_row"].isin(bad_result_rows).to_numpy()
    for r in results[drop].itertuples():
        rtab.note(r.source_row, None, r.paper_id,
                  "results row with an invalid cell dropped; its paper is excluded "
                  "(invalid_cell)")
    return papers, results[~drop].reset_index(drop=True)
