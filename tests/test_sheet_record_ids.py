"""Paper ids that are record numbers of a screening database (``51, 198, 1030, 1468``) on
small synthetic sheets of the shape met in a real dialysis-outcome meta-analysis sheet
(docs/sheets.md, eskd-ml; invented values): four-digit record numbers were read as year
divider rows and skipped, 13 papers where the sheet has 17."""

from __future__ import annotations


from falseclaims.sheets import read_venue
from falseclaims.sheets.draft.draft import draft_config
from falseclaims.sheets.draft.inspect import inspect_sheet, year_row
from sheet_drafting import write_rows as _write


def _draft(path):
    d = draft_config(inspect_sheet(path), "v", str(path))
    assert not d.problems, d.problems
    return d.config["venues"]["v"]


# (record number, author, rows): one paper per record number, several outcome rows each
_RECORDS = [("450", "Ak 2019", 3), ("580", "Ch 2023", 1), ("1468", "Li 2014", 1),
            ("64", "Li 2019", 1), ("1030", "Wa 2021", 4), ("2019", "Ye 2020", 2),
            ("51", "We 2021", 2), ("1447", "Sh 2019", 1)]


def _records_sheet(tmp_path):
    rows = [["id", "author", "outcome", "metric", "mean_metric"]]
    for rid, author, k in _RECORDS:
        rows += [[rid, author, f"mortality ({30 * (j + 1)}d)", "AUROC", f"0.{70 + j}"]
                 for j in range(k)]
    return _write(tmp_path, rows)


def test_four_digit_record_numbers_are_papers_not_year_rows(tmp_path):
    """Record numbers 1030, 1468, 1447 (and 2019, a number that reads as a year) fill
    rows holding a paper's other cells: no rule skips them, every record is a paper and
    the repeated 1030 is one paper over its rows like the shorter ids."""
    path = _records_sheet(tmp_path)
    g = inspect_sheet(path)
    hints = " ".join(h for c in g.columns for h in c.hints)
    assert "only a year" not in hints
    block = _draft(path)
    assert "id" not in block.get("skip_rows_where", {})
    s = read_venue(block, ".", "v")
    assert sorted(s.papers["paper_id"]) == sorted(r for r, _, _ in _RECORDS)


def test_a_row_holding_only_a_year_is_still_a_divider(tmp_path):
    """A year alone on its row above that year's papers is still drafted as a skipped
    divider."""
    rows = [["Paper", "Task", "Metric", "Ours", "SOTA"], ["2022", "", "", "", ""],
            ["Li 2022", "seg", "DSC", "85.1", "84.0"], ["Ng 2022", "seg", "DSC", "80.0", "79.5"],
            ["2023", "", "", "", ""], ["Wu 2023", "seg", "DSC", "91.0", "90.0"]]
    path = _write(tmp_path, rows)
    g = inspect_sheet(path)
    assert any(h.startswith("rows holding only a year ('2022')") for h in g.columns[0].hints)
    s = read_venue(_draft(path), ".", "v")
    assert sorted(s.papers["paper_id"]) == ["Li 2022", "Ng 2022", "Wu 2023"]


def test_year_row_needs_a_year_alone_on_its_row():
    assert year_row(["2022", "", None], 0) == "2022"
    assert year_row(["2022", "Li", None], 0) is None  # a paper's record number
    assert year_row(["1468", "", ""], 0) is None  # no year of a survey
    assert year_row(["x", "2021"], 1) is None
