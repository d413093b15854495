"""A hand-made messy survey sheet of the kind people keep, written with openpyxl in a test's
tmp_path (no binary fixture): a title row, a merged two-row header, a notes column, a
repeated header, a free-text row, "see Fig. 3", "=9+16", "n/a", "898/500/200"-style sizes
split over train/val/test columns, an SD in a value cell and one paper over two rows."""

from __future__ import annotations

from pathlib import Path

HEADER_TOP = ["Paper", "Task", "Metric", "Results", None, "Split sizes", None, None,
              "Statistics", "Notes"]
HEADER_LOW = [None, None, None, "ours", "soa", "train ", "val", "test", None, None]
ROWS = [
    ["Smith 2021", "segmentation", "Dice", "91.2 ± 3.1", 89.5, 898, 500, 200,
     "Wilcoxon p<0.05", "good"],
    ["Lee 2022", "segmentation", "DSC", 85.0, 84.1, 300, "5-folds", 100, "none", None],
    ["Park 2022", "segmentation", "Dice", 78.2, 77.9, 1200, "n/a", "=9+16", "t-test", None],
    ["Kim 2023", "segmentation", "Dice", 80.1, 79.0, 400, 100, 120, "none", "dataset 1"],
    ["Kim 2023", "segmentation", "Dice", 75.0, 76.0, 400, 100, 80, "none", "dataset 2"],
    [None, None, None, "ours", "soa", "train ", "val", "test", None, None],  # repeated header
    ["added in the second round of screening", None, None, None, None, None, None, None,
     None, None],
    ["Wu 2023", "segmentation", "Dice", "see Fig. 3", 88.0, 500, 100, 150, "none", None],
    ["Ng 2024", "segmentation", "Dice", 90.5, 90.1, 1000, 200, 250, "DeLong", "check"],
]


def write_messy_sheet(path: Path) -> Path:
    """The sheet as an XLSX workbook: row 1 title, rows 2-3 header, data from row 4."""
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "extraction"
    ws.append(["Survey of segmentation papers, Journal X 2021-2024 (extracted by hand)"])
    ws.merge_cells("A1:J1")
    ws.append(HEADER_TOP)
    ws.append(HEADER_LOW)
    for ref in ("A2:A3", "B2:B3", "C2:C3", "D2:E2", "F2:H2", "I2:I3", "J2:J3"):
        ws.merge_cells(ref)
    for row in ROWS:
        ws.append(row)
    wb.save(path)
    return path
