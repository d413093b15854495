"""Drafting failures met on the fourth blind batch of real review sheets (docs/sheets.md,
"Fourth held-out check (blind)"), each reproduced on a small synthetic sheet of the same
pattern (invented values): a study number written as one word (`studynr`) repeated over a
study's rows, dates such as 2/20/2025 read as three sizes, and a saved row index
("Unnamed: 0") drafted as the test-set size."""

from __future__ import annotations


import pytest

from falseclaims.sheets import read_venue
from falseclaims.sheets.draft.inspect import inspect_sheet
from falseclaims.sheets.read.errors import SheetValidationError
from sheet_drafting import drafted as _drafted, write_rows as _write

_SIZES = ("n_test", "n_train", "n_val", "cv_folds")


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


def _long_counts_block(path, results_map):
    papers = {k: ("paper_id" if v == "paper_id" else "ignore") for k, v in results_map.items()}
    return {"label": "v", "papers": str(path), "results": str(path), "layout": "long",
            "units": "auto", "group_rows_by_id": True,
            "columns": {"papers": papers, "results": results_map},
            "constants": {"in_scope": True, "values_only_in_figures": False,
                          "task": "classification"}}


def test_two_by_two_counts_are_read_as_accuracy_and_test_set_size(tmp_path):
    """The 2x2 counts of a diagnostic-accuracy sheet (TP, FP, FN, TN per study x test) were
    never read: accuracy = (TP + TN) / N and n_test = N, by hand below."""
    rows = [["study", "test", "TP", "FP", "FN", "TN"],
            ["Achen 2005", "CT", "25", "4", "0", "19"],   # 44/48
            ["Achen 2005", "MRI", "20", "6", "5", "17"],  # 37/48
            ["Bayer 2008", "CT", "64", "4", "0", "32"]]   # 96/100
    path = _write(tmp_path, rows)
    block = _long_counts_block(path, {"study": "paper_id", "test": "method", "TP": "tp",
                                      "FP": "fp", "FN": "fn", "TN": "tn"})
    s = read_venue(block, ".", "v")
    got = [(r.paper_id, r.method, r.metric, r.value, r.n_test) for r in s.results.itertuples()]
    assert got == [("Achen 2005", "CT", "accuracy", 44 / 48, 48),
                   ("Achen 2005", "MRI", "accuracy", 37 / 48, 48),
                   ("Bayer 2008", "CT", "accuracy", 96 / 100, 100)]
    assert (s.notes["note"].str.contains(r"= \(TP 25 \+ TN 19\) / N 48")).any()


def test_cases_and_controls_give_the_false_negatives_and_positives(tmp_path):
    """Sheets of "cases" and "controls" (positives TP + FN, negatives TN + FP) beside TP and
    TN: FN = cases - TP, FP = controls - TN (Sozen: 14/40, 90/100 -> 104/140)."""
    rows = [["studynr", "TP", "cases", "TN", "controls", "testname"],
            ["1", "14", "40", "90", "100", "cytology"], ["1", "28", "40", "68", "100", "BTA"]]
    path = _write(tmp_path, rows)
    block = _long_counts_block(path, {"studynr": "paper_id", "TP": "tp", "cases": "n_positive",
                                      "TN": "tn", "controls": "n_negative",
                                      "testname": "method"})
    s = read_venue(block, ".", "v")
    assert list(s.results["value"]) == [104 / 140, 96 / 140]
    assert list(s.results["n_test"]) == [140, 140]


def test_unreadable_or_incomplete_counts_are_named_problems(tmp_path):
    """A count that is no whole number, TP above the cases, or a missing count column is
    refused naming the cell or the columns, never read as a value."""
    rows = [["study", "test", "TP", "cases", "TN", "controls"],
            ["A", "x", "14", "40", "90", "100"], ["A", "y", "4.5", "40", "90", "100"],
            ["B", "x", "50", "40", "90", "100"]]
    path = _write(tmp_path, rows)
    block = _long_counts_block(path, {"study": "paper_id", "test": "method", "TP": "tp",
                                      "cases": "n_positive", "TN": "tn",
                                      "controls": "n_negative"})
    with pytest.raises(SheetValidationError) as e:
        read_venue(block, ".", "v")
    text = str(e.value)
    assert "row 3, column 'TP'" in text and "a whole number >= 0 (a 2x2 count)" in text
    assert "row 4, column 'cases'" in text and "at least TP (50)" in text
    block["columns"]["results"]["controls"] = "ignore"
    with pytest.raises(SheetValidationError, match=r"fp \(or n_negative\)"):
        read_venue(block, ".", "v")


def test_a_study_by_test_sheet_of_counts_is_drafted_to_read_accuracy_and_n(tmp_path):
    """A diagnostic-accuracy sheet of one row per study x test (`Test` CT/MRI, `tp`, `fp`,
    `fn`, `tn`): its counts were "several size columns" and the sheet ran as study design.
    Now the draft maps the counts and the test column as the compared method; the values
    read are the hand values (TP + TN) / N with n = N."""
    rows = [["Test", "Study_ID", "tp", "fp", "fn", "tn"],
            ["CT", "Achen 2005", "25", "4", "0", "19"], ["MRI", "Achen 2005", "20", "6", "5", "17"],
            ["CT", "Bayer 2008", "64", "4", "0", "32"], ["CT", "Coles 2007", "77", "13", "7", "16"],
            ["MRI", "Dewey 2006", "42", "2", "7", "39"], ["CT", "Dewey 2006", "62", "5", "4", "46"]]
    path = _write(tmp_path, rows)
    d, block = _drafted(path)
    res = block["columns"]["results"]
    assert (res["Test"], res["tp"], res["fp"], res["fn"], res["tn"]) == (
        "method", "tp", "fp", "fn", "tn")
    assert block["constants"]["task"] == "classification"
    s = read_venue(block, ".", "v")
    assert len(s.papers) == 4
    got = {(r.paper_id, r.method): (r.value, r.n_test) for r in s.results.itertuples()}
    assert got[("Achen 2005", "MRI")] == (37 / 48, 48)
    assert got[("Dewey 2006", "CT")] == (108 / 117, 117)
    assert set(s.results["metric"]) == {"accuracy"}


def test_counts_of_one_test_per_study_are_no_sizes_and_compare_nothing(tmp_path):
    """One row per study (`Trial`, TP, FN, TN, FP): no test to compare, so the counts are
    listed (never the test-set size) and the sheet runs as study design."""
    rows = [["Trial", "TP", "FN", "TN", "FP"]]
    rows += [[str(i + 1), str(90 + i), str(7 + i), str(399 - i), str(1 + i)] for i in range(9)]
    path = _write(tmp_path, rows)
    roles = {c.name: c.role for c in inspect_sheet(path).columns}
    assert {roles[c] for c in ("TP", "FN", "TN", "FP")} == {"(ignore)"}
    d, block = _drafted(path)
    assert not set(block["columns"]["wide"].values()) & set(_SIZES)
    assert any("2x2 counts without a column naming each row's test" in r for r in d.text.splitlines())
    assert len(read_venue(block, ".", "v").papers) == 9


def test_a_cases_column_without_counts_keeps_its_size_role(tmp_path):
    """`cases` is the positives of a 2x2 table only beside TP and TN; alone it is what it
    was before the counts were read (here the one size column: the test-set size)."""
    rows = [["paper", "cases", "acc_ours", "acc_prior"]]
    rows += [[f"P{i}", str(120 + 53 * i), f"0.8{i}", f"0.7{i}"] for i in range(8)]
    roles = {c.name: c.role for c in inspect_sheet(_write(tmp_path, rows)).columns}
    assert roles["cases"] == "n_test"


def test_an_ablation_baseline_named_no_or_without_is_the_prior_value(tmp_path):
    """`target_access_accuracy` vs `no_target_accuracy` (the method with and without its
    domain adaptation; arms named in `*_arm`): "no" was read as "number", the baseline as a
    data set's size, and the draft refused ("results would be lost"). Now the pair is the
    proposed and prior value, the arms their names; values by hand in percent."""
    rows = [["paper_id", "dataset", "target_access_arm", "target_access_accuracy",
             "no_target_arm", "no_target_accuracy", "difference_pp"]]
    vals = [("P1", "SEED", "NetA", "81.05", "w/o DA", "71.29", "9.76"),
            ("P2", "SEED", "NetB", "93.05", "w/o DA", "88.77", "4.28"),
            ("P3", "DEAP", "NetC", "70.22", "w/o domain adaptation", "62.44", "7.78"),
            ("P4", "SEED", "NetD", "85.62", "w/o DA", "81.66", "3.96")]
    path = _write(tmp_path, rows + [list(v) for v in vals])
    d, block = _drafted(path)
    wide = block["columns"]["wide"]
    assert (wide["target_access_accuracy"], wide["no_target_accuracy"]) == (
        "value_proposed", "value_best_prior")
    assert (wide["target_access_arm"], wide["no_target_arm"]) == (
        "name_proposed", "name_best_prior")
    assert block["constants"]["metric"] == "accuracy"
    block["constants"]["split"] = "cv_only"  # LOSO over subjects: the sheet does not say
    s = read_venue(block, ".", "v")
    got = {(r.paper_id, r.method): round(r.value, 4) for r in s.results.itertuples()}
    assert got[("P1", "NetA")] == 0.8105 and got[("P1", "w/o DA")] == 0.7129


def test_a_group_row_naming_the_metric_above_the_value_columns_gives_the_metric(tmp_path):
    """(A probe of the "two header lines" shape, no real sheet of it found in the batch.)
    A group row `Results (accuracy)` over `Proposed`, `Best prior` was skipped as a title
    and the draft refused for want of a metric; it now takes the one metric the row names
    (unsure). A row naming two metrics still gives none."""
    rows = [["", "", "Results (accuracy)", "", ""],
            ["Study", "Test images", "Proposed", "Best prior", "Statistical test"],
            ["A 2020", "500", "91.2%", "89.0%", "no"], ["B 2021", "1200", "88.4%", "87.9%", "yes"],
            ["C 2022", "250", "76.5%", "70.1%", "no"], ["D 2023", "90", "95.0%", "94.1%", "no"]]
    d, block = _drafted(_write(tmp_path, rows))
    assert (block["constants"]["metric"], block["constants"]["task"]) == (
        "accuracy", "classification")
    s = read_venue(block, ".", "v")
    assert sorted(s.results["value"].round(3))[:2] == [0.701, 0.765]
    rows[0][2] = "Results (accuracy and Dice)"
    d, block = _drafted(_write(tmp_path, rows, "two.csv"))
    assert "metric" not in block["constants"] and "no metric" in d.text
