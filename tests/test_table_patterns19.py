"""Table patterns of round 42 (docs/table.md, "Batch 17"), each on a small synthetic input
shaped like a real table of the held-out batches, expected values by hand: a row of signed
gains under an ablation (``Δ Gain``), a literature review's table (rows citing the papers
they come from, with their years) and rows that each carry their own case and control
counts (data selections, not methods). Each with a control that must stay read."""

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


# ---------------------------------------------------------------- 1. a "Δ Gain" row
# by hand: Ours has the lowest AoP error (6.21) and HD95 (13.14); the Δ Gain row holds the
# differences to the best ablation (−0.24, −0.03), lower still, and is no method
_DELTA = _md(["Method", "AoP ↓", "HD95 ↓"], [
    ["w/o Triple branches", "6.61±5.90", "14.19±14.98"],
    ["w/o Parameter Freezing", "6.45±6.06", "13.17±11.48"],
    ["**Ours**", "**6.21±5.18**", "**13.14±13.06**"],
    ["Δ Gain", "−0.24", "−0.03"],
])


def test_a_delta_gain_row_is_no_method(cfg, tmp_path):
    ms = _metrics(cfg, _write(tmp_path, "d.md", _DELTA), n=100)
    assert [m["column"] for m in ms] == ["AoP", "HD95"]  # HD95 is read: no negative
    assert all(m["winner"] == "Ours" for m in ms)  # distance left in it
    assert all("Δ Gain" not in m["methods"] for m in ms)


def test_a_method_named_with_gain_stays_a_method(cfg, tmp_path):
    """Control: only the difference words alone (Δ Gain, Delta improvement) are no method;
    a model called GainNet is one."""
    table = _DELTA.replace("| Δ Gain | −0.24 | −0.03 |", "| GainNet | 6.01 | 12.90 |")
    ms = _metrics(cfg, _write(tmp_path, "g.md", table), n=100)
    assert all(m["winner"] == "GainNet" for m in ms)


# ---------------------------------------------------------------- 2. a literature review
# shaped like a review of ISIC 2019 results: each row one paper, its own split
_REVIEW = _md(["No.", "Reference", "Year", "Model", "Accuracy (%)", "AUC"], [
    ["1", "Gessert et al. [1]", "2020", "EfficientNet ensemble", "63.6", "—"],
    ["2", "Kassem et al. [2]", "2020", "GoogleNet + TL", "94.92", "0.991"],
    ["3", "Mahbod et al. [3]", "2020", "Multi-scale ensemble", "87.56", "0.952"],
    ["4", "Jost [4]", "2021", "EfficientNet-B4/B5 ensemble", "63.4", "0.936"],
])


def test_rows_citing_their_papers_with_years_are_refused(cfg, tmp_path):
    """Ranked, the paper with a custom 80/20 split (94.92) was named the winner over the
    challenge's official test set (63.6): not one comparison."""
    with pytest.raises(TableReadError, match=r"'Reference' cites the paper of each row "
                       r"\(Gessert et al\. \[1\]; Kassem et al\. \[2\]; \.\.\.\) beside a year"):
        analyse_file(_write(tmp_path, "r.md", _REVIEW), cfg, Options(n=100))
    zh = _REVIEW.replace("| Reference | Year |", "| 文献 | 年份 |")
    with pytest.raises(TableReadError, match="'文献' cites the paper of each row"):
        analyse_file(_write(tmp_path, "zh.md", zh), cfg, Options(n=100))


def test_cited_baselines_and_author_leaderboards_stay_read(cfg, tmp_path):
    """Controls: without a year column the citations are a comparison table's baselines;
    a challenge leaderboard's First Author / Date columns name teams, not citations."""
    no_year = _md(["Method", "Reference", "Accuracy (%)"], [
        ["U-Net", "Ronneberger et al. [12]", "86.1"], ["Ours", "this work", "89.6"]])
    [m] = _metrics(cfg, _write(tmp_path, "b.md", no_year), n=100)
    assert m["winner"] == "Ours"
    board = _md(["Date", "First Author", "Title", "DSC"], [
        ["20201008", "Jun Ma", "Loss Ensembles", "0.41"],
        ["20201008", "Yuexiang Li", "3D U-Net Ensemble", "0.40"]],
        title="## ADAM 2020 leaderboard")
    [m] = _metrics(cfg, _write(tmp_path, "l.md", board), n=100)
    assert m["winner"] == "Jun Ma"


# ---------------------------------------------------------------- 3. rows with own counts
# shaped like a gait study: one classifier on four data selections, each with its own
# numbers of patients and controls
_SELECTIONS = _md(["Experiment", "PD/HC", "Accuracy (%)", "AUC (%)"], [
    ["All records & no matched", "19739/14900", "76", "85"],
    ["One record & no matched", "511/1860", "79", "68"],
    ["All records & matched", "5541/5541", "77", "85"],
    ["One record & matched", "324/324", "60", "60"],
])


def test_rows_with_their_own_case_control_counts_are_refused(cfg, tmp_path):
    """Ranked, "One record & no matched" (79) was the winner: a row of other data, not a
    better method."""
    with pytest.raises(TableReadError, match=r"column 'PD/HC' gives each row its own counts "
                       r"\(19739/14900, 511/1860"):
        analyse_file(_write(tmp_path, "s.md", _SELECTIONS), cfg, Options(n=100))


def test_one_test_sets_counts_and_experiment_rows_without_counts_stay_read(cfg, tmp_path):
    """Controls: the same counts in every row are one test set's; rows headed Experiment
    without counts are the compared models; TP/FP counts differ between methods on one
    test set; a slash pair of percentages (Sens/Spec 85/90) is no count."""
    same = _SELECTIONS.replace("19739/14900", "216/87").replace("511/1860", "216/87") \
        .replace("5541/5541", "216/87").replace("324/324", "216/87")
    ms = _metrics(cfg, _write(tmp_path, "same.md", same), n=303)
    assert ms[0]["winner"] == "One record & no matched"
    arms = _md(["Experiment", "Accuracy (%)"], [["R9 baseline", "63.83"], ["R9+", "74.47"]])
    [m] = _metrics(cfg, _write(tmp_path, "arms.md", arms), n=47)
    assert m["winner"] == "R9+"
    tpfp = _md(["Method", "TP/FP", "Sensitivity (%)"], [
        ["A", "120/30", "80.0"], ["B", "131/41", "87.3"]])
    ms = _metrics(cfg, _write(tmp_path, "tpfp.md", tpfp), n=150)
    assert next(m for m in ms if m["column"].startswith("Sensitivity"))["winner"] == "B"
    pct = _md(["Method", "Sens/Spec", "Accuracy (%)"], [
        ["A", "85/90", "88.0"], ["B", "80/95", "89.1"]])
    ms = _metrics(cfg, _write(tmp_path, "pct.md", pct), n=150)
    assert next(m for m in ms if m["column"].startswith("Accuracy"))["winner"] == "B"
