"""Drafting and reading failures met on the fifth blind batch of real review sheets
(docs/sheets.md, "Fifth held-out check (blind)"), each reproduced on a small synthetic
sheet of the same pattern (invented values): a long results table whose `value` column
came after a numeric condition column (`acceleration`) that took the value role, a task
guessed from the few Dice rows of a reconstruction review (PSNR, SSIM) without naming the
other rows' metrics, PSNR in dB read as a percent, results ids spelled with '_' where the
papers table has ' ', and remarks listing hundreds of row numbers."""

from __future__ import annotations


import pytest

from falseclaims.sheets import read_venue
from falseclaims.sheets.read.columns import metric_scale
from falseclaims.sheets.read.errors import SheetValidationError
from sheet_drafting import drafted as _drafted, write_rows as _write


def _long_rows(metrics):
    """method, acceleration, paper, dataset, metric, value: per paper a baseline and the
    paper's own method (named by the paper id), per metric and acceleration."""
    rows = [["method", "acceleration", "paper", "dataset", "metric", "value"]]
    for p in range(6):
        for acc in (3.3, 6.7, 12.0):
            for metric, base in metrics:
                rows.append(["TV", acc, f"Author_{2018 + p}", "dataset0", metric,
                             base + 0.01 * p])
                rows.append([f"Author_{2018 + p}", acc, f"Author_{2018 + p}", "dataset0",
                             metric, base + 0.01 * p + 0.02])
    return rows


def test_a_column_named_value_keeps_the_value_role_over_an_earlier_numeric_column(tmp_path):
    """`acceleration` (4, 8: numbers) stood before `value` and took the results value role;
    `value`, our own column name, was ignored: with a split given, the sheet would have
    compared acceleration factors. Hand values: Author_2018's best Dice 0.87 + 0.02."""
    path = _write(tmp_path, _long_rows([("Dice", 0.87)]))
    d, block = _drafted(path)
    results = block["columns"]["results"]
    assert results["value"] == "value"
    assert results["acceleration"] != "value"
    v = read_venue(block, ".", "v")
    assert len(v.papers) == 6
    first = v.results[v.results.paper_id == "Author_2018"]
    assert first.value.max() == pytest.approx(0.89)
    assert set(v.results.value) <= {0.87 + 0.01 * p + k for p in range(6) for k in (0, 0.02)}


def test_a_task_guessed_from_a_minority_of_metric_rows_names_the_other_metrics(tmp_path):
    """A reconstruction review (PSNR, SSIM in most rows, DICE_WM in a few) is drafted
    `task: segmentation` from the few Dice rows (safe: only Dice rows are compared); the
    remark now names the metrics of the other rows (left out), so the user sees before
    running that most papers will be. A sheet whose rows mostly name Dice: no such list."""
    rows = _long_rows([("PSNR", 34.5), ("SSIM", 0.90), ("NRMSE", 0.05), ("DICE_WM", 0.80)])
    d, block = _drafted(_write(tmp_path, rows))
    assert block["constants"]["task"] == "segmentation"
    assert any("constants task: segmentation" in r and "other rows name e.g. 'psnr'" in r
               for r in d.remarks)
    rows = _long_rows([("Dice", 0.85), ("DICE_WM", 0.80), ("NRMSE", 0.05)])
    d, block = _drafted(_write(tmp_path, rows, "seg.csv"))
    assert block["constants"]["task"] == "segmentation"
    assert not any("other rows name" in r for r in d.remarks)


def test_psnr_is_a_level_in_db_never_a_percent(tmp_path):
    """PSNR 34.5 dB beside Dice 0.85 under `units: auto` was refused as 'looks like
    percent' (and Dice as 'a fraction in a percent column'); now PSNR keeps its number and
    Dice stays a fraction. A '%' on PSNR is still a named cell problem."""
    assert metric_scale("PSNR") == metric_scale("snr") == "decibel"
    assert metric_scale("Dice") == "fraction" and metric_scale("HD95") == "distance"
    rows = [["paper_id", "task", "split", "n_test", "in_scope", "values_only_in_figures"]]
    rows += [[f"P{i}", "segmentation", "train_test", "50", "yes", "no"] for i in range(3)]
    papers = _write(tmp_path, rows, "papers.csv")
    res = [["paper_id", "method", "metric", "value"]]
    for i in range(3):
        res += [[f"P{i}", "ours", "Dice", "0.85"], [f"P{i}", "prior", "Dice", "0.83"],
                [f"P{i}", "ours", "PSNR", "34.5"], [f"P{i}", "prior", "PSNR", "33.1"]]
    results = _write(tmp_path, res, "results.csv")
    block = {"papers": str(papers), "results": str(results), "layout": "long",
             "units": "auto"}
    v = read_venue(block, ".", "v")
    got = {(r.paper_id, r.method, r.metric.lower()): r.value for r in v.results.itertuples()}
    psnr = next(m for (_, _, m) in got if "psnr" in m)
    dice = next(m for (_, _, m) in got if m != psnr)
    assert got[("P0", "ours", psnr)] == 34.5 and got[("P0", "prior", dice)] == 0.83
    res[3][3] = "34.5%"
    _write(tmp_path, res, "results.csv")
    with pytest.raises(SheetValidationError, match="level in dB"):
        read_venue(block, ".", "v")


def test_a_results_id_spelled_with_other_separators_is_named_never_matched(tmp_path):
    """The review's design table wrote 'Aggarwal 2019', its metric table 'Aggarwal_2019':
    all 77 papers' rows were 'expected a paper_id listed in the papers table' with no clue.
    The problem now names the listed spelling; the rows are still not matched silently."""
    rows = [["paper_id", "task", "split", "n_test", "in_scope", "values_only_in_figures"],
            ["Aggarwal 2019", "segmentation", "train_test", "50", "yes", "no"],
            ["Lee-2018", "segmentation", "train_test", "60", "yes", "no"]]
    papers = _write(tmp_path, rows, "papers.csv")
    res = [["paper_id", "method", "metric", "value"],
           ["Aggarwal_2019", "ours", "Dice", "0.85"], ["Aggarwal_2019", "prior", "Dice", "0.83"],
           ["Lee-2018", "ours", "Dice", "0.80"], ["Lee-2018", "prior", "Dice", "0.79"]]
    block = {"papers": str(papers), "results": str(_write(tmp_path, res, "results.csv")),
             "layout": "long"}
    with pytest.raises(SheetValidationError) as err:
        read_venue(block, ".", "v")
    text = str(err.value)
    assert "'Aggarwal 2019' is listed" in text and "Aggarwal_2019" in text
    assert "Lee-2018" not in text  # an exact id is matched as before


def test_a_paper_over_many_rows_is_one_range_in_the_remarks(tmp_path):
    """Each paper of the reconstruction review fills 10 to 480 consecutive rows; the
    draft's remark listed every row number (a 480-number line per paper). Runs of rows
    are now ranges."""
    rows = _long_rows([("PSNR", 34.5), ("SSIM", 0.9), ("Dice", 0.8)])
    d, _ = _drafted(_write(tmp_path, rows))
    repeat = [r for r in d.remarks if "repeat in rows" in r]
    assert repeat and all(", 3, 4, 5" not in r for r in repeat)
    assert any("rows 2-19 " in r for r in repeat)  # Author_2018: 3 x 3 x 2 rows, rows 2-19
