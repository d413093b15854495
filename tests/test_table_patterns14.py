"""Table patterns of blind batch 14 (docs/table.md, "Batch 14"), each on a small synthetic
table of that shape, winners and directions by hand: a signed bias column (best nearest 0,
not lowest), Portuguese and Spanish names of accuracy and precision, the area under the
precision-recall curve (AUPR)."""

from __future__ import annotations

import pytest
from table_files import write_table_file as _write
# the same Markdown helper as batch 13's patterns
from test_table_patterns13 import _md

from falseclaims.config import Analysis, load_config
from falseclaims.metrics import classify
from falseclaims.table.readers import TableReadError
from falseclaims.table.run import Options, analyse_file


@pytest.fixture(scope="module")
def cfg():
    return load_config()


# by hand: Count bias -1.31 is the LARGEST deviation after -1.50; "lower is better" named
# it the winner (the osteoclast table of batch 14). The best bias is nearest 0 (+0.81 here),
# a direction the tool has no word for: refused, naming the column and the negative cell.
_SIGNED = _md(["Method", "Dice", "Count bias"], [
    ["Otsu", "0.434", "-1.50"], ["boneseg", "0.735", "+0.81"], ["SAM", "0.534", "-0.85"],
    ["micro-SAM", "0.326", "-1.31"],
])


def test_a_signed_bias_column_is_refused_not_ranked_lowest(cfg, tmp_path):
    res = analyse_file(_write(tmp_path, "b.md", _SIGNED), cfg, Options(n=100))
    [t] = res["tables"]
    assert [m["column"] for m in t["metrics"]] == ["Dice"]
    [why] = [n for n in t["notes"] if "Count bias" in n]
    assert why.startswith("not read") and "-1.50" in why and "nearest 0" in why


@pytest.mark.parametrize("header", ["Mean error (mm)", "RVD", "Signed error"])
def test_other_signed_deviations_with_negative_cells_are_refused(cfg, tmp_path, header):
    """A signed error or relative volume difference: -0.9 is no better than +0.9."""
    text = _md(["Method", "Dice", header], [["A", "0.80", "-0.90"], ["B", "0.85", "0.20"],
                                            ["C", "0.70", "0.50"]])
    [t] = analyse_file(_write(tmp_path, "e.md", text), cfg, Options(n=100))["tables"]
    assert [m["column"] for m in t["metrics"]] == ["Dice"]
    assert any("'-0.90' is negative" in n and "nearest 0" in n for n in t["notes"])


def test_a_bias_column_without_negative_cells_is_still_ranked_lowest(cfg, tmp_path):
    """The control: all biases positive, the lowest is the nearest 0 (by hand: B, 0.07)."""
    text = _md(["Method", "Area bias"], [["A", "+3.09"], ["B", "+0.07"], ["C", "+0.48"]])
    [t] = analyse_file(_write(tmp_path, "p.md", text), cfg, Options(n=100))["tables"]
    [m] = t["metrics"]
    assert (m["direction"], m["winner"]) == ("lower", "B")


@pytest.mark.parametrize("header", ["Acurácia", "Acuracia", "Precisão", "Precisao",
                                    "Precisión", "Exactitud", "AUPR", "AUC-PR", "PR-AUC",
                                    "AUPR (5-fold)", "Tversky", "Tversky index"])
def test_romance_names_aupr_and_tversky_are_higher_is_better(cfg, header):
    """Were unknown metrics (the Portuguese diabetes table, the drug-response AUPR table,
    the parotid ablation's Tversky index)."""
    spellings = Analysis.from_config(cfg).eligibility.metrics
    kind = classify(header, spellings)
    assert kind.direction == "higher" and not kind.ignore


def test_a_portuguese_table_is_read_as_fractions_with_its_winner(cfg, tmp_path):
    """By hand: depth 5 has the best Acurácia (0.7597), depth 7 the best Precisão (0.6905)."""
    text = _md(["Modelo", "Acurácia", "Precisão"], [
        ["Árvore (depth = 3)", "0.6883", "0.6364"], ["Árvore (depth = 5)", "0.7597", "0.6393"],
        ["Árvore (depth = 7)", "0.7532", "0.6905"], ["Naive Bayes", "0.7013", "0.5667"]])
    [t] = analyse_file(_write(tmp_path, "pt.md", text), cfg, Options(n=154))["tables"]
    got = {m["column"]: (m["direction"], m["units"], m["winner"]) for m in t["metrics"]}
    assert got == {"Acurácia": ("higher", "fraction", "Árvore (depth = 5)"),
                   "Precisão": ("higher", "fraction", "Árvore (depth = 7)")}


# by hand (the parotid ablation of batch 14): E5 has the best Dice (0.8202), the reference
# (bold: the deliverable, not the best) second. Condition describes each arm; E3 twice.
_ARMS = _md(["Experiment", "Condition", "Dice"], [
    ["*(ref)*", "nnU-Net 3d_fullres, 1 fold", "**0.8187**"],
    ["**E5**", "nnU-Net 5-fold ensemble", "0.8202"],
    ["**E1**", "nnU-Net **2d**, 1 fold", "0.8117"],
    ["**E3**", "TransUNet, **ImageNet-pretrained**", "0.7373"],
    ["**E3**", "Swin-UNet, ImageNet-pretrained", "0.7185"],
])


def test_experiments_described_by_a_condition_column_are_ranked(cfg, tmp_path):
    """Before: refused as 'the rows of Condition are ... test conditions'."""
    [t] = analyse_file(_write(tmp_path, "a.md", _ARMS), cfg, Options(n=43))["tables"]
    [m] = t["metrics"]
    assert m["winner"].startswith("E5") and "(ref)" in m["runner_up"]
    assert len({x["method"] for x in m["methods"]}) == 5


@pytest.mark.parametrize("rows", [
    # one model under test conditions (the lighting table of batch 14): no method column
    [["Normal", "0.885"], ["Brightness Variation", "0.891"]],
])
def test_a_condition_column_alone_is_still_refused(cfg, tmp_path, rows):
    with pytest.raises(TableReadError, match="test conditions"):
        analyse_file(_write(tmp_path, "c.md", _md(["Condition", "Dice"], rows)), cfg,
                     Options(n=100))


def test_models_repeated_over_conditions_are_not_joined_into_one_ranking(cfg, tmp_path):
    """The control: the same two models under each condition (a long layout): never one
    ranking of model x condition (by hand: B wins under Noise, A under Clean)."""
    text = _md(["Model", "Condition", "Dice"], [
        ["A", "Clean", "0.90"], ["B", "Clean", "0.88"], ["A", "Noise", "0.70"],
        ["B", "Noise", "0.75"]])
    res = analyse_file(_write(tmp_path, "l.md", text), cfg, Options(n=100))
    winners = {m["winner"] for t in res["tables"] for m in t["metrics"]}
    assert not any("/" in w for w in winners), winners


@pytest.mark.parametrize("rows", [["4 labeled", "8 labeled"], ["10% labelled scans",
                                                                "20% labelled scans"]])
def test_rows_named_by_a_labelled_budget_are_settings_of_one_method(cfg, tmp_path, rows):
    """The left-atrium table of batch 14b: one semi-supervised method at two label budgets
    (``4 labeled`` / ``8 labeled``) was ranked, the larger budget "winning" by design."""
    text = _md(["Setting", "Dice (%)"], [[rows[0], "89.94 +/- 0.17"],
                                         [rows[1], "91.23 +/- 0.03"]])
    with pytest.raises(TableReadError, match="settings of one"):
        analyse_file(_write(tmp_path, "la.md", text), cfg, Options(n=20))


def test_a_method_named_with_its_label_budget_is_still_a_method(cfg, tmp_path):
    """The control: ``UA-MT (4 labeled)`` beside ``Ours (4 labeled)`` are methods (by hand:
    Ours wins)."""
    text = _md(["Method", "Dice (%)"], [["UA-MT (4 labeled)", "84.25"],
                                        ["Ours (4 labeled)", "89.94"]])
    [t] = analyse_file(_write(tmp_path, "m.md", text), cfg, Options(n=20))["tables"]
    assert t["metrics"][0]["winner"] == "Ours (4 labeled)"
