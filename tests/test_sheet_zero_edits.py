"""Two hand edits the real venue's draft once needed, drafted as general patterns and each
checked on a small synthetic long-layout survey (invented papers and values): test-set
sizes read from a split column whose cells state counts of test examples ("Train: 704
epochs / Test: 176 epochs"), and results rows holding only a reviewer's comment (no
method, no value) skipped instead of excluding their papers."""

from __future__ import annotations

import csv

import pandas as pd

from falseclaims.sheets import read_venue
from falseclaims.sheets.draft.draft import draft_config
from falseclaims.sheets.draft.inspect import inspect_sheet

SPLITS = ["Train: 704 epochs / Test: 176 epochs", "Train: 80% / Test: 20%",
          "Train: 2,000 / Valid: 300 / Test: 1,250", "Train: 9 subjects / Test: 1 subject",
          "Train: 250 / Test: 50", "5-fold CV", "Train: 4/5 / Test: 1/5",
          "16520 training samples / 15458 test samples"]
# the sizes the cells above state, by hand (None: a %, a fraction, subjects or no test set)
HAND = {"P0": 176, "P1": None, "P2": 1250, "P3": None, "P4": 50, "P5": None, "P6": None,
        "P7": 15458}


def _write(path, rows):
    with open(path, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(rows)
    return path


def _survey(tmp_path, splits=SPLITS, comment_rows=True, valued_bare_row=False):
    papers = [["Citation", "Title", "Year", "Data split", "Statistical analysis"]]
    papers += [[f"P{i}", f"A deep network for EEG task {i}", 2015 + i % 4, s,
                "Wilcoxon" if i % 2 else "No"] for i, s in enumerate(splits)]
    results = [["Citation", "Metric", "Model", "Result", "Comment"]]
    for i in range(len(splits)):
        results += [[f"P{i}", "accuracy", "arch1", f"{0.80 + i / 100:.2f}", ""],
                    [f"P{i}", "accuracy", "trad1", f"{0.75 + i / 100:.2f}", ""]]
        if comment_rows and i % 3 == 0:
            results.append([f"P{i}", "", "", "", "No accuracy on the second task"])
    if valued_bare_row:
        results.append(["P1", "accuracy", "", "0.90", "model not named"])
    p = _write(tmp_path / "papers.csv", papers)
    r = _write(tmp_path / "results.csv", results)
    return p, r


def _draft(p, r):
    d = draft_config(inspect_sheet(r), venue="v", other=inspect_sheet(p))
    return d, d.config["venues"]["v"]


def test_a_split_column_stating_test_counts_is_drafted_as_n_test_too(tmp_path):
    p, r = _survey(tmp_path, comment_rows=False)
    d, block = _draft(p, r)
    assert block["columns"]["papers"]["Data split"] == ["split", "n_test"]
    s = read_venue(dict(block, papers=str(p), results=str(r)), base_dir=".", venue="v")
    got = s.papers.set_index("paper_id")["n_test"]
    assert {k: (None if pd.isna(got[k]) else int(got[k])) for k in HAND} == HAND
    assert any("n_test 'Train: 704 epochs / Test: 176 epochs' -> 176" in x for x in d.remarks)


def test_splits_in_shares_or_subjects_draft_no_test_size(tmp_path):
    """Two explicit counts among shares, subjects and folds: too few to read the column as
    sizes (a chance phrase); a column of shares only never gives one."""
    few = ["Train: 80% / Test: 20%", "Train: 250 / Test: 50", "5-fold CV",
           "Train: 9 subjects / Test: 1 subject", "Train: 2/3 / Test: 1/3",
           "Train: 704 epochs / Test: 176 epochs", "Train: 70% / Test: 30%", "LOO"]
    for splits in (few, ["Train: 80% / Test: 20%"] * 4 + ["Train: 3 sessions / Test: 1 session"] * 4):
        _, block = _draft(*_survey(tmp_path, splits, comment_rows=False))
        assert block["columns"]["papers"]["Data split"] == "split"
        assert "n_test" not in block.get("values", {})


def test_comment_only_results_rows_are_skipped_not_excluding_their_papers(tmp_path):
    p, r = _survey(tmp_path)
    d, block = _draft(p, r)
    assert block["skip_rows_where"] == {"Model": "^$"}
    assert "on_bad_cell" not in block and not d.problems
    skipped = [x for x in d.remarks if x.startswith("results rows with no method")]
    assert len(skipped) == 1 and skipped[0].count("No accuracy on the second") == 3
    s = read_venue(dict(block, papers=str(p), results=str(r)), base_dir=".", venue="v")
    assert len(s.results) == 16 and s.papers["paper_id"].nunique() == 8
    assert s.notes["note"].str.contains("skip_rows_where", na=False).sum() == 3


def test_a_row_with_a_value_but_no_method_is_not_skipped(tmp_path):
    """A value without a method is a problem to see, never a row skipped with comments."""
    _, block = _draft(*_survey(tmp_path, valued_bare_row=True))
    assert "skip_rows_where" not in block
