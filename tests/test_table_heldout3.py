"""Table shapes met first on the third batch of held-out real tables (docs/table.md,
"Held-out check"), each tested on a synthetic table of that shape: a header row of numbers
(labelled-data ratios), a % sign that belongs to a quantity in the header, difference
columns that name a metric, test-set prefixes read as methods, a caption whose later
sentences name another metric, and alarm-rate / utility columns."""

from __future__ import annotations

import pytest
from table_files import write_table_file as _write

from falseclaims.config import load_config
from falseclaims.metrics import classify
from falseclaims.table.model import interpret_table
from falseclaims.table.readers import TableReadError, read_tables
from falseclaims.table.run import Options, analyse_file


@pytest.fixture(scope="module")
def cfg():
    return load_config()


def _ratios(header: str, caption: str = "Test Dice on the benchmark.") -> str:
    return (f"\\begin{{table}}\\caption{{{caption}}}\n\\begin{{tabular}}{{lcc}}\n\\toprule\n"
            f"{header} \\\\\n\\midrule\n"
            "A & 0.841{\\tiny$\\pm$0.05} & 0.862{\\tiny$\\pm$0.04} \\\\\n"
            "B & 0.853{\\tiny$\\pm$0.05} & 0.858{\\tiny$\\pm$0.04} \\\\\n"
            "C & 0.820 & -- \\\\\n\\bottomrule\n\\end{tabular}\\end{table}\n")


def _read(res):
    return [(m["column"], m["units"], m["winner"],
             [(x["method"], x.get("p_false_claim")) for x in m["methods"]])
            for t in res["tables"] for m in t["metrics"]]


def test_a_header_row_of_numbers_above_the_rule_names_the_columns(cfg, tmp_path):
    """``Method & 5% & 10%`` closed by a rule: the numbers name the columns (labelled-data
    ratios), the metric comes from the caption, and the % of "5%" is not the unit: 0.841
    stays a fraction. Independent check: the same table with the columns named by words
    gives the same readings and P(false claim)."""
    numbered = analyse_file(_write(tmp_path, "r.tex", _ratios("Method & 5\\% & 10\\%")),
                            cfg, Options(n=200))
    worded = analyse_file(_write(tmp_path, "w.tex", _ratios("Method & five & ten")),
                          cfg, Options(n=200))
    got = _read(numbered)
    assert [g[:3] for g in got] == [("5%", "fraction", "B"), ("10%", "fraction", "A")]
    assert [g[1:] for g in got] == [g[1:] for g in _read(worded)]
    assert all(any(p is not None for _, p in g[3]) for g in got)
    assert any("read as a header row" in n for n in numbered["tables"][0]["notes"])


@pytest.mark.parametrize("first", ["Baseline", "A"])
def test_a_data_row_ruled_off_is_never_taken_for_a_header(cfg, tmp_path, first):
    """Without a header row the table is refused as before: a first row of numbers under a
    method's name (a baseline ruled off from the rest) is data, not column names."""
    f = _write(tmp_path, "b.tex", "\\begin{tabular}{lcc}\n\\toprule\n"
               f"{first} & 80 & 81 \\\\\n\\midrule\nB & 0.82 & 0.83 \\\\\n"
               "C & 0.84 & 0.85 \\\\\n\\bottomrule\n\\end{tabular}\n")
    with pytest.raises(TableReadError, match="no header row"):
        read_tables(f)


def test_a_header_above_a_ruled_baseline_keeps_the_baseline_as_a_method(cfg, tmp_path):
    f = _write(tmp_path, "h.tex", "\\begin{tabular}{lc}\n\\toprule\nMethod & Dice \\\\\n"
               "\\midrule\nBaseline & 0.80 \\\\\n\\midrule\nB & 0.82 \\\\\nC & 0.84 \\\\\n"
               "\\bottomrule\n\\end{tabular}\n")
    raw = read_tables(f)[0]
    assert raw.header == ["Method", "Dice"]
    assert [r[0] for r in raw.rows] == ["Baseline", "B", "C"]


def test_a_second_header_row_of_numbers_under_a_spanning_title(cfg, tmp_path):
    f = _write(tmp_path, "s.tex", "\\begin{tabular}{lcc}\n\\toprule\n"
               "& \\multicolumn{2}{c}{Labelled data} \\\\\n\\cmidrule{2-3}\n"
               "Method & 5\\% & 10\\% \\\\\n\\midrule\nA & 84.1 & 86.2 \\\\\n"
               "B & 85.3 & 85.8 \\\\\nC & 82.0 & 83.0 \\\\\n\\bottomrule\n\\end{tabular}\n")
    raw = read_tables(f)[0]
    assert raw.header[1:] == ["Labelled data 5%", "Labelled data 10%"]
    assert [r[0] for r in raw.rows] == ["A", "B", "C"]


@pytest.mark.parametrize("header,units", [("FPR (target 10\\%)", "as printed"),
                                          ("Acc. at 5\\% FPR", "fraction"),
                                          ("Acc. (\\%)", "percent")])
def test_a_percent_after_a_number_in_the_header_is_not_the_unit(cfg, tmp_path, header, units):
    """0.064 under "FPR (target 10%)" is a fraction, never 0.064%; "(%)" still marks percent
    (its values are then 6.4 and 19.0)."""
    a, b = ("6.4", "19.0") if units == "percent" else ("0.064", "0.190")
    f = _write(tmp_path, "p.tex", f"\\begin{{tabular}}{{lc}}\nMethod & {header} \\\\\n"
               f"A & {a} \\\\\nB & {b} \\\\\n\\end{{tabular}}\n")
    [col] = interpret_table(read_tables(f)[0], cfg, n=100).metrics
    assert col.units == units
    assert col.values == pytest.approx([0.064, 0.19] if units != "as printed" else [0.064, 0.19])


@pytest.mark.parametrize("header", ["Δ Acc.", "$\\Delta$ vs Full", "ΔDice", "Dice gain",
                                    "gain over U-Net", "Improvement (\\%)", "Delta Dice",
                                    "Change in HD95"])
def test_a_difference_column_is_not_scored_as_its_metric(spellings, header):
    kind = classify(header.replace("$\\Delta$", "Δ"), spellings)
    assert not kind.known and "difference" in kind.ignore


@pytest.mark.parametrize("header", ["δ<1.25", "Dice", "Accuracy", "Full (mask+delta) AUC"])
def test_a_metric_that_is_no_difference_is_still_read(spellings, header):
    assert classify(header, spellings).ignore == ""


def test_a_delta_column_beside_its_metric_is_named_and_skipped(cfg, tmp_path):
    """Frozen Acc. | Δ Acc.: only the accuracy is a comparison; the gains (0.44 vs 0.07)
    would otherwise be ranked and given P(false claim) as accuracies."""
    f = _write(tmp_path, "d.tex", "\\begin{tabular}{lcc}\nModel & Acc. & $\\Delta$ Acc. \\\\\n"
               "0.5B & 0.650 & +0.440 \\\\\n1.5B & 0.690 & +0.070 \\\\\n"
               "3B & 0.643 & +0.413 \\\\\n\\end{tabular}\n")
    res = analyse_file(f, cfg, Options(n=100))
    assert [(m["column"], m["winner"]) for m in res["tables"][0]["metrics"]] == \
        [("Acc.", "1.5B")]
    assert any("Δ Acc." in n and "difference" in n for n in res["tables"][0]["notes"])


@pytest.mark.parametrize("first", ["Ensemble", "Method", "Variant"])
def test_test_set_prefixes_are_not_methods(cfg, tmp_path, first):
    """Test AUROC | External AUROC over rows of methods: two test sets, each column ranked
    over the rows; never "Test" and "External" compared as two methods per row."""
    f = _write(tmp_path, "e.tex", f"\\begin{{tabular}}{{lcc}}\n{first} & Test AUROC & "
               "External AUROC \\\\\nSingle model & 0.726 & 0.679 \\\\\n"
               "Five models & 0.755 & 0.685 \\\\\nTen models & 0.763 & 0.702 \\\\\n"
               "\\end{tabular}\n")
    res = analyse_file(f, cfg, Options(n={"Test": 3000, "External": 20000}))
    got = [(m["column"], m["winner"], m["n"]) for t in res["tables"] for m in t["metrics"]]
    assert got == [("Test AUROC", "Ten models", 3000), ("External AUROC", "Ten models", 20000)]


def test_split_words_as_prefixes_do_not_pivot_even_under_a_data_set_column(spellings, tmp_path):
    f = _write(tmp_path, "v.tex", "\\begin{tabular}{lcc}\nData & Validation Dice & "
               "Test Dice \\\\\nA & 0.81 & 0.80 \\\\\nB & 0.83 & 0.82 \\\\\n\\end{tabular}\n")
    raw = read_tables(f)[0]
    from falseclaims.table.shapes import method_metric_pivot
    assert method_metric_pivot(raw, spellings) is None


def test_the_first_sentence_of_the_caption_names_the_metric(cfg, tmp_path):
    """"Test Dice on X. U2PL suffers from NaN loss.": Dice and loss disagree in the whole
    caption; the first sentence says what the table reports."""
    cap = "Test Dice on the benchmark. Values are mean$\\pm$std. U2PL suffers from NaN loss."
    res = analyse_file(_write(tmp_path, "c.tex", _ratios("Method & 5\\% & 10\\%", cap)),
                       cfg, Options(n=200))
    cols = res["tables"][0]["metrics"]
    assert [(m["column"], m["direction"], m["winner"]) for m in cols] == \
        [("5%", "higher", "B"), ("10%", "higher", "A")]
    assert "first sentence of the caption" in cols[0]["direction_source"]


def test_a_first_sentence_naming_two_metrics_still_refuses(cfg, tmp_path):
    cap = "Dice and HD95 on the benchmark. More text."
    f = _write(tmp_path, "c2.tex", _ratios("Method & 5\\% & 10\\%", cap))
    res = analyse_file(f, cfg, Options(n=200), strict=False)
    assert not res["tables"]
    assert "unknown metric" in res["unreadable"][0]["reason"]


@pytest.mark.parametrize("header,direction", [("Alarms/1000h", "lower"),
                                              ("False alarms per day", "lower"),
                                              ("Norm. Utility", "higher"),
                                              ("Net benefit", "higher")])
def test_alarm_rate_and_utility_names(spellings, header, direction):
    kind = classify(header, spellings)
    assert (kind.direction, kind.task) == (direction, None)
