"""Hostile inputs (docs/robustness.md, "Hostile inputs"): one test per class of case.

Each hostile file is generated here in ``tmp_path``. Memory is bounded with tracemalloc
as a generous limit (never a timing assertion; timings are in docs/benchmarks.md)."""

from __future__ import annotations

import copy
import csv
import errno
import logging
import os
import tracemalloc
from types import SimpleNamespace

import pandas as pd
import pytest
import yaml

from falseclaims.cli import main
from falseclaims.config import read_yaml
from falseclaims.config_validation import ConfigError, schema_path, validate
from falseclaims.pipeline import run_step
from falseclaims.io.table_io import write_table
from falseclaims.sheets import SheetValidationError, read_venue
from falseclaims.io import raw_reader
from falseclaims.io.raw_reader import read_raw_table
from xlsx_parts import number_cell, text_cell, write_xlsx

PAPERS = [["paper_id", "title", "task", "in_scope", "values_only_in_figures", "split",
           "n_test"],
          ["p1", "One", "classification", "yes", "no", "train_test", "500"],
          ["p2", "Two", "segmentation", "yes", "no", "train_test", "62"]]
RESULTS = [["paper_id", "method", "metric", "value", "sd", "sd_over", "n_test"],
           ["p1", "Ours", "accuracy", "0.91", "", "", ""],
           ["p1", "base", "accuracy", "0.89", "", "", ""],
           ["p2", "Ours", "dsc", "0.85", "0.10", "test", "62"],
           ["p2", "base", "dsc", "0.84", "0.11", "test", "62"]]


def _write(path, rows):
    with open(path, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(rows)


def _venue_problems(tmp_path, papers=PAPERS, results=RESULTS, units="auto") -> str:
    _write(tmp_path / "p.csv", papers)
    _write(tmp_path / "r.csv", results)
    cfg = {"papers": "p.csv", "results": "r.csv", "layout": "long", "units": units}
    with pytest.raises(SheetValidationError) as exc:
        read_venue(cfg, base_dir=tmp_path, venue="v")
    return str(exc.value)


def _peak_mb(func):
    tracemalloc.start()
    try:
        out = func()
        return out, tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


# ------------------------------------------------------------------ resource blow-ups
def test_xlsx_is_read_from_the_cells_present_not_the_declared_range(tmp_path):
    """One cell at XFD1048576 in a 2 KB workbook: two cells read, not 16,384 x 1,048,576
    (main at 7b3f2c9 grew to 24 GB and was killed)."""
    path = tmp_path / "far.xlsx"
    write_xlsx(path, ['<row r="1">' + text_cell("A1", "paper_id") + "</row>",
                      '<row r="1048576">' + number_cell("XFD1048576", 1) + "</row>"])
    assert path.stat().st_size < 5000
    t, peak = _peak_mb(lambda: read_raw_table(path))
    assert peak < 100, f"{peak:.0f} MB"
    assert t.header == ["paper_id", "column XFD"] and t.letters == ["A", "XFD"]
    assert [r for r, _ in t.rows] == [1048576]
    assert any("1,048,574 empty rows" in n["note"] for n in t.notes)


def test_rows_and_problems_are_capped(tmp_path, monkeypatch):
    """A sheet beyond MAX_ROWS stops with one problem; a column with a problem in every row
    gives MAX_PROBLEMS_PER_COLUMN lines and one summary (not one per row)."""
    from falseclaims.io import xlsx as sheets_xlsx

    monkeypatch.setattr(sheets_xlsx, "MAX_ROWS", 2000)
    tall = tmp_path / "tall.xlsx"
    write_xlsx(tall, ['<row r="1">' + text_cell("A1", "paper_id") + "</row>",
                      "".join(f'<row r="{r}">{number_cell(f"B{r}", r)}</row>'
                              for r in range(2, 3001))])
    t = read_raw_table(tall)
    assert len(t.problems) == 1 and "at most 2,000 rows" in t.problems[0].expected
    assert "has 3,000 rows" in t.problems[0].expected and not t.rows
    sparse = tmp_path / "sparse.xlsx"  # few row elements, one beyond the limit
    write_xlsx(sparse, ['<row r="1">' + text_cell("A1", "paper_id") + "</row>",
                        '<row r="2001">' + number_cell("A2001", 1) + "</row>"])
    (p,) = read_raw_table(sparse).problems
    assert "at most 2,000 rows" in p.expected and "a row 2,001" in p.expected
    rows = [PAPERS[0]] + [[f"p{i}", "x", "classification", "maybe", "no", "train_test", "5"]
                          for i in range(5000)]
    _write(tmp_path / "p.csv", rows)
    cfg = {"papers": "p.csv", "results": "p.csv", "layout": "long", "units": "auto"}
    with pytest.raises(SheetValidationError) as exc:
        read_venue(cfg, base_dir=tmp_path, venue="v")
    in_scope = [p for p in exc.value.problems if p.column == "in_scope"]
    assert len(in_scope) == raw_reader.MAX_PROBLEMS_PER_COLUMN + 1
    assert "4,900 more problem(s) in this column" in in_scope[-1].expected


# ------------------------------------------------------------------ silent or wrong
def test_percent_declared_on_a_sheet_of_fractions_is_refused(tmp_path):
    msg = _venue_problems(tmp_path, units="percent")
    assert "all 4 unmarked fraction-scale values are <= 1" in msg
    assert "declare `units: fraction`" in msg


@pytest.mark.parametrize("name", ["ours ", "OURS", "Ours\u00a0", "o urs"])
def test_method_names_compared_after_case_and_space_folding(tmp_path, name):
    results = [list(r) for r in RESULTS] + [["p1", name, "accuracy", "0.90", "", "", ""]]
    if name == "o urs":  # a different name: accepted
        _write(tmp_path / "p.csv", PAPERS)
        _write(tmp_path / "r.csv", results)
        read_venue({"papers": "p.csv", "results": "r.csv", "layout": "long",
                    "units": "auto"}, base_dir=tmp_path, venue="v")
        return
    msg = _venue_problems(tmp_path, results=results)
    assert "one row per paper x method x metric" in msg and "row 2" in msg


def test_scores_where_labels_are_expected_refused(tmp_path, capsys):
    rows = ["case_id,ground_truth,alg_a,alg_b"] + [
        f"c{i},{i % 2},{(i * 37 % 100) / 101:.4f},{(i * 53 % 100) / 103:.4f}"
        for i in range(60)]
    (tmp_path / "probs.csv").write_text("\n".join(rows) + "\n")
    with pytest.raises(SystemExit) as exc:
        raise SystemExit(main(["percase", str(tmp_path / "probs.csv"),
                               "--task", "classification"]))
    err = capsys.readouterr().err.strip()
    assert exc.value.code == 2 and len(err.splitlines()) == 1
    assert "look like scores or probabilities" in err and "--scores" in err


# ------------------------------------------------------------------ accepted when it should not be
def test_output_csv_cells_are_spreadsheet_safe(tmp_path, caplog):
    df = pd.DataFrame({"title": ["=HYPERLINK(\"x\")", "+1+2", "-cmd", "@SUM(A1)", "\tx",
                                 "ok", "-0.5", "-"],
                       "value": [-1.5, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]})
    with caplog.at_level(logging.WARNING):
        write_table(df, tmp_path / "t.csv")
    back = pd.read_csv(tmp_path / "t.csv", dtype={"title": str}, keep_default_na=False)
    assert back["title"].tolist() == ["'=HYPERLINK(\"x\")", "'+1+2", "'-cmd", "'@SUM(A1)",
                                      "'\tx", "ok", "-0.5", "-"]
    assert back["value"].tolist() == df["value"].tolist()  # numbers untouched
    assert "written with a leading '" in caplog.text


@pytest.mark.parametrize("content, expected", [
    (b"paper_id,title\np1,A\x00B\n", "line 2 holds '\\x00'"),
    (bytes(range(256)) * 20, "a text file (this one is not"),
    (b"PK\x03\x04" + b"\x00" * 100, "zip archive"),
])
def test_binary_and_control_characters_refused(tmp_path, content, expected):
    (tmp_path / "s.csv").write_bytes(content)
    t = read_raw_table(tmp_path / "s.csv")
    assert len(t.problems) == 1 and expected in t.problems[0].expected, t.problems
    assert not t.rows


def test_random_bytes_to_sheet_inspect(tmp_path, capsys):
    (tmp_path / "s.csv").write_bytes(bytes(range(256)) * 20)
    with pytest.raises(SystemExit) as exc:
        raise SystemExit(main(["sheet", "inspect", str(tmp_path / "s.csv")]))
    err = capsys.readouterr().err.strip()
    assert exc.value.code == 2 and "a text file (this one is not" in err


def test_header_only_papers_sheet_is_said(tmp_path, caplog):
    _write(tmp_path / "p.csv", PAPERS[:1])
    _write(tmp_path / "r.csv", RESULTS[:1])
    with caplog.at_level(logging.WARNING):
        s = read_venue({"papers": "p.csv", "results": "r.csv", "layout": "long",
                        "units": "auto"}, base_dir=tmp_path, venue="v")
    assert "only its header" in caplog.text
    assert s.notes["note"].str.contains("only its header").any()


@pytest.fixture()
def repo_cfg(repo_root):
    with open(repo_root / "config" / "config.yaml", encoding="utf-8") as fh:
        return yaml.safe_load(fh)


def _config_problem(cfg) -> str:
    with pytest.raises(ConfigError) as exc:
        validate(cfg, schema_path("config"))
    return str(exc.value)


@pytest.mark.parametrize("edit, expected", [
    (lambda c: c["venues"]["venue_b_synthetic"].update(
        label="</script><img src=x onerror=alert(1)>"), "venues.venue_b_synthetic.label"),
    (lambda c: c["venues"]["venue_b_synthetic"].update(label=".. raw:: html"), "plain text"),
    (lambda c: c["congruence"]["paper"].update(
        segmentation={"q1": 0.82, "median": 0.67, "q3": 0.44}),
     "congruence.paper.segmentation: expected q1 <= median <= q3"),
    (lambda c: c["sd_model"]["msd_reference"].update(b0=-0.2, b1=0.0, b2=0.0),
     "sd_model.msd_reference: expected an SD curve > 0"),
    (lambda c: c["congruence"]["use"].append("nosuch"),
     "congruence.use: unknown source 'nosuch'"),
    (lambda c: c["sd_model"]["use"].append("nosuch"), "sd_model.use: unknown source 'nosuch'"),
    (lambda c: c["claim_check"]["bootstrap"].update(resamples=10**9),
     "claim_check.bootstrap.resamples"),
])
def test_config_refused_in_one_line_naming_the_key(repo_cfg, edit, expected):
    cfg = copy.deepcopy(repo_cfg)
    validate(copy.deepcopy(cfg), schema_path("config"))
    edit(cfg)
    msg = _config_problem(cfg)
    assert expected in msg and "\n" not in msg, msg


@pytest.mark.parametrize("text, expected", [
    ("venues:\n  a: {label: x}\n  a: {label: y}\n", "line 3"),
    ("seed: 1\nseed: 2\n", "duplicate key 'seed' (first given at line 1)"),
    ("seed: !!python/object/apply:os.system ['true']\n", "line 1"),
])
def test_yaml_duplicate_keys_and_tags_refused_with_the_line(tmp_path, text, expected):
    from falseclaims.config import check_config_files

    path = tmp_path / "c.yaml"
    path.write_text(text)
    for read in (read_yaml, lambda p: check_config_files([p])):
        with pytest.raises(ConfigError) as exc:
            read(path)
        assert expected in str(exc.value) and "\n" not in str(exc.value)


CHECK = ["check", "--task", "classification", "--a", "0.9", "--b", "0.85"]
PLAN = ["plan", "--task", "classification", "--delta", "0.01", "--level", "0.8"]


@pytest.mark.parametrize("argv, expected", [
    ([*CHECK, "--n", "1e30"], "argument --n: expected a whole number between 2 and 10^9"),
    ([*CHECK, "--n", "100", "--n", "200"], "option --n given twice"),
    ([*PLAN, "--congruence", "1.5"], "--congruence must lie in [0, 1] for classification; got 1.5"),
    ([*PLAN, "--n-max", "1e13"], "argument --n-max: expected a whole number between 2 and 10^9"),
])
def test_cli_numbers_refused_naming_the_option(capsys, argv, expected):
    with pytest.raises(SystemExit) as exc:
        raise SystemExit(main(argv))
    err = capsys.readouterr().err.strip()
    assert exc.value.code == 2 and len(err.splitlines()) == 1, err
    assert expected in err and "np.float64" not in err, err


# ------------------------------------------------------------------ unclear -> one line
def test_n_test_below_two_refused_naming_the_paper(tmp_path):
    papers = [list(r) for r in PAPERS]
    papers[1][-1] = "1"
    msg = _venue_problems(tmp_path, papers=papers)
    assert "row 2, column 'n_test': got 1; expected a test set of at least 2 cases " \
           "(paper 'p1'" in msg


@pytest.mark.parametrize("cell, expected", [("1.5e3", None), ("1e23", "below 1e+12"),
                                            ("1.5e-1", "is not one")])
def test_scientific_notation_as_a_size(tmp_path, cell, expected):
    from falseclaims.sheets.read.cells import CellError, parse_size

    if expected is None:
        assert parse_size(cell)[0] == 1500
        return
    with pytest.raises(CellError) as exc:
        parse_size(cell)
    assert expected in exc.value.expected and "split" not in exc.value.expected


@pytest.mark.parametrize("err", [errno.ENOSPC, errno.EROFS, errno.EACCES])
def test_environment_errors_are_one_line_not_a_bug(tmp_path, capsys, err):
    smk = SimpleNamespace(rule="exceedance", log=[str(tmp_path / "s.log")], output=["o.csv"],
                          wildcards=SimpleNamespace(items=lambda: [("venue", "v")]))

    def full(_):
        raise OSError(err, os.strerror(err), "results/v/summary.csv")

    with pytest.raises(SystemExit):
        run_step(smk, full)
    logging.basicConfig(handlers=[logging.NullHandler()], force=True)
    out = capsys.readouterr().err
    assert "Traceback" not in out and "unexpected error" not in out
    assert "environment problem, not a bug" in out and "results/v/summary.csv" in out


@pytest.mark.parametrize("prolog", [
    '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>',
    '<!DOCTYPE x [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;&a;">]>',
])
def test_xml_entities_in_a_workbook_are_an_unreadable_workbook(tmp_path, prolog):
    path = tmp_path / "w.xlsx"
    write_xlsx(path, ['<row r="1">' + text_cell("A1", "paper_id") + "</row>"], prolog)
    t = read_raw_table(path)
    (p,) = t.problems
    assert "unreadable workbook" in p.expected and "DOCTYPE" in p.expected


@pytest.mark.parametrize("text, expected", [
    ('paper_id,title\np1,"A\np2,B\np3,C\n', "opened in the record from line 2 is never closed"),
])
def test_unclosed_quote_named(tmp_path, text, expected):
    (tmp_path / "s.csv").write_text(text)
    (p,) = read_raw_table(tmp_path / "s.csv").problems
    assert expected in p.expected


def test_tab_separated_csv_read_with_a_note(tmp_path):
    (tmp_path / "s.csv").write_text("paper_id\ttitle\np1\tA\n")
    t = read_raw_table(tmp_path / "s.csv")
    assert t.header == ["paper_id", "title"] and not t.problems
    assert any("looks tab-separated" in n["note"] for n in t.notes)


def test_list_cells_quoted(tmp_path):
    from falseclaims.sheets.read.cells import CellError, parse_measure
    from falseclaims.sheets.read.rules import parse_compared

    assert parse_compared("U-Net 78.2;; nnU 80.1", None)[1] == (
        "empty item in 'U-Net 78.2;; nnU 80.1' skipped",)
    with pytest.raises(CellError) as exc:
        parse_compared("U-Net 5e400; nnU 80.1", None)
    assert "'U-Net 5e400; nnU 80.1'" in exc.value.expected
    with pytest.raises(CellError) as exc:
        parse_measure("5e400")
    assert "'5e400' is beyond the floating-point range" in exc.value.expected


def test_bootstrap_limit_names_the_config_key(tmp_path, capsys, monkeypatch):
    from falseclaims.cli import percase as cli_percase

    monkeypatch.setattr(cli_percase, "MAX_RESAMPLES", 1000)
    (tmp_path / "c.yaml").write_text("claim_check:\n  bootstrap: {resamples: 5000}\n")
    with pytest.raises(SystemExit) as exc:
        raise SystemExit(main(["percase", "data/example/percase_segmentation_synthetic.csv",
                               "--task", "segmentation", "--config", str(tmp_path / "c.yaml")]))
    err = capsys.readouterr().err
    assert exc.value.code == 2 and "config claim_check.bootstrap.resamples" in err
    assert "--bootstrap" not in err


@pytest.mark.parametrize("edit, expected", [
    (lambda t: t.replace("venues:\n", "venues:\n  venue_b_synthetic: {papers: x.csv}\n", 1),
     "duplicate key 'venue_b_synthetic'"),
    (lambda t: t.replace("seed: 20230708\n", "seed: !!python/object/apply:os.getpid []\n", 1),
     "could not determine a constructor for the tag"),
    (lambda t: t.replace("use: [paper, msd,", "use: [paper, nosuch, msd,", 1),
     "congruence.use: unknown source 'nosuch'"),
])
def test_pipeline_config_refused_before_snakemake_reads_it(repo_root, tmp_path, edit, expected):
    """The pipeline's config file: the same one-line refusals, no traceback (the workflow of
    this checkout run on an edited config in an empty directory, dry run)."""
    import subprocess
    import sys

    text = (repo_root / "config" / "config.yaml").read_text(encoding="utf-8")
    changed = edit(text)
    assert changed != text
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "config.yaml").write_text(changed, encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "snakemake", "-s", str(repo_root / "Snakefile"),
                           "-d", str(tmp_path), "-n", "--cores", "1"],
                          capture_output=True, text=True, timeout=300)
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0
    assert expected in out and "Traceback" not in out and "KeyError" not in out, out[-2000:]
