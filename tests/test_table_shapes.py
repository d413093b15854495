"""Table mode on the shapes real papers print: metric direction, several data sets, columns
without a probability model, transposed tables, mean (SD) cells, row groups, macros."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from table_files import write_table_file as _write
from scipy import stats

from falseclaims.claims.check import check_claim
from falseclaims.cli import main
from falseclaims.config import configured_congruence, load_config
from falseclaims.table.analysis import analyse_table
from falseclaims.metrics import classify
from falseclaims.table.model import interpret_table
from falseclaims.table.readers import read_tables

MICCAI = Path(__file__).resolve().parents[1] / "data/example/tables/miccai_two_datasets.tex"


@pytest.fixture(scope="module")
def cfg():
    return load_config()


def _median_r(cfg):
    return configured_congruence(cfg, "paper")["segmentation"]["median"]


def test_miccai_table_dice_up_hd95_down_two_data_sets_in_one_command(cfg, tmp_path, capsys):
    """The done-when case: right winners and ties per data set, in one command."""
    assert main(["table", str(MICCAI), "--n", "BTCV=30,ACDC=100", "--pm-over", "test",
                 "--json"]) == 0
    ms = {m["column"]: m for t in json.loads(capsys.readouterr().out)["result"]["tables"]
          for m in t["metrics"]}
    assert list(ms) == ["BTCV Dice (%)", "BTCV HD95 (mm)", "ACDC Dice (%)", "ACDC HD95 (mm)"]
    assert [ms[c]["n"] for c in ms] == [30, 30, 100, 100]
    assert [ms[c]["direction"] for c in ms] == ["higher", "lower", "higher", "lower"]
    # winners by hand: the best value in the column's direction; in ACDC HD95 the bold-free
    # nnU-Net (3.1) beats Ours (3.2)
    assert [ms[c]["winner"] for c in ms] == ["Ours", "Ours", "Ours", "nnU-Net"]
    # Dice: exactly `check` with the printed per-case SDs
    d = ms["BTCV Dice (%)"]
    nn = next(x for x in d["methods"] if x["method"] == "nnU-Net")
    ref = check_claim("segmentation", 30, 0.831, 0.824, cfg, sd_a=0.079, sd_b=0.081)
    med = next(r for r in ref["results"] if r["assumption"] == "median")["probability"]
    assert nn["p_false_claim"] == pytest.approx(med, rel=1e-6)
    # HD95 (lower is better) by the paired t formula, by hand on the printed mm values:
    # P(mu_Ours >= mu_X) = T_{n-1}(sqrt(n) (x_Ours - x_X) / sd_diff)
    r = _median_r(cfg)
    h = ms["BTCV HD95 (mm)"]
    for name, x, sx in (("nnU-Net", 15.3, 9.8), ("Swin UNETR", 16.0, 10.1),
                        ("U-Net", 28.1, 12.5)):
        sd_diff = (9.5 ** 2 + sx ** 2 - 2 * r * 9.5 * sx) ** 0.5
        want = stats.t.cdf(30 ** 0.5 * (14.9 - x) / sd_diff, 29)
        got = next(m for m in h["methods"] if m["method"] == name)["p_false_claim"]
        assert got == pytest.approx(want, rel=1e-6)
    assert h["tier1"] == ["Ours", "nnU-Net", "Swin UNETR"]
    assert ms["ACDC HD95 (mm)"]["tier1"] == ["nnU-Net", "Ours"]
    assert ms["ACDC Dice (%)"]["tier1"] == ["Ours", "nnU-Net"]


def test_lower_better_without_per_case_sds_is_ranked_never_scored(cfg, tmp_path):
    f = _write(tmp_path, "t.md", "| Method | HD95 (mm) | ASSD |\n|---|---|---|\n"
                                 "| A | 12.1 | 1.9 |\n| B | 9.8 | 2.4 |\n| C | 15.0 | 1.2 |\n")
    res = analyse_table(interpret_table(read_tables(f)[0], cfg), cfg)
    hd, assd = res["metrics"]
    assert (hd["winner"], hd["direction"], hd["probability"]) == ("B", "lower", False)
    assert assd["winner"] == "C"
    assert "per-case SDs needed" in hd["no_probability"]
    assert [x["method"] for x in hd["methods"]] == ["B", "A", "C"]


def test_error_rate_is_analysed_as_one_minus_accuracy(cfg, tmp_path):
    f = _write(tmp_path, "t.md", "| Method | Error rate (%) |\n|---|---|\n| A | 8.2 |\n"
                                 "| B | 9.0 |\n")
    m = analyse_table(interpret_table(read_tables(f)[0], cfg, n=1000), cfg)["metrics"][0]
    assert m["winner"] == "A" and m["task"] == "classification"
    ref = check_claim("classification", 1000, 0.918, 0.910, cfg)
    med = next(r for r in ref["results"] if r["assumption"] == "median")["probability"]
    assert m["p_runner_up"] == pytest.approx(med, rel=1e-12)


@pytest.mark.parametrize("header, direction, ignored", [
    ("Dice SD", None, True), ("std", None, True), ("Dice (SD)", "higher", False),
    ("Dice loss", "lower", False), ("HD95 (mm) ↓", "lower", False), ("AP@0.5", "higher", False),
    ("Surface Dice", "higher", False), ("Jaccard", "higher", False), ("RMSE", "lower", False),
    ("MAE", "lower", False), ("C-index", "higher", False), ("Recall", "higher", False),
    ("Precision", "higher", False), ("Score", "higher", False), ("Params (M)", None, True),
    ("Memory (GB)", None, True), ("Time (s)", None, True), ("Liver", None, False),
    ("Accuracy ↓", "lower", False)])
def test_metric_directions(spellings, header, direction, ignored):
    k = classify(header, spellings)
    assert (k.direction, bool(k.ignore)) == (direction, ignored)


def test_unknown_metrics_are_ranked_and_memory_ignored(cfg, tmp_path):
    f = _write(tmp_path, "t.md", "| Method | AP@0.5 | RMSE | Memory (GB) |\n|---|---|---|---|\n"
                                 "| A | 41.2 | 3.3 | 12 |\n| B | 44.0 | 3.9 | 8 |\n")
    t = interpret_table(read_tables(f)[0], cfg)
    res = analyse_table(t, cfg)
    assert [(m["column"], m["winner"]) for m in res["metrics"]] == [("AP@0.5", "B"),
                                                                   ("RMSE", "A")]
    assert any("Memory (GB)" in note and "not a metric" in note for note in t.notes)
    assert "no model" in res["metrics"][0]["no_probability"]


def test_metric_from_the_caption_for_per_structure_columns(cfg, tmp_path):
    f = _write(tmp_path, "t.tex", "\\begin{table}\\caption{Dice scores per organ.}\n"
               "\\begin{tabular}{lcc}\nMethod & Liver & Spleen \\\\\n"
               "A & 0.951 & 0.902 \\\\\nB & 0.948 & 0.913 \\\\\n\\end{tabular}\\end{table}\n")
    t = interpret_table(read_tables(f)[0], cfg, n=50)
    assert [c.task for c in t.metrics] == ["segmentation", "segmentation"]
    assert "caption" in t.metrics[0].task_source
    res = analyse_table(t, cfg)
    assert [m["winner"] for m in res["metrics"]] == ["A", "B"]


def test_transposed_table_detected_and_forced(cfg, tmp_path, capsys):
    f = _write(tmp_path, "t.md", "| Metric | U-Net | Ours |\n|---|---|---|\n"
                                 "| Dice | 0.81 | 0.84 |\n| HD95 | 9.1 | 7.7 |\n")
    assert main(["table", str(f), "--n", "40", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)["result"]["tables"][0]
    assert [(m["column"], m["winner"]) for m in res["metrics"]] == [("Dice", "Ours"),
                                                                   ("HD95", "Ours")]
    assert any("transposed" in n for n in res["notes"])
    g = _write(tmp_path, "g.md", "| Structure | U-Net | Ours |\n|---|---|---|\n"
                                 "| Liver | 0.81 | 0.84 |\n| Spleen | 0.91 | 0.90 |\n")
    assert main(["table", str(g), "--n", "40", "--transpose", "--metric", "Liver=dice",
                 "--metric", "Spleen=dice", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)["result"]["tables"][0]
    assert [(m["column"], m["winner"]) for m in res["metrics"]] == [("Liver", "Ours"),
                                                                   ("Spleen", "U-Net")]


@pytest.mark.parametrize("row", [
    "A & 0.91 (0.03) & 0.88 (0.05) \\\\\nB & 0.89 (0.04) & 0.90 (0.02) \\\\",
    "A & 0.91 & $\\pm$ 0.03 & 0.88 & $\\pm$ 0.05 \\\\\nB & 0.89 & $\\pm$ 0.04 & 0.90 & "
    "$\\pm$ 0.02 \\\\"])
def test_mean_sd_cells_as_printed(cfg, tmp_path, row):
    head = ("Method & Dice Liver & Dice Spleen \\\\" if "(" in row else
            "Method & \\multicolumn{2}{c}{Dice Liver} & \\multicolumn{2}{c}{Dice Spleen} \\\\")
    f = _write(tmp_path, "t.tex", "\\begin{tabular}{lcc}\n" + head + "\n" + row
               + "\n\\end{tabular}\n")
    t = interpret_table(read_tables(f)[0], cfg, n=60)
    assert [c.sds for c in t.metrics] == [[0.03, 0.04], [0.05, 0.02]]
    assert [c.values for c in t.metrics] == [[0.91, 0.89], [0.88, 0.90]]


def test_missing_marks_and_two_values_in_one_cell(cfg, tmp_path):
    f = _write(tmp_path, "t.md", "| Method | Dice/HD95 | Acc |\n|---|---|---|\n"
                                 "| A | 0.91/12.3 | -- |\n| B | 0.89/10.1 | 0.8 |\n"
                                 "| C | 0.85/14.0 | 0.7 |\n")
    t = interpret_table(read_tables(f)[0], cfg, n=60)
    assert [c.column for c in t.metrics] == ["Dice", "HD95", "Acc"]
    res = analyse_table(t, cfg)
    assert [m["winner"] for m in res["metrics"]] == ["A", "B", "B"]
    g = _write(tmp_path, "g.md", "| Method | Dice |\n|---|---|\n| A | 0.91/12.3 |\n"
                                 "| B | 0.89/10.1 |\n")
    with pytest.raises(ValueError, match="holds two values"):
        interpret_table(read_tables(g)[0], cfg, n=60)


def test_row_groups_split_data_sets_with_their_own_n(cfg, tmp_path):
    f = _write(tmp_path, "t.tex", "\\begin{tabular}{lcc}\nMethod & Dice & HD95 \\\\\n"
               "\\multicolumn{3}{c}{Synapse} \\\\\nA & 0.80 & 20.1 \\\\\nB & 0.82 & 18.0 \\\\\n"
               "\\multicolumn{3}{c}{ACDC} \\\\\nA & 0.91 & 1.2 \\\\\nB & 0.90 & 1.5 \\\\\n"
               "\\end{tabular}\n")
    from falseclaims.table.run import Options, analyse_file
    res = analyse_file(f, cfg, Options(n={"Synapse": 12, "ACDC": 100}))
    got = [(t["table"], m["column"], m["n"], m["winner"]) for t in res["tables"]
           for m in t["metrics"]]
    assert got == [("tabular 1 [Synapse]", "Dice", 12, "B"),
                   ("tabular 1 [Synapse]", "HD95", 12, "B"),
                   ("tabular 1 [ACDC]", "Dice", 100, "A"), ("tabular 1 [ACDC]", "HD95", 100, "A")]


def test_numbers_in_macros_of_another_file(cfg, tmp_path, capsys):
    (tmp_path / "numbers.tex").write_text("\\newcommand{\\resA}{0.912}\n"
                                          "\\newcommand{\\resB}{0.897}\n", encoding="utf-8")
    f = _write(tmp_path, "t.tex", "\\begin{tabular}{lc}\nMethod & Dice \\\\\n"
                                  "A & \\resA \\\\\nB & \\resB \\\\\n\\end{tabular}\n")
    assert main(["table", str(f), "--n", "50"]) == 2
    assert "--macros FILE" in capsys.readouterr().err
    assert main(["table", str(f), "--n", "50", "--macros", str(tmp_path / "numbers.tex"),
                 "--json"]) == 0
    m = json.loads(capsys.readouterr().out)["result"]["tables"][0]["metrics"][0]
    assert (m["winner"], m["methods"][0]["value"]) == ("A", 0.912)


def test_n_row_and_group_n_columns(cfg, tmp_path):
    f = _write(tmp_path, "t.md", "| Method | BTCV Dice | BTCV n | ACDC Dice | ACDC n |\n"
                                 "|---|---|---|---|---|\n| A | 0.81 | 30 | 0.91 | 100 |\n"
                                 "| B | 0.80 | 30 | 0.92 | 100 |\n")
    t = interpret_table(read_tables(f)[0], cfg)
    assert [(c.column, c.n) for c in t.metrics] == [("BTCV Dice", 30), ("ACDC Dice", 100)]
    g = _write(tmp_path, "g.md", "| Method | Dice | Acc |\n|---|---|---|\n| A | 0.81 | 0.9 |\n"
                                 "| B | 0.80 | 0.8 |\n| n | 30 | 500 |\n")
    t = interpret_table(read_tables(g)[0], cfg)
    assert [(c.column, c.n, c.methods) for c in t.metrics] == [
        ("Dice", 30, ["A", "B"]), ("Acc", 500, ["A", "B"])]


def test_header_pairing_methods_with_metrics_over_data_set_rows(cfg, tmp_path, capsys):
    """Data sets as rows and `method metric` headers: one table per data set, never the
    data sets ranked as methods."""
    f = _write(tmp_path, "t.tex", "\\begin{tabular}{lcccc}\nData set & PCE Dice & Ours Dice & "
               "PCE HD(mm) & Ours HD(mm) \\\\\nACDC & 0.770 & 0.862 & 63.40 & 9.79 \\\\\n"
               "BTCV & 0.655 & 0.856 & 127.74 & 22.76 \\\\\n\\end{tabular}\n")
    assert main(["table", str(f), "--n", "ACDC=15,BTCV=30", "--json"]) == 0
    got = [(t["table"], m["column"], m["n"], m["winner"], m["direction"])
           for t in json.loads(capsys.readouterr().out)["result"]["tables"]
           for m in t["metrics"]]
    assert got == [("tabular 1 [ACDC]", "Dice", 15, "Ours", "higher"),
                   ("tabular 1 [ACDC]", "HD(mm)", 15, "Ours", "lower"),
                   ("tabular 1 [BTCV]", "Dice", 30, "Ours", "higher"),
                   ("tabular 1 [BTCV]", "HD(mm)", 30, "Ours", "lower")]


def test_transposed_table_drops_difference_interval_and_p_rows(cfg, tmp_path, capsys):
    f = _write(tmp_path, "t.tex", "\\begin{tabular}{lcccccc}\nAnalysis & Clinical & Image & "
               "Combined & $\\Delta$ & 95\\% CI & Refit $p$ \\\\\nGrade-only (C-index) & 0.645 & "
               "0.664 & 0.707 & $+0.062$ & [0.008, 0.119] & 0.0100 \\\\\n\\end{tabular}\n")
    assert main(["table", str(f), "--json"]) == 0
    t = json.loads(capsys.readouterr().out)["result"]["tables"][0]
    [m] = t["metrics"]
    assert [x["method"] for x in m["methods"]] == ["Combined", "Image", "Clinical"]
    assert not m["probability"] and m["direction"] == "higher"
    assert any("'Δ', '95% CI', 'Refit p'" in n for n in t["notes"])


def test_title_row_across_the_table_is_not_header(tmp_path):
    f = _write(tmp_path, "t.tex", "\\begin{tabular}{lc}\n\\multicolumn{2}{c}{ViT-B teacher} "
               "\\\\\nStudent & ACC \\\\\nA & 0.85 \\\\\nB & 0.86 \\\\\n\\end{tabular}\n")
    [raw] = read_tables(f)
    assert raw.header == ["Student", "ACC"] and "ViT-B teacher" in raw.caption


def test_scientific_notation_and_sd_not_printed(cfg, tmp_path):
    f = _write(tmp_path, "t.tex", "\\begin{tabular}{lcc}\nModel & Solved at Mean & ERR \\\\\n"
               "A & $1.4 \\cdot 10^{6}$ & $9.87 \\pm 0.70$ \\\\\n"
               "B & $5.0 \\cdot 10^{5}$ & $9.10 \\pm$ NA \\\\\n\\end{tabular}\n")
    t = interpret_table(read_tables(f)[0], cfg)
    steps, err = t.metrics
    assert steps.values == [1.4e6, 5.0e5] and steps.direction == "lower"
    assert err.values == [9.87, 9.10] and err.sds == [0.70, None]
    res = analyse_table(t, cfg)
    assert [m["winner"] for m in res["metrics"]] == ["B", "B"]


def test_metric_in_parentheses_decides(spellings):
    assert classify("PTEN loss (AUROC)", spellings).direction == "higher"
    assert classify("AR activity (R^2)", spellings).direction == "higher"


def test_n_column_changing_in_runs_splits_the_test_sets(cfg, tmp_path):
    f = _write(tmp_path, "t.md", "| Model | C-index | n |\n|---|---|---|\n| A | 0.70 | 270 |\n"
                                 "| B | 0.72 | 270 |\n| A | 0.81 | 153 |\n| B | 0.80 | 153 |\n")
    from falseclaims.table.run import Options, analyse_file
    res = analyse_file(f, cfg, Options())
    assert [(t["table"], t["metrics"][0]["n"], t["metrics"][0]["winner"])
            for t in res["tables"]] == [("table 1 [n = 270]", 270, "B"),
                                        ("table 1 [n = 153]", 153, "A")]


def test_interval_figure_of_a_distance_is_in_its_printed_unit(cfg):
    from falseclaims.figures.table import interval_data
    from falseclaims.table.run import Options, analyse_file
    res = analyse_file(MICCAI, cfg, Options(n={"BTCV": 30, "ACDC": 100}, pm_over="test"))
    hd = res["tables"][0]["metrics"][1]
    data = interval_data(hd).set_index("method")
    half = stats.t.ppf(0.975, 29) * 12.5 / 30 ** 0.5  # U-Net: 28.1 ± 12.5 mm, n = 30
    assert data.loc["U-Net", "upper"] == pytest.approx(28.1 + half, rel=1e-9)
    assert data.loc["U-Net", "lower"] == pytest.approx(28.1 - half, rel=1e-9)


def test_names_keep_digit_exponents_and_text_columns_are_named(cfg, tmp_path):
    f = _write(tmp_path, "t.tex", "\\begin{tabular}{lcc}\nMethod & Type & Acc \\\\\n"
               "EnD$^2$ & ens & 0.91 \\\\\nEnD$^\\dagger$ & single & 0.90 \\\\\n\\end{tabular}\n")
    t = interpret_table(read_tables(f)[0], cfg, n=100)
    assert t.metrics[0].methods == ["EnD²", "EnD"]
    assert any("'Type' (no number in the column)" in n for n in t.notes)


def test_caption_metric_is_not_given_to_a_column_beside_its_own_header(cfg, tmp_path):
    """"ACC" names the caption's accuracy; the BWT column beside it is not accuracy: it is
    backward transfer, higher is better, without a model (A, -0.86, wins)."""
    f = _write(tmp_path, "t.tex", "\\begin{table}\\caption{Accuracy and backward transfer.}\n"
               "\\begin{tabular}{lcc}\nMethod & ACC & BWT \\\\\nA & 81.2 & -0.86 \\\\\n"
               "B & 80.1 & -25.7 \\\\\n\\end{tabular}\\end{table}\n")
    t = interpret_table(read_tables(f)[0], cfg, n=100)
    assert [c.column for c in t.metrics] == ["ACC", "BWT"]
    bwt = t.metrics[1]
    assert (bwt.task, bwt.direction) == (None, "higher")
    assert not any("'BWT' not read" in n for n in t.notes)


@pytest.mark.parametrize("raw", ["77.72 \\textpm\\ 0.48", "$77.72\\pm0.48$", "77.72~$\\pm$~0.48"])
def test_plus_minus_spellings(raw):
    from falseclaims.table.cells import parse_printed_cell
    c = parse_printed_cell(raw)
    assert (c.value, c.sd, c.decimals) == (77.72, 0.48, 2)


def test_metric_row_groups_macros_and_citation_names(cfg, tmp_path, capsys):
    """Metrics as row groups over per-structure columns, every cell a macro of another
    file, methods named by a citation only (the layout of a published ACDC table)."""
    (tmp_path / "stats.tex").write_text(
        "\\newcommand{\\oJ}{0.88}\\newcommand{\\iJ}{0.86}\\newcommand{\\oD}{0.93}"
        "\\newcommand{\\iD}{0.94}\\newcommand{\\ours}{$\\Omega$-Net}\n", encoding="utf-8")
    f = _write(tmp_path, "t.tex", "\\begin{tabular}{lc}\nStructure & LV \\\\\n"
               "\\multicolumn{2}{c}{Jaccard Index} \\\\\n\\ours{} & \\oJ{} \\\\\n"
               "\\citet{Isensee2018} & \\iJ{} \\\\\n\\multicolumn{2}{c}{Dice Coefficient} \\\\\n"
               "\\ours{} & \\oD{} \\\\\n\\citet{Isensee2018} & \\iD{} \\\\\n\\end{tabular}\n")
    assert main(["table", str(f), "--n", "50", "--macros", str(tmp_path / "stats.tex"),
                 "--json"]) == 0
    got = [(t["table"], m["column"], m["task"], m["winner"]) for t in
           json.loads(capsys.readouterr().out)["result"]["tables"] for m in t["metrics"]]
    assert got == [("tabular 1 [Jaccard Index]", "LV", None, "Ω-Net"),
                   ("tabular 1 [Dice Coefficient]", "LV", "segmentation", "Isensee2018")]


def test_rows_marked_val_and_test_are_two_tables(cfg, tmp_path):
    f = _write(tmp_path, "t.md", "| Method | mIoU |\n|---|---|\n| A (val) | 61.0 |\n"
                                 "| NAL (val) | 62.5 |\n| NAL (test) | 63.1 |\n")
    from falseclaims.table.run import Options, analyse_file
    res = analyse_file(f, cfg, Options())
    assert [(t["table"], t["metrics"][0]["winner"], t["metrics"][0]["m"]) for t in
            res["tables"]] == [("table 1 [val]", "NAL (val)", 2)]
    assert res["unreadable"][0]["table"] == "table 1 [test]"  # one method: nothing to compare


def test_methods_cited_in_the_header_are_columns(cfg, tmp_path, capsys):
    f = _write(tmp_path, "t.tex", "\\begin{tabular}{llccc}\n&& rollout & GradCAM & Ours \\\\\n"
               "& & ~\\cite{a} & ~\\cite{b} & \\\\\nNegative & Predicted & 53.1 & 41.5 & 54.1 \\\\\n"
               " & Target & - & 42.0 & 55.0 \\\\\n\\end{tabular}\n")
    assert main(["table", str(f), "--metric", "Negative Predicted=higher", "--metric",
                 "Negative Target=higher", "--json"]) == 0
    ms = json.loads(capsys.readouterr().out)["result"]["tables"][0]["metrics"]
    assert [(m["column"], m["winner"], m["m"]) for m in ms] == [
        ("Negative Predicted", "Ours", 3), ("Negative Target", "Ours", 2)]


def test_direction_stated_in_the_caption_and_mean_rank(cfg, tmp_path):
    f = _write(tmp_path, "t.tex", "\\begin{table}\\caption{Perturbation AUC. For positive "
               "perturbation lower is better.}\n\\begin{tabular}{lccc}\nMethod & Negative & "
               "Positive & Mean Rank \\\\\nA & 53.1 & 20.1 & 6.6 \\\\\nB & 54.2 & 17.0 & 9.5 \\\\\n"
               "\\end{tabular}\\end{table}\n")
    t = interpret_table(read_tables(f)[0], cfg)
    assert [(c.column, c.direction) for c in t.metrics] == [
        ("Negative", "higher"), ("Positive", "lower"), ("Mean Rank", "lower")]
    assert t.metrics[1].direction_source == "the caption says so for this column"
    assert [m["winner"] for m in analyse_table(t, cfg)["metrics"]] == ["B", "B", "A"]


def test_values_printed_with_more_decimals_than_a_rounding_box_shows(cfg, tmp_path):
    """Accuracies printed to 13 decimals (a table generated from raw scores): the rounding
    box is skipped (narrower than 5e-9) instead of refusing the table with "--decimals must
    be an integer in [0, 8]"; the probability is check's at the printed values."""
    f = _write(tmp_path, "t.tex", "\\begin{tabular}{lc}\nMethod & Accuracy \\\\\n"
               "Ours & 0.8909972749318 \\\\\nBase & 0.8594714867871 \\\\\n"
               "\\end{tabular}\n")
    m = analyse_table(interpret_table(read_tables(f)[0], cfg, n=1000), cfg)["metrics"][0]
    assert m["winner"] == "Ours"
    ref = check_claim("classification", 1000, 0.8909972749318, 0.8594714867871, cfg)
    med = next(r for r in ref["results"] if r["assumption"] == "median")["probability"]
    assert m["p_runner_up"] == pytest.approx(med, rel=1e-12)
