"""Failures met when real public review sheets were run (docs/sheets.md, "Tried on real
sheets"), each pinned on a small synthetic sheet of the same shape (invented values)."""

from __future__ import annotations

import csv

import pytest

from falseclaims.sheets import read_venue
from falseclaims.sheets.read.cells import parse_list
from falseclaims.sheets.read.errors import SheetValidationError


def _csv(path, rows):
    with open(path, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(rows)
    return path.name


_DUP = [["paper_id", "task", "metric", "name_proposed", "value_proposed", "name_best_prior",
         "value_best_prior"],
        ["a", "classification", "accuracy", "SVM", "0.8", "SVM", "0.7"],
        ["b", "classification", "accuracy", "CNN", "0.9", "SVM", "0.8"]]


def test_same_method_named_twice_in_a_wide_row_excludes_that_paper(tmp_path):
    """One wide row naming the same method as proposed and best prior: under
    on_bad_cell: exclude that paper leaves (reason given), the others run."""
    cfg = {"papers": _csv(tmp_path / "dup.csv", _DUP), "layout": "wide_top2",
           "units": "fraction", "on_bad_cell": "exclude"}
    s = read_venue(cfg, tmp_path, "dup")
    bad = s.papers.set_index("paper_id")["invalid_cell"]
    assert bad.isna().tolist() == [False, True]
    assert "name_proposed" in bad["a"] and "name_best_prior" in bad["a"] and "SVM" in bad["a"]
    assert sorted(s.results["paper_id"]) == ["b", "b"]
    assert s.notes["note"].str.contains("paper excluded").any()


def test_same_method_named_twice_in_a_wide_row_stops_in_one_line(tmp_path):
    cfg = {"papers": _csv(tmp_path / "dup.csv", _DUP), "layout": "wide_top2",
           "units": "fraction"}
    with pytest.raises(SheetValidationError) as e:
        read_venue(cfg, tmp_path, "dup")
    assert len(e.value.problems) == 1
    text = str(e.value.problems[0])
    assert "dup.csv" in text and "row 2" in text
    assert "name_proposed" in text and "name_best_prior" in text


def test_repeated_long_results_row_excludes_its_paper(tmp_path):
    """The same rule in the long layout: a repeated paper x method x metric row is that
    paper's problem."""
    papers = _csv(tmp_path / "p.csv", [["paper_id", "task"], ["a", "classification"],
                                       ["b", "classification"]])
    results = _csv(tmp_path / "r.csv", [
        ["paper_id", "method", "metric", "value"], ["a", "x", "accuracy", "0.8"],
        ["a", "X ", "accuracy", "0.7"], ["b", "x", "accuracy", "0.9"],
        ["b", "y", "accuracy", "0.8"]])
    cfg = {"papers": papers, "results": results, "units": "fraction",
           "on_bad_cell": "exclude"}
    s = read_venue(cfg, tmp_path, "dup")
    assert s.papers.set_index("paper_id")["invalid_cell"].isna().tolist() == [False, True]


@pytest.mark.parametrize("raw", ["Accuracy\nCohen's kappa", "Accuracy\r\nCohen's kappa",
                                 "Accuracy;\nCohen's kappa", "Accuracy\n\nCohen's kappa\n"])
def test_parse_list_splits_on_line_breaks(raw):
    assert parse_list(raw)[0] == "accuracy;cohen's kappa"


def test_metrics_reported_cell_with_line_breaks(tmp_path):
    cfg = {"papers": _csv(tmp_path / "ml.csv", [["paper_id", "task", "metrics_reported"],
                                                ["a", "classification",
                                                 "Accuracy\nCohen's kappa"]]),
           "layout": "wide_top2", "units": "fraction"}
    s = read_venue(cfg, tmp_path, "ml")
    assert s.papers["metrics_reported"].tolist() == ["accuracy;cohen's kappa"]


def _rule_notes(s):
    return [n for n in s.notes["note"] if "(values:" in n]


def test_values_rule_that_changes_nothing_is_not_noted(tmp_path):
    """A values: rule whose result the cell reads as anyway ('No' -> 'no' for a yes/no
    column) gives no note; one that changes the reading ('N/M' -> 'no') keeps its note."""
    rows = [["paper_id", "task", "statistical_test"], ["a", "classification", "No"],
            ["b", "classification", "N/M"], ["c", "classification", "no"],
            ["d", "classification", "Yes"]]
    cfg = {"papers": _csv(tmp_path / "v.csv", rows), "layout": "wide_top2",
           "units": "fraction", "values": {"statistical_test": {"(?i)^(no|n/m)$": "no"}}}
    s = read_venue(cfg, tmp_path, "v")
    assert s.papers["statistical_test"].tolist() == [False, False, False, True]
    notes = _rule_notes(s)
    assert len(notes) == 1 and "'N/M' read as 'no'" in notes[0]


def test_values_rule_on_a_category_keeps_notes_beyond_case_folding(tmp_path):
    """'CV_ONLY' -> 'cv_only' is case folding (no note); 'cross-validation' -> 'cv_only'
    would be noted without the rule too (an alias), so the rule's note stays."""
    rows = [["paper_id", "task", "split"], ["a", "classification", "CV_ONLY"],
            ["b", "classification", "cross-validation"]]
    cfg = {"papers": _csv(tmp_path / "c.csv", rows), "layout": "wide_top2",
           "units": "fraction", "values": {"split": {"(?i)cv|cross": "cv_only"}}}
    s = read_venue(cfg, tmp_path, "c")
    assert s.papers["split"].tolist() == ["cv_only", "cv_only"]
    notes = _rule_notes(s)
    assert len(notes) == 1 and "'cross-validation' read as 'cv_only'" in notes[0]


def test_out_of_scope_papers_get_no_missing_value_notes(tmp_path):
    """A paper out of scope (or with values only in figures) is excluded for that: no
    'no proposed value' notes for it; an in-scope paper's missing value is still noted."""
    rows = [["paper_id", "task", "in_scope", "values_only_in_figures", "metric",
             "value_proposed", "value_best_prior"],
            ["a", "classification", "yes", "no", "accuracy", "0.9", ""],
            ["b", "classification", "no", "no", "accuracy", "", ""],
            ["c", "classification", "", "no", "accuracy", "", ""],
            ["d", "classification", "yes", "yes", "accuracy", "", ""]]
    cfg = {"papers": _csv(tmp_path / "s.csv", rows), "layout": "wide_top2",
           "units": "fraction"}
    s = read_venue(cfg, tmp_path, "s")
    missing = s.notes[s.notes["note"].str.contains(r"^no \w+ value", regex=True)]
    assert missing["row"].tolist() == [2]
    assert "best_prior" in missing["note"].iloc[0]


@pytest.mark.parametrize("raw, value, unit", [
    ("462 patients", 462, "patients"), ("1,200 images", 1200, "images"),
    ("n=50", 50, "n="), ("N = 1 200 scans", 1200, "scans"), ("3 studies", 3, "studies"),
    ("2544 patient visits", 2544, "patient visits")])
def test_size_written_with_what_it_counts(tmp_path, raw, value, unit):
    rows = [["paper_id", "task", "n_train", "n_test"], ["a", "classification", raw, raw]]
    cfg = {"papers": _csv(tmp_path / "n.csv", rows), "layout": "wide_top2",
           "units": "fraction"}
    s = read_venue(cfg, tmp_path, "n")
    assert s.papers[["n_train", "n_test"]].iloc[0].tolist() == [value, value]
    notes = s.notes[s.notes["note"].str.contains(f"read as {value} ", regex=False)]
    assert len(notes) == 2 and notes["note"].str.contains(unit, regex=False).all()
    assert (notes["kind"] == "informational").all()


@pytest.mark.parametrize("raw", ["30 folds", "12 mm", "462 pts?", "70/30 patients", "546 patients (RA)",
                                 "100-500 patients", "5 big folds"])
def test_size_with_another_word_is_still_a_bad_cell(tmp_path, raw):
    rows = [["paper_id", "task", "n_test"], ["a", "classification", raw]]
    cfg = {"papers": _csv(tmp_path / "n.csv", rows), "layout": "wide_top2",
           "units": "fraction"}
    with pytest.raises(SheetValidationError, match="n_test"):
        read_venue(cfg, tmp_path, "n")


def test_cv_folds_is_not_a_counted_size(tmp_path):
    rows = [["paper_id", "task", "split", "cv_folds"],
            ["a", "classification", "cv_only", "5 patients"]]
    cfg = {"papers": _csv(tmp_path / "f.csv", rows), "layout": "wide_top2",
           "units": "fraction"}
    with pytest.raises(SheetValidationError, match="cv_folds"):
        read_venue(cfg, tmp_path, "f")


def test_sheet_without_in_scope_keeps_missing_value_notes(tmp_path):
    """No in_scope column and no constant: every paper is 'in_scope not recorded', but the
    sheet is not set up yet, so its missing values are still noted."""
    rows = [["paper_id", "task", "metric", "value_proposed", "value_best_prior"],
            ["a", "classification", "accuracy", "0.9", ""]]
    cfg = {"papers": _csv(tmp_path / "u.csv", rows), "layout": "wide_top2",
           "units": "fraction"}
    s = read_venue(cfg, tmp_path, "u")
    assert s.notes["note"].str.contains("no best_prior value").sum() == 1
