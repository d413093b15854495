"""`falseclaims table` on real published tables (tests/data/real_tables; docs/table.md,
"Real tables").

Every folder holds a results table copied verbatim from the public LaTeX source of a paper
(``table.tex``), its provenance (``SOURCE.md``: repository, path, commit, license, paper) and
the reading checked by hand (``truth.yaml``: per metric column the direction, the unit, the
winner and the runner-up, the data-set group and its n). Only tables whose repository license
allows redistribution (MIT, BSD, Apache, CC-BY, CC0) are committed here; the others of the
corpus are scored by ``python tools/table_corpus.py --corpus DIR`` outside the repository.

The corpus-level goals (at least 95% of metric columns read with the right direction and
unit, at least 80% with the right winner, every unread column named with a reason) are met on
the committed tables (142 of 146 columns right, 4 unread with the reason naming them; the 4
tables added from the first held-out check were 9 of 13 right before table mode was changed
for that check, the 8 added from the third 16 of 28, the one added from the fourth,
spectralgrad_domains_lower, 0 of 28: seven data sets read as one comparison; the two README
files of HTML tables added from batch 8b, covid_task2 0 of 12 (no pipe table) and covid_task1,
whose rows are folds of one method (ranked as methods once HTML tables were read); the one
added from batch 13, sla_breach_ci_to_ece, 5 of 5 before any change of that round); the test asserts the
counts measured when the corpus or table mode last changed as a FLOOR: a change to table mode
may read more columns right, never fewer. Whoever improves table mode raises the floor to the new measured counts (the scorecard is printed; run
``python tools/table_corpus.py``).
"""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("table_corpus", REPO / "tools" / "table_corpus.py")
tc = importlib.util.module_from_spec(spec)
sys.modules["table_corpus"] = tc  # its dataclass looks its module up
spec.loader.exec_module(tc)

CORPUS = REPO / "tests" / "data" / "real_tables"

# Measured on the committed corpus at the last change of the corpus (see the module doc):
# never lower these; raise them when table mode reads more.
FLOOR = {"tables": 29, "columns": 146, "read": 142, "right": 142,
         "direction_and_unit_right": 142, "winner_right": 142}
# unread columns dropped without any reason (no refusal, no note naming them): never more than
# measured (none since table mode reads two values per cell)
CEILING_UNREAD_WITHOUT_REASON = 0
# unread columns whose reason does not name them (a refusal of the whole table): never more
# than measured (a ceiling, not a floor: reading more columns lowers it)
CEILING_UNREAD_NOT_NAMED = 0
# the corpus goals of table mode, printed with the scorecard (not asserted, see above)
GOALS = {"direction_and_unit_right": 0.95, "winner_right": 0.80}


@pytest.fixture(scope="module")
def scores():
    return tc.score_corpus(CORPUS)


def test_every_committed_table_is_complete_and_redistributable():
    folders = [p for p in CORPUS.iterdir() if p.is_dir()]
    assert folders and sorted(folders) == tc.entries(CORPUS)   # each has a truth.yaml
    for folder in folders:
        assert tc.check_truth(yaml.safe_load((folder / "truth.yaml").read_text("utf-8")),
                              folder) == [], folder.name
        assert tc.redistributable(folder), f"{folder.name}: {tc.license_of(folder)!r}"
        source = (folder / "SOURCE.md").read_text("utf-8")
        for field in ("- repository: https://github.com/", "- commit: ", "- paper: "):
            assert field in source, f"{folder.name}: SOURCE.md lacks {field!r}"


def test_a_truth_file_naming_an_unknown_method_is_refused(tmp_path):
    folder = tmp_path / "nalu_simple_mul"
    shutil.copytree(CORPUS / "nalu_simple_mul", folder)
    truth = yaml.safe_load((folder / "truth.yaml").read_text("utf-8"))
    truth["columns"][0]["winner"] = "not_a_method"
    truth["columns"][1]["direction"] = "up"
    (folder / "truth.yaml").write_text(yaml.safe_dump(truth), "utf-8")
    with pytest.raises(ValueError) as err:
        tc.load_truth(folder)
    assert "'not_a_method' is not a key of methods" in str(err.value)
    assert "direction 'up'" in str(err.value)


def _truth():
    return {"methods": {"ours": ["Ours", "\\textbf{Ours}"], "unet": ["U-Net"]}}


def test_scoring_rules_on_hand_made_readings():
    # an HD95 column (mm, lower is better) read as a percentage score: unit and direction wrong
    hd95 = {"match": ["HD95"], "direction": "lower", "unit": "mm", "winner": "ours"}
    read_as_score = {"column": "HD95 (mm)", "units": "percent", "winner": "U-Net"}
    assert tc.tool_direction(read_as_score) == "higher"        # table mode's only direction
    assert not tc.unit_right(hd95["unit"], read_as_score["units"])
    assert not tc.winner_right(_truth(), hd95, read_as_score["winner"])
    # the same column read as lower-is-better in mm with the right winner
    read_right = {"column": "HD95 (mm)", "direction": "lower", "units": "mm",
                  "winner": "Ours~\\cite{x}"}
    assert tc.tool_direction(read_right) == "lower"
    assert tc.unit_right("mm", read_right["units"])
    assert tc.winner_right(_truth(), hd95, read_right["winner"])
    # a Dice column in percent read as fractions: unit wrong
    assert not tc.unit_right("percent", "fraction")


def test_columns_are_found_per_group_and_merged_groups_are_caught():
    result = {"tables": [{"table": "tabular 1", "metrics": [
        {"column": "Dice BTCV", "winner": "Ours"}, {"column": "Dice ACDC", "winner": "U-Net"},
        {"column": "Accuracy", "winner": "Ours"}]}], "unreadable": []}
    acdc = {"match": ["Dice", "ACDC"], "group": "ACDC"}
    assert tc.find_column(result, acdc) == (result["tables"][0]["metrics"][1], False)
    # a per-group column the tool read as one column over both groups
    test_acc = {"match": ["Accuracy", "Test"], "group": "Test"}
    assert tc.find_column(result, test_acc) == (result["tables"][0]["metrics"][2], True)
    assert tc.find_column(result, {"match": ["HD95"]}) == (None, False)
    # symbols as group names (×, +) are matched as written
    assert tc._matches("Success Rate ×", ["Success", "×|times"])
    assert not tc._matches("Success Rate +", ["Success", "×|times"])


def test_a_group_named_inside_another_group_is_found_in_its_own_table():
    """MedQA is a substring of PubMedQA: the column of the tool's MedQA table is scored,
    whichever table comes first."""
    pub = {"column": "Acc.", "group": "PubMedQA", "winner": "1.5B"}
    med = {"column": "Acc.", "group": "MedQA", "winner": "3B"}
    result = {"tables": [{"table": "tabular 1", "metrics": [pub]},
                         {"table": "tabular 1", "metrics": [med]}], "unreadable": []}
    assert tc.find_column(result, {"match": ["MedQA", "Acc"], "group": "MedQA"}) == (med, False)
    assert tc.find_column(result, {"match": ["PubMedQA", "Acc"], "group": "PubMedQA"}) == \
        (pub, False)


def test_columns_the_truth_says_are_no_metric_are_counted_apart():
    """A truth's ``ignore`` (Diff, GPU hrs.): never in the metric columns' denominator;
    ``not_scored`` when the tool read no such column, ``scored`` (a misreading) when it did."""
    truth = {"id": "t", "shapes": ["plain"], "ignore": ["Diff", "GPU hrs. (not a result)"]}
    result = {"tables": [{"table": "tabular 1", "metrics": [
        {"column": "Accuracy", "winner": "A"}, {"column": "GPU hrs.", "winner": "B"}]}],
        "unreadable": []}
    got = {s.column: s.verdict for s in tc._ignored_scores(truth, result)}
    assert got == {"Diff": "not_scored", "GPU hrs.": "scored"}
    right = tc.ColumnScore("t", "Accuracy", "plain", "right")
    summary = tc.summary([right, *tc._ignored_scores(truth, result)])
    assert (summary["columns"], summary["right"], summary["not_metric_columns"],
            summary["not_metric_not_scored"]) == (1, 1, 2, 1)


def test_scorecard_never_below_the_floor(scores, capsys):
    with capsys.disabled():
        print("\n" + tc.scorecard(scores))
        print(f"corpus goals (not yet asserted): {GOALS}")
    got = tc.summary(scores)
    low = {k: (got[k], v) for k, v in FLOOR.items() if got[k] < v}
    assert not low, f"fewer than at the last corpus change (measured, floor): {low}"
    assert got["unread_without_reason"] <= CEILING_UNREAD_WITHOUT_REASON
    assert got["unread"] - got["unread_reason_names_column"] <= CEILING_UNREAD_NOT_NAMED
    # the counts are consistent with the per-column verdicts
    assert got["read"] + got["unread"] == got["columns"] == len(tc.metric_scores(scores))
    assert got["not_metric_not_scored"] == got["not_metric_columns"]  # none misread as a metric
    assert got["right"] <= min(got["direction_and_unit_right"], got["winner_right"])
