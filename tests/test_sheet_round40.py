"""Round 40 of the sheet reader and ``sheet inspect``: a size written with '.' digit
groups (``1.529`` in a German sheet) read as table mode reads it, ``2.000`` still refused;
the digest names the absent columns it counts; inspect and its review page say how a text
sheet was read; an .xls workbook is refused with how to convert it; ``--write`` in a
folder that is no checkout prints the steps that make the run work (run as printed, dry)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from falseclaims.cli import main
from falseclaims.sheets import read_venue
from falseclaims.sheets.read.cells import CellError, parse_size
from falseclaims.sheets.read.digest import digest

_IDS = ["Chen 2019", "Kim 2020", "Patel 2021", "Liu 2021", "Singh 2022", "Garcia 2023"]
ROOT = Path(__file__).resolve().parents[1]


def _german(tmp_path, size="1.529"):
    rows = [["Paper", "Task", "Metric", "Proposed (%)", "Baseline (%)", "Test images (n)"]]
    for k, s in enumerate(_IDS):
        rows.append([s, "classification", "accuracy", f"{90 + k},{k}", f"{88 + k},{k + 2}",
                     size if k == 2 else str(500 + 10 * k)])
    path = tmp_path / "de.csv"
    path.write_text("\n".join(";".join(r) for r in rows) + "\n", encoding="cp1252")
    return path


def _block(path):
    return {"papers": str(path), "layout": "wide_top2", "units": "percent",
            "columns": {"wide": {"Paper": "paper_id", "Task": "task", "Metric": "metric",
                                 "Proposed (%)": "value_proposed",
                                 "Baseline (%)": "value_best_prior",
                                 "Test images (n)": "n_test"}},
            "constants": {"in_scope": True, "values_only_in_figures": False,
                          "split": "train_val_test"}}


@pytest.mark.parametrize("cell,value", [("1.529", 1529), ("12.345", 12345),
                                        ("1.000.000", 1000000)])
def test_a_dot_grouped_size_is_read_as_table_mode_reads_it(cell, value):
    got, notes = parse_size(cell)
    assert got == value and any(cell in n and "groups digits" in n for n in notes)


@pytest.mark.parametrize("cell", ["2.000", "500.000"])
def test_a_dot_group_of_zeros_stays_ambiguous(cell):
    with pytest.raises(CellError, match=r"is \d+ or \d+"):
        parse_size(cell)


def test_decimal_point_sizes_stay_read():
    assert parse_size("500.0")[0] == 500 and parse_size("10.0")[0] == 10
    with pytest.raises(CellError):
        parse_size("0.853")


def test_a_german_sheet_reads_its_dot_grouped_size_with_a_note(tmp_path):
    s = read_venue(_block(_german(tmp_path)), base_dir=".", venue="de")
    row = s.papers.set_index("paper_id").loc["Patel 2021"]
    assert row["n_test"] == 1529
    note = s.notes[s.notes["note"].str.contains("1.529", regex=False)]
    assert len(note) == 1 and note.iloc[0]["column"] == "Test images (n)"


def test_the_digest_names_the_absent_columns(tmp_path):
    s = read_venue(_block(_german(tmp_path)), base_dir=".", venue="de")
    line = next(x for x in digest("de", s.papers, s.results, s.notes).splitlines()
                if "absent" in x)
    assert "'statistical_test'" in line and "'claims_outperformance'" in line


def test_inspect_and_review_say_how_a_text_sheet_was_read(tmp_path, capsys):
    path = _german(tmp_path)
    page = tmp_path / "r.html"
    assert main(["sheet", "inspect", str(path), "--venue", "de", "--html", str(page)]) == 0
    out = capsys.readouterr().out
    assert "read as: ';'-separated; UTF-8; decimal commas in D, E" in out
    assert "decimal commas in D, E" in page.read_text(encoding="utf-8")


def test_a_windows_1252_sheet_is_said_so(tmp_path, capsys):
    path = _german(tmp_path)
    text = path.read_text(encoding="cp1252").replace("Chen 2019", "Müller 2019")
    path.write_text(text, encoding="cp1252")
    assert main(["sheet", "inspect", str(path)]) == 0
    assert "read as: ';'-separated; Windows-1252 (not UTF-8); decimal commas in D, E" \
        in capsys.readouterr().out


def test_an_excel_sheet_gets_no_text_reading(tmp_path):
    import openpyxl

    from falseclaims.sheets.draft.inspect import inspect_sheet
    wb = openpyxl.Workbook()
    wb.active.append(["Paper", "Accuracy", "n"])
    wb.active.append(["A 2020", 0.9, 100])
    wb.save(tmp_path / "w.xlsx")
    assert inspect_sheet(tmp_path / "w.xlsx").read_as is None


def test_an_xls_workbook_is_refused_with_how_to_convert_it(tmp_path, capsys):
    path = tmp_path / "old.xls"
    path.write_bytes(b"\xd0\xcf\x11\xe0" + b"\0" * 100)
    assert main(["sheet", "inspect", str(path), "--venue", "x"]) == 2
    err = capsys.readouterr().err
    assert "save it as .xlsx" in err and "CSV" in err


def test_writing_the_draft_as_a_missing_project_config_is_refused(tmp_path, monkeypatch,
                                                                   capsys):
    monkeypatch.chdir(tmp_path)
    path = _german(tmp_path)
    assert main(["sheet", "inspect", str(path), "--venue", "de",
                 "--write", "config/config.yaml"]) == 2
    assert "must be complete" in capsys.readouterr().err
    assert not (tmp_path / "config" / "config.yaml").exists()


def test_the_printed_run_command_works_in_a_folder_of_ones_own(tmp_path, monkeypatch,
                                                               capsys):
    """The printed steps (copy the config and data/external, -s the Snakefile) run as
    printed: a Snakemake dry run of the whole pipeline with the draft."""
    monkeypatch.chdir(tmp_path)
    path = _german(tmp_path)
    assert main(["sheet", "inspect", path.name, "--venue", "de", "--write", "de.yaml"]) == 0
    cmd = capsys.readouterr().out.rstrip().splitlines()[-1].strip()
    assert cmd.startswith("mkdir -p config data") and f"-s {ROOT}/Snakefile" in cmd
    env = {"PATH": str(Path(sys.executable).parent) + ":/usr/bin:/bin",
           "PYTHONPATH": str(ROOT / "src")}
    r = subprocess.run(cmd + " -n", shell=True, cwd=tmp_path, env=env, capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "validate_sheets" in r.stdout


def _marked(tmp_path, claims_head, test_head, claims=("Y", "N", "x", "✓", "0", "1"),
            tests=("0", "x", "✓", "yes", "N", "✓")):
    from sheet_drafting import write_rows
    rows = [["Paper", "Task", "Metric", "Proposed (%)", "Baseline (%)", "Test images (n)",
             claims_head, test_head]]
    for k, s in enumerate(_IDS):
        rows.append([s, "classification", "accuracy", 90.1 + k, 88.2 + k, 500 + 10 * k,
                     claims[k], tests[k]])
    return write_rows(tmp_path, rows)


def test_check_mark_columns_named_by_their_header_are_mapped(tmp_path):
    from sheet_drafting import drafted
    path = _marked(tmp_path, "Claims SOTA", "Significance test")
    d, block = drafted(path)
    wide = block["columns"]["wide"]
    assert wide["Claims SOTA"] == "claims_outperformance"
    assert wide["Significance test"] == "statistical_test"
    s = read_venue(dict(block), base_dir=".", venue="v")
    p = s.papers.set_index("paper_id")
    # Y N x ✓ 0 1 / 0 x ✓ yes N ✓: a marked box is yes
    assert p["claims_outperformance"].tolist() == [True, False, True, True, False, True]
    assert p["statistical_test"].tolist() == [False, True, True, True, False, True]


def test_check_marks_under_a_header_naming_nothing_are_asked(tmp_path):
    from falseclaims.sheets.draft.inspect import inspect_sheet
    g = inspect_sheet(_marked(tmp_path, "Col G", "Col H"))
    for c in g.columns[6:]:
        assert c.role in ("(ignore)", "category")
        assert any("claims_outperformance or statistical_test" in h for h in c.hints)


def test_plain_yes_no_under_another_header_is_not_asked(tmp_path):
    from falseclaims.sheets.draft.inspect import inspect_sheet
    g = inspect_sheet(_marked(tmp_path, "Code available", "Data public",
                              claims=("Y", "N") * 3, tests=("yes", "no") * 3))
    assert not any("check marks" in h for c in g.columns for h in c.hints)
