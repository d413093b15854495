"""The column-wise sheet reading (one parse per distinct cell text, schema checks per
distinct value) must give exactly what a cell-by-cell pass gives."""

from __future__ import annotations

import numpy as np
import openpyxl
import pandas as pd

from falseclaims.sheets import read_venue
from falseclaims.sheets.read.cells import CellError
from falseclaims.sheets.read.columns import RESULTS
from falseclaims.io.raw_reader import read_raw_table as read_table
from falseclaims.sheets.read.normalise import map_columns, parse_cell, parse_records
from falseclaims.sheets.read.schema import check_table, load_schema


def _cell_by_cell(table, kind_spec, idx, their):
    """Reference: parse every cell on its own, in row order (values and problems)."""
    values, problems = [], []
    for rownum, row in table.rows:
        rec = {}
        for col, kind_ in kind_spec.items():
            raw = row[idx[col]] if col in idx else None
            try:
                rec[col] = parse_cell(kind_, col, raw)[0]
            except CellError as exc:
                rec[col] = None
                problems.append((rownum, their.get(col, col), raw, exc.expected))
        values.append(rec)
    return values, problems


def test_repeated_messy_cells_give_one_note_or_problem_per_row(tmp_path):
    rows = [["paper_id", "method", "metric", "value", "sd", "sd_over", "n_test"]]
    cells = ["0,85", "85 %", "0.8 ± 0.1", "abc", "n/a", "0.85", "\u22120.1", " 0.8\u00a0"]
    rng = np.random.default_rng(1)
    for i in range(200):
        rows.append([f"p{i % 7}", f"m{i}", rng.choice(["accuracy", " DSC ", "Acc"]),
                     rng.choice(cells), rng.choice(["", "0,1", "x", "5%"]),
                     rng.choice(["", "test", "Folds", "??"]),
                     rng.choice(["", "1,234", "12.5", "100"])])
    path = tmp_path / "r.csv"
    pd.DataFrame(rows[1:], columns=rows[0]).to_csv(path, index=False)
    table = read_table(path)
    idx, their = map_columns(table, "results", None, "config")
    records = parse_records(table, "results", idx, their, {}, "config")
    ref_values, ref_problems = _cell_by_cell(read_table(path), RESULTS, idx, their)
    assert [{c: r[c] for c in RESULTS} for r in records] == ref_values
    got = [(p.row, p.column, p.value, p.expected) for p in table.problems]
    required = [p for p in got if "is required" in p[3]]
    assert [p for p in got if p not in required] == ref_problems
    # every note is tied to its own row: 200 rows of repeated texts, one note per cell
    noted = {(n["row"], n["column"]) for n in table.notes if n["row"] is not None}
    assert len(noted) == sum(1 for n in table.notes if n["row"] is not None)


def test_bool_and_number_cells_of_equal_value_parse_by_type(tmp_path):
    # True == 1 == 1.0 in Python: the memo must still tell them apart (XLSX cells are typed)
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "papers"
    ws.append(["paper_id", "task", "n_test", "in_scope"])
    ws.append(["p1", "classification", True, 1])
    ws.append(["p2", "classification", 1, True])
    ws.append(["p3", "classification", 1.0, 1.0])
    rs = wb.create_sheet("results")
    rs.append(["paper_id", "method", "metric", "value"])
    for p in ("p1", "p2", "p3"):
        rs.append([p, "a", "accuracy", 0.9])
    wb.save(tmp_path / "s.xlsx")
    cfg = {"papers": "s.xlsx", "papers_sheet": "papers", "results": "s.xlsx",
           "results_sheet": "results", "layout": "long", "units": "auto"}
    try:
        read_venue(cfg, base_dir=tmp_path, venue="v")
    except ValueError as exc:
        msg = str(exc)
    else:
        raise AssertionError("a boolean size must be rejected")
    assert "row 2, column 'n_test': got True" in msg
    # 1 and 1.0 are read as the number 1 (then refused for n_test < 2), not as True
    assert msg.count("got True") == 1
    assert "row 3, column 'n_test': got 1; expected a test set of at least 2" in msg
    assert "row 4, column 'n_test': got 1; expected a test set of at least 2" in msg


def test_schema_check_per_distinct_value_matches_per_element():
    schema = load_schema("results")
    df = pd.DataFrame({
        "venue": pd.array(["v"] * 6, dtype="string"),
        "paper_id": pd.array(["p1", "", "p2", "", None, "p1"], dtype="string"),
        "method": pd.array(["a", "b", "", "c", "d", "a"], dtype="string"),
        "metric": pd.array(["acc", "Acc", "dsc", "Acc", "x", "acc"], dtype="string"),
        "value": [0.5, np.inf, np.nan, 0.2, -0.0, 0.5],
        "sd": [-1.0, 0.1, np.nan, -1.0, 0.0, np.inf],
        "sd_over": pd.array(["test", "bogus", None, "bogus", "cv", "x"], dtype="string"),
        "n_test": pd.array([0, 5, None, 0, 1, 2], dtype="Int64"),
        "source_file": pd.array(["f"] * 6, dtype="string"),
        "source_sheet": pd.array([None] * 6, dtype="string"),
        "source_row": pd.array([2, 3, 4, 5, 1, 7], dtype="int64").astype("Int64"),
    })
    typed = list(check_table(df, schema))
    per_element = list(check_table(df.astype(object), schema))
    assert typed == per_element
    assert len(typed) > 8
