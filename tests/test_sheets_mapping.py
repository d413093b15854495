"""Describing a real sheet in config: non-data rows, headerless columns, generated ids,
value maps, two numbers in one cell, compared-methods cells, lenient mode, hostile files."""

from __future__ import annotations

import csv

import openpyxl
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from falseclaims.config import Eligibility
from falseclaims.survey.eligibility import select_papers
from falseclaims.sheets import SheetValidationError, read_venue
from falseclaims.io import raw_reader
from falseclaims.io import xlsx
from falseclaims.sheets.read.rules import compile_rules, read_ruled_measure

ANALYSIS = Eligibility.from_block({
    "metrics": {"classification": ["accuracy", "acc"], "segmentation": ["dsc"]},
    "test_set_splits": ["train_test", "train_val_test", "cv_plus_test"]})
HEAD = ["Paper", "Task", "Metric", "Ours", "SOTA", "Split", "N"]
ROWS = [["a", "segmentation", "dsc", "85.0", "84.0", "train_test", "100"],
        ["b", "segmentation", "dsc", "80.0", "79.5", "train_test", "50"],
        ["c", "classification", "accuracy", "91.0", "90.0", "train_test", "300"]]
MAP = {"Paper": "paper_id", "Task": "task", "Metric": "metric", "Ours": "value_proposed",
       "SOTA": "value_best_prior", "Split": "split", "N": "n_test"}


def write(path, rows, sep=","):
    with open(path, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh, delimiter=sep).writerows(rows)
    return path


def wide(tmp_path, rows, head=HEAD, mapping=None, **extra):
    write(tmp_path / "w.csv", [head, *rows])
    cfg = {"papers": "w.csv", "layout": "wide_top2", "units": "percent",
           "columns": {"wide": dict(MAP if mapping is None else mapping)},
           "constants": {"in_scope": True, "values_only_in_figures": False}, **extra}
    return cfg


def read(tmp_path, rows, **kw):
    return read_venue(wide(tmp_path, rows, **kw), base_dir=tmp_path, venue="v")


def problems(tmp_path, rows, **kw):
    with pytest.raises(SheetValidationError) as exc:
        read(tmp_path, rows, **kw)
    return exc.value.problems


def notes(s, text):
    return s.notes[s.notes["note"].str.contains(text, regex=False)]


# ------------------------------------------------------------------ rows that are not data
def test_repeated_header_and_formula_rows_skipped_with_notes(tmp_path):
    rows = [ROWS[0], HEAD, ROWS[1], ["", "", "", "=MAX(D2:D4)", "=MAX(E2:E4)", "", ""], ROWS[2]]
    s = read(tmp_path, rows)
    assert s.papers["paper_id"].tolist() == ["a", "b", "c"]
    assert notes(s, "repeated header row skipped")["row"].tolist() == [3]
    assert notes(s, "formula row skipped")["row"].tolist() == [5]


def test_skip_rows_where_rule(tmp_path):
    rows = [["2021", "", "", "", "", "", ""], ROWS[0], ["Section B", "", "", "", "", "", ""],
            *ROWS[1:]]
    s = read(tmp_path, rows, skip_rows_where={"Paper": r"^\d{4}$|^Section"})
    assert s.papers["paper_id"].tolist() == ["a", "b", "c"]
    skipped = notes(s, "skipped by skip_rows_where")
    assert skipped["row"].tolist() == [2, 4] and "'2021'" in skipped["note"].iloc[0]
    # without the rule, the year row is a paper without a task: refused naming the cell
    probs = problems(tmp_path, rows)
    assert (2, "Task") in [(p.row, p.column) for p in probs]


def test_skip_rows_where_unknown_column_or_bad_regex(tmp_path):
    probs = problems(tmp_path, ROWS, skip_rows_where={"Nope": "x"})
    assert any(p.column == "Nope" and "skip_rows_where" in p.expected for p in probs)
    probs = problems(tmp_path, ROWS, skip_rows_where={"Paper": "("})
    assert any("valid regular expression" in p.expected for p in probs)


# ------------------------------------------------------------------ headerless columns
@pytest.mark.parametrize("key", ["@H", "column H", "@h", "@8", "column 8"])
def test_headerless_column_mapped_by_letter(tmp_path, key):
    rows = [[*r, m] for r, m in zip(ROWS, ["nnU-Net", "U-Net", "ResNet"])]
    s = read(tmp_path, rows, head=[*HEAD, ""], mapping={**MAP, key: "name_best_prior"})
    assert s.results["method"].tolist() == ["proposed", "nnU-Net", "proposed", "U-Net",
                                            "proposed", "ResNet"]


def test_column_reference_beyond_the_sheet_refused(tmp_path):
    for key in ("@Z", "@26"):
        probs = problems(tmp_path, ROWS, mapping={**MAP, key: "name_best_prior"})
        assert [(p.column, p.row) for p in probs] == [(key, None)]
        assert "a column Z with values" in probs[0].expected and "run A-G" in probs[0].expected


def test_unmapped_headerless_column_refused_with_hint(tmp_path):
    rows = [[*r, "x"] for r in ROWS]
    probs = problems(tmp_path, rows, head=[*HEAD, ""])
    assert [(p.column, p.row) for p in probs] == [("column H", 1)]
    assert '"@H"' in probs[0].expected


# ------------------------------------------------------------------ generated ids
def test_id_template_with_duplicates_suffixed_and_noted(tmp_path):
    head = ["Authors", "Year", *HEAD[1:]]
    rows = [["Li", "2021", *ROWS[0][1:]], ["Li", "2021", *ROWS[1][1:]],
            ["Kim", "2022", *ROWS[2][1:]]]
    mapping = {k: v for k, v in MAP.items() if k != "Paper"}
    s = read(tmp_path, rows, head=head, mapping=mapping, id="{Authors} {Year}")
    assert s.papers["paper_id"].tolist() == ["Li 2021", "Li 2021 (2)", "Kim 2022"]
    assert notes(s, "already used")["row"].tolist() == [3]
    assert s.results["paper_id"].tolist()[2:4] == ["Li 2021 (2)"] * 2


def test_duplicate_id_in_wide_sheet_is_one_problem(tmp_path):
    probs = problems(tmp_path, [ROWS[0], ["a", *ROWS[1][1:]], ROWS[2]])
    assert [(p.row, p.column, p.value) for p in probs] == [(3, "Paper", "a")]
    assert "duplicate of row 2" in probs[0].expected


def test_id_from_row_number_and_refusals(tmp_path):
    mapping = {k: v for k, v in MAP.items() if k != "Paper"}
    s = read(tmp_path, ROWS, mapping=mapping, id="row")
    assert s.papers["paper_id"].tolist() == ["row 2", "row 3", "row 4"]
    probs = problems(tmp_path, ROWS, mapping=mapping, id="{Nope}")
    assert probs[0].column == "Nope" and "id template" in probs[0].expected
    assert [p.column for p in probs] == ["Nope", "paper_id"]  # and no id column: required
    cfg = {"papers": "p.csv", "results": "r.csv", "layout": "long", "units": "auto",
           "id": "row"}
    with pytest.raises(ValueError, match="id: row needs layout: wide_top2"):
        read_venue(cfg, base_dir=tmp_path)


# ------------------------------------------------------------------ free text -> category
def test_value_maps_turn_free_text_into_categories(tmp_path):
    head = [*HEAD, "Stat"]
    rows = [[*ROWS[0][:5], "5-folds", "100", "p-values"],
            [*ROWS[1][:5], "train/val/test 70/10/20", "50", "yes (Wilcoxon)"],
            [*ROWS[2][:5], "hold-out", "300", "No"]]
    values = {"split": {r"(?i)\d+\s*-?folds?": "cv_only", r"(?i)train\s*/\s*val": "train_val_test",
                        r"(?i)hold-?out": "train_test"},
              "statistical_test": {r"(?i)p-?val|wilcoxon|t-?test": True, r"(?i)^no": False}}
    s = read(tmp_path, rows, head=head, mapping={**MAP, "Stat": "statistical_test"},
             values=values)
    assert s.papers["split"].tolist() == ["cv_only", "train_val_test", "train_test"]
    assert s.papers["statistical_test"].tolist() == [True, True, False]
    # 'No' -> False reads so without the rule too: no note for it
    assert len(notes(s, "(values: ")) == 5
    # a text no expression matches is still refused, naming the cell
    rows[2][5] = "leave-one-out"
    probs = problems(tmp_path, rows, head=head, mapping={**MAP, "Stat": "statistical_test"},
                     values=values)
    assert [(p.row, p.column, p.value) for p in probs] == [(4, "Split", "leave-one-out")]


def test_value_map_can_quote_groups_of_the_match(tmp_path):
    rows = [[*ROWS[0][:6], "100 images"], ROWS[1], [*ROWS[2][:6], "300 cases"]]
    s = read(tmp_path, rows, values={"n_test": {r"^(\d+) (?:images|cases)$": r"\1"}})
    assert s.papers["n_test"].tolist() == [100, 50, 300]


def test_test_size_from_split_text_refused_naming_cell(tmp_path):
    probs = problems(tmp_path, [ROWS[0], ROWS[1], [*ROWS[2][:6], "70/10/20 of 300 cases"]])
    assert [(p.row, p.column) for p in probs] == [(4, "N")]
    assert "compute the test-set size" in probs[0].expected


# ------------------------------------------------------------------ two numbers in one cell
@given(mean=st.floats(0.5, 99.5), sd=st.floats(0.01, 30.0),
       style=st.sampled_from(["{m} -{s}", "{m} ({s})", "{m}±{s}", "{m} ± {s}", "{m}+/-{s}",
                              "{m}% ({s}%)"]))
@settings(max_examples=60, deadline=None)
def test_value_sd_pattern_round_trip(mean, sd, style):
    rule = compile_rules(None, {"v": {"cell_pattern": "value_sd"}}, None, "")[1]["v"]
    cell = style.format(m=f"{mean:.2f}", s=f"{sd:.2f}")
    m = read_ruled_measure(rule, cell)
    assert (m.value, m.sd) == (float(f"{mean:.2f}"), float(f"{sd:.2f}"))
    assert m.percent_sign == ("%" in cell)


@pytest.mark.parametrize("cell", ["70.49 -1.25", "70.49 (1.25)", "70.49±1.25", "70.49 ± 1.25"])
def test_cell_pattern_value_sd(tmp_path, cell):
    rows = [[*ROWS[0][:3], cell, *ROWS[0][4:]], *ROWS[1:]]
    s = read(tmp_path, rows, cells={"value_proposed": {"cell_pattern": "value_sd"}})
    r = s.results.iloc[0]
    assert (r["value"], r["sd"]) == pytest.approx((0.7049, 0.0125))


def test_two_numbers_without_pattern_refused_naming_cell(tmp_path):
    rows = [[*ROWS[0][:3], "70.49 -1.25", *ROWS[0][4:]], *ROWS[1:]]
    probs = problems(tmp_path, rows)
    assert [(p.row, p.column, p.value) for p in probs] == [(2, "Ours", "70.49 -1.25")]


@pytest.mark.parametrize("cell,rules", [
    ("78.50/66.45", None),                                   # two structures, no split rule
    ("78.50/66.45", {"cell_pattern": "value_sd"}),           # a pattern for mean and SD only
    ("70.49 -1.25/66.45", {"split": "/", "parts": ["", "tumour"]}),  # parts hold two numbers
])
def test_ambiguous_two_number_cells_refused_naming_cell(tmp_path, cell, rules):
    rows = [[*ROWS[0][:3], cell, *ROWS[0][4:]], *ROWS[1:]]
    probs = problems(tmp_path, rows, **({"cells": {"value_proposed": rules}} if rules else {}))
    assert [(p.row, p.column, p.value) for p in probs] == [(2, "Ours", cell)]
    assert "w.csv" in str(probs[0]) and probs[0].expected


def test_custom_cell_pattern(tmp_path):
    rows = [[*ROWS[0][:3], "mean 70.5 sd 2", *ROWS[0][4:]], *ROWS[1:]]
    s = read(tmp_path, rows, cells={"value_proposed": {
        "cell_pattern": r"mean (?P<value>[\d.]+) sd (?P<sd>[\d.]+)"}})
    assert (s.results.loc[0, "value"], s.results.loc[0, "sd"]) == pytest.approx((0.705, 0.02))


@pytest.mark.parametrize("suffix_on", ["metric", "method"])
def test_split_cells_give_one_row_per_part(tmp_path, suffix_on):
    rows = [[*ROWS[0][:3], "78.50/66.45", "77.00/66.00", *ROWS[0][5:]], *ROWS[1:]]
    rule = {"split": "/", "parts": ["", "tumour"], "suffix_on": suffix_on}
    s = read(tmp_path, rows, cells={"value_proposed": rule, "value_best_prior": rule})
    a = s.results[s.results["paper_id"] == "a"]
    assert a["value"].tolist() == pytest.approx([0.785, 0.6645, 0.77, 0.66])
    names = a[suffix_on].tolist()
    base = "dsc" if suffix_on == "metric" else "proposed"
    assert names[:2] == [base, f"{base} [tumour]"]
    assert len(notes(s, "part 2 of a '/'-separated cell")) == 2


def test_split_sd_cells_pair_with_split_values(tmp_path):
    head = [*HEAD, "SD ours"]
    rows = [[*ROWS[0][:3], "78.50/66.45", *ROWS[0][4:], "5.0/9.0"],
            *[[*r, "2.0"] for r in ROWS[1:]]]
    rule = {"split": "/", "parts": ["", "tumour"]}
    s = read(tmp_path, rows, head=head, mapping={**MAP, "SD ours": "sd_proposed"},
             cells={"value_proposed": rule, "sd_proposed": rule})
    a = s.results[(s.results["paper_id"] == "a") & (s.results["method"] == "proposed")]
    assert a["sd"].tolist() == pytest.approx([0.05, 0.09])
    rows[1][-1] = "2.0/3.0"  # an SD pair next to a single value
    probs = problems(tmp_path, rows, head=head, mapping={**MAP, "SD ours": "sd_proposed"},
                     cells={"value_proposed": rule, "sd_proposed": rule})
    assert [(p.row, p.column) for p in probs] == [(3, "SD ours")]


def test_rules_for_unknown_columns_refused(tmp_path):
    probs = problems(tmp_path, ROWS, values={"splitt": {"x": "cv_only"}},
                     cells={"n_test": {"cell_pattern": "value_sd"}})
    assert [p.column for p in probs] == ["values.splitt", "cells.n_test"]
    assert "value_proposed" in probs[1].expected


def test_split_cell_with_wrong_number_of_parts_refused(tmp_path):
    rows = [[*ROWS[0][:3], "78.5/66.4/50.1", *ROWS[0][4:]], *ROWS[1:]]
    probs = problems(tmp_path, rows,
                     cells={"value_proposed": {"split": "/", "parts": ["liver", "tumour"]}})
    assert [(p.row, p.column) for p in probs] == [(2, "Ours")]
    assert "2 values separated by '/'" in probs[0].expected


def test_compared_methods_in_one_cell(tmp_path):
    head = ["Paper", "Task", "Metric", "Ours", "Compared", "Split", "N"]
    mapping = {**{k: v for k, v in MAP.items() if k != "SOTA"}, "Compared": "values_compared"}
    rows = [[*ROWS[0][:4], "U-Net 78.2; nnU-Net: 84.5", *ROWS[0][5:]],
            [*ROWS[1][:4], "79.9", *ROWS[1][5:]], [*ROWS[2][:4], "", *ROWS[2][5:]]]
    s = read(tmp_path, rows, head=head, mapping=mapping)
    a = s.results[s.results["paper_id"] == "a"]
    assert a["method"].tolist() == ["proposed", "U-Net", "nnU-Net"]
    assert a["value"].tolist() == pytest.approx([0.85, 0.782, 0.845])
    assert s.results[s.results["paper_id"] == "b"]["method"].tolist() == ["proposed",
                                                                          "compared 1"]
    rows[0][4] = "U-Net 78.2; U-Net 80"
    probs = problems(tmp_path, rows, head=head, mapping=mapping)
    assert [(p.row, p.column) for p in probs] == [(2, "Compared")]


# ------------------------------------------------------------------ units
def test_auto_refuses_the_one_fraction_among_percent_values(tmp_path):
    rows = [ROWS[0], [*ROWS[1][:3], "0.83", *ROWS[1][4:]], ROWS[2]]
    probs = problems(tmp_path, rows, units="auto")
    assert [(p.row, p.column, p.value) for p in probs] == [(3, "Ours", "0.83")]
    assert "write 83" in probs[0].expected


# ------------------------------------------------------------------ lenient mode
def test_on_bad_cell_exclude(tmp_path):
    rows = [ROWS[0], [*ROWS[1][:3], "n.r.", *ROWS[1][4:]], [*ROWS[2][:6], "many"]]
    with pytest.raises(SheetValidationError):  # stop (default): every problem listed
        read(tmp_path, rows)
    s = read(tmp_path, rows, on_bad_cell="exclude")
    inv = s.papers.set_index("paper_id")["invalid_cell"]
    assert inv.isna().tolist() == [True, False, False]
    assert "row 3, column 'Ours': got 'n.r.'" in inv["b"]
    assert "row 4, column 'N': got 'many'; expected a whole number" in inv["c"]
    assert set(s.results["paper_id"]) == {"a"}  # rows with bad cells dropped (noted)
    assert len(notes(s, "paper excluded (on_bad_cell: exclude)")) == 2
    sel = select_papers(s.papers, s.results, ANALYSIS, venue="v")
    ex = sel.exclusions.set_index("paper_id")
    assert ex.loc[["b", "c"], "reason"].tolist() == ["invalid_cell"] * 2
    assert "got 'n.r.'" in ex.loc["b", "detail"]
    flow = sel.flow.set_index(["task", "step"])["n_papers"]
    assert flow[("segmentation", "found")] == 2 and flow[("segmentation", "valid_cells")] == 1
    assert flow[("classification", "valid_cells")] == 0


def test_on_bad_cell_exclude_survives_csv_round_trip(tmp_path):
    rows = [ROWS[0], [*ROWS[1][:3], "n.r.", *ROWS[1][4:]], ROWS[2]]
    s = read(tmp_path, rows, on_bad_cell="exclude")
    s.papers.to_csv(tmp_path / "p.csv", index=False)
    s.results.to_csv(tmp_path / "r.csv", index=False)
    sel = select_papers(pd.read_csv(tmp_path / "p.csv"), pd.read_csv(tmp_path / "r.csv"),
                        ANALYSIS)
    assert sel.exclusions["reason"].tolist() == ["invalid_cell"]
    assert sel.eligible["paper_id"].tolist() == ["a", "c"]


def test_on_bad_cell_exclude_long_layout(tmp_path):
    papers = [["paper_id", "task", "in_scope", "values_only_in_figures", "split", "n_test"],
              ["p1", "segmentation", "yes", "no", "train_test", "50"],
              ["p2", "segmentation", "maybe", "no", "train_test", "50"],
              ["p3", "segmentation", "yes", "no", "train_test", "50"]]
    results = [["paper_id", "method", "metric", "value"],
               ["p1", "a", "dsc", "0.8"], ["p1", "b", "dsc", "0.7"],
               ["p2", "a", "dsc", "0.8"], ["p2", "b", "dsc", "0.7"],
               ["p3", "a", "dsc", "0.8"], ["p3", "b", "dsc", "0.7 0.1"]]
    write(tmp_path / "p.csv", papers)
    write(tmp_path / "r.csv", results)
    cfg = {"papers": "p.csv", "results": "r.csv", "layout": "long", "units": "fraction",
           "on_bad_cell": "exclude"}
    s = read_venue(cfg, base_dir=tmp_path, venue="v")
    inv = s.papers.set_index("paper_id")["invalid_cell"]
    assert inv.isna().tolist() == [True, False, False]
    assert "p.csv, row 3, column 'in_scope'" in inv["p2"]
    assert "r.csv, row 7, column 'value'" in inv["p3"]
    assert s.results["source_row"].tolist() == [2, 3, 4, 5, 6]  # the bad row is dropped
    # a re-read table holding "" for a missing invalid_cell keeps the exclusions exact
    s.papers.to_csv(tmp_path / "pp.csv", index=False)
    s.results.to_csv(tmp_path / "rr.csv", index=False)
    pp = pd.read_csv(tmp_path / "pp.csv")
    pp["invalid_cell"] = pp["invalid_cell"].fillna("")
    sel = select_papers(pp, pd.read_csv(tmp_path / "rr.csv"), ANALYSIS)
    assert sel.exclusions["paper_id"].tolist() == ["p2", "p3"]
    assert set(sel.exclusions["reason"]) == {"invalid_cell"}


def test_on_bad_cell_exclude_still_stops_on_sheet_problems(tmp_path):
    rows = [ROWS[0], ["", *ROWS[1][1:]], ROWS[2]]  # a missing paper id: no paper to exclude
    probs = problems(tmp_path, rows, on_bad_cell="exclude")
    assert [(p.row, p.column) for p in probs] == [(3, "Paper")]
    mapping = {**MAP, "Nope": "title"}
    probs = problems(tmp_path, ROWS, mapping=mapping, on_bad_cell="exclude")
    assert probs[0].column == "Nope"


def test_on_bad_cell_exclude_stops_for_a_paper_without_task(tmp_path):
    # a blank task (a merged-looking cell) leaves the paper no place in the per-task flow
    rows = [ROWS[0], ["b", "", "dsc", "80.0/70.1", *ROWS[1][4:]], ROWS[2]]
    probs = problems(tmp_path, rows, on_bad_cell="exclude")
    assert sorted((p.row, p.column) for p in probs) == [(3, "Ours"), (3, "Task")]
    rows[1][1] = "segmentation"  # with its task, the same paper is excluded
    s = read(tmp_path, rows, on_bad_cell="exclude")
    assert s.papers.set_index("paper_id")["invalid_cell"].notna().tolist() == [False, True,
                                                                              False]


def test_without_exclude_no_flow_step_and_no_column(tmp_path):
    s = read(tmp_path, ROWS)
    assert "invalid_cell" not in s.papers
    sel = select_papers(s.papers, s.results, ANALYSIS)
    assert "valid_cells" not in set(sel.flow["step"])


# ------------------------------------------------------------------ hostile files
def _xlsx(path, rows, formula=None):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "s"
    for r in rows:
        ws.append([None if c == "" else c for c in r])
    if formula:
        ws[formula[0]] = formula[1]
    wb.save(path)


def _xcfg(**extra):
    return {"papers": "w.xlsx", "layout": "wide_top2", "units": "percent",
            "columns": {"wide": dict(MAP)},
            "constants": {"in_scope": True, "values_only_in_figures": False}, **extra}


def test_xlsx_formula_without_stored_value_named(tmp_path):
    _xlsx(tmp_path / "w.xlsx", [HEAD, *ROWS], formula=("G3", "=SUM(G2,G4)"))
    with pytest.raises(SheetValidationError) as exc:
        read_venue(_xcfg(), base_dir=tmp_path)
    (p,) = exc.value.problems
    assert (p.row, p.column) == (3, "N")
    assert "formula" in p.expected and "open and save the file in a spreadsheet" in p.expected


def test_xlsx_formula_row_skipped(tmp_path):
    _xlsx(tmp_path / "w.xlsx", [HEAD, *ROWS, []], formula=("D5", "=MAX(D2:D4)"))
    s = read_venue(_xcfg(), base_dir=tmp_path)
    assert notes(s, "formula row skipped")["row"].tolist() == [5]


def test_huge_test_size_refused_naming_cell(tmp_path):
    rows = [[*ROWS[0][:6], 1e23], *[[*r[:6], int(r[6])] for r in ROWS[1:]]]
    _xlsx(tmp_path / "w.xlsx", [HEAD, *rows])
    with pytest.raises(SheetValidationError) as exc:
        read_venue(_xcfg(), base_dir=tmp_path)
    assert [(p.row, p.column) for p in exc.value.problems] == [(2, "N")]
    probs = problems(tmp_path, [[*ROWS[0][:6], "1" + "0" * 23], *ROWS[1:]])
    assert [(p.row, p.column) for p in probs] == [(2, "N")]


def test_huge_cell_refused_naming_row(tmp_path):
    rows = [[*ROWS[0][:6], "1" * 200_000], *ROWS[1:]]
    probs = problems(tmp_path, rows)
    assert probs[0].row == 2 and "131072" in probs[0].expected
    _xlsx(tmp_path / "w.xlsx", [HEAD, [*ROWS[0][:5], "x" * 20_000, ROWS[0][6]], *ROWS[1:]])
    with pytest.raises(SheetValidationError) as exc:
        read_venue(_xcfg(), base_dir=tmp_path)
    assert [(p.row, p.column) for p in exc.value.problems] == [(2, "Split")]
    assert "at most 10000 characters" in exc.value.problems[0].expected


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_utf16_file_detected(tmp_path, encoding):
    text = "\n".join(",".join(r) for r in [HEAD, *ROWS]) + "\n"
    (tmp_path / "w.csv").write_bytes(text.encode(encoding))
    s = read_venue({**_xcfg(), "papers": "w.csv"}, base_dir=tmp_path)
    assert s.papers["paper_id"].tolist() == ["a", "b", "c"]
    assert notes(s, "UTF-16").shape[0] == 1


def test_xlsx_zip_bomb_refused_before_parsing(tmp_path, monkeypatch):
    _xlsx(tmp_path / "w.xlsx", [HEAD, *ROWS])
    monkeypatch.setattr(xlsx, "MAX_XLSX_BYTES", 1000)

    def no_parse(*a, **k):  # the size check must come first
        raise AssertionError("workbook parsed")

    monkeypatch.setattr(openpyxl, "load_workbook", no_parse)
    with pytest.raises(SheetValidationError) as exc:
        read_venue(_xcfg(), base_dir=tmp_path)
    assert "expands to at most" in str(exc.value) and "zip bomb" in str(exc.value)


# ------------------------------------------------------------------ property: junk rows
_JUNK = {"header": HEAD, "year": ["2022", "", "", "", "", "", ""],
         "formula": ["", "", "", "=MAX(D2:D9)", "=MAX(E2:E9)", "", ""],
         "empty": ["", "", "", "", "", "", ""]}


@given(n=st.integers(1, 5), junk=st.lists(st.tuples(st.sampled_from(sorted(_JUNK)),
                                                   st.integers(0, 6)), max_size=6),
       values=st.lists(st.floats(1.5, 99.5).map(lambda x: f"{x:.1f}"), min_size=10,
                       max_size=10))
@settings(max_examples=25, deadline=None)
def test_junk_rows_change_nothing_but_notes(tmp_path_factory, n, junk, values):
    rows = [[f"p{i}", "segmentation", "dsc", values[2 * i], values[2 * i + 1], "train_test",
             str(10 + i)] for i in range(n)]
    messy = list(rows)
    for kind, pos in sorted(junk, key=lambda t: -t[1]):
        messy.insert(min(pos, len(messy)), list(_JUNK[kind]))
    rule = {"Paper": r"^\d{4}$"}
    clean = read(tmp_path_factory.mktemp("a"), rows, skip_rows_where=rule)
    got = read(tmp_path_factory.mktemp("b"), messy, skip_rows_where=rule)
    cols = ["paper_id", "method", "value", "n_test"]
    pd.testing.assert_frame_equal(clean.results[cols], got.results[cols])
    skipped = got.notes["note"].str.contains("skipped").sum()
    assert skipped == len(junk)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.sampled_from(["Paper ID", " paper id ", "metric", "Metric",
                                          "0.85", "", None, 3, "x"]),
                         min_size=3, max_size=3), max_size=12))
def test_repeated_header_candidates_agree_with_the_row_check(cells):
    """skip_rows looks for header-like rows column by column; the rows it then checks with
    _is_repeated_header are exactly those the row-by-row check accepts."""
    from falseclaims.sheets.read.rows import _header_like, _is_repeated_header

    names = ["paper id", "metric", "value"]
    rows = list(enumerate(cells, start=2))
    t = raw_reader.RawTable("f.csv", None, ["Paper ID", "metric", "value"], rows)
    brute = {i for i, (_, row) in enumerate(rows) if _is_repeated_header(t, row, names)}
    fast = {i for i in _header_like(rows, names) if _is_repeated_header(t, rows[i][1], names)}
    assert fast == brute
