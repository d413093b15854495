"""Table mode (`falseclaims table`): readers, interpretation, equality with `check`,
tiers, refusals, outputs and the --dir sweep (docs/table.md)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from falseclaims.claims.check import check_claim
from falseclaims.cli import main
from falseclaims.config import load_config
from falseclaims.table.analysis import analyse_table, tiers
from falseclaims.table.cells import parse_printed_cell
from falseclaims.table.model import interpret_table
from falseclaims.table.readers import TableReadError, read_tables

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "data" / "example" / "tables"
LATEX = EXAMPLES / "latex_segmentation.tex"
LEADERBOARD = EXAMPLES / "leaderboard_20.md"


@pytest.fixture(scope="module")
def cfg():
    return load_config()


def _median(result):
    return next(r for r in result["results"] if r["assumption"] == "median")["probability"]


@pytest.mark.parametrize("raw, value, sd, bold, percent, decimals", [
    (r"\textbf{85.3}", 85.3, None, True, False, 1),
    (r"$85.3 \pm 2.1$", 85.3, 2.1, False, False, 1),
    ("85.3 ± 2.1", 85.3, 2.1, False, False, 1),
    (r"85.3\%", 85.3, None, False, True, 1),
    (r"\underline{84.10}$^\dagger$", 84.10, None, False, False, 2),
    ("83.2*", 83.2, None, False, False, 1),
    (r"85.3_{\pm 2.1}", 85.3, 2.1, False, False, 1),
    ("**0.912**", 0.912, None, True, False, 3),
    (r"$\mathbf{85.3}\pm\mathbf{2.1}$", 85.3, 2.1, True, False, 1),
    ("91.2% ± 0.3%", 91.2, 0.3, False, True, 1),
])
def test_cells(raw, value, sd, bold, percent, decimals):
    c = parse_printed_cell(raw)
    assert (c.value, c.sd, c.bold, c.percent, c.decimals) == (value, sd, bold, percent, decimals)


@pytest.mark.parametrize("raw", ["-", "n/a", "", "—", "abc"])
def test_non_numbers(raw):
    assert parse_printed_cell(raw).value is None


def test_latex_table_is_read_as_printed(cfg):
    [raw] = read_tables(LATEX)
    # the arrow of "Dice (\%) $\uparrow$" is kept for the direction, not in the column name
    assert raw.header == ["Method", "Dice (%) ↑ Liver", "Dice (%) ↑ Pancreas"]
    t = interpret_table(raw, cfg, n=120)
    assert [c.column for c in t.metrics] == ["Dice (%) Liver", "Dice (%) Pancreas"]
    assert t.metrics[0].direction == "higher"
    assert t.metrics[0].direction_source == "header arrow and metric name"
    assert any("section row" in note for note in t.notes)  # \multicolumn section row
    liver = t.metrics[0]
    assert liver.methods == ["U-Net", "Attention U-Net", "nnU-Net", "UNETR", "Swin UNETR",
                             "Ours"]
    assert liver.values[-1] == pytest.approx(0.964) and liver.sds[-1] == pytest.approx(0.018)
    assert liver.units == "percent" and liver.task == "segmentation"
    assert liver.bold == [False] * 5 + [True] and liver.underline[2]
    assert liver.decimals == [3] * 6


def test_every_pair_equals_check(cfg):
    """P of the winner against each method is `check` on that pair, number for number."""
    res = analyse_table(interpret_table(read_tables(LATEX)[0], cfg, n=120), cfg)
    m = res["metrics"][1]  # pancreas
    assert m["winner"] == "Ours" and m["winner_source"] == "best value (bold agrees)"
    win = next(x for x in m["methods"] if x["winner"])
    for x in m["methods"]:
        if x["winner"]:
            continue
        ref = check_claim("segmentation", 120, win["value"], x["value"], cfg)
        assert x["p_false_claim"] == _median(ref)
        band = check_claim("segmentation", 120, win["value"], x["value"], cfg, decimals=3)
        lo = min(r["probability_range"][0] for r in band["results"])
        assert x["p_band"][0] <= lo + 1e-15 and x["p_band"][1] >= _median(ref)


def test_cli_json_equals_cli_check(capsys):
    assert main(["table", str(LEADERBOARD), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)["result"]
    m = out["tables"][0]["metrics"][0]
    assert m["m"] == 20 and m["n"] == 1512 and m["winner"] == "ResNet-50"
    for x in m["methods"][1:4]:
        assert main(["check", "--task", "classification", "--n", "1512", "--a",
                     str(m["methods"][0]["value"]), "--b", str(x["value"]), "--json"]) == 0
        ref = json.loads(capsys.readouterr().out)["result"]
        assert x["p_false_claim"] == _median(ref)


def test_reported_sds_used_only_when_over_the_test_set(cfg):
    t = interpret_table(read_tables(LATEX)[0], cfg, n=120)
    used = analyse_table(t, cfg, pm_over="test")["metrics"][0]
    x = used["methods"][1]
    ref = check_claim("segmentation", 120, 0.964, x["value"], cfg, sd_a=0.018,
                      sd_b=x["sd_reported"])
    assert x["p_false_claim"] == _median(ref) and x["sd_other"] == x["sd_reported"]
    imputed = analyse_table(t, cfg)["metrics"][0]["methods"][1]
    assert imputed["sd_other"] != imputed["sd_reported"]


def test_tier_one_is_the_methods_tied_with_the_winner(cfg):
    res = analyse_table(interpret_table(read_tables(LEADERBOARD)[0], cfg), cfg)
    m = res["metrics"][0]
    tied = [x["method"] for x in m["methods"] if not x["winner"] and x["p_false_claim"] >= 0.05]
    assert m["tier1"] == ["ResNet-50"] + tied
    assert sum(len(t) for t in m["tiers"]) == 20
    strict = analyse_table(interpret_table(read_tables(LEADERBOARD)[0], cfg), cfg, cutoff=0.2)
    assert len(strict["metrics"][0]["tier1"]) < len(m["tier1"])


def test_tiers_hand_case():
    p = {(0, 1): 0.3, (0, 2): 0.01, (0, 3): 0.001, (2, 3): 0.2}
    assert tiers([0, 1, 2, 3], lambda i, j: p[(i, j)], 0.05, [0, 1]) == [[0, 1], [2, 3]]


def test_bold_below_best_value_is_named_and_the_values_decide(cfg, tmp_path):
    f = tmp_path / "t.md"
    f.write_text("| Method | Accuracy |\n|---|---|\n| A | **0.850** |\n| B | 0.855 |\n"
                 "| C | 0.800 |\n", encoding="utf-8")
    m = analyse_table(interpret_table(read_tables(f)[0], cfg, n=500), cfg)["metrics"][0]
    assert m["winner"] == "B" and m["best_value"] == "B"
    assert m["winner_source"] == "best value (bold marks another method)"
    assert any("bold marks A (0.850) but B has the best value" in note for note in m["notes"])
    a = next(x for x in m["methods"] if x["method"] == "A")
    ref = check_claim("classification", 500, 0.855, 0.850, cfg)
    assert a["p_false_claim"] == pytest.approx(_median(ref), abs=1e-15)


@pytest.mark.parametrize("text, expected", [
    ("| Method | Notes |\n|---|---|\n| A | good |\n| B | bad |\n", "no numeric column"),
    ("| Method | Accuracy |\n|---|---|\n| A | 0.9 |\n", "at least 2 method rows"),
    ("| Method | Liver |\n|---|---|\n| A | 3.1 |\n| B | 4.2 |\n", "unknown metric in column"),
    ("| Method | Accuracy |\n|---|---|\n| A | 0.91 |\n| B | 85.2 |\n", "--units percent"),
    ("| Method | Accuracy |\n|---|---|\n| A | 0.91 |\n| B | good |\n", "line 4 (method 'B')"),
    ("| Method | Accuracy |\n|---|---|\n| A | 0.91 |\n| B | - |\n", "found 1 (A, line 3)"),
])
def test_refusals_name_row_and_column(cfg, tmp_path, text, expected):
    f = tmp_path / "bad.md"
    f.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match="bad.md") as exc:
        interpret_table(read_tables(f)[0], cfg, n=100)
    assert expected in str(exc.value)


def test_unknown_metric_with_task_is_analysed(cfg, tmp_path):
    f = tmp_path / "t.csv"
    f.write_text("Method,Liver,n\nA,0.95,50\nB,0.93,50\n", encoding="utf-8")
    with pytest.raises(ValueError, match="--task classification"):
        interpret_table(read_tables(f)[0], cfg)
    t = interpret_table(read_tables(f)[0], cfg, task="segmentation")
    assert t.n == 50 and t.metrics[0].task_source == "--task"


def test_xlsx_percent_format(cfg, tmp_path):
    openpyxl = pytest.importorskip("openpyxl")
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["Model", "Accuracy", "n"])
    for name, v in (("A", 0.912), ("B", 0.905), ("C", 0.871)):
        ws.append([name, v, 400])
    for row in ws.iter_rows(min_row=2, min_col=2, max_col=2):
        row[0].number_format = "0.0%"
    ws["B3"].font = openpyxl.styles.Font(bold=True)
    f = tmp_path / "t.xlsx"
    wb.save(f)
    m = interpret_table(read_tables(f)[0], cfg).metrics[0]
    assert m.values == [0.912, 0.905, 0.871] and m.units == "percent"
    # the sheets' bounded reader keeps values, not fonts: the values decide the winner
    assert m.bold == [False, False, False]


def test_outputs_text_figure_report(tmp_path, capsys):
    fig, rep = tmp_path / "f.png", tmp_path / "r.html"
    assert main(["table", str(LATEX), "--n", "120", "--figure", str(fig),
                 "--report", str(rep)]) == 0
    text = capsys.readouterr().out
    assert "tied with the winner (tier 1, P >= 0.05): 2 of 6" in text
    assert (tmp_path / "f_1.png").stat().st_size > 1000 and (tmp_path / "f_2.png").exists()
    html = rep.read_text(encoding="utf-8")
    assert "data:image/png;base64" in html and "Attention U-Net" in html


def test_report_escapes_table_strings(tmp_path, capsys):
    f = tmp_path / "x.md"
    f.write_text("| Method | Accuracy |\n|---|---|\n| <script>alert(1)</script> | 0.91 |\n"
                 "| B | 0.90 |\n", encoding="utf-8")
    rep = tmp_path / "r.html"
    assert main(["table", str(f), "--n", "300", "--report", str(rep)]) == 0
    html = rep.read_text(encoding="utf-8")
    assert "<script>" not in html and "&lt;script&gt;" in html


def test_dir_sweep_lists_good_and_broken(tmp_path, capsys):
    shutil.copy(LEADERBOARD, tmp_path / "a.md")
    shutil.copy(LATEX, tmp_path / "b.tex")
    (tmp_path / "c.md").write_text("| Method | Liver |\n|---|---|\n| A | 1 |\n| B | 2 |\n",
                                   encoding="utf-8")
    (tmp_path / "d.tex").write_text("no table here", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("x", encoding="utf-8")
    out = tmp_path / "rows.csv"
    code = main(["table", "--dir", str(tmp_path), "--n", "120", "--csv", str(out)])
    text = capsys.readouterr().out
    assert code == 1
    assert "3 claim(s) in 2 table(s); 2 table(s) or file(s) not read" in text
    assert "unknown metric" in text and "no \\begin{tabular}" in text
    import pandas as pd
    rows = pd.read_csv(out)
    assert list(rows["status"]) == ["ok"] * 3 + ["unreadable"] * 2
    assert rows.loc[0, "tier_size"] == 5 and rows.loc[0, "runner_up"] == "DenseNet-121"


def test_dir_all_good_exits_0_and_usage_exits_2(tmp_path, capsys):
    shutil.copy(LEADERBOARD, tmp_path / "a.md")
    assert main(["table", "--dir", str(tmp_path)]) == 0
    assert main(["table"]) == 2
    assert main(["table", str(LATEX), "--dir", str(tmp_path)]) == 2
    assert main(["table", str(tmp_path / "missing.md")]) == 2
    assert "file not found" in capsys.readouterr().err


def test_latex_multirow_multicolumn_header_and_caption(tmp_path):
    f = tmp_path / "t.tex"
    f.write_text(r"""\begin{table}\caption{Main results}
\begin{tabular}{l|cc|c}
\hline
\multirow{2}{*}{\textbf{Method}} & \multicolumn{2}{c|}{DSC} & Acc. \\ \cline{2-3}
 & Val & Test & \\ \hline
A & 0.81 & \textbf{0.83} & 0.90 \\
B & 0.80 & 0.82 & 0.91 \\ \hline
\end{tabular}\end{table}""", encoding="utf-8")
    [raw] = read_tables(f)
    assert raw.name == "tabular 1: Main results"
    assert raw.header == ["Method", "DSC Val", "DSC Test", "Acc."]
    assert raw.where == ["line 6", "line 7"]


def test_unsupported_file(tmp_path):
    f = tmp_path / "t.docx"
    f.write_text("x", encoding="utf-8")
    with pytest.raises(TableReadError, match="unsupported file type"):
        read_tables(f)


def test_tsv_semicolon_and_n_column(cfg, tmp_path):
    f = tmp_path / "t.tsv"
    f.write_text("Model\tDSC\tN\nA\t0.912 ± 0.05\t80\nB\t0.905 ± 0.06\t80\n", encoding="utf-8")
    t = interpret_table(read_tables(f)[0], cfg)
    assert t.n == 80 and t.n_source == "column 'N'" and t.metrics[0].sds == [0.05, 0.06]
    g = tmp_path / "t.csv"
    g.write_text("Model;Acc (%)\nA;91,2\nB;90.5\n", encoding="utf-8")
    t = interpret_table(read_tables(g)[0], cfg, n=100)
    assert t.metrics[0].values == [0.912, 0.905]
    assert "1 decimal comma(s) read as decimal point(s)" in t.notes[1]
    assert "';'-separated" in t.notes[0]


def test_dir_report_lists_unreadable(tmp_path, capsys):
    shutil.copy(LEADERBOARD, tmp_path / "a.md")
    (tmp_path / "b.md").write_text("| Method | Accuracy |\n|---|---|\n| A | 0.9 |\n",
                                   encoding="utf-8")
    rep = tmp_path / "r.html"
    assert main(["table", "--dir", str(tmp_path), "--report", str(rep)]) == 1
    html = rep.read_text(encoding="utf-8")
    assert "Not read" in html and "needs at least 2 method rows" in html
    assert html.count("<h3>") == 1


def test_table_option_picks_one_table(tmp_path, capsys):
    f = tmp_path / "two.md"
    f.write_text("## Val\n\n| Method | Accuracy |\n|---|---|\n| A | 0.90 |\n| B | 0.88 |\n\n"
                 "## Test\n\n| Method | Accuracy |\n|---|---|\n| A | 0.91 |\n| B | 0.80 |\n",
                 encoding="utf-8")
    assert main(["table", str(f), "--n", "200", "--table", "test", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)["result"]
    assert [t["table"] for t in out["tables"]] == ["Test"]
    assert main(["table", str(f), "--n", "200", "--table", "3"]) == 2
    assert "--table 3: the file holds 2 table(s) (['Val', 'Test'])" in capsys.readouterr().err
    assert main(["table", str(f), "--n", "200", "--table", "val x"]) == 2
    assert "matches none of ['Val', 'Test']" in capsys.readouterr().err


@pytest.mark.parametrize("header, task", [
    ("Accuracy (%)", "classification"), ("Acc.", "classification"),
    ("Top-1 Acc", "classification"), ("Dice (%) Liver", "segmentation"),
    ("mDice", "segmentation"), ("DSC ↑", "segmentation"), ("Balanced accuracy", None),
    ("Top-5 Acc", None), ("Surface Dice", None), ("NSD", None), ("HD95", None),
    ("mIoU", None), ("AUC", None)])
def test_metric_names(spellings, header, task):
    from falseclaims.table.model import metric_task
    assert metric_task(header, spellings) == task


def test_latex_makecell_line_break_stays_in_its_cell(tmp_path):
    f = tmp_path / "t.tex"
    f.write_text("\\begin{tabular}{lc}\n\\makecell{Method\\\\(backbone)} & DSC \\\\\n"
                 "A & 0.81 \\\\\nB & 0.79 \\\\\n\\end{tabular}\n", encoding="utf-8")
    [raw] = read_tables(f)
    assert len(raw.rows) == 2 and raw.where == ["line 3", "line 4"]
    assert raw.header[1] == "DSC"
