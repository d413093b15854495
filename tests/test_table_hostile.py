"""Hostile inputs to table mode: every case is refused in one line naming file and line, or
handled; nothing is silently misread, nothing blows up."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from table_files import write_table_file as _write

from falseclaims.cli import main
from falseclaims.config import load_config
from falseclaims.table.model import interpret_table
from falseclaims.table.readers import MAX_COLUMNS, MAX_TABLES, read_tables

EXAMPLES = Path(__file__).resolve().parents[1] / "data" / "example" / "tables"
LATEX = EXAMPLES / "latex_segmentation.tex"
GOOD_MD = "| Method | Accuracy |\n|---|---|\n| A | 0.91 |\n| B | 0.90 |\n"


@pytest.fixture(scope="module")
def cfg():
    return load_config()


def _run(argv) -> int:
    """The exit code, also of argument errors (argparse exits)."""
    try:
        return main(argv)
    except SystemExit as exc:
        return int(exc.code)


def _tex(body: str) -> str:
    return "\\begin{tabular}{lc}\nMethod & Dice \\\\\n" + body + "\n\\end{tabular}\n"


# ------------------------------------------------------------------ silent misreading
def test_fraction_among_percent_cells_is_refused(cfg, tmp_path):
    f = _write(tmp_path, "t.md", "| Method | Accuracy |\n|---|---|\n| A | 85.3% |\n"
                                 "| B | 0.841 |\n| C | 80.1% |\n")
    with pytest.raises(ValueError, match=r"'0.841' \(line 4\) reads as a fraction"):
        interpret_table(read_tables(f)[0], cfg, n=100)


@pytest.mark.parametrize("header", ["Dice SD", "Dice std"])
def test_sd_columns_are_never_scored(cfg, tmp_path, header):
    f = _write(tmp_path, "t.md", f"| Method | Dice | {header} |\n|---|---|---|\n"
                                 "| A | 0.91 | 0.05 |\n| B | 0.90 | 0.02 |\n")
    t = interpret_table(read_tables(f)[0], cfg, n=100)
    assert [c.column for c in t.metrics] == ["Dice"]
    assert any(header in n and "never scored" in n for n in t.notes)


def test_dice_loss_is_lower_is_better_not_dice(cfg, tmp_path):
    f = _write(tmp_path, "t.md", "| Method | Dice loss |\n|---|---|\n| A | 0.12 |\n"
                                 "| B | 0.09 |\n")
    [c] = interpret_table(read_tables(f)[0], cfg, n=100).metrics
    assert (c.direction, c.task) == ("lower", None)


def test_table_number_does_not_match_a_year_in_a_caption(tmp_path, capsys):
    text = ("\\begin{table}\\caption{Results of the 2023 challenge}\n" + _tex(
        "A & 0.91 \\\\\nB & 0.90 \\\\") + "\\end{table}\n" + _tex("A & 0.81 \\\\\nB & 0.80 \\\\"))
    f = _write(tmp_path, "t.tex", text)
    assert main(["table", str(f), "--n", "50", "--table", "3"]) == 2
    assert "--table 3: the file holds 2 table(s)" in capsys.readouterr().err
    assert main(["table", str(f), "--n", "50", "--table", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["result"]["tables"][0]["table"] == "tabular 2"


@pytest.mark.parametrize("first", ["A & -- \\\\", "A & \\resA \\\\"])
def test_first_data_row_of_marks_or_macros_is_not_header(tmp_path, first):
    f = _write(tmp_path, "t.tex", _tex(first + "\nB & 0.90 \\\\\nC & 0.80 \\\\"))
    [raw] = read_tables(f)
    assert raw.header == ["Method", "Dice"]
    assert [r[0] for r in raw.rows] == ["A", "B", "C"]


def test_unreadable_subfolder_is_named_and_exit_1(tmp_path, capsys, monkeypatch):
    shutil.copy(LATEX, tmp_path / "a.tex")
    (tmp_path / "locked").mkdir()
    walk = os.walk

    def walk_with_error(top, onerror=None, **kw):  # root may read anything: simulate EACCES
        onerror(PermissionError(13, "Permission denied", str(tmp_path / "locked")))
        yield from walk(top, onerror=onerror, **kw)

    monkeypatch.setattr(os, "walk", walk_with_error)
    assert main(["table", "--dir", str(tmp_path), "--n", "120"]) == 1
    out = capsys.readouterr().out
    assert f"NOT READ {tmp_path / 'locked'}: folder not readable (Permission denied)" in out
    assert "2 claim(s) in 1 table(s)" in out


# ------------------------------------------------------------------ blow-ups
def test_huge_multicolumn_span_is_refused_naming_the_line(tmp_path, capsys):
    f = _write(tmp_path, "t.tex", _tex("\\multicolumn{99999999}{c}{x} \\\\\nA & 0.9 \\\\"))
    assert main(["table", str(f), "--n", "50"]) == 2
    err = capsys.readouterr().err
    assert "t.tex, tabular 1, line 3: \\multicolumn{99999999} spans 99,999,999 columns" in err
    assert f"at most {MAX_COLUMNS:,} columns" in err


def test_xlsx_with_one_far_cell_is_read_through_the_bounded_reader(cfg, tmp_path):
    openpyxl = pytest.importorskip("openpyxl")
    wb = openpyxl.Workbook()
    ws = wb.active
    for row in (["Method", "Accuracy"], ["A", 0.91], ["B", 0.9]):
        ws.append(row)
    ws["XFD1048576"] = "far"
    f = tmp_path / "far.xlsx"
    wb.save(f)
    assert f.stat().st_size < 10_000
    [raw] = read_tables(f)  # three columns hold values: A, B and XFD; not 16,384
    assert len(raw.header) == 3
    t = interpret_table(raw, cfg, n=100)
    assert [c.column for c in t.metrics] == ["Accuracy"]


@pytest.mark.parametrize("value", ["1e15", "1000000001", "BTCV=1e10"])
def test_n_above_the_limit_is_refused(tmp_path, capsys, value):
    f = _write(tmp_path, "t.md", GOOD_MD)
    assert _run(["table", str(f), "--n", value]) == 2
    assert "between 2 and 10^9" in capsys.readouterr().err


def test_too_many_tabulars_refused_and_parsing_is_linear(tmp_path):
    one = _tex("A & 0.91 \\\\\nB & 0.90 \\\\")
    f = _write(tmp_path, "many.tex", one * (MAX_TABLES + 1))
    with pytest.raises(ValueError, match=f"more than {MAX_TABLES:,} tabulars"):
        read_tables(f)
    g = _write(tmp_path, "ok.tex", one * MAX_TABLES)
    tables = read_tables(g)
    assert len(tables) == MAX_TABLES and tables[-1].where == [
        f"line {5 * MAX_TABLES - 2}", f"line {5 * MAX_TABLES - 1}"]


# ------------------------------------------------------------------ accepted though bad
def test_sd_impossible_for_a_bounded_score_is_refused(cfg, tmp_path):
    f = _write(tmp_path, "t.md", "| Method | Dice (%) |\n|---|---|\n| A | 85.3 ± 45 |\n"
                                 "| B | 80.1 ± 5.0 |\n")
    with pytest.raises(ValueError, match=r"± 45 is impossible for a mean of 85.3 on \[0, 100\]"):
        interpret_table(read_tables(f)[0], cfg, n=100)
    # the largest possible SD at 85.3% is sqrt(0.853 * 0.147) = 35.4%: 35 is accepted
    g = _write(tmp_path, "g.md", "| Method | Dice (%) |\n|---|---|\n| A | 85.3 ± 35 |\n"
                                 "| B | 80.1 ± 5.0 |\n")
    assert interpret_table(read_tables(g)[0], cfg, n=100).metrics[0].sds[0] == 0.35


@pytest.mark.parametrize("option", ["--csv", "--report", "--figure"])
def test_outputs_never_overwrite_inputs(tmp_path, capsys, option):
    f = _write(tmp_path, "t.csv", "Method,Accuracy\nA,0.91\nB,0.90\n")
    target = {"--csv": f, "--report": f, "--figure": f}[option]
    before = f.read_bytes()
    code = main(["table", str(f), "--n", "100", option, str(target)])
    assert code == 2 and f.read_bytes() == before
    err = capsys.readouterr().err
    assert "is an input of this run" in err or "must" in err


def test_csv_output_cannot_replace_a_file_of_the_swept_folder(tmp_path, capsys):
    f = _write(tmp_path, "t.csv", "Method,Accuracy\nA,0.91\nB,0.90\n")
    assert main(["table", "--dir", str(tmp_path), "--n", "100", "--csv", str(f)]) == 2
    assert "is an input of this run" in capsys.readouterr().err


def test_control_characters_stripped_from_printed_names(tmp_path, capsys):
    f = _write(tmp_path, "t.md", "| Method | Accuracy |\n|---|---|\n| A\x1b[2J\x07 | 0.91 |\n"
                                 "| B | 0.90 |\n")
    assert main(["table", str(f), "--n", "100"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out and "A" in out


def test_atomic_output_keeps_the_old_file_when_writing_fails(tmp_path):
    from falseclaims.io.table_io import atomic_output
    out = tmp_path / "r.html"
    out.write_text("old", encoding="utf-8")
    with pytest.raises(RuntimeError):
        with atomic_output(out) as tmp:
            tmp.write_text("half", encoding="utf-8")
            raise RuntimeError("killed")
    assert out.read_text(encoding="utf-8") == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.html"]


def test_figure_csv_and_report_create_their_folders_alike(tmp_path, capsys):
    d = tmp_path / "new" / "deeper"
    assert main(["table", str(LATEX), "--n", "120", "--metric", "Dice (%) Liver",
                 "--csv", str(d / "c.csv"), "--report", str(d / "r.html"),
                 "--figure", str(d / "f.png")]) == 0
    assert {p.name for p in d.iterdir()} == {"c.csv", "r.html", "f.png"}


# ------------------------------------------------------------------ unclear
@pytest.mark.parametrize("text, expected", [
    ("x\n\\begin{tabular}[t]", "t.tex, tabular 1 (line 2): no \\end{tabular}"),
    ("x\n\\begin{tabular}[t]\\end{tabular}", "t.tex, tabular 1 (line 2): missing column "
                                               "specification"),
    (_tex("\\multicolumn{x}{c}{A} & 0.9 \\\\"), "t.tex, tabular 1, line 3: a malformed "
                                                "\\multicolumn"),
    (_tex("A & \\textbf{0.9 \\\\\nB & 0.8 \\\\"), "t.tex, tabular 1, line 3: unbalanced braces"),
    (_tex("A & 0.9} \\\\\nB & 0.8 \\\\"), "t.tex, tabular 1, line 3: unbalanced braces"),
    ("\\begin{tabular}{lc}\nMethod & Dice \\\\\n", "tabular 1 (line 1): no \\end{tabular}"),
])
def test_broken_latex_is_one_line_naming_file_and_line(tmp_path, capsys, text, expected):
    f = _write(tmp_path, "t.tex", text)
    assert main(["table", str(f), "--n", "50"]) == 2
    err = capsys.readouterr().err
    assert expected in err and err.count("\n") == 1 and "Traceback" not in err


def test_nested_tabular_in_a_header_cell_is_read(tmp_path):
    f = _write(tmp_path, "t.tex", "\\begin{tabular}{lc}\nMethod & \\begin{tabular}{c}Dice\\\\"
                                  "(\\%)\\end{tabular} \\\\\nA & 91.0 \\\\\nB & 90.0 \\\\\n"
                                  "\\end{tabular}\n")
    [raw] = read_tables(f)
    assert raw.header == ["Method", "Dice (%)"] and len(raw.rows) == 2


def test_8kb_arithmetic_cell_is_one_line_in_table_and_sheet_check(tmp_path, capsys):
    cell = "=" + "(" * 2000 + "1" + ")" * 2000
    f = _write(tmp_path, "t.csv", f"Method,Accuracy\nA,0.91\nB,{cell}\n")
    assert main(["table", str(f), "--n", "100"]) == 2
    err = capsys.readouterr().err
    assert "t.csv" in err and "line 3" in err and err.count("\n") == 1
    from falseclaims.sheets.read.prepare import _arith
    with pytest.raises(ValueError, match="longer than"):
        _arith(cell)


def test_dir_run_with_a_bad_file_reports_the_rest_and_exits_1(tmp_path, capsys):
    shutil.copy(LATEX, tmp_path / "good.tex")
    (tmp_path / "bad.tex").write_text(_tex("A & \\textbf{0.9 \\\\"), encoding="utf-8")
    (tmp_path / "broken.xlsx").write_bytes(b"PK\x03\x04 not a zip")
    assert main(["table", "--dir", str(tmp_path), "--n", "120"]) == 1
    out = capsys.readouterr().out
    assert "2 claim(s) in 1 table(s)" in out
    assert "NOT READ " + str(tmp_path / "bad.tex") in out
    assert "NOT READ " + str(tmp_path / "broken.xlsx") in out


@pytest.mark.parametrize("args", [
    ["table", "{missing}"], ["table", "{file}", "--n", "1e15"], ["table"],
    ["table", "{file}", "--n", "100", "--csv", "x.txt"], ["table", "{bad}", "--n", "100"],
    ["table", "{file}", "--n", "100", "--table", "9"], ["table", "--dir", "{empty}"],
    ["table", "{file}", "--n", "100", "--metric", "Accuracy=wrong"],
    ["table", "{file}", "--units", "kelvin"], ["table", "{file}", "--macros", "{missing}"],
    ["table", "{nometric}", "--n", "100"], ["table", "{file}"]])
def test_json_envelope_on_every_error_path(tmp_path, capsys, args):
    paths = {"missing": tmp_path / "no.md", "file": _write(tmp_path, "t.md", GOOD_MD),
             "bad": _write(tmp_path, "b.tex", _tex("A & {0.9 \\\\")),
             "empty": tmp_path / "empty",
             "nometric": _write(tmp_path, "n.md", "| Method | Liver |\n|---|---|\n"
                                                  "| A | 0.9 |\n| B | 0.8 |\n")}
    (tmp_path / "empty").mkdir(exist_ok=True)
    argv = [a.format(**paths) for a in args] + ["--json"]
    assert _run(argv) == 2
    env = json.loads(capsys.readouterr().out)
    assert env["command"] == "table" and env["result"]["tables"] == []
    assert env["result"]["error"] and env["result"]["unreadable"][0]["reason"]


def test_n_column_above_the_limit_is_named(cfg, tmp_path):
    f = _write(tmp_path, "t.csv", "Method,Accuracy,n\nA,0.91,1e10\nB,0.90,1e10\n")
    with pytest.raises(ValueError, match=r"column 'n', line 2: test-set size '1e10' is above "
                                         r"the limit of 10\^9"):
        interpret_table(read_tables(f)[0], cfg)


def test_percase_columns_option_accepts_a_quoted_name_with_a_comma():
    from falseclaims.percase.text_table import parse_columns_option
    assert parse_columns_option('case_id=ID,alg_B="pred, B"') == {"case_id": "ID",
                                                                    "alg_B": "pred, B"}
    with pytest.raises(ValueError, match="unclosed quote"):
        parse_columns_option('case_id=ID,alg_B="pred, B')
