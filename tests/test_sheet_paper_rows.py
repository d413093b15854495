"""One paper over several rows (one per data set) is decided the same way whatever the id
style: no id column, a record number per row, author-year ids repeating in consecutive or
in scattered rows (two papers of 'Li 2021'). Synthetic sheets, invented values."""

from __future__ import annotations

import csv

import pytest

from falseclaims.plausibility import judge_draft
from falseclaims.sheets import read_venue
from falseclaims.sheets.draft.draft import draft_config
from falseclaims.sheets.draft.inspect import inspect_sheet

PAPERS = [("Deep liver segmentation with attention", "Li 2021", ["LiTS", "3Dircadb"]),
          ("A transformer for brain tumours", "Kim 2022", ["BraTS 2019", "BraTS 2020"]),
          ("Robust prostate MRI segmentation", "Ng 2020", ["PROMISE12"]),
          ("Cardiac cine segmentation", "Li 2021", ["ACDC", "M&Ms"])]


def _rows(style: str, scattered: bool = False):
    head = {"none": [], "record": ["#"], "study": ["Study"]}[style]
    rows = []
    k = 0
    for p, (title, study, sets) in enumerate(PAPERS):
        for j, ds in enumerate(sets):
            k += 1
            first = {"none": [], "record": [k], "study": [study]}[style]
            rows.append((j, first + [title, ds, "segmentation", "train/test", 50 + k,
                                     f"0.{90 - p}{j}", f"0.{80 - p}{j}"]))
    if scattered:  # sorted by data set index: a paper's rows are apart
        rows.sort(key=lambda r: r[0])
    return [head + ["Title", "Dataset", "Task", "Split", "Test size", "Ours DSC",
                    "SOTA DSC"]] + [r for _, r in rows]


@pytest.mark.parametrize("style,scattered", [("none", False), ("none", True),
                                             ("record", False), ("study", True)])
def test_four_papers_whatever_the_id_style(tmp_path, style, scattered):
    path = tmp_path / "s.csv"
    with open(path, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(_rows(style, scattered))
    d = draft_config(inspect_sheet(path), "v", str(path), judge=judge_draft)
    block = d.config["venues"]["v"]
    assert block["group_rows_by_id"] is True and "{Title}" in block["id"]
    assert block["columns"]["wide"]["Title"] == "title"  # the title column kept and mapped
    assert not d.problems, d.problems
    s = read_venue(block, tmp_path, "v")
    assert s.papers["paper_id"].nunique() == 4  # 7 rows, 4 papers (two of them 'Li 2021')
    assert sorted(s.papers["title"]) == sorted(t for t, _, _ in PAPERS)
    # the comparison used per paper is its first row; each further row names the row used
    unused = s.notes[s.notes["note"].str.contains("not used: a paper contributes one",
                                                  regex=False)]
    assert len(unused) == 3 and unused["note"].str.contains(r"that of row \d+").all()
    proposed = s.results.groupby("paper_id")["value"].max()
    # 0.{90-p}0 of each paper's first data set (its second one would give 0.{90-p}1)
    assert sorted(proposed.round(3)) == [0.87, 0.88, 0.89, 0.9]


def test_consecutive_author_year_ids_group_by_data_set(tmp_path):
    """'Li 2021' in consecutive rows of different titles is two papers (the existing
    evidence rule: the title differs); same id and title over data sets is one."""
    rows = _rows("study")
    rows = rows[:1] + rows[1:3] + rows[6:8] + rows[3:6]  # both Li 2021 papers adjacent
    path = tmp_path / "s.csv"
    with open(path, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(rows)
    d = draft_config(inspect_sheet(path), "v", str(path), judge=judge_draft)
    s = read_venue(d.config["venues"]["v"], tmp_path, "v")
    assert s.papers["paper_id"].nunique() == 4


def test_scattered_citation_keys_with_one_url_each_are_one_paper(tmp_path):
    """One row per (paper, criterion), sorted by criterion: the key repeats in scattered
    rows and each key's URL is the same on all its rows: one paper over several rows."""
    rows = [["key", "criterion", "pub_url", "n_raters"]]
    for crit in ("fluency", "adequacy", "grammar"):
        for key in ("CW2020", "GD2020", "PX2020"):
            rows.append([key, crit, f"https://example.org/{key}.pdf", "3"])
    path = tmp_path / "s.csv"
    with open(path, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(rows)
    d = draft_config(inspect_sheet(path), "v", str(path))
    block = d.config["venues"]["v"]
    assert block.get("group_rows_by_id") is True and "id" not in block
    assert any("column 'pub_url' holds" in r for r in d.remarks)


def test_an_author_column_with_gaps_is_no_id_where_every_title_differs(tmp_path):
    """A held-out sheet (one row per paper, unique titles) has an `authors` column naming
    some authors twice and empty on some rows: the title is the id; '{authors}: {title}'
    left the rows without authors without an id."""
    rows = [["index", "title", "authors", "research_type"]]
    names = ["A. Li", "B. Kim", "A. Li", "", "C. Ng", "", "B. Kim", "D. Ro"]
    rows += [[str(i + 1), f"Paper about topic {i}", a, "E" if i % 3 else "T"]
             for i, a in enumerate(names)]
    path = tmp_path / "s.csv"
    with open(path, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(rows)
    d = draft_config(inspect_sheet(path), "v", str(path), judge=judge_draft)
    block = d.config["venues"]["v"]
    assert block["id"] == "{title}" and not block.get("group_rows_by_id")
    s = read_venue(block, tmp_path, "v")
    assert s.papers["paper_id"].nunique() == len(s.papers) == 8
