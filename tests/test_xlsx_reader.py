"""The sparse XLSX reader (io/xlsx.py) gives the values openpyxl gives, cell for cell,
without openpyxl's private attributes."""

from __future__ import annotations

import datetime as dt
import math
from pathlib import Path

import openpyxl
import pytest

from falseclaims.io.xlsx import UncomputedFormula, read_sheet_cells

ROOT = Path(__file__).resolve().parents[1]


def _openpyxl_cells(path, sheet):
    wb = openpyxl.load_workbook(path, read_only=True, data_only=True)
    try:
        ws = wb[sheet]
        ws.reset_dimensions()
        out, pct = {}, set()
        for r, row in enumerate(ws.iter_rows(), start=1):
            for j, c in enumerate(row):
                v = getattr(c, "value", None)
                if v is not None:
                    out[(r, j)] = v
                    if isinstance(v, (int, float)) and "%" in (c.number_format or ""):
                        pct.add((r, j))
        return out, pct
    finally:
        wb.close()


def _same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return type(a) is type(b) and a == b


def _workbook(path):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "data"
    ws.append(["id", "value", "flag", "when", "share", "text & <markup>"])
    ws.append(["p1", 0.85, True, dt.datetime(2023, 7, 8), 0.5, "  spaced  "])
    ws.append(["p2", 3, False, dt.date(2020, 1, 2), 1, "=not a formula?"])
    ws.append(["p3", -1.5e-7, None, None, None, "ümlaut ✓"])
    ws["E2"].number_format = "0.0%"
    ws["E3"].number_format = "0%"
    ws["B5"] = "=SUM(B2:B4)"  # openpyxl stores no value: an uncomputed formula
    ws["G9"] = 12345678901234
    ws.merge_cells("A10:A12")
    ws["A10"] = "merged"
    wb.create_sheet("other")["C3"] = "x"
    wb.save(path)


@pytest.mark.parametrize("source", ["generated", "miccai2023_synthetic_sheet.xlsx",
                                    "venue_c_synthetic_messy.xlsx"])
def test_cells_equal_openpyxl(tmp_path, source):
    if source == "generated":
        path = tmp_path / "w.xlsx"
        _workbook(path)
    else:
        path = ROOT / "data" / "example" / source
    names = openpyxl.load_workbook(path, read_only=True).sheetnames
    for name in names:
        sc, got_names, problem = read_sheet_cells(path, name)
        cells = sc.as_dict()
        assert problem == "" and got_names == names
        want, pct = _openpyxl_cells(path, name)
        ours = {k: v for k, v in cells.items() if not isinstance(v, UncomputedFormula)}
        assert ours.keys() == want.keys()
        assert all(_same(ours[k], want[k]) for k in want), [
            (k, ours[k], want[k]) for k in want if not _same(ours[k], want[k])]
        assert sc.percent == pct
    if source == "generated":
        sc, _, _ = read_sheet_cells(path, "data")
        cells = sc.as_dict()
        assert cells[(5, 1)] == "=SUM(B2:B4)" and isinstance(cells[(5, 1)],
                                                                 UncomputedFormula)
        assert sc.merged == ["A10:A12"]
