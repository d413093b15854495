"""`falseclaims sheet inspect | check` and the messy synthetic example (venue C)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
import yaml

from falseclaims.cli import main
from falseclaims.examples.venue_c import VENUE_C_CONFIG, VENUE_C_SEED, write_venue_c
from falseclaims.examples.venue_c import main as venue_c_main
from falseclaims.sheets import read_venue

ROOT = Path(__file__).resolve().parents[1]
COMMITTED_C = ROOT / "data" / "example" / "venue_c_synthetic_messy.xlsx"


@pytest.fixture(scope="module")
def venue_c(tmp_path_factory):
    base = tmp_path_factory.mktemp("c")
    out = base / "data" / "example" / "venue_c_synthetic_messy.xlsx"
    assert venue_c_main(["--out", str(out)]) == 0  # the command of data/README.md
    return out, read_venue(VENUE_C_CONFIG, base_dir=base, venue="venue_c_synthetic")


def test_venue_c_byte_identical_and_committed(venue_c, tmp_path):
    again = write_venue_c(tmp_path / "c.xlsx", seed=VENUE_C_SEED)
    assert venue_c[0].read_bytes() == again.read_bytes()
    assert write_venue_c(tmp_path / "d.xlsx", seed=1).read_bytes() != again.read_bytes()
    assert COMMITTED_C.read_bytes() == again.read_bytes(), (
        f"{COMMITTED_C} is stale: rerun python -m falseclaims.examples.venue_c")


def test_read_venue_leaves_the_config_untouched(venue_c):
    import copy
    cfg = copy.deepcopy(VENUE_C_CONFIG)
    read_venue(cfg, base_dir=venue_c[0].parents[2], venue="venue_c_synthetic")
    assert cfg == VENUE_C_CONFIG


def test_venue_c_config_matches_pipeline_config():
    cfg = yaml.safe_load((ROOT / "config" / "config.yaml").read_text(encoding="utf-8"))
    assert cfg["venues"]["venue_c_synthetic"] == VENUE_C_CONFIG


def test_venue_c_contains_every_kind_of_mess(venue_c):
    s = venue_c[1]
    notes = s.notes["note"]

    def has(text):
        return notes.str.contains(text, regex=False).any()

    assert has("repeated header row skipped") and has("formula row skipped")
    assert has("skipped by skip_rows_where") and has("already used; this row's id is")
    assert has("(cell_pattern 'value_sd')") and has("part 2 of a '/'-separated cell")
    assert has("(values: ")
    # headerless column J -> best prior names; compared methods from one cell
    assert {"U-Net", "nnU-Net", "ResNet-50"} & set(s.results["method"])
    assert (s.results["metric"].str.endswith("[tumour]")).any()
    inv = s.papers.dropna(subset=["invalid_cell"])
    assert len(inv) == 3
    text = " ".join(inv["invalid_cell"])
    assert "looks like a fraction" in text and "70/10/20 of 300 cases" in text
    assert "'n.r.'" in text
    assert s.papers["paper_id"].is_unique and not s.papers["paper_id"].str.match(r"^\d{4}$").any()


def test_sheet_inspect_guesses_roles_and_drafts_block(capsys):
    assert main(["sheet", "inspect", str(COMMITTED_C), "--sheet", "survey"]) == 0
    out = capsys.readouterr().out
    assert "header row 1" in out
    assert "value_proposed" in out and "values_compared" in out and "n_test" in out
    assert 'hint: no header: map it by letter, "@J"' in out
    assert "cell_pattern: value_sd" in out and "split: '/'" in out
    draft = yaml.safe_load(out.split("# draft venue block", 1)[1].split("\n", 1)[1])
    block = draft["venues"]["my_venue"]
    assert block["units"] == "percent" and block["columns"]["wide"]["Ours"] == "value_proposed"


def test_sheet_inspect_finds_a_lower_header_row(tmp_path, capsys):
    rows = [["Survey of journal X"], [], ["Paper", "Task", "DSC", "N test"],
            ["a", "seg", "0.8", "10"], ["b", "seg", "0.7", "12"]]
    with open(tmp_path / "s.csv", "w", newline="") as fh:
        csv.writer(fh).writerows(rows)
    assert main(["sheet", "inspect", str(tmp_path / "s.csv")]) == 0
    out = capsys.readouterr().out
    assert "header row 3" in out and "header_row: 3" in out


def _config(tmp_path, n_bad, constants=None):
    rows = [["paper_id", "task", "metric", "value_proposed", "value_best_prior", "n_test"]]
    rows += [[f"p{i}", "segmentation", "dsc", "0.8", "0.7", "many" if i < n_bad else "5"]
             for i in range(n_bad + 2)]
    with open(tmp_path / "w.csv", "w", newline="") as fh:
        csv.writer(fh).writerows(rows)
    # an absolute path: relative ones are read from the working directory (the pipeline's rule)
    cfg = {"venues": {"v": {"papers": str(tmp_path / "w.csv"), "layout": "wide_top2", "units": "fraction",
                            **({"constants": constants} if constants else {})}}}
    (tmp_path / "c.yaml").write_text(yaml.safe_dump(cfg))
    return tmp_path / "c.yaml"


def test_sheet_check_groups_problems(tmp_path, capsys):
    cfg = _config(tmp_path, 40)
    assert main(["sheet", "check", "--venue", "v", "--config", str(cfg)]) == 1
    out = capsys.readouterr().out
    assert "40 problem(s)" in out and "column 'n_test': 40 problem(s)" in out
    assert out.count("got 'many'") == 3 and "... and 37 more like this" in out


def test_sheet_check_ok_and_bad_venue(tmp_path, capsys):
    # it reads, but records no in_scope: no paper is analysed, which check says (exit 1)
    cfg = _config(tmp_path, 0)
    assert main(["sheet", "check", "--venue", "v", "--config", str(cfg)]) == 1
    out = capsys.readouterr().out
    assert "IMPLAUSIBLE: every paper reaching the 'in scope' step" in out
    assert "set constants: {in_scope: ...}" in out and "reads, but" in out
    cfg = _config(tmp_path, 0, {"in_scope": True, "values_only_in_figures": False,
                                "split": "train_test"})
    assert main(["sheet", "check", "--venue", "v", "--config", str(cfg)]) == 0
    assert "OK, 2 papers" in capsys.readouterr().out
    assert main(["sheet", "check", "--venue", "nope", "--config", str(cfg)]) == 2
    assert "not in the config's venues: v" in capsys.readouterr().err
    assert main(["sheet", "inspect", str(tmp_path / "missing.csv")]) == 2


def test_sheet_check_on_the_messy_example(capsys):
    cfg = ROOT / "config" / "config.yaml"
    assert main(["sheet", "check", "--venue", "venue_c_synthetic", "--config", str(cfg)]) == 0
    out = capsys.readouterr().out
    assert "OK, 44 papers" in out and "3 paper(s) to be excluded for an invalid cell" in out
    assert "1 repeated header row skipped" in out and "1 formula row skipped" in out


@pytest.mark.parametrize("on_bad_cell", ["stop", "exclude"])
def test_sheet_check_says_first_that_percent_values_contradict_units_fraction(
        tmp_path, capsys, on_bad_cell):
    """The messy example (percent values) with `units: fraction`: not "OK" with every paper
    excluded, and not a problem per cell, but one line saying the values look like percent
    and the units key is likely wrong; its counts are those of the sheet (146 of 147
    unmarked values above 1, one of them written as a fraction)."""
    cfg = yaml.safe_load((ROOT / "config" / "config.yaml").read_text(encoding="utf-8"))
    venue = cfg["venues"]["venue_c_synthetic"]
    venue.update(units="fraction", on_bad_cell=on_bad_cell,
                 papers=str(ROOT / venue["papers"]))
    (tmp_path / "c.yaml").write_text(yaml.safe_dump({"venues": {"c": venue}}))
    assert main(["sheet", "check", "--venue", "c", "--config", str(tmp_path / "c.yaml")]) == 1
    out = capsys.readouterr().out.splitlines()
    # stop: the two other unreadable cells of the sheet are listed after it
    assert out[0] == f"venue 'c': {1 if on_bad_cell == 'exclude' else 3} problem(s)", out
    assert "column 'Ours': 1 problem(s)" in out[1]
    assert out[2].startswith("  expected values as fractions (units: fraction in ")
    assert "but 146 of 147 unmarked fraction-scale values lie in (1, 100] (e.g. row 3: " \
           "84.27): they look like percent, so the units key is likely wrong" in out[2]
    assert "sheet: got" not in "\n".join(out)  # a problem of the whole column has no cell
    assert "expected a fraction in [0, 1]" not in "\n".join(out)  # said once, not per cell


def test_sheet_inspect_recognises_a_results_table(capsys):
    sheet = ROOT / "data" / "example" / "miccai2023_synthetic_sheet.xlsx"
    assert main(["sheet", "inspect", str(sheet), "--sheet", "results"]) == 0
    draft = yaml.safe_load(capsys.readouterr().out.split("# draft venue block", 1)[1]
                           .split("\n", 1)[1])["venues"]["my_venue"]
    assert draft["layout"] == "long" and draft["results_sheet"] == "results"
    assert draft["columns"]["results"] == {c: c for c in ["paper_id", "method", "metric",
                                                          "value", "sd", "sd_over", "n_test"]}


def test_sheet_inspect_hints_for_a_hostile_sheet(tmp_path, capsys):
    rows = [["Survey of journal X"], ["Paper", "Task", "Metric", "Ours", "SOTA", "N"],
            ["2022", "", "", "", "", ""],
            ["Li 2022", "seg", "DSC", "85.1", "84.0", "100"],
            ["Li 2022", "seg", "DSC", "80.0/70.1", "79.5", "50"],
            ["Paper", "Task", "Metric", "Ours", "SOTA", "N"],
            ["Wu 2023", "seg", "DSC", "91.0", "90.0", "70/10/20 of 300 cases"],
            ["Ng 2023", "seg", "DSC", "88.0", "87.5", "300"],
            ["", "", "", "=MAX(D3:D8)", "=MAX(E3:E8)", ""]]
    with open(tmp_path / "h.csv", "w", newline="") as fh:
        csv.writer(fh).writerows(rows)
    assert main(["sheet", "inspect", str(tmp_path / "h.csv")]) == 0
    out = capsys.readouterr().out
    assert "header row 2" in out
    # a size column holding one split description is still the test size, with a warning
    assert "N: n_test" in out and "cells like '70/10/20 of 300 cases' are not one whole" in out
    assert "rows holding only a year ('2022'): skip_rows_where" in out
    assert "repeated ids in consecutive rows (one paper per data set?): group_rows_by_id" in out
    assert "cells like '78.50/66.45'" in out


def test_data_readme_shows_the_venue_c_block():
    text = (ROOT / "data" / "README.md").read_text(encoding="utf-8")
    section = text.split("## Swapping in a real sheet", 1)[1]
    block = section.split("```yaml\n", 1)[1].split("```", 1)[0]
    assert yaml.safe_load(block) == {"venue_c_synthetic": VENUE_C_CONFIG}
