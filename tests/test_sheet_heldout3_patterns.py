"""Drafting and reading failures met on the third blind batch of real review sheets
(docs/sheets.md, "Third held-out check (blind)"), each reproduced on a small synthetic sheet
of the same pattern (invented values): a status column read as the statistical test, a
PubMed id column read as the test-set size, a title shared by two PubMed ids merging two
papers, flag and code columns hiding the one size column, a row of column totals with a
label, a cited-references cell too long in a column never read, values without a metric."""

from __future__ import annotations


import pytest

from falseclaims.sheets import read_venue
from falseclaims.sheets.draft.draft import draft_config
from falseclaims.sheets.draft.inspect import inspect_sheet
from falseclaims.sheets.read.errors import SheetValidationError
from sheet_drafting import write_rows as _write


def _roles(path):
    return {c.name: c.role for c in inspect_sheet(path).columns}


def test_status_and_state_headers_name_no_statistical_test(tmp_path):
    """A screening sheet's `status` (YES/NO: included?) was drafted as the statistical test
    ("stat" inside "status"); a `statistical test` column still is one."""
    rows = [["study_id", "title", "status", "final_status", "prostate_state", "statistical test"]]
    rows += [[f"s{i}", f"Paper {i}", "YES" if i % 2 else "NO", "NO" if i % 3 else "YES",
              "localised" if i % 2 else "advanced", "yes" if i % 2 else "no"]
             for i in range(8)]
    roles = _roles(_write(tmp_path, rows))
    assert roles["status"] != "statistical_test"
    assert roles["final_status"] != "statistical_test"
    assert roles["prostate_state"] != "statistical_test"
    assert roles["statistical test"] == "statistical_test"


def test_an_identifier_column_of_numbers_is_no_test_set_size(tmp_path):
    """`meta_pmid` (the one PubMed id of the meta-analysis, 8 digits on every row) was
    drafted as the test-set size."""
    rows = [["meta_pmid", "study_pmid", "title", "decision"]]
    rows += [["36436737", str(30374665 - 7 * i), f"Paper {i}", "YES" if i % 2 else "NO"]
             for i in range(8)]
    roles = _roles(_write(tmp_path, rows))
    assert roles["meta_pmid"] not in ("n_test", "n_train", "n_val", "cv_folds")
    assert roles["study_pmid"] == "paper_id"


def test_a_publication_id_is_not_overruled_by_a_repeated_title(tmp_path):
    """Two candidate studies with different PubMed ids share a title: the draft switched to
    `id: '{title}'` with grouping, merging them (485 papers where 486 PubMed ids were)."""
    rows = [["study_pmid", "title", "Author"]]
    rows += [[str(30000000 + i), f"Paper {i}" if i != 5 else "Paper 4", f"Lee {i}"]
             for i in range(8)]
    path = _write(tmp_path, rows)
    d = draft_config(inspect_sheet(path), "v", str(path))
    block = d.config["venues"]["v"]
    assert "id" not in block and not block.get("group_rows_by_id")
    s = read_venue(block, ".", "v")
    assert len(s.papers) == 8


def test_flag_and_code_columns_leave_the_one_size_column_as_the_test_size(tmp_path):
    """A 0/1 risk-of-bias flag (`rob`) and a 1-5 rating counted as size columns, so the
    real one (`n`) was set aside as "several size columns: which is the test size?"."""
    rows = [["study", "n", "sens", "rob", "reliability_score"]]
    rows += [[f"S{10 + i}", str(150 + 37 * i), f"{80 + i}.5", str(i % 2), str(1 + i % 5)]
             for i in range(8)]
    roles = _roles(_write(tmp_path, rows))
    assert roles["rob"] == "(ignore)" and roles["reliability_score"] == "(ignore)"
    assert roles["n"] == "n_test"


def test_a_row_of_totals_with_a_label_under_the_table_is_skipped(tmp_path):
    """A TSV ends with rows of column totals (`counts`, `percentages` in the last column,
    no paper id): the draft did not run (paper id required on those rows)."""
    rows = [["Authors", "Title", "Age", "Sex", "notes"]]
    rows += [[f"Lee {i}", f"Paper {i}", "TRUE" if i % 2 else "FALSE", "TRUE", f"note {i}"]
             for i in range(8)]
    rows += [["", "", "", "", ""], ["", "", "4", "8", "counts"],
             ["", "", "50", "100", "percentages"]]
    path = _write(tmp_path, rows, "c.tsv", delimiter="\t")
    d = draft_config(inspect_sheet(path), "v", str(path))
    assert not d.problems, d.problems
    s = read_venue(d.config["venues"]["v"], ".", "v")
    assert len(s.papers) == 8
    # a paper row without an id is not a summary: it still stops the reading
    rows[3][0] = ""
    path = _write(tmp_path, rows, "c2.tsv", delimiter="\t")
    d = draft_config(inspect_sheet(path), "v", str(path))
    assert d.problems


def test_a_too_long_cell_in_a_column_mapped_to_ignore_stops_nothing(tmp_path):
    """A cited-references cell of 18,552 characters in a column mapped to `ignore` stopped
    the reading; the cell is never read: a note. Read, the same cell is still refused."""
    rows = [["Key", "TI", "CR"]]
    rows += [[str(100 + i), f"Paper {i}", "REF; " * (3000 if i == 2 else 3)] for i in range(5)]
    path = _write(tmp_path, rows)
    block = {"papers": str(path), "layout": "wide_top2",
             "columns": {"wide": {"Key": "paper_id", "TI": "title", "CR": "ignore"}}}
    s = read_venue(block, ".", "v")
    assert len(s.papers) == 5
    assert s.notes["note"].str.contains("not read (column mapped to ignore)", regex=False).sum() == 1
    block["columns"]["wide"]["CR"] = "notes"
    with pytest.raises(SheetValidationError, match="at most"):
        read_venue(block, ".", "v")


def test_values_without_a_metric_or_a_task_are_one_problem(tmp_path):
    """`sheet check` of a block with value columns and neither metric nor task printed two
    reader problems (metric, then task)."""
    rows = [["id", "agreement", "human_baseline", "n test"]]
    rows += [[f"s{i}", f"0.{50 + i}", f"0.{40 + i}", str(100 + i)] for i in range(6)]
    path = _write(tmp_path, rows)
    block = {"papers": str(path), "layout": "wide_top2",
             "columns": {"wide": {"id": "paper_id", "agreement": "value_proposed",
                                  "human_baseline": "value_best_prior", "n test": "n_test"}}}
    with pytest.raises(SheetValidationError) as err:
        read_venue(block, ".", "v")
    problems = err.value.problems
    assert len(problems) == 1
    assert "'metric'" in problems[0].expected and "'task'" in problems[0].expected
    # with a metric set, a missing task is still its own problem
    block["constants"] = {"metric": "accuracy"}
    with pytest.raises(SheetValidationError) as err:
        read_venue(block, ".", "v")
    assert [p.column for p in err.value.problems] == ["task"]


def _parts_sheet(tmp_path, ids):
    rows = [["author", "study", "n", "sens"]]
    rows += [[f"a{i}", pid, str(120 + 9 * i), f"8{i % 10}.5"] for i, pid in enumerate(ids)]
    return _write(tmp_path, rows, "parts.csv")


def test_ids_numbering_the_parts_of_one_study_give_one_paper_per_study(tmp_path):
    """A meta-analysis keys its rows `S10, S11-1, S11-2, S12, S24-1 ... S24-3`: the parts
    (test sets) of one study were counted as papers (15 where the review has 7 studies)."""
    ids = ["S10", "S11-1", "S11-2", "S12", "S24-1", "S24-2", "S24-3", "S26-1"]
    path = _parts_sheet(tmp_path, ids)
    d = draft_config(inspect_sheet(path), "v", str(path))
    block = d.config["venues"]["v"]
    assert block["id"] == "{study|stem}" and block["group_rows_by_id"] is True
    s = read_venue(block, ".", "v")
    assert sorted(s.papers["paper_id"]) == ["S10", "S11", "S12", "S24", "S26"]
    # the first row of each study gives its test-set size
    assert dict(zip(s.papers["paper_id"], s.papers["n_test"]))["S24"] == 120 + 9 * 4


@pytest.mark.parametrize("ids", [
    [f"P-{i}" for i in range(1, 9)],  # a prefix numbering records: 8 papers
    ["S10", "S11-1", "S11-3", "S12"],  # parts not numbered 1, 2, ...
    ["S10", "S11-1", "S12", "S11-2"],  # one study's parts not together
    ["S10", "S11", "S12", "S13"],  # no parts at all
])
def test_other_id_styles_are_not_read_as_parts_of_one_study(tmp_path, ids):
    path = _parts_sheet(tmp_path, ids)
    d = draft_config(inspect_sheet(path), "v", str(path))
    block = d.config["venues"]["v"]
    assert "|stem" not in str(block.get("id", ""))
    s = read_venue(block, ".", "v")
    assert len(s.papers) == len(ids)


def test_parts_without_plain_ids_need_stems_numbering_studies(tmp_path):
    """With no plain id beside them, `S24-1, S24-2, S25-1` are parts of studies S24 and
    S25, but `A-1, A-2, B-1` (letters only) are left as they are."""
    path = _parts_sheet(tmp_path, ["S24-1", "S24-2", "S25-1"])
    block = draft_config(inspect_sheet(path), "v", str(path)).config["venues"]["v"]
    assert len(read_venue(block, ".", "v").papers) == 2
    path = _parts_sheet(tmp_path, ["A-1", "A-2", "B-1"])
    block = draft_config(inspect_sheet(path), "v", str(path)).config["venues"]["v"]
    assert len(read_venue(block, ".", "v").papers) == 3


def test_ids_lettering_the_parts_of_one_study_give_one_paper_per_study(tmp_path):
    """The same with a letter after the study number (`S24a, S24b, S24c`): one paper per
    study; the reader's `{study|stem}` strips the letter."""
    ids = ["S10", "S11a", "S11b", "S12", "S24a", "S24b", "S24c", "S26A"]
    path = _parts_sheet(tmp_path, ids)
    block = draft_config(inspect_sheet(path), "v", str(path)).config["venues"]["v"]
    assert block["id"] == "{study|stem}" and block["group_rows_by_id"] is True
    s = read_venue(block, ".", "v")
    assert sorted(s.papers["paper_id"]) == ["S10", "S11", "S12", "S24", "S26"]
    assert dict(zip(s.papers["paper_id"], s.papers["n_test"]))["S24"] == 120 + 9 * 4


@pytest.mark.parametrize("ids", [
    ["Li 2019a", "Li 2019b", "Wu 2020", "Ng 2021"],  # one author's two papers of a year
    ["S10", "S11a", "S11b", "S12", "Li 2019a", "Li 2019b"],  # ... beside lettered parts
    ["S10", "S11a", "S11c", "S12"],  # letters not a, b, ...
    ["S10", "S11a", "S12", "S11b"],  # one study's parts not together
    ["S10", "S11a", "S11B", "S12"],  # two letter styles in one study
    ["Sa", "Sb", "Ta", "Tb"],  # no study number before the letter
])
def test_other_lettered_ids_are_not_read_as_parts_of_one_study(tmp_path, ids):
    path = _parts_sheet(tmp_path, ids)
    block = draft_config(inspect_sheet(path), "v", str(path)).config["venues"]["v"]
    assert "|stem" not in str(block.get("id", ""))
    assert len(read_venue(block, ".", "v").papers) == len(ids)


def test_the_stem_field_keeps_the_letter_of_an_author_year_id(tmp_path):
    """Written by hand, `{study|stem}` strips `S24b` to `S24` but keeps `Li 2019a`."""
    path = _parts_sheet(tmp_path, ["S24a", "S24b", "Li 2019a", "Li 2019b"])
    block = {"papers": str(path), "layout": "wide_top2", "id": "{study|stem}",
             "group_rows_by_id": True,
             "columns": {"wide": {"author": "ignore", "n": "n_test", "sens": "ignore"}}}
    s = read_venue(block, ".", "v")
    assert sorted(s.papers["paper_id"]) == ["Li 2019a", "Li 2019b", "S24"]
