"""The default run's real venue, `dl_eeg_roy2019`: the extraction tables of a published
review [Roy2019] (data/real/dl-eeg-roy2019/, MIT), papers and results, read with the block
in config/config.yaml. The expected numbers were read by hand in the two CSV files (the
`Data split` cells, the `Result` cells of each paper), not produced by the code under test;
the pipeline's front page for this venue is checked in tests/test_pipeline.py."""

import csv
import hashlib
import re
from pathlib import Path

import pytest
import yaml

from falseclaims.cli import main
from falseclaims.sheets import read_venue
from falseclaims.config import Analysis
from falseclaims.survey.eligibility import select_papers

DIR = Path(__file__).parents[1] / "data" / "real" / "dl-eeg-roy2019"
PAPERS, RESULTS = DIR / "data_items.csv", DIR / "reporting_results.csv"

# `Data split` cells stating a count of test examples, read by hand (cell -> size)
HAND_SIZES = {
    "Yang2018": 15458,           # "16520 training samples / 15458 test samples"
    "Lee2018": 176,              # "Train: 704 epochs / Test: 176 epochs"
    "VanPutten2018a": 8775,      # "Train: 41,381 / Valid: 58,904 / Test: 8,775"
    "Schirrmeister2017a": 554,   # "Train: 5480 (~90%) / Test: 554 (~10%)"
    "Chiarelli2018": 20,         # "Train: 180 / Test: 20"
    "Wang2018a": 100,            # "Train: 2000 / Test: 100"
    "Wang2018": 756,             # "1 - SEED) Train: 1134 / 1 - SEED) Test: 756 / 2) N/M"
    "Hartmann2018": 80,          # "Train: 286 / Valid: 72 / Test: 80"
    "Patnaik2017": 25,           # "Train: 40 instances (/65) / Test: 25 instances (/65)"
    "Zhang2017a": 28000,         # "Train: 532,000 / Test: 28,000"
    "Golmohammadi2017": 29421,   # "Train: 84,032 events / Test: 29,421 events"
    "Xu2016": 80,                # "Train: 267 / Valid: 53 / Test: 80"
    "Ding2015": 293,             # "[DS1] Train: 268 / [DS1] Test: 293 / [DS2] ..."
    "Li2013": 20,                # "Train: 20 EEG segments / Test: 20 EEG segments"
    "Omerhodzic2013": 50,        # "Train: 250 / Test: 50"
}
# the papers with a test size and two accuracy values: their best two rows of
# reporting_results.csv (Model, Result), read by hand
HAND_TOP2 = {
    "Chiarelli2018": ("arch1", 0.734, "trad2", 0.6971),
    "Lee2018": ("arch1", 0.625, "arch4", 0.625),          # a tie
    "Schirrmeister2017a": ("arch1", 0.854, "arch2", 0.845),
    "Xu2016": ("arch2", 0.8833, "arch1", 0.8586),         # arousal, its first block
    "Zhang2017a": ("arch1", 0.794, "trad1", 0.7902),
}


@pytest.fixture(scope="module")
def block(repo_root):
    cfg = yaml.safe_load((repo_root / "config" / "config.yaml").read_text(encoding="utf-8"))
    return cfg["venues"]["dl_eeg_roy2019"]


@pytest.fixture(scope="module")
def sheets(block, repo_root):
    return read_venue(block, base_dir=repo_root, venue="dl_eeg_roy2019")


def test_both_tables_are_verbatim_copies_with_their_licence():
    source = (DIR / "SOURCE.md").read_text(encoding="utf-8")
    for f in (PAPERS, RESULTS):
        digest = hashlib.sha256(f.read_bytes()).hexdigest()
        assert re.search(rf"`{f.name}`: {digest}", source), f.name
    assert "MIT License" in (DIR / "LICENSE").read_text(encoding="utf-8")


def test_every_paper_and_every_valued_result_row_is_read(sheets):
    with RESULTS.open(newline="", encoding="utf-8") as fh:
        rows = [r for r in csv.DictReader(fh) if r["Citation"].strip()]
    valued = [r for r in rows if r["Model"].strip() and r["Result"].strip()]
    assert len(sheets.papers) == sheets.papers["paper_id"].nunique() == 156
    # a paper contributes the block of rows of its first comparison (group_rows_by_id);
    # every other valued row is a note
    unused = sheets.notes["note"].str.startswith("further results row of paper", na=False)
    assert len(valued) == 699 and len(sheets.results) + unused.sum() == len(valued)
    # the 27 rows holding only the review's comment ("No accuracy") are skipped and noted
    assert len([r for r in rows if not r["Model"].strip()]) == 27
    skipped = sheets.notes[sheets.notes["note"].str.contains("skip_rows_where", na=False)]
    assert len(skipped) == 27
    assert "invalid_cell" not in sheets.papers or sheets.papers["invalid_cell"].isna().all()


def test_test_sizes_are_the_counts_the_data_split_cells_state(sheets):
    sized = sheets.papers.dropna(subset=["n_test"]).set_index("paper_id")["n_test"]
    assert sized.astype(int).to_dict() == HAND_SIZES
    # "Test: 9.2%", "Test: 1 Sub.", "Test: 20 epochs (per subject)" give no size
    for pid in ("Roy2018", "Volker2018", "Gao2015"):
        assert pid not in sized.index


def test_the_analysed_papers_are_their_best_two_rows(sheets, config):
    sel = select_papers(sheets.papers, sheets.results, Analysis.from_config(config).eligibility,
                        venue="dl_eeg_roy2019")
    top2 = sel.top2.set_index("paper_id")
    assert set(sel.eligible["paper_id"]) == set(HAND_TOP2)
    for pid, (a, va, b, vb) in HAND_TOP2.items():
        row = top2.loc[pid]
        assert (row["method_a"], row["method_b"]) == (a, b), pid
        assert (row["value_a"], row["value_b"]) == pytest.approx((va, vb)), pid
        assert row["n_test"] == HAND_SIZES[pid], pid
    assert sel.exclusions["paper_id"].nunique() + len(sel.eligible) == 156


def test_the_block_is_the_draft_with_zero_edits(block, repo_root, tmp_path, monkeypatch,
                                                capsys):
    """The config block is what `sheet inspect --write` drafts, `ignore` lines left out and
    the label excepted: no hand edit (n_test from the `Data split` cells stating a count of
    test examples and `skip_rows_where` for the comment-only results rows are drafted)."""
    monkeypatch.chdir(repo_root)
    out = tmp_path / "draft.yaml"
    assert main(["sheet", "inspect", str(RESULTS.relative_to(repo_root)), "--other-table",
                 str(PAPERS.relative_to(repo_root)), "--venue", "dl_eeg_roy2019",
                 "--write", str(out)]) == 0
    capsys.readouterr()
    text = out.read_text(encoding="utf-8")
    assert "NOT READY" not in text
    draft = yaml.safe_load(text)["venues"]["dl_eeg_roy2019"]
    for kind in ("papers", "results"):
        draft["columns"][kind] = {k: v for k, v in draft["columns"][kind].items()
                                  if v != "ignore" or k == "@A"}
    mine = yaml.safe_load(yaml.safe_dump(block))
    mine.pop("label"), draft.pop("label")
    assert mine == draft
    assert draft["columns"]["papers"]["Data split"] == ["split", "n_test"]
    assert draft["skip_rows_where"] == {"Model": "^$"}
