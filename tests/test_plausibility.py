"""A result that defends itself (falseclaims.plausibility) and drafts that do not pass off
the failure patterns met on real sheets as ready to run. Every sheet here is synthetic
(invented values) and reproduces one pattern: a results column as the paper id, a distance
column as the proposed value, a merged 'Results (%)' header over 'Ours' / 'Best baseline',
'Model Accuracy' beside a Dice word, Y/N flags beside method names, no split column."""

from __future__ import annotations

import csv
from dataclasses import replace

import pandas as pd
import pytest
import yaml

from falseclaims.cli import main
from falseclaims.config import Analysis, PlausibilityLimits, cli_defaults
from falseclaims.plausibility import (
    Finding, check_exclusions, check_ids, check_value_headers, check_values, check_venue,
    judge_draft,
)
from falseclaims.sheets import read_venue
from falseclaims.sheets.read.venue import Venue
from falseclaims.sheets.draft.draft import draft_config
from falseclaims.sheets.draft.inspect import inspect_sheet

CFG = cli_defaults()
CRITERIA = Analysis.from_config(CFG).eligibility
LIMITS = PlausibilityLimits.from_config(CFG)


def _csv(path, rows):
    with open(path, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(rows)
    return path


def _wide(n=8, proposed=lambda i: f"0.9{i}", prior=lambda i: f"0.8{i}", ids=None,
          task="segmentation", split="train_test", headers=("Ours", "SOTA")):
    rows = [["Paper", "Task", "Split", "n_test", *headers]]
    for i in range(n):
        rows.append([ids(i) if ids else f"P{i}", task, split, 100, proposed(i), prior(i)])
    return rows


def _read(tmp_path, rows, **cfg):
    block = {"papers": _csv(tmp_path / "s.csv", rows).name, "layout": "wide_top2",
             "units": "fraction",
             "columns": {"wide": {"Paper": "paper_id", "Task": "task", "Split": "split",
                                  "n_test": "n_test", rows[0][4]: "value_proposed",
                                  rows[0][5]: "value_best_prior"}},
             "constants": {"in_scope": True, "values_only_in_figures": False,
                           "metric": "dsc"}, **cfg}
    s = read_venue(block, tmp_path, "v")
    return block, s


def _checks(findings):
    return sorted(f.check for f in findings)


def test_a_plausible_venue_gives_no_finding(tmp_path):
    block, s = _read(tmp_path, _wide())
    assert check_venue("v", block, s.papers, s.results, CFG) == []


def test_ids_reading_as_numbers(tmp_path):
    block, s = _read(tmp_path, _wide(ids=lambda i: f"0.7{i}5"))
    (f,) = check_ids(s.papers, LIMITS, "venues.v")
    assert f.check == "numeric_ids" and "8 of 8" in f.message and "'0.705'" in f.message
    # whole numbers are accepted as ids (a '#' column)
    block, s = _read(tmp_path, _wide(ids=lambda i: str(i + 1)))
    assert check_ids(s.papers, LIMITS, "venues.v") == []


@pytest.mark.parametrize("header", ["HD95 (mm)", "Hausdorff distance", "ASSD", "NSD", "SD",
                                    "Loss", "Error rate", "Proposed_HD"])
def test_value_header_naming_another_quantity(tmp_path, header):
    rows = _wide(headers=(header, "SOTA DSC"))
    block, s = _read(tmp_path, rows)
    found = check_value_headers(Venue.from_config(block), s.papers, s.results, "venues.v")
    assert [f.check for f in found] == ["value_header"]
    assert header in found[0].message and "value_proposed" in found[0].message


@pytest.mark.parametrize("header", ["DSC (mean ± SD)", "Ours mean (SD)", "Dice, 95% CI"])
def test_value_header_with_a_mean_beside_its_spread_is_no_finding(tmp_path, header):
    block, s = _read(tmp_path, _wide(headers=(header, "SOTA DSC")))
    assert check_value_headers(Venue.from_config(block), s.papers, s.results, "venues.v") == []


def test_value_header_naming_a_metric_of_another_task(tmp_path):
    block, s = _read(tmp_path, _wide(headers=("Model Accuracy", "Baseline Accuracy")))
    found = check_value_headers(Venue.from_config(block), s.papers, s.results, "venues.v")
    assert len(found) == 2 and all("classification" in f.message for f in found)
    assert all(f.key == "venues.v.constants.task or the task column" for f in found)


def test_value_header_naming_another_metric_of_the_task(tmp_path):
    rows = _wide(headers=("Ours IoU", "SOTA IoU"))
    block, s = _read(tmp_path, rows)
    found = check_value_headers(Venue.from_config(block), s.papers, s.results, "venues.v")
    assert len(found) == 2 and "iou" in found[0].message and "dsc" in found[0].message


def test_delta_beyond_the_metric_and_prior_winning(tmp_path):
    """The proposed column holds values 0.7 below the prior ones (another quantity)."""
    block, s = _read(tmp_path, _wide(proposed=lambda i: f"0.1{i}"))
    found = check_values(s.papers, s.results, CRITERIA, LIMITS, "wide_top2",
                         "venues.v")
    assert _checks(found) == ["delta", "prior_wins"]
    delta = next(f for f in found if f.check == "delta")
    # |0.1i - 0.8i| = 0.7 > 0.3 for all 8 papers, hand computed
    assert "8 of 8" in delta.message and "above 0.3" in delta.message
    wins = next(f for f in found if f.check == "prior_wins")
    assert "8 of 8" in wins.message and "-0.7" in wins.message


def test_prior_winning_a_minority_is_no_finding(tmp_path):
    # 4 of 8 papers: not more than half (prior_wins_share 0.5)
    block, s = _read(tmp_path, _wide(proposed=lambda i: "0.85" if i < 4 else "0.75",
                                     prior=lambda i: "0.80"))
    assert check_values(s.papers, s.results, CRITERIA, LIMITS, "wide_top2",
                        "venues.v") == []
    block, s = _read(tmp_path, _wide(proposed=lambda i: "0.85" if i < 3 else "0.75",
                                     prior=lambda i: "0.80"))
    (f,) = check_values(s.papers, s.results, CRITERIA, LIMITS, "wide_top2", "venues.v")
    assert f.check == "prior_wins" and "5 of 8" in f.message


def test_a_gap_beyond_max_delta_in_a_few_papers_is_no_finding(tmp_path):
    """A real review holds the odd genuine gap (Roy et al. 2019: 2 of 83 papers above 0.3);
    a wrong column shifts most papers. 1 of 12 papers 0.95 vs 0.55 (0.4 > 0.3, 8% <= 10%
    max_delta_share): no finding; 2 of 12 (17%): the delta finding, hand counted."""
    one = _wide(n=12, proposed=lambda i: "0.95" if i == 0 else "0.85", prior=lambda i:
                "0.55" if i == 0 else "0.80")
    block, s = _read(tmp_path, one)
    assert LIMITS.max_delta_share == 0.1
    assert check_values(s.papers, s.results, CRITERIA, LIMITS, "wide_top2", "v") == []
    two = _wide(n=12, proposed=lambda i: "0.95" if i < 2 else "0.85", prior=lambda i:
                "0.55" if i < 2 else "0.80")
    block, s = _read(tmp_path, two)
    (f,) = check_values(s.papers, s.results, CRITERIA, LIMITS, "wide_top2", "v")
    assert f.check == "delta" and "2 of 12" in f.message
    # the share comes from the config: 0 flags the single gap
    block, s = _read(tmp_path, one)
    (g,) = check_values(s.papers, s.results, CRITERIA, replace(LIMITS, max_delta_share=0),
                        "wide_top2", "v")
    assert g.check == "delta" and "1 of 12" in g.message


def test_thresholds_come_from_the_config(tmp_path):
    block, s = _read(tmp_path, _wide(proposed=lambda i: "0.95", prior=lambda i: "0.75"))
    limits = replace(LIMITS, max_delta={"classification": 0.3, "segmentation": 0.1})
    assert check_values(s.papers, s.results, CRITERIA, LIMITS, "wide_top2", "v") == []
    (f,) = check_values(s.papers, s.results, CRITERIA, limits, "wide_top2", "v")
    assert f.check == "delta" and "above 0.1" in f.message


def test_missing_split_column_excluding_every_paper_is_named(tmp_path):
    rows = [[c for k, c in enumerate(r) if k != 2] for r in _wide()]
    block, s = _read(tmp_path, _wide())
    del block["columns"]["wide"]["Split"]
    _csv(tmp_path / "s.csv", rows)
    s = read_venue(block, tmp_path, "v")
    (f,) = check_venue("v", block, s.papers, s.results, CFG)
    assert f.check == "all_excluded" and "'distinct test set' step" in f.message
    assert "8 of 8" in f.message and "map a split column" in f.key


def test_a_constant_excluding_every_paper_is_named(tmp_path):
    block, s = _read(tmp_path, _wide(), constants={
        "in_scope": False, "values_only_in_figures": False, "metric": "dsc"})
    (f,) = check_venue("v", block, s.papers, s.results, CFG)
    assert f.check == "all_excluded" and f.key == "venues.v.constants.in_scope (now False)"


def test_design_only_sheet_is_not_flagged_for_exclusions(tmp_path):
    papers = pd.DataFrame({"paper_id": ["a", "b"], "task": ["segmentation"] * 2})
    excl = pd.DataFrame({"paper_id": ["a", "b"], "reason": ["fewer_than_two_methods"] * 2,
                         "detail": ["0 method(s)"] * 2})
    assert check_exclusions(papers, pd.DataFrame({"paper_id": []}), excl, Venue("p.csv"), "v") == []


def test_finding_names_its_key():
    assert str(Finding("delta", "too big", "venues.v.units")) == \
        "too big (change: venues.v.units)"


# ------------------------------------------------------------------ drafts of the patterns
def _draft(tmp_path, rows, name="s.csv"):
    path = _csv(tmp_path / name, rows)
    return draft_config(inspect_sheet(path), "v", str(path), judge=judge_draft)


def test_draft_of_a_distance_read_as_proposed_is_not_ready(tmp_path):
    """'Ours' holds Hausdorff distances (mm) beside a SOTA Dice: the draft reads and runs,
    but says at its top that it is not ready, naming the implausible result."""
    rows = _wide(proposed=lambda i: f"0.0{i + 1}", prior=lambda i: f"0.8{i}",
                 headers=("Ours", "SOTA DSC"))
    d = _draft(tmp_path, rows)
    assert d.text.startswith("# NOT READY TO RUN")
    assert {f.check for f in d.findings} == {"delta", "prior_wins"}
    assert any("prior method beats" in p for p in d.problems)


def test_draft_merged_results_header_maps_ours_and_best_baseline(tmp_path):
    rows = [["Survey of a venue, 2023", "", "", "", "", ""],
            ["Paper", "Task", "Test set", "Results (%)", "", "Split"],
            ["", "", "", "Ours", "Best baseline", ""]]
    rows += [[f"Smith{i} 2023", "segmentation", 200 + i, f"{85 + i}.1", f"{83 + i}.4",
              "train/test"] for i in range(10)]
    g = inspect_sheet(_csv(tmp_path / "m.csv", rows))
    roles = {c.letter: c.role for c in g.columns}
    assert roles["D"] == "value_proposed" and roles["E"] == "value_best_prior"
    assert g.units == "percent"


def test_model_accuracy_is_classification_whatever_other_headers_say(tmp_path):
    """'Model Accuracy' decides metric and task, not a Dice word elsewhere in the sheet."""
    rows = [["Study", "Model", "Model Accuracy", "Baseline Accuracy", "Code available (Y/N)",
             "Proposed method open source (Y/N)", "Dice of the seg. step reported", "n test",
             "Split"]]
    rows += [[f"Lee {2010 + i}", f"CNN-{i}", f"0.8{i}", f"0.7{i}", "Y" if i % 2 else "N",
              "N" if i % 3 else "Y", "yes", 300 + i, "train/test"] for i in range(8)]
    d = _draft(tmp_path, rows)
    g = inspect_sheet(tmp_path / "s.csv")
    roles = {c.name: c.role for c in g.columns}
    assert roles["Model Accuracy"] == "value_proposed"
    assert roles["Baseline Accuracy"] == "value_best_prior"
    assert roles["Proposed method open source (Y/N)"] not in ("name_proposed",
                                                              "name_best_prior")
    assert roles["Code available (Y/N)"] not in ("name_proposed", "name_best_prior")
    const = d.config["venues"]["v"]["constants"]
    assert const["metric"] == "accuracy" and const["task"] == "classification"
    assert not d.findings and not d.problems


def test_results_column_is_never_the_paper_id(tmp_path):
    rows = [["Study result", "Task", "Split", "n_test", "Ours", "SOTA"]]
    rows += [[f"0.7{i}5", "segmentation", "train_test", 100, f"0.9{i}", f"0.8{i}"]
             for i in range(8)]
    g = inspect_sheet(_csv(tmp_path / "r.csv", rows))
    assert g.columns[0].role != "paper_id"


def test_no_split_column_is_not_presented_as_ready(tmp_path):
    rows = [["Study", "Model Accuracy", "Baseline Accuracy"]]
    rows += [[f"Lee {2010 + i}", f"0.8{i}", f"0.7{i}"] for i in range(8)]
    d = _draft(tmp_path, rows)
    assert d.text.startswith("# NOT READY TO RUN")
    (f,) = d.findings
    assert f.check == "all_excluded" and "split" in f.key


# ------------------------------------------------------------------ --write destroys nothing
def test_write_refuses_the_input_sheet_even_with_force(tmp_path, capsys):
    sheet = _csv(tmp_path / "s.csv", _wide())
    before = sheet.read_bytes()
    for extra in ([], ["--force"]):
        assert main(["sheet", "inspect", str(sheet), "--write", str(sheet), *extra]) == 2
        assert sheet.read_bytes() == before
    assert "the sheet being read" in capsys.readouterr().err


def test_write_refuses_an_existing_file_and_the_config_without_force(tmp_path, capsys,
                                                                      monkeypatch):
    _csv(tmp_path / "s.csv", _wide())
    (tmp_path / "config").mkdir()
    config = tmp_path / "config" / "config.yaml"
    config.write_text("run_venues: []\n")
    other = tmp_path / "old.yaml"
    other.write_text("keep: me\n")
    monkeypatch.chdir(tmp_path)
    assert main(["sheet", "inspect", "s.csv", "--write", "config/config.yaml"]) == 2
    assert "project's config" in capsys.readouterr().err
    assert main(["sheet", "inspect", "s.csv", "--write", "old.yaml"]) == 2
    assert "exists" in capsys.readouterr().err
    assert config.read_text() == "run_venues: []\n" and other.read_text() == "keep: me\n"
    assert main(["sheet", "inspect", "s.csv", "--write", "old.yaml", "--force"]) == 0
    assert "venues" in yaml.safe_load(other.read_text())
    assert main(["sheet", "inspect", "s.csv", "--write", "new.yaml"]) == 0


@pytest.mark.parametrize("evil", ["a\nrun_venues: [x]", "b'\"#: c", "x # y\n  papers: z"])
def test_written_names_cannot_add_keys(tmp_path, evil):
    """Names with line breaks, quotes or '#' (venue, column and file names) stay values."""
    rows = _wide(headers=(f"Ours DSC {evil}", "SOTA DSC"))
    rows[0][0] = f"Paper{evil}"
    folder = tmp_path / f"d{evil.replace('/', '')}"
    folder.mkdir()
    sheet = _csv(folder / "s.csv", rows)
    out = tmp_path / "draft.yaml"
    assert main(["sheet", "inspect", str(sheet), "--venue", f"v{evil}", "--write",
                 str(out)]) == 2  # not a venue key: refused before anything is written
    assert not out.exists()
    assert main(["sheet", "inspect", str(sheet), "--venue", "v", "--write", str(out)]) == 0
    cfg = yaml.safe_load(out.read_text(encoding="utf-8"))
    assert set(cfg) == {"run_venues", "venues"}
    assert cfg["run_venues"] == ["v"] and list(cfg["venues"]) == ["v"]
    block = cfg["venues"]["v"]
    assert block["papers"] == str(sheet)
    # the reader folds a line break in a header to a space; the mapping names it so
    assert set(block["columns"]["wide"]) == {" ".join(h.split()) for h in rows[0]}
    assert "read as the pipeline reads it: 8 papers" in out.read_text(encoding="utf-8")


# ------------------------------------------------------------------ front page
def test_front_page_shows_warnings_above_the_headline_escaped():
    from falseclaims.survey.front_page import front_page_html

    numbers = pd.DataFrame({"task": ["segmentation"], "name": ["share_above_0.05"],
                            "value": [0.0], "unit": ["share"], "n_population": [12], "low": [0.0], "high": [0.0],
                            "range": [""]})
    hostile = "<script>alert(1)</script>"
    html = front_page_html({"v": numbers, "w": numbers}, {"v": "V", "w": "W"}, [], "median",
                           {"v": [f"column {hostile!r} is read as value_proposed"], "w": []})
    assert "Implausible result: V" in html and "Implausible result: W" not in html
    assert html.index("Implausible result: V") < html.index("Share of analysed papers")
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert html.count("implausible: see above") == 1  # V's headline row only


def test_no_paper_read_is_a_finding(tmp_path):
    block, s = _read(tmp_path, _wide())
    none = s.papers.iloc[:0]
    (f,) = check_venue("v", block, none, s.results.iloc[:0], CFG)
    assert f.check == "no_papers" and "skip_rows_where" in f.key


def test_distinct_texts_on_every_row_are_the_id_without_an_id_column(tmp_path):
    rows = [["arxiv_name", "top1_acc", "link"]]
    rows += [[f"2506.{10119 + i}v1.pdf", f"7{i}.8" if i % 2 else "NA", ""] for i in range(9)]
    d = _draft(tmp_path, rows)
    assert d.config["venues"]["v"]["columns"]["wide"]["arxiv_name"] == "paper_id"
    # the task from the one metric the numeric column's header names (accuracy)
    assert d.config["venues"]["v"]["constants"]["task"] == "classification"
    assert d.read is not None and len(d.read.papers) == 9  # not 'OK, 0 papers'


def test_skip_rule_dropping_most_rows_is_a_finding(tmp_path):
    """A drafted skip_rows_where meant for a totals row that matches data rows."""
    rows = _wide(ids=lambda i: f"P{i}" if i < 2 else f"Total {i}")
    block, s = _read(tmp_path, rows, skip_rows_where={"Paper": "^Total"})
    (f,) = [f for f in check_venue("v", block, s.papers, s.results, CFG, notes=s.notes)
            if f.check == "rows_skipped"]
    assert "6 rows are skipped" in f.message and "2 papers kept" in f.message
    assert "{'Paper': '^Total'}" in f.message and f.key == "venues.v.skip_rows_where"
    block, s = _read(tmp_path, rows, skip_rows_where={"Paper": "^Total 7$"})
    assert check_venue("v", block, s.papers, s.results, CFG, notes=s.notes) == []


def test_last_line_of_a_run_names_implausible_venues(tmp_path):
    from falseclaims.config import where_to_look

    cfg = {"venues": {"a": {}, "b": {}}}
    for v, rows in (("a", ""), ("b", "b,delta,k,too big\n")):
        (tmp_path / "results" / v).mkdir(parents=True)
        (tmp_path / "results" / v / "plausibility.csv").write_text(
            "venue,check,key,message\n" + rows)
    line = where_to_look(cfg, root=tmp_path)
    assert line.startswith("IMPLAUSIBLE result of venue b: see results/b/plausibility.csv.")
    assert "venue a" not in line and "\n" not in line and "summary.csv" in line
    assert where_to_look(cfg, root=tmp_path / "nowhere").startswith("Done.")
