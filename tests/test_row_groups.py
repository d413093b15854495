"""Rows of one paper (issue: a user's own sheet): group_rows_by_id in the long layout,
`sheet inspect --write` drafting both tables of a long-layout survey, repeated ids decided
from the evidence in the rows, and the per-venue notes digest as a report page."""

from __future__ import annotations

import csv
from pathlib import Path

import pandas as pd
import pytest
import yaml

from falseclaims.cli import main
from falseclaims.sheets import read_venue
from falseclaims.sheets.draft.draft import draft_config
from falseclaims.sheets.draft.inspect import inspect_sheet
from long_sheet import PAPERS, RESULTS, write_long_sheet

ROOT = Path(__file__).resolve().parents[1]


def _csv(path: Path, rows: list) -> Path:
    with open(path, "w", newline="") as fh:
        csv.writer(fh).writerows(rows)
    return path


def _long(tmp_path, papers, results, **block):
    cfg = {"papers": str(_csv(tmp_path / "p.csv", papers)),
           "results": str(_csv(tmp_path / "r.csv", results)), "layout": "long",
           "units": "fraction", "group_rows_by_id": True, **block}
    return read_venue(cfg, ".", "v")


P_HEAD = ["paper_id", "task", "in_scope", "values_only_in_figures", "split", "n_test"]
R_HEAD = ["paper_id", "method", "metric", "value"]


def test_long_layout_one_comparison_per_paper_every_row_noted(tmp_path):
    papers = [P_HEAD, ["Kim", "segmentation", "yes", "no", "train_test", "120"],
              ["Kim", "segmentation", "yes", "no", "train_test", "80"],
              ["Lee", "segmentation", "yes", "no", "train_test", "50"]]
    results = [R_HEAD, ["Kim", "ours", "dsc", "0.8"], ["Kim", "unet", "dsc", ""],
               ["Kim", "ours", "dsc", "0.7"], ["Kim", "UNet ", "dsc", "0.65"],
               ["Kim", "unet", "dsc", "0.6"],  # repeats block 2's method: block 3
               ["Lee", "ours", "dsc", "0.9"], ["Lee", "unet", "dsc", "0.85"]]
    s = _long(tmp_path, papers, results)
    p = s.papers.set_index("paper_id")
    assert list(p.index) == ["Kim", "Lee"]
    # block 1 (rows 2-3) lacks a value: block 2 (rows 4-5) is the comparison, and its
    # papers row is the second of Kim's two (as many papers rows as blocks? no: 2 vs 3)
    kim = s.results[s.results.paper_id == "Kim"]
    assert list(kim["source_row"]) == [4, 5] and list(kim["value"]) == [0.7, 0.65]
    assert p.loc["Kim", "n_test"] == 120  # 2 papers rows, 3 blocks: the first row
    notes = s.notes[s.notes["note"].str.startswith("further")]
    assert sorted(notes["row"].dropna().astype(int)) == [2, 3, 3, 6]  # papers 3; results 2, 3, 6
    assert notes["note"].str.contains("that of rows 4-5 (block 2 of 3", regex=False).any()
    # the empty value of unused row 3 changes nothing: a note, not a refusal
    assert s.notes["note"].str.contains("unreadable cell in a row not used").any()


def test_long_layout_papers_row_follows_the_block_used(tmp_path):
    papers = [P_HEAD, ["Kim", "segmentation", "yes", "no", "train_test", "120"],
              ["Kim", "segmentation", "yes", "no", "train_test", "80"]]
    results = [R_HEAD, ["Kim", "ours", "dsc", "0.8"], ["Kim", "unet", "dsc", ""],
               ["Kim", "ours", "dsc", "0.7"], ["Kim", "unet", "dsc", "0.65"]]
    s = _long(tmp_path, papers, results)
    assert s.papers["n_test"].tolist() == [80]  # the papers row of block 2 of 2
    assert s.notes["note"].str.contains("the papers row of results block 2 of 2").any()
    # without group_rows_by_id the repeats are refused, naming the rows
    from falseclaims.sheets import SheetValidationError
    with pytest.raises(SheetValidationError, match="unique paper_id"):
        _long(tmp_path, papers, results, group_rows_by_id=False)



def test_long_layout_prefers_the_block_of_a_primary_metric(tmp_path):
    # an MRI reconstruction survey: a paper's PSNR at two accelerations (two blocks: the
    # methods repeat), then its Dice; its comparison is the Dice block when the primary
    # metrics are given (the pipeline and `sheet check` give config analysis.metrics),
    # its first comparison otherwise
    papers = [P_HEAD, ["Kim", "segmentation", "yes", "no", "train_test", "40"]]
    results = [R_HEAD, ["Kim", "ours", "psnr", "31.2"], ["Kim", "unet", "psnr", "30.5"],
               ["Kim", "ours", "psnr", "29.9"], ["Kim", "unet", "psnr", "29.1"],
               ["Kim", "ours", "dsc", "0.81"], ["Kim", "unet", "dsc", "0.80"]]
    cfg = {"papers": str(_csv(tmp_path / "p.csv", papers)),
           "results": str(_csv(tmp_path / "r.csv", results)), "layout": "long",
           "units": "auto", "group_rows_by_id": True}
    primary = {"classification": ("accuracy",), "segmentation": ("dsc", "dice")}
    s = read_venue(cfg, ".", "v", metrics=primary)
    # block 2 (rows 4-7: a block ends where a method and metric repeat) holds the Dice
    assert list(s.results["source_row"]) == [4, 5, 6, 7]
    assert list(s.results["metric"]) == ["psnr", "psnr", "dsc", "dsc"]
    assert s.notes["note"].str.contains("for a primary metric, config analysis.metrics",
                                        regex=False).any()
    first = read_venue(cfg, ".", "v")  # no primary metrics: the first comparison, as before
    assert list(first.results["metric"]) == ["psnr", "psnr"]

def test_draft_of_a_long_workbook_names_both_tables_and_runs(tmp_path, capsys):
    book = write_long_sheet(tmp_path / "survey.xlsx")
    out = tmp_path / "d.yaml"
    assert main(["sheet", "inspect", str(book), "--venue", "lg", "--write", str(out)]) == 0
    text = out.read_text()
    assert "TODO" not in text and "STILL TO FIX" not in text
    block = yaml.safe_load(text)["venues"]["lg"]
    assert block["layout"] == "long" and block["group_rows_by_id"] is True
    assert (block["papers_sheet"], block["results_sheet"]) == ("Papers", "Results")
    assert block["columns"]["results"] == {"Study": "paper_id", "Model": "method",
                                           "Metric": "metric", "Score": "value"}
    assert block["columns"]["papers"]["Data set"] == "ignore"
    s = read_venue(block, ".", "lg")
    n_papers = len({r[0] for r in PAPERS[1:]})
    assert len(s.papers) == n_papers and len(s.results) == len(RESULTS) - 1 - 2
    assert s.papers.set_index("paper_id").loc["Kim 2023", "n_test"] == 80  # LiTS block
    said = capsys.readouterr().out
    assert "one paper over several rows (column 'Data set' holds 'BraTS' and 'LiTS'" in said
    # the same draft when the results sheet is the one inspected
    d = draft_config(inspect_sheet(book, "Results"), "lg")
    assert d.config["venues"]["lg"]["columns"] == block["columns"]


def test_draft_finds_the_results_file_named_alike(tmp_path):
    papers = _csv(tmp_path / "mysurvey_papers.csv",
                  [["Paper", "Task", "Test"], ["a", "classification", "100"],
                   ["b", "classification", "200"]])
    _csv(tmp_path / "mysurvey_results.csv",
         [["Paper", "Method", "Metric", "Value"], ["a", "ours", "acc", "0.9"],
          ["a", "cnn", "acc", "0.8"], ["b", "ours", "acc", "0.7"], ["b", "cnn", "acc", "0.6"]])
    d = draft_config(inspect_sheet(papers), "v")
    block = d.config["venues"]["v"]
    assert block["results"].endswith("mysurvey_results.csv") and not d.problems
    assert "group_rows_by_id" not in block  # one row per method is no repeat
    s = read_venue(block, ".", "v")
    assert len(s.papers) == 2 and len(s.results) == 4


def test_draft_of_tables_with_different_header_rows_runs(tmp_path):
    """A papers file with a group row above its header (a shape of a public review's
    extraction files) beside a results file whose header is row 1: each table keeps its own
    header row (results_header_row), and the drafted block reads both."""
    papers = _csv(tmp_path / "review_papers.csv",
                  [["Origin", "", "Design", ""], ["Paper", "Task", "Test", "Split"],
                   ["a", "classification", "100", "train/test"],
                   ["b", "classification", "200", "train/test"]])
    _csv(tmp_path / "review_results.csv",
         [["Paper", "Method", "Metric", "Value"], ["a", "ours", "acc", "0.9"],
          ["a", "cnn", "acc", "0.8"], ["b", "ours", "acc", "0.7"], ["b", "cnn", "acc", "0.6"]])
    d = draft_config(inspect_sheet(papers), "v")
    block = d.config["venues"]["v"]
    assert (block.get("header_row"), block.get("results_header_row")) == (2, 1), block
    assert not d.problems, d.problems
    s = read_venue(block, ".", "v")
    assert list(s.papers["paper_id"]) == ["a", "b"] and len(s.results) == 4


def test_results_header_row_absent_means_the_papers_header_row(tmp_path):
    from falseclaims.sheets.read.venue import Venue

    def header(block, kind):
        return Venue.from_config({"papers": "p.csv", **block}).header(kind)

    assert header({"header_row": 3, "header_rows": 2}, "results") == (3, 2)
    assert header({"header_row": 3, "results_header_row": 1}, "results") == (1, 1)
    assert header({"header_row": 3, "results_header_row": 1}, "papers") == (3, 1)
    assert header({"header_row": None}, "results") == (1, 1)  # null: the default


WIDE_HEAD = ["Paper", "Title", "Task", "Metric", "Ours", "SOTA", "Test", "Notes"]


def _wide_draft(tmp_path, rows):
    d = draft_config(inspect_sheet(_csv(tmp_path / "w.csv", [WIDE_HEAD, *rows])), "v")
    block = d.config["venues"]["v"]
    return block, d.remarks, read_venue(block, ".", "v")


def test_same_id_different_title_are_different_papers(tmp_path):
    rows = [["Li 2022", "Nets for livers", "segmentation", "dice", "0.8", "0.7", "10", ""],
            ["Li 2022", "Lungs, again", "segmentation", "dice", "0.9", "0.8", "12", ""],
            ["Wu 2021", "Kidneys", "segmentation", "dice", "0.7", "0.6", "30", ""]]
    block, remarks, s = _wide_draft(tmp_path, rows)
    assert "group_rows_by_id" not in block and block["id"] == "{Paper}"
    assert sorted(s.papers["paper_id"]) == ["Li 2022", "Li 2022 (2)", "Wu 2021"]
    assert any("different papers (column 'Title' holds 'Nets for livers' and 'Lungs, "
               "again')" in r for r in remarks)
    assert not any(r.startswith("unsure: ids") for r in remarks)


def test_same_id_over_data_sets_is_one_paper_and_mixed_runs(tmp_path):
    rows = [["Kim 2023", "Two organs", "segmentation", "dice", "0.8", "0.7", "10",
             "dataset 1"],
            ["Kim 2023", "Two organs", "segmentation", "dice", "0.75", "0.7", "12",
             "dataset 2"],
            ["Li 2022", "Nets for livers", "segmentation", "dice", "0.8", "0.7", "10", ""],
            ["Li 2022", "Lungs, again", "segmentation", "dice", "0.9", "0.8", "12", ""]]
    block, remarks, s = _wide_draft(tmp_path, rows)
    assert block["group_rows_by_id"] is True
    assert block["cell_overrides"] == {"A5": "Li 2022 (2)"}  # the second Li: its own id
    assert sorted(s.papers["paper_id"]) == ["Kim 2023", "Li 2022", "Li 2022 (2)"]
    assert any("one paper over several rows (column 'Notes' holds 'dataset 1' and "
               "'dataset 2'" in r for r in remarks)
    # written by hand, grouping rows with different titles says so
    hand = {k: v for k, v in block.items() if k != "cell_overrides"}
    s = read_venue(hand, ".", "v")
    li = s.notes[s.notes["note"].str.contains("have different titles")]
    assert list(li["row"]) == [5] and list(li["kind"]) == ["changes results"]
    # no evidence either way: one paper, listed as unsure
    rows = [["Ng 2024", "", "segmentation", "dice", "0.8", "0.7", "10", ""],
            ["Ng 2024", "", "segmentation", "dice", "0.6", "0.5", "10", ""]]
    block, remarks, s = _wide_draft(tmp_path, rows)
    assert block["group_rows_by_id"] is True and len(s.papers) == 1
    assert any(r.startswith("unsure: ids 'Ng 2024' repeat in rows 2, 3") for r in remarks)


def test_venue_c_two_nguyen_papers_drafted_apart(capsys):
    sheet = ROOT / "data" / "example" / "venue_c_synthetic_messy.xlsx"
    d = draft_config(inspect_sheet(sheet, "survey"), "c")
    block = d.config["venues"]["c"]
    assert "group_rows_by_id" not in block and block["id"] == "{Papers}"
    assert any("rows 37, 38 of column 'Papers': different papers (column 'Split' holds "
               "'Train/Val/Test 60/20/20' and 'Hold-out test set'" in r for r in d.remarks)
    ids = set(read_venue(block, ".", "c").papers["paper_id"])
    assert {"Nguyen 2023", "Nguyen 2023 (2)"} <= ids


def test_notes_digest_page_matches_the_log_digest():
    from falseclaims.sheets.read.digest import digest, digest_html, digest_kinds

    cfg = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())["venues"]
    vc = cfg["venue_c_synthetic"]
    s = read_venue(vc, ROOT, "venue_c_synthetic")
    kinds = digest_kinds(s.notes, None)
    changes = s.notes[s.notes["kind"] == "changes results"]
    subjects = changes.drop_duplicates(["row", "column", "value", "note"])
    assert kinds["n"].sum() <= len(subjects) and kinds["n"].is_monotonic_decreasing
    # a paper excluded for several invalid cells counts once: the digest's count is the
    # number of excluded papers that the first line and `sheet check` state
    excluded = int(s.papers["invalid_cell"].notna().sum())
    assert kinds.set_index("kind").loc["paper excluded", "n"] == excluded == 3
    text = digest("venue_c_synthetic", s.papers, s.results, s.notes)
    page = digest_html("venue_c_synthetic", "Venue <C>", s.papers, s.results, s.notes)
    assert "Venue &lt;C&gt;" in page and "<C>" not in page  # escaped
    assert f"{s.papers['paper_id'].nunique()} papers found" in text
    assert f"{s.papers['paper_id'].nunique()} papers found" in page
    assert f"<b>{len(changes)} notes change results</b>" in page
    for kind, n, example in kinds[["kind", "n", "example"]].head(6).itertuples(index=False):
        assert (f"  {n} x {kind}" if n > 1 else f"  {example}") in text
        assert "  1 x " not in text
        assert f'<td class="n">{n}</td>' in page
    assert page.count("<tr>") == len(kinds) + 1  # every kind, not only the first six


def test_digest_counts_papers_not_notes_and_says_a_single_note_in_full():
    """Three invalid cells of one paper are three notes and one excluded paper: the digest
    says 1 paper (the note itself, not "1 x ..."), two papers "2 x paper excluded"."""
    from falseclaims.sheets.read.digest import digest

    def note(pid, cell):
        return {"row": pd.NA, "column": "paper_id", "value": pid, "kind": "changes results",
                "note": f"paper excluded (on_bad_cell: exclude): row 3, column '{cell}'"}

    notes = pd.DataFrame([note("p1", c) for c in ("Ours", "SOTA", "Test")]
                         + [{"row": pd.NA, "column": "value", "value": pd.NA,
                             "kind": "changes results",
                             "note": "units auto-detected as fraction: all 9 values <= 1"}])
    papers = pd.DataFrame({"paper_id": ["p1", "p2"], "invalid_cell": ["x", None]})
    results = pd.DataFrame({"paper_id": ["p2"]})
    lines = digest("v", papers, results, notes).splitlines()
    assert "(1 excluded for an invalid cell)" in lines[0]
    assert lines[1:] == ["  paper excluded (on_bad_cell: exclude): row 3, column 'Ours'",
                         "  units auto-detected as fraction: all 9 values <= 1"]
    two = pd.concat([notes, pd.DataFrame([note("p2", "Ours")])], ignore_index=True)
    assert "  2 x paper excluded" in digest("v", papers, results, two).splitlines()


def test_digest_kinds_of_no_notes():
    from falseclaims.sheets.read.digest import digest_kinds

    notes = pd.DataFrame({"note": pd.Series([], dtype="string"),
                          "kind": pd.Series([], dtype="string"),
                          "row": pd.Series([], dtype="Int64"),
                          "column": pd.Series([], dtype="string")})
    assert digest_kinds(notes).empty


@pytest.mark.pipeline
def test_drafted_long_workbook_runs_and_the_report_shows_the_digest(repo_root, tmp_path,
                                                                   monkeypatch):
    """`inspect --write` on a long-layout workbook, then `snakemake --configfile DRAFT`
    unedited and `snakemake --report`: the papers are counted once each and the venue's
    notes digest is the first entry of its Selection."""
    import json
    import re
    import subprocess
    import sys

    from repo_copy import copy_repo
    from test_pipeline_robustness import small_config, write_config

    work = copy_repo(tmp_path / "repo", repo_root)
    shipped = yaml.safe_load((work / "config" / "config.yaml").read_text())
    cfg = small_config(work, shipped["venues"])
    cfg["estimation"]["congruence_sources"] = shipped["estimation"]["congruence_sources"]
    write_config(work, cfg)  # light settings, every source a report caption names
    write_long_sheet(work / "data" / "survey.xlsx")
    monkeypatch.chdir(work)  # the sheet's path is written as given in the checkout
    assert main(["sheet", "inspect", "data/survey.xlsx", "--venue", "mine", "--write",
                 "mine.yaml"]) == 0
    for args in (["--cores", "2", "--quiet"], ["--report", "report.html"]):
        proc = subprocess.run([sys.executable, "-m", "snakemake", *args, "--configfile",
                               "mine.yaml"], cwd=work, capture_output=True, text=True,
                              timeout=1200)
        assert proc.returncode == 0, proc.stderr[-4000:]
    flow = pd.read_csv(work / "results" / "mine" / "flow.csv")
    found = flow[flow.step == "found"].set_index("task")["n_papers"].to_dict()
    assert found == {"classification": 2, "segmentation": 3}  # Kim 2023 once
    page = (work / "results" / "mine" / "validated" / "notes_digest.html").read_text()
    assert "5 papers found" in page and "further results row of paper" in page
    report = (work / "report.html").read_text(encoding="utf-8")
    entry = re.search(r'"results/mine/validated/notes_digest\.html": (\{.*?"labels": '
                      r'\{.*?\})', report)
    assert entry, "the digest is not in the report"
    labels = json.loads(entry.group(1) + "}")["labels"]
    assert labels == {"#": "00", "result": "Notes that change results (digest)"}


@pytest.mark.parametrize("dash", ["\u2014", "\u2013", "--"])
def test_a_dash_is_not_reported_as_an_empty_cell_is(tmp_path, dash):
    # hand-filled sheets mark "not reported" with dashes, as published tables do (table mode
    # read them as missing; the sheet reader refused them as bad cells)
    papers = [P_HEAD, ["Kim", "segmentation", "yes", "no", "train_test", "40"],
              ["Lee", "segmentation", "yes", "no", "train_test", dash]]
    results = [R_HEAD, ["Kim", "ours", "dsc", "0.81"], ["Kim", "unet", "dsc", "0.8"],
               ["Lee", "ours", "dsc", "0.9"], ["Lee", "unet", "dsc", "0.85"]]
    s = _long(tmp_path, papers, results)
    assert s.papers.set_index("paper_id")["n_test"].isna().tolist() == [False, True]
    # a long results table lists only results that exist: a dash is refused as "" is
    from falseclaims.sheets import SheetValidationError
    messages = []
    for cell in (dash, ""):
        results[2][3] = cell
        with pytest.raises(SheetValidationError) as exc:
            _long(tmp_path, papers, results)
        messages.append(str(exc.value))
    assert messages[0] == messages[1] and "row 3, column 'value'" in messages[0]
