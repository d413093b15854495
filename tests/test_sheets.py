"""Extraction sheets: reading, messy cells, units, wide top-2 layout, validation errors."""

from __future__ import annotations

import csv

import openpyxl
import pandas as pd
import pytest

from falseclaims.sheets import SheetValidationError, read_venue
from falseclaims.sheets.read.columns import PAPERS_OUT, RESULTS_OUT, NOTES_OUT

PAPERS = [
    ["paper_id", "title", "task", "in_scope", "values_only_in_figures", "split", "cv_folds",
     "n_test", "uncertainty", "metrics_reported"],
    ["p1", "One", "classification", "yes", "no", "train_test", "", "500", "none", "accuracy;auc"],
    ["p2", "Two", "segmentation", "yes", "no", "cv_plus_test", "5", "62", "sd_test", "dsc"],
]
RESULTS = [
    ["paper_id", "method", "metric", "value", "sd", "sd_over", "n_test"],
    ["p1", "ours", "accuracy", "0.91", "", "", ""],
    ["p1", "base", "accuracy", "0.89", "", "", ""],
    ["p2", "ours", "dsc", "0.85", "0.10", "test", "62"],
    ["p2", "base", "dsc", "0.84", "0.11", "test", "62"],
]


def write(path, rows, sep=","):
    with open(path, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh, delimiter=sep).writerows(rows)
    return path


def venue(tmp_path, papers=PAPERS, results=RESULTS, units="auto", **extra):
    write(tmp_path / "p.csv", papers)
    write(tmp_path / "r.csv", results)
    cfg = {"papers": "p.csv", "results": "r.csv", "layout": "long", "units": units, **extra}
    return cfg


def read(tmp_path, **kw):
    return read_venue(venue(tmp_path, **kw), base_dir=tmp_path, venue="v")


def problems(tmp_path, **kw):
    with pytest.raises(SheetValidationError) as exc:
        read(tmp_path, **kw)
    return exc.value


def with_cell(rows, r, col, value):
    rows = [list(x) for x in rows]
    rows[r][rows[0].index(col)] = value
    return rows


# ------------------------------------------------------------------ the happy path
def test_clean_sheet_columns_and_dtypes(tmp_path):
    s = read(tmp_path)
    assert list(s.papers.columns) == PAPERS_OUT
    assert list(s.results.columns) == RESULTS_OUT
    assert list(s.notes.columns) == NOTES_OUT
    assert s.papers["in_scope"].dtype == "boolean"
    assert s.papers["n_test"].dtype == "Int64"
    assert s.papers.loc[1, "cv_folds"] == 5
    assert pd.isna(s.papers.loc[0, "cv_folds"])
    assert s.papers["source_row"].tolist() == [2, 3]
    assert s.results["value"].tolist() == [0.91, 0.89, 0.85, 0.84]
    assert s.results.loc[2, "sd_over"] == "test"
    assert (s.papers["venue"] == "v").all()


# ------------------------------------------------------------------ validation errors
@pytest.mark.parametrize(
    "table,row,col,value,expected",
    [
        ("p", 1, "task", "detection", "one of classification, segmentation"),
        ("p", 1, "in_scope", "maybe", "yes/no"),
        ("p", 1, "split", "holdout", "one of train_test"),
        ("p", 1, "n_test", "12.5", "a whole number"),
        ("p", 1, "n_test", "0", "at least 2 cases (paper"),
        ("p", 2, "cv_folds", "1", "at least 2 folds"),
        ("p", 1, "uncertainty", "sem", "one of none"),
        ("p", 1, "paper_id", "", "a value"),
        ("r", 1, "value", "high", "a number"),
        ("r", 1, "value", "1.7", "a fraction like the other 3 values"),
        ("r", 3, "sd", "-0.1", ">= 0"),
        ("r", 3, "sd_over", "patients", "one of test, cv"),
        ("r", 3, "n_test", "-5", "at least 2 cases (paper"),
        ("r", 1, "paper_id", "p9", "a paper_id listed in the papers table"),
        ("r", 1, "method", "", "a value"),
    ],
)
def test_each_validation_error_names_file_row_column_value(tmp_path, table, row, col, value,
                                                           expected):
    kw = {"papers": with_cell(PAPERS, row, col, value)} if table == "p" else \
        {"results": with_cell(RESULTS, row, col, value)}
    err = problems(tmp_path, **kw)
    msg = str(err)
    assert expected in msg
    file = "p.csv" if table == "p" else "r.csv"
    hits = [p for p in err.problems if p.file == file and p.column == col]
    assert hits, msg
    if expected != "one unit for all values":
        assert hits[0].row == row + 1  # header is row 1
        assert f"row {row + 1}" in msg and f"column '{col}'" in msg
        if value:
            assert repr(value) in msg or value in msg


def test_fraction_units_reject_percent_values(tmp_path):
    err = problems(tmp_path, results=with_cell(RESULTS, 1, "value", "91"), units="fraction")
    assert "a fraction in [0, 1]" in str(err)
    assert err.problems[0].row == 2 and err.problems[0].value == 91.0


def test_all_problems_reported_at_once(tmp_path):
    p = with_cell(with_cell(PAPERS, 1, "task", "detect"), 2, "n_test", "many")
    r = with_cell(with_cell(RESULTS, 2, "value", "?!"), 4, "sd_over", "patients")
    err = problems(tmp_path, papers=p, results=r)
    where = {(x.file, x.row, x.column) for x in err.problems}
    assert {("p.csv", 2, "task"), ("p.csv", 3, "n_test"), ("r.csv", 3, "value"),
            ("r.csv", 5, "sd_over")} <= where
    assert str(err).count("\n  - ") == len(err.problems) >= 4


def test_duplicate_paper_ids_name_both_rows(tmp_path):
    p = PAPERS + [["p1", "dup", "classification", "yes", "no", "train_test", "", "9", "none", ""]]
    err = problems(tmp_path, papers=p)
    (dup,) = [x for x in err.problems if "unique paper_id" in x.expected]
    assert dup.row == 4 and "row 2" in dup.expected


def test_duplicate_result_rows(tmp_path):
    err = problems(tmp_path, results=RESULTS + [["p1", "ours", "Accuracy", "0.5", "", "", ""]])
    assert any("already in row 2" in x.expected and x.row == 6 for x in err.problems)


def test_missing_required_column_and_bad_mapping(tmp_path):
    r = [[c for c in row if True] for row in RESULTS]
    r = [row[:2] + row[3:] for row in r]  # drop 'metric'
    err = problems(tmp_path, results=r, columns={"results": {"Nope": "value"}})
    msg = str(err)
    assert "a column 'metric'" in msg and "'Nope'" in msg


def test_missing_file_and_sheet(tmp_path):
    cfg = venue(tmp_path)
    cfg["papers"] = "nothere.csv"
    with pytest.raises(SheetValidationError, match="nothere.csv"):
        read_venue(cfg, base_dir=tmp_path)


def test_bad_config_is_a_value_error(tmp_path):
    with pytest.raises(ValueError, match="units"):
        read_venue(venue(tmp_path, units="permille"), base_dir=tmp_path)


# ------------------------------------------------------------------ units
def test_auto_units_percent(tmp_path):
    r = [RESULTS[0]] + [[*x[:3], str(float(x[3]) * 100), (str(float(x[4]) * 100) if x[4] else ""),
                         *x[5:]] for x in RESULTS[1:]]
    s = read(tmp_path, results=r)
    assert s.results["value"].tolist() == pytest.approx([0.91, 0.89, 0.85, 0.84])
    assert s.results["sd"].tolist()[2:] == pytest.approx([0.10, 0.11])
    assert s.notes["note"].str.contains("auto-detected as percent").any()
    assert s.notes["note"].str.contains("91 read as 0.91").any()


def test_declared_percent(tmp_path):
    rows = [RESULTS[0]] + [[*x[:3], str(float(x[3]) * 100), *x[4:]] for x in RESULTS[1:]]
    s = read(tmp_path, results=rows, units="percent")
    assert s.results["value"].tolist() == pytest.approx([0.91, 0.89, 0.85, 0.84])


def test_declared_percent_refuses_fraction_cells_unless_marked(tmp_path):
    rows = with_cell(with_cell(RESULTS, 1, "value", "91"), 2, "value", "89")
    err = problems(tmp_path, results=rows, units="percent")
    assert [(p.row, p.column, p.value) for p in err.problems] == [(4, "value", "0.85"),
                                                                  (5, "value", "0.84")]
    assert "write 85" in err.problems[0].expected and "'0.85%'" in err.problems[0].expected
    rows = with_cell(with_cell(rows, 3, "value", "0.85%"), 4, "value", "0.84 %")
    s = read(tmp_path, results=rows, units="percent")
    assert s.results["value"].tolist() == pytest.approx([0.91, 0.89, 0.0085, 0.0084])


def test_auto_refuses_mixed_units(tmp_path):
    err = problems(tmp_path, results=with_cell(RESULTS, 1, "value", "91"))
    msg = str(err)
    assert "units: fraction" in msg and "units: percent" in msg and "row 3" in msg


def test_auto_refuses_fractions_next_to_percent_cells(tmp_path):
    err = problems(tmp_path, results=with_cell(RESULTS, 1, "value", "91%"))
    assert "percent cells" in str(err)


def test_percent_sign_is_percent_even_in_fraction_mode(tmp_path):
    s = read(tmp_path, results=with_cell(RESULTS, 1, "value", "91.5 %"), units="fraction")
    assert s.results.loc[0, "value"] == pytest.approx(0.915)
    assert s.notes["note"].str.contains(r"91.5 read as 0.915 \(percent: '%' sign\)").any()


def test_distance_metrics_not_converted(tmp_path):
    r = RESULTS + [["p2", "ours", "HD95", "4.5", "1.2", "test", ""]]
    s = read(tmp_path, results=r)
    row = s.results[s.results.metric == "hd95"].iloc[0]
    assert row.value == 4.5 and row.sd == 1.2
    err = problems(tmp_path, results=RESULTS + [["p2", "ours", "hd95", "4.5%", "", "", ""]])
    assert "is a distance" in str(err)


# kappa/MCC lie in [-1, 1]: never converted by `units:`, never taken for fractions
PCT_KAPPA = [RESULTS[0],
             ["p1", "ours", "accuracy", "85.3", "2.1", "cv", ""],
             ["p1", "base", "accuracy", "83.0", "", "", ""],
             ["p1", "ours", "kappa", "0.871", "0.02", "cv", ""],
             ["p1", "base", "kappa", "0.829", "", "", ""],
             ["p1", "ours", "MCC", "-0.12", "", "", ""],
             ["p2", "ours", "dsc", "85", "10", "test", "62"],
             ["p2", "ours", "HD95", "4.5", "1.2", "test", ""]]


@pytest.mark.parametrize("units", ["percent", "auto"])
def test_percent_sheet_keeps_kappa_and_distances_unscaled(tmp_path, units):
    s = read(tmp_path, results=PCT_KAPPA, units=units)
    got = {(r.method, r.metric): (r.value, r.sd) for r in s.results.itertuples()}
    assert got[("ours", "accuracy")] == pytest.approx((0.853, 0.021))
    assert got[("base", "accuracy")][0] == pytest.approx(0.83)
    assert got[("ours", "kappa")] == (0.871, 0.02)
    assert got[("base", "kappa")][0] == 0.829
    assert got[("ours", "mcc")][0] == -0.12
    assert got[("ours", "dsc")] == pytest.approx((0.85, 0.10))
    assert got[("ours", "hd95")] == (4.5, 1.2)
    notes = s.notes[s.notes.file == "r.csv"]
    assert notes.note.str.contains("85.3 read as 0.853").any()
    # kappa, MCC and HD95 rows: values and SDs as written (their only notes: metric spelling)
    assert not notes[notes.row.isin([4, 5, 6, 8])].column.isin(["value", "sd"]).any()
    if units == "auto":
        assert notes.note.str.contains("auto-detected as percent: all 3 unmarked").any()


@pytest.mark.parametrize("units", ["percent", "auto", "fraction"])
@pytest.mark.parametrize("cell", ["87.1", "1.3", "-1.5"])
def test_kappa_outside_minus_one_one_refused_by_name(tmp_path, units, cell):
    rows = with_cell(PCT_KAPPA, 3, "value", cell)
    if units == "fraction":
        rows = with_cell(with_cell(with_cell(rows, 1, "value", "0.853"), 2, "value", "0.83"),
                         6, "value", "0.85")
        rows = with_cell(with_cell(rows, 1, "sd", "0.021"), 6, "sd", "0.1")
    err = problems(tmp_path, results=rows, units=units)
    (p,) = err.problems
    assert (p.file, p.row, p.column, p.value) == ("r.csv", 4, "value", float(cell))
    assert "a value in [-1, 1]" in p.expected and "'kappa'" in p.expected
    assert "looks like a fraction" not in str(err)
    if cell == "87.1":
        assert "if 87.1 is percent, write 0.871" in p.expected


def test_percent_sign_on_kappa_refused(tmp_path):
    err = problems(tmp_path, results=with_cell(PCT_KAPPA, 3, "value", "87.1%"), units="percent")
    (p,) = err.problems
    assert (p.row, p.column) == (4, "value") and "no '%' sign" in p.expected
    assert "'kappa' lies in [-1, 1]" in p.expected
    # an SD of a kappa is not scaled either: 2 (percent of what?) is refused by name
    err = problems(tmp_path, results=with_cell(PCT_KAPPA, 3, "sd", "2"), units="percent")
    (p,) = err.problems
    assert (p.row, p.column) == (4, "sd") and "metric 'kappa' on [-1, 1]" in p.expected


# ------------------------------------------------------------------ messy cells
@pytest.mark.parametrize(
    "cell,value,sd,note",
    [
        ("0.85 ± 0.03", 0.85, 0.03, "SD 0.03 taken from the value cell"),
        ("0.85 +/- 0.03", 0.85, 0.03, "SD 0.03"),
        ("0.85 (0.03)", 0.85, 0.03, "SD 0.03"),
        ("0.85 (SD 0.03)", 0.85, 0.03, "SD 0.03"),
        ("0,85", 0.85, None, "decimal comma"),
        ("0,85 ± 0,03", 0.85, 0.03, "decimal comma"),
        ("85% ± 3%", 0.85, 0.03, "read as 0.85"),
        ("0.85 (0.80-0.90)", 0.85, None, "is not an SD"),
        ("\u00a00.85 ", 0.85, None, None),
    ],
)
def test_messy_value_cells(tmp_path, cell, value, sd, note):
    r = with_cell(with_cell(RESULTS, 1, "value", cell), 1, "sd", "")
    s = read(tmp_path, results=r, units="fraction")
    got = s.results.iloc[0]
    assert got.value == pytest.approx(value)
    assert (pd.isna(got.sd) if sd is None else got.sd == pytest.approx(sd))
    if note:
        assert s.notes[s.notes.row == 2]["note"].str.contains(note, regex=False).any()


def test_sd_in_value_cell_conflicting_with_sd_column(tmp_path):
    err = problems(tmp_path, results=with_cell(RESULTS, 3, "value", "0.85 ± 0.2"))
    assert any(p.column == "sd" and p.row == 4 for p in err.problems)


def test_unicode_minus_and_whitespace(tmp_path):
    err = problems(tmp_path, results=with_cell(RESULTS, 3, "sd", "\u22120.1"))
    (p,) = err.problems
    assert p.column == "sd" and ">= 0" in p.expected and p.value == -0.1


@pytest.mark.parametrize("cell,expected", [("1,234", 1234), ("1 234", 1234),
                                           ("1\u00a0234", 1234), ("12,345,678", 12345678),
                                           ("500.0", 500), (" 62 ", 62)])
def test_thousands_separators_in_sizes(tmp_path, cell, expected):
    s = read(tmp_path, papers=with_cell(PAPERS, 1, "n_test", cell))
    assert s.papers.loc[0, "n_test"] == expected


@pytest.mark.parametrize("cell", ["0,853", "12,5", "2.000", "1,23", "~500"])
def test_ambiguous_sizes_rejected(tmp_path, cell):
    err = problems(tmp_path, papers=with_cell(PAPERS, 1, "n_test", cell))
    (p,) = err.problems
    assert (p.row, p.column, p.value) == (2, "n_test", cell)


@pytest.mark.parametrize("cell,expected", [("Yes", True), ("n", False), ("TRUE", True),
                                           ("0", False), ("1", True), (" y ", True)])
def test_booleans(tmp_path, cell, expected):
    s = read(tmp_path, papers=with_cell(PAPERS, 1, "in_scope", cell))
    assert s.papers.loc[0, "in_scope"] == expected


def test_empty_rows_skipped_and_noted(tmp_path):
    p = PAPERS[:2] + [[""] * len(PAPERS[0]), ["  "] + [""] * (len(PAPERS[0]) - 1)] + PAPERS[2:]
    s = read(tmp_path, papers=p)
    assert s.papers["source_row"].tolist() == [2, 5]
    notes = s.notes[s.notes.file == "p.csv"]
    assert set(notes.loc[notes.note.str.contains("skipped"), "row"]) == {3, 4}


def test_enum_spellings_and_metric_case_noted(tmp_path):
    p = with_cell(PAPERS, 1, "split", "Train/Val/Test")
    r = with_cell(RESULTS, 1, "metric", " Accuracy ")
    s = read(tmp_path, papers=p, results=r)
    assert s.papers.loc[0, "split"] == "train_val_test"
    assert s.results.loc[0, "metric"] == "accuracy"
    assert s.notes.note.str.contains("read as 'train_val_test'").any()


def test_semicolon_csv_and_tsv(tmp_path):
    write(tmp_path / "p.tsv", PAPERS, sep="\t")
    write(tmp_path / "r.csv", [[c.replace(".", ",") for c in row] for row in RESULTS], sep=";")
    cfg = {"papers": "p.tsv", "results": "r.csv", "layout": "long", "units": "auto"}
    s = read_venue(cfg, base_dir=tmp_path)
    assert s.results["value"].tolist() == [0.91, 0.89, 0.85, 0.84]
    assert s.notes.note.str.contains("';'-separated").any()


# ------------------------------------------------------------------ column mapping
def test_column_mapping_and_constants(tmp_path):
    p = [["ID", "Task", "Scope?"], ["a", "segmentation", "y"]]
    r = [["ID", "Model", "DSC [%]"], ["a", "nnU-Net", "85.3"], ["a", "U-Net", "84.1"]]
    cfg = venue(tmp_path, papers=p, results=r,
                columns={"papers": {"ID": "paper_id", "Task": "task", "Scope?": "in_scope"},
                         "results": {"ID": "paper_id", "Model": "method", "DSC [%]": "value"}},
                constants={"metric": "dsc"})
    s = read_venue(cfg, base_dir=tmp_path, venue="v")
    assert s.results["metric"].tolist() == ["dsc", "dsc"]
    assert s.results["value"].tolist() == pytest.approx([0.853, 0.841])
    err_cfg = dict(cfg, results="r.csv")
    write(tmp_path / "r.csv", [["ID", "Model", "DSC [%]"], ["a", "x", "85.3%?"]])
    with pytest.raises(SheetValidationError) as exc:
        read_venue(err_cfg, base_dir=tmp_path)
    assert exc.value.problems[0].column == "DSC [%]"  # their name, not ours


# ------------------------------------------------------------------ wide top-2
def test_wide_top2_via_mapping(tmp_path):
    w = [["Paper", "Task", "Ours (DSC %)", "SOTA (DSC %)", "SD ours", "N test", "Split"],
         ["w1", "segmentation", "87.5 ± 5.1", "86.9", "", "1,200", "train/test"],
         ["w2", "segmentation", "91.0", "", "", "40", "train_test"],
         ["w3", "segmentation", "80.0", "80.0", "4.0", "", "cv"]]
    write(tmp_path / "w.csv", w)
    cfg = {"papers": "w.csv", "layout": "wide_top2", "units": "auto",
           "constants": {"metric": "dsc", "sd_over": "test"},
           "columns": {"wide": {"Paper": "paper_id", "Task": "task",
                                "Ours (DSC %)": "value_proposed",
                                "SOTA (DSC %)": "value_best_prior", "SD ours": "sd_proposed",
                                "N test": "n_test", "Split": "split"}}}
    s = read_venue(cfg, base_dir=tmp_path, venue="w")
    assert list(s.papers.columns) == PAPERS_OUT and list(s.results.columns) == RESULTS_OUT
    assert s.papers["n_test"].tolist()[:2] == [1200, 40]
    assert s.papers["split"].tolist() == ["train_test", "train_test", "cv_only"]
    assert s.papers["in_scope"].isna().all()  # the wide sheet lacks it: missing
    r = s.results
    assert r["method"].tolist() == ["proposed", "best_prior", "proposed", "proposed",
                                    "best_prior"]
    assert r["value"].tolist() == pytest.approx([0.875, 0.869, 0.91, 0.80, 0.80])
    assert r.loc[0, "sd"] == pytest.approx(0.051) and r.loc[3, "sd"] == pytest.approx(0.04)
    assert r["source_row"].tolist() == [2, 2, 3, 4, 4]
    assert s.notes.note.str.contains("no best_prior value").any()


def test_wide_requires_value_columns(tmp_path):
    write(tmp_path / "w.csv", [["paper_id", "task", "value_proposed"], ["a", "classification",
                                                                        "0.9"]])
    cfg = {"papers": "w.csv", "layout": "wide_top2", "units": "auto"}
    with pytest.raises(SheetValidationError) as exc:
        read_venue(cfg, base_dir=tmp_path)
    msg = str(exc.value)
    assert "'value_best_prior'" in msg and "'metric'" in msg


# ------------------------------------------------------------------ XLSX
def _workbook(path, sheets: dict, merge=None, percent_cell=None):
    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    for name, rows in sheets.items():
        ws = wb.create_sheet(name)
        for row in rows:
            ws.append([None if c == "" else c for c in row])
    if merge:
        wb[merge[0]].merge_cells(merge[1])
    if percent_cell:
        name, ref, value = percent_cell
        wb[name][ref] = value
        wb[name][ref].number_format = "0.0%"
    wb.save(path)


def test_xlsx_two_sheets_with_numbers(tmp_path):
    p = [PAPERS[0]] + [[int(c) if c.isdigit() else c for c in row] for row in PAPERS[1:]]
    r = [RESULTS[0]] + [[float(c) if c.replace(".", "").isdigit() else c for c in row]
                        for row in RESULTS[1:]]
    _workbook(tmp_path / "s.xlsx", {"about": [["x"]], "Papers": p, "Results": r},
              percent_cell=("Results", "D3", 0.89))
    cfg = {"papers": "s.xlsx", "papers_sheet": "Papers", "results": "s.xlsx",
           "results_sheet": "Results", "layout": "long", "units": "auto"}
    s = read_venue(cfg, base_dir=tmp_path, venue="x")
    assert s.results["value"].tolist() == [0.91, 0.89, 0.85, 0.84]
    assert s.results["source_sheet"].unique().tolist() == ["Results"]
    assert s.notes.note.str.contains("formatted as percent").any()
    cfg["results_sheet"] = "Nope"
    with pytest.raises(SheetValidationError, match="a sheet of this workbook: about, Papers"):
        read_venue(cfg, base_dir=tmp_path)


def test_xlsx_merged_header_rejected_naming_range(tmp_path):
    r = [["paper_id", "method", "Accuracy", ""]] + [row[:4] for row in RESULTS[1:]]
    _workbook(tmp_path / "s.xlsx", {"p": PAPERS, "r": r}, merge=("r", "C1:D1"))
    cfg = {"papers": "s.xlsx", "papers_sheet": "p", "results": "s.xlsx", "results_sheet": "r",
           "layout": "long", "units": "auto"}
    with pytest.raises(SheetValidationError, match="merged header cells C1:D1"):
        read_venue(cfg, base_dir=tmp_path)


def test_xlsx_vertical_merge_in_data_forward_filled(tmp_path):
    r = [list(x) for x in RESULTS]
    r[2][0] = ""  # p1 spans rows 2-3 as one merged cell
    _workbook(tmp_path / "s.xlsx", {"p": PAPERS, "r": r}, merge=("r", "A2:A3"))
    cfg = {"papers": "s.xlsx", "papers_sheet": "p", "results": "s.xlsx", "results_sheet": "r",
           "layout": "long", "units": "auto"}
    s = read_venue(cfg, base_dir=tmp_path)
    assert s.results["paper_id"].tolist()[:2] == ["p1", "p1"]
    assert s.notes.note.str.contains("merged cells A2:A3").any()
