"""Drafting failures met on held-out check 12 (docs/sheets.md, "Held-out check 12"), each
reproduced on a small synthetic sheet of the same pattern (invented values): a workbook
whose first sheet holds a few lines of notes (one column) read as a one-paper table while
the data sit on the second sheet; a legend block below the data, written in a column other
than the first, read as papers without an id; a 'new_test' flag (0/1/2) under a header
naming a test taken as the test-set size; the means and SDs of a study's groups of people
(cases vs controls) offered as the values of methods compared."""

from __future__ import annotations

import openpyxl
import pytest

from falseclaims.cli import main
from falseclaims.errors import FalseclaimsInputError
from falseclaims.sheets import read_venue
from falseclaims.sheets.draft.draft_long import long_kind, results_roles
from falseclaims.sheets.draft.inspect import inspect_sheet
from sheet_drafting import drafted as _drafted, write_rows as _write

_IDS = ["Chen 2019", "Kim 2020", "Patel 2021", "Liu 2021", "Singh 2022", "Garcia 2023",
        "Okafor 2023"]
_HEAD = ["Paper", "Task", "Metric", "Proposed (%)", "Baseline (%)", "Test images (n)"]


def _papers(block) -> int:
    return len(read_venue(dict(block), base_dir=".", venue="v").papers)


def _rows():
    return [[s, "classification", "accuracy", 90.1 + k, 88.2 + k, 500 + 10 * k]
            for k, s in enumerate(_IDS)]


def _workbook(tmp_path, first):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "README"
    for line in first:
        ws.append(line)
    data = wb.create_sheet("extraction")
    data.append(_HEAD)
    for r in _rows():
        data.append(r)
    path = tmp_path / "w.xlsx"
    wb.save(path)
    return path


def test_a_notes_sheet_before_the_data_is_passed_over(tmp_path):
    """Sheet 1 holds two lines of notes in one column (a title and a sentence); the data
    are on sheet 2. The notes are no one-paper table: the draft reads sheet 2 and says so."""
    path = _workbook(tmp_path, [["Extraction of top-1 claims"],
                                ["One row per paper on sheet 'extraction'. Values in percent."]])
    g = inspect_sheet(path)
    assert g.sheet == "extraction"
    assert any("'README'" in w and "'extraction'" in w for w in g.warnings)
    d, block = _drafted(path)
    assert block["papers_sheet"] == "extraction"
    assert _papers(block) == len(_IDS)


def test_a_first_sheet_with_a_table_of_one_row_stays(tmp_path):
    """The guard: a first sheet with a table (two named columns, one row) is read."""
    path = _workbook(tmp_path, [["Paper", "Notes"], ["Chen 2019", "checked twice"]])
    assert inspect_sheet(path).sheet == "README"


def _with_legend(last_rows):
    rows = [_HEAD + ["Source*"]] + [r + [f"1.{k % 2 + 1}"] for k, r in enumerate(_rows())]
    return rows + last_rows


def test_a_legend_below_the_data_in_another_column_is_skipped(tmp_path):
    """Under the papers: an empty row, then a legend written in the 'Source*' column only
    ('*Source', '1.1 - seed papers', ...), the id column empty. Those rows are no papers:
    skipped by their text, and the sheet reads its 7 papers."""
    blank = [""] * 7
    legend = [blank] + [[""] * 6 + [t] for t in ("*Source", "1.1 - seed papers",
                                                "1.2 - snowballing")]
    d, block = _drafted(_write(tmp_path, _with_legend(legend)))
    assert "Source*" in block.get("skip_rows_where", {})
    assert not d.problems
    assert _papers(block) == len(_IDS)


def test_a_paper_row_without_its_id_is_still_a_problem(tmp_path):
    """The guard: a row under the papers with several cells filled and no id is a paper
    missing its id (named by the check), never skipped as a legend."""
    row = ["", "classification", "accuracy", 91.0, 89.0, 700, "1.1"]
    _, block = _drafted(_write(tmp_path, _with_legend([row])))
    assert "Source*" not in block.get("skip_rows_where", {})
    with pytest.raises(FalseclaimsInputError, match="paper_id"):
        _papers(block)


def test_a_cell_continued_on_the_next_line_is_no_legend(tmp_path):
    """The guard: a table copied from a PDF, its last cell's end ('2007)') on a line of its
    own right under it (no empty row between): a cell's next line, never skipped as a
    legend (a real table of check 6 had lost that line to the legend rule)."""
    d, block = _drafted(_write(tmp_path, _with_legend([[""] * 6 + ["2007)"]])))
    assert "Source*" not in block.get("skip_rows_where", {})
    assert not any("legend" in r for r in d.remarks)


def test_a_test_flag_of_codes_is_no_test_set_size(tmp_path):
    """'new_test' (whether the study used a new test: 0/1/2 codes) names a test, but no
    test set holds 0 cases: a code, not the test-set size (check had stopped on every paper
    with a test set of 0 or 1 case)."""
    rows = [["Paper", "Task", "Metric", "Proposed (%)", "Baseline (%)", "new_test"]]
    rows += [r[:5] + [k % 3] for k, r in enumerate(_rows())]
    _, block = _drafted(_write(tmp_path, rows))
    assert block["columns"]["wide"]["new_test"] != "n_test"


def test_small_test_sets_under_a_size_header_stay_sizes(tmp_path):
    """The guard: 'Test subjects' holding 5 to 9 (no 0): small test sets, still n_test."""
    rows = [["Paper", "Task", "Metric", "Proposed (%)", "Baseline (%)", "Test subjects"]]
    rows += [r[:5] + [5 + k % 5] for k, r in enumerate(_rows())]
    _, block = _drafted(_write(tmp_path, rows))
    assert block["columns"]["wide"]["Test subjects"] == "n_test"


def test_group_means_of_cases_and_controls_are_not_methods_values(tmp_path):
    """A psychology extraction sheet: per study the mean and SD of IQ and mental age of
    the clinical group and of the controls. The question says they are group statistics,
    never 'which is the proposed method's value'."""
    rows = [["Authors", "Year", "Sample size ID n", "Sample size controls n", "IQ ID m",
             "IQ ID sd", "IQ controls m", "IQ controls sd", "Mental age ID m",
             "Mental age controls m"]]
    rows += [[a, 2010 + k, 15 + k, 16 + k, 53.3 + k, 5.4, 101.2 + k, 9.1, 73.2 + k, 82.8 + k]
             for k, a in enumerate(_IDS)]
    d, block = _drafted(_write(tmp_path, rows))
    assert len(d.problems) == 1
    assert "groups of people" in d.problems[0]
    assert "proposed method's" not in d.problems[0]
    assert not {"value_proposed", "value_best_prior"} & set(block["columns"]["wide"].values())


def test_mean_scores_of_two_methods_are_still_asked(tmp_path):
    """The guard: 'DL mean AUC' and 'Radiologist mean AUC' (no control group named): the
    values of methods compared, asked as before."""
    rows = [["Study", "DL mean AUC", "Radiologist mean AUC"]]
    rows += [[a, 0.81 + k / 100, 0.78 + k / 100] for k, a in enumerate(_IDS)]
    d, _ = _drafted(_write(tmp_path, rows))
    assert any("values of methods compared?" in p for p in d.problems)


def test_a_yes_no_column_naming_methods_is_no_method_column(tmp_path):
    """'Open Science - open materials (analysis code and/or method)' over no / No / yes:
    whether a paper shares its materials, not the names of methods (a double-extraction
    sheet had been drafted as a results table, this column its methods)."""
    rows = [["Authors", "Open Science - open materials (analysis code and/or method)",
             "Accuracy"]]
    rows += [[a, ["no", "No", "yes"][k % 3], 0.8 + k / 100] for k, a in enumerate(_IDS)]
    g = inspect_sheet(_write(tmp_path, rows))
    assert "method" not in results_roles(g).values()


def test_a_model_column_stays_the_method(tmp_path):
    """The guard: 'Model' naming networks beside their accuracies: a results table."""
    rows = [["Paper", "Model", "Accuracy"]]
    rows += [[a, m, 0.8 + k / 100] for k, a in enumerate(_IDS[:3])
             for m in ("ResNet-50", "ViT-B")]
    g = inspect_sheet(_write(tmp_path, rows))
    assert long_kind(g) == "results" and "method" in results_roles(g).values()


def test_the_review_page_names_the_step_not_the_internal_key(tmp_path, capsys):
    """`sheet inspect --html`: a paper validated by cross-validation only is excluded at
    the step 'distinct test set', in the words of the pipeline's exclusions table; the
    table key 'no_distinct_test_set' is never shown."""
    rows = [_HEAD + ["Validation"]] + [r + ["held-out test set" if k % 2 else
                                            "5-fold cross-validation"]
                                       for k, r in enumerate(_rows())]
    page = tmp_path / "review.html"
    assert main(["sheet", "inspect", str(_write(tmp_path, rows)), "--venue", "v",
                 "--html", str(page)]) == 0
    capsys.readouterr()
    html = page.read_text(encoding="utf-8")
    assert "no_distinct_test_set" not in html
    assert "excluded at &#39;distinct test set&#39;" in html


def _records(bibtex: bool):
    titles = ["Deep nets for X", "Deep nets for X", "A study of Y", "On Z", "On Z",
              "Learning W", "Probing V"]
    rows = [["#", "Title", "Authors", "Year"] + (["Bibtex"] if bibtex else [])]
    for k, t in enumerate(titles):
        key = f"author{k}-{2018 + k % 2}-{t.split()[-1].lower()}"
        rows.append([k + 1, t, f"Author{k} and Other", 2018 + k % 2]
                    + ([f"@inproceedings{{{key}, title = {{{t}}}}}"] if bibtex else []))
    return rows


def test_distinct_bibtex_entries_keep_a_shared_title_two_papers(tmp_path):
    """A record number '#' on every row, two titles each on two rows (a workshop and a
    conference paper), and a BibTeX entry per row, all distinct: 7 papers, not 5 grouped
    by title (the title rule had won over the BibTeX column)."""
    _, block = _drafted(_write(tmp_path, _records(bibtex=True)))
    assert not block.get("group_rows_by_id")
    assert _papers(block) == 7


def test_without_bibtex_a_repeated_title_is_one_paper(tmp_path):
    """The guard: the same sheet without the BibTeX column: '#' is a record number, the
    title decides (5 papers)."""
    _, block = _drafted(_write(tmp_path, _records(bibtex=False)))
    assert _papers(block) == 5


def _extraction(reviewers):
    rows = [["Assigned to", "Authors", "Year", "IQ ID m", "Integrity", "Method"]]
    for k, a in enumerate(_IDS[:3]):
        for j, who in enumerate(reviewers):
            rows.append([who, a if j % 2 else a.split()[0], 2010 + k, 50.5 + k, j % 3, "0"])
    return rows


def test_a_double_extraction_is_asked_not_read_as_results(tmp_path):
    """Three papers each extracted by four reviewers ('Assigned to'), the authors written
    two ways: one question naming the reviewers' column and the repeated ids, and check
    stops on it (drafted as it stood, a results table of unrelated columns)."""
    d, block = _drafted(_write(tmp_path, _extraction(["Lucija", "Josefine", "Henrik", "MT"])))
    assert len(d.problems) == 1 and "double data extraction" in d.problems[0]
    assert "'Assigned to'" in d.problems[0] and "'Authors'" in d.problems[0]
    assert block["layout"] == "wide_top2" and block["papers"].endswith("s.csv")
    with pytest.raises(FalseclaimsInputError, match="still to fix .*double data extraction"):
        _papers(block)


def test_one_reviewer_per_paper_is_no_double_extraction(tmp_path):
    """The guard: a reviewer column with one name per paper row and distinct ids: papers."""
    rows = [["Reviewer", "Paper", "Task", "Metric", "Proposed (%)", "Baseline (%)"]]
    rows += [[["Ann", "Bo"][k % 2], s, "classification", "accuracy", 90.1 + k, 88.2 + k]
             for k, s in enumerate(_IDS)]
    d, _ = _drafted(_write(tmp_path, rows))
    assert not any("double data extraction" in p for p in d.problems)


def test_a_data_dictionary_first_is_passed_over(tmp_path):
    """Sheet 1 a codebook ('Variable' naming each column of sheet 2, 'Description'), the
    data on sheet 2: the codebook's rows are no papers (read as six 'papers', check OK)."""
    path = _workbook(tmp_path, [["Variable", "Description"]]
                     + [[h, f"the {h.lower()} as reported"] for h in _HEAD])
    g = inspect_sheet(path)
    assert g.sheet == "extraction"
    assert any("data dictionary" in w for w in g.warnings)
    _, block = _drafted(path)
    assert _papers(block) == len(_IDS)


def test_a_first_sheet_of_papers_beside_a_second_table_stays(tmp_path):
    """The guard: a first sheet of papers (ids, not the other sheet's column names)."""
    path = _workbook(tmp_path, [["Paper", "Notes"]] + [[s, "checked"] for s in _IDS])
    assert inspect_sheet(path).sheet == "README"
