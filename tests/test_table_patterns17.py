"""Table patterns of round 40 (docs/table.md, "Batch 16"), each on a small synthetic input,
expected values by hand: an HTML table's ``<caption>`` read for the test-set size and the
metric as a Markdown heading is, a quoted note below a table naming the metric, inline HTML
around the numbers of a Markdown cell, a leaderboard's Date column, one model's results with
metrics as rows beside a header that names a metric too, and rows headed by the targets one
model predicts."""

from __future__ import annotations

import pytest
from table_files import write_table_file as _write
from test_table_patterns13 import _md

from falseclaims.config import load_config
from falseclaims.table.readers import TableReadError
from falseclaims.table.run import Options, analyse_file


@pytest.fixture(scope="module")
def cfg():
    return load_config()


def _metrics(cfg, path, **opt) -> list[dict]:
    return [m for t in analyse_file(path, cfg, Options(**opt))["tables"] for m in t["metrics"]]


def _html(caption: str, header: list[str], rows: list[list[str]], below: str = "") -> str:
    cells = lambda tag, r: "<tr>" + "".join(f"<{tag}>{c}</{tag}>" for c in r) + "</tr>"  # noqa: E731
    return "\n".join(["# Results", "", "<table>", f"<caption>{caption}</caption>" if caption
                      else "", cells("th", header), *(cells("td", r) for r in rows),
                      "</table>", "", below]) + "\n"


# ---------------------------------------------------------------- 1. an HTML <caption>
# by hand: 0.91 vs 0.89 accuracy on 300 test images; the caption's n must give the
# probability of --n 300 exactly
_ACC = [["A", "0.91"], ["B", "0.89"]]


def test_an_html_caption_gives_the_test_set_size(cfg, tmp_path):
    [m] = _metrics(cfg, _write(tmp_path, "c.md", _html(
        "Accuracy on the held-out test set (n = 300)", ["Method", "Accuracy"], _ACC)))
    [given] = _metrics(cfg, _write(tmp_path, "g.md", _md(["Method", "Accuracy"], _ACC)), n=300)
    assert m["n"] == 300 and m["winner"] == "A"
    assert m["p_runner_up"] == given["p_runner_up"]


def test_an_html_caption_names_the_metric_of_structure_columns(cfg, tmp_path):
    """Liver and Spleen say nothing of what is measured; the caption says Dice. The same
    table as Markdown with the caption as its heading is the control (read before too)."""
    rows = [["A", "0.95", "0.91"], ["B", "0.93", "0.92"]]
    html = _metrics(cfg, _write(tmp_path, "h.md", _html("Dice on the test set (n = 40)",
                                                         ["Method", "Liver", "Spleen"], rows)))
    md = _metrics(cfg, _write(tmp_path, "m.md", _md(["Method", "Liver", "Spleen"], rows,
                                                    title="## Dice on the test set (n = 40)")))
    assert [(m["column"], m["winner"], m["n"]) for m in html] == [("Liver", "A", 40),
                                                                  ("Spleen", "B", 40)]
    assert [m["p_runner_up"] for m in html] == [m["p_runner_up"] for m in md]


def test_an_html_table_without_a_caption_still_needs_its_metric(cfg, tmp_path):
    """The control: no caption, no metric anywhere: refused, naming the columns."""
    with pytest.raises(TableReadError, match="unknown metric"):
        analyse_file(_write(tmp_path, "x.md", _html("", ["Method", "Liver", "Spleen"],
                                                    [["A", "0.95", "0.91"],
                                                     ["B", "0.93", "0.92"]])),
                     cfg, Options(n=40))


# ---------------------------------------------------------------- 2. a quoted note below
# a challenge leaderboard whose columns are structures, the metric in a quote line below
_MNMS = _md(["First Author", "LV", "MYO", "RV"],
            [["Peter Full", "0.910", "0.849", "0.884"], ["Yao Zhang", "0.906", "0.840", "0.878"]])


def test_a_quoted_note_below_names_the_metric(cfg, tmp_path):
    ms = _metrics(cfg, _write(tmp_path, "q.md", _MNMS + "\n> Dice values are reported.\n"),
                  n=50)
    assert [(m["column"], m["direction"], m["units"], m["winner"]) for m in ms] == [
        (c, "higher", "fraction", "Peter Full") for c in ("LV", "MYO", "RV")]


def test_plain_text_below_is_not_read_as_the_caption(cfg, tmp_path):
    """The control: the same words as a paragraph (not quoted) do not name the metric."""
    with pytest.raises(TableReadError, match="unknown metric"):
        analyse_file(_write(tmp_path, "p.md", _MNMS + "\nDice values are reported.\n"), cfg,
                     Options(n=50))


# ---------------------------------------------------------------- 3. inline HTML in cells
@pytest.mark.parametrize("cell", ['<span style="color:red">{}</span>',
                                  '<font color="blue">{}</font>', "<mark>{}</mark>",
                                  "<small>{}</small>"])
def test_inline_html_around_a_number_is_read(cfg, tmp_path, cell):
    """by hand: 98.59 ± 0.33 vs 97.31 ± 0.69 percent; the tags are markup, not text."""
    text = _md(["Method", "OA (%) ↑"], [["Ours", cell.format("98.59 ± 0.331")],
                                        ["U-Net", cell.format("97.31 ± 0.692*")]])
    [m] = _metrics(cfg, _write(tmp_path, "s.md", text), n=100)
    assert (m["winner"], m["runner_up"], m["units"]) == ("Ours", "U-Net", "percent")
    assert [r["value"] for r in m["methods"]] == [98.59, 97.31]


def test_a_bold_style_is_a_bold_mark(cfg, tmp_path):
    text = _md(["Method", "Dice"], [["A", '<span style="font-weight:bold">0.91</span>'],
                                    ["B", "0.89"]])
    [m] = _metrics(cfg, _write(tmp_path, "b.md", text), n=100)
    assert m["winner"] == "A" and "bold agrees" in m["winner_source"]


def test_an_html_superscript_is_a_footnote_mark(cfg, tmp_path):
    text = _md(["Method", "Dice"], [["A", "0.91<sup>†</sup>"], ["B", "0.89"]])
    [m] = _metrics(cfg, _write(tmp_path, "f.md", text), n=100)
    assert [r["value"] for r in m["methods"]] == [0.91, 0.89]


# ---------------------------------------------------------------- 4. a Date column
def test_a_date_column_is_no_metric_under_a_caption_naming_one(cfg, tmp_path):
    text = _md(["Date", "First Author", "LV"], [["20201004", "Peter Full", "0.910"],
                                                ["20201004", "Yao Zhang", "0.906"]]) \
        + "\n> Dice values are reported.\n"
    res = analyse_file(_write(tmp_path, "d.md", text), cfg, Options(n=50))
    [t] = res["tables"]
    assert [m["column"] for m in t["metrics"]] == ["LV"]
    assert any("'Date' (a date" in n for n in t["notes"])


# ---------------------------------------------------------------- 5. metrics as rows
# one model's bootstrap validation: the rows name metrics, "Bias-Corrected" reads as a
# bias (lower) metric: ranked, "Brier Score" was named the winner
_BOOT = _md(["Metric", "Original Performance", "Bootstrap Mean", "Bias-Corrected", "Optimism"],
            [["C-index", "0.754", "0.761", "0.742", "0.012"],
             ["AUC (60-day)", "0.754", "0.759", "0.745", "0.009"],
             ["Brier Score", "0.186", "0.184", "0.188", "-0.002"],
             ["Sensitivity", "1.000", "0.998", "0.996", "0.004"]])


def test_metrics_as_rows_beside_a_metric_header_are_refused(cfg, tmp_path):
    with pytest.raises(TableReadError, match="the rows name metrics"):
        analyse_file(_write(tmp_path, "r.md", _BOOT), cfg, Options(n=121))


def test_metrics_as_rows_under_method_columns_are_still_transposed(cfg, tmp_path):
    """The control: Metric | LR | XGBoost (no header names a metric): read transposed."""
    text = _md(["Metric", "LR", "XGBoost"], [["AUROC", "0.85", "0.86"],
                                             ["Accuracy", "0.76", "0.77"],
                                             ["F1", "0.78", "0.79"]])
    ms = _metrics(cfg, _write(tmp_path, "t.md", text), n=2332)
    assert [(m["column"], m["winner"]) for m in ms] == [("AUROC", "XGBoost"),
                                                        ("Accuracy", "XGBoost"),
                                                        ("F1", "XGBoost")]


# ---------------------------------------------------------------- 6. targets as rows
@pytest.mark.parametrize("head", ["Target", "Outcome", "Endpoint", "Prediction target"])
def test_rows_headed_by_targets_are_no_methods(cfg, tmp_path, head):
    """One baseline on four binary targets (CAD, LAD, LCX, RCA): the best row is no winner."""
    text = _md([head, "AUC", "F1"], [["CAD", "0.889", "0.843"], ["LAD", "0.793", "0.743"],
                                     ["LCX", "0.633", "0.478"]])
    with pytest.raises(TableReadError, match="not methods to rank"):
        analyse_file(_write(tmp_path, "g.md", text), cfg, Options(n=61))


def test_rows_headed_by_models_are_still_ranked(cfg, tmp_path):
    text = _md(["Model", "AUC", "F1"], [["CAD-Net", "0.889", "0.843"],
                                        ["LAD-Net", "0.793", "0.743"]])
    [auc, f1] = _metrics(cfg, _write(tmp_path, "m.md", text), n=61)
    assert auc["winner"] == f1["winner"] == "CAD-Net"


def test_inline_html_in_names_and_headers_is_markup(cfg, tmp_path):
    """``U-Net<sub>2015</sub>`` is the method U-Net2015 and ``HD<sub>95</sub> (mm)`` the
    column HD95 (mm), lower is better (by hand: 28.05 < 32.03)."""
    text = _md(["Model", "HD<sub>95</sub> (mm)"], [["U-Net<sub>2015</sub>", "32.03 ± 5.816*"],
                                                  ["DSEM<sub>2023</sub>", "28.05 ± 6.911*"]])
    [m] = _metrics(cfg, _write(tmp_path, "n.md", text), n=100)
    assert (m["column"], m["direction"], m["winner"], m["runner_up"]) == (
        "HD95 (mm)", "lower", "DSEM2023", "U-Net2015")
