"""Drafting failures met on the fourth blind batch of real review sheets (docs/sheets.md,
"Fourth held-out check (blind)"), each reproduced on a small synthetic sheet of the same
pattern (invented values): a study number written as one word (`studynr`) repeated over a
study's rows, dates such as 2/20/2025 read as three sizes, and a saved row index
("Unnamed: 0") drafted as the test-set size."""

from __future__ import annotations

import csv

from falseclaims.sheets import read_venue
from falseclaims.sheets.draft.draft import draft_config
from falseclaims.sheets.draft.inspect import inspect_sheet

_SIZES = ("n_test", "n_train", "n_val", "cv_folds")


def _write(tmp_path, rows, name="s.csv"):
    path = tmp_path / name
    with open(path, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(rows)
    return path


def _drafted(path, venue="v"):
    d = draft_config(inspect_sheet(path), venue, str(path))
    return d, d.config["venues"][venue]


def test_a_study_number_over_each_studys_rows_is_the_paper_id(tmp_path):
    """`studynr` 1, 1, 1, 2, 2, ... (one row per study x test) was taken for a size column
    and set aside; with `id: row` every row became a paper (44 papers where 28 studies
    were). Hand count here: 5 studies over 11 rows."""
    rows = [["studynr", "testnr", "TP", "cases", "studyname", "testname"]]
    tests = {1: 3, 2: 2, 3: 3, 4: 1, 5: 2}
    for s, k in tests.items():
        rows += [[str(s), str(t + 1), str(10 + s + t), str(40 + 3 * s), f"Author{s}",
                  ["cytology", "BTA", "NMP22"][t]] for t in range(k)]
    path = _write(tmp_path, rows)
    roles = {c.name: c.role for c in inspect_sheet(path).columns}
    assert roles["studynr"] == "paper_id"
    d, block = _drafted(path)
    assert block.get("id") != "row" and block.get("group_rows_by_id") is True
    assert len(read_venue(block, ".", "v").papers) == 5


def test_dates_with_a_four_digit_year_are_not_three_sizes(tmp_path):
    """A form's `Timestamp` column holding some '2/20/2025' cells was drafted as n_test
    (cells like '898/500/200'): 678 problems and NOT READY. Split sizes stay sizes."""
    rows = [["Timestamp", "Paper ID", "Title", "sizes"]]
    rows += [["2/20/2025" if i % 3 else f"2025-01-{10 + i} 10:38:07", str(500 + i),
              f"Paper {i}", f"{700 + i}/100/{200 + i}"] for i in range(9)]
    path = _write(tmp_path, rows)
    roles = {c.name: c.role for c in inspect_sheet(path).columns}
    assert roles["Timestamp"] not in _SIZES
    assert roles["sizes"] == "n_test"  # 700/100/200: split sizes, as before
    d, block = _drafted(path)
    assert "NOT READY" not in d.text.splitlines()[0]
    assert len(read_venue(block, ".", "v").papers) == 9


def test_a_saved_row_index_is_no_test_set_size(tmp_path):
    """pandas' `Unnamed: 0` (0 ... n-1 after rows were dropped and the rest sorted: 1784, 0,
    1, 2, ...) was drafted as n_test and refused ("a test set of at least 2 cases")."""
    idx = [9, 0, 1, 2, 3, 5, 6, 7, 8, 10]  # 4 dropped, 9 moved to the top
    rows = [["Unnamed: 0", "Paper ID", "Title", "Uses data?"]]
    rows += [[str(k), str(1200 + k), f"Paper {k}", "Yes" if k % 2 else "No"] for k in idx]
    path = _write(tmp_path, rows)
    roles = {c.name: c.role for c in inspect_sheet(path).columns}
    assert roles["Unnamed: 0"] not in _SIZES
    d, block = _drafted(path)
    assert "NOT READY" not in d.text.splitlines()[0]
    assert len(read_venue(block, ".", "v").papers) == 10


def test_distinct_sizes_are_still_a_test_set_size(tmp_path):
    """The row-index rule needs numbers from 0 or 1 filling their range: distinct test-set
    sizes (no test set has 0 or 1 cases) stay the size."""
    rows = [["paper", "n_test", "acc_ours", "acc_prior"]]
    rows += [[f"P{i}", str(120 + 53 * i), f"0.8{i}", f"0.7{i}"] for i in range(8)]
    roles = {c.name: c.role for c in inspect_sheet(_write(tmp_path, rows)).columns}
    assert roles["n_test"] == "n_test"
