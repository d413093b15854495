"""Drafting failures met on the eighth blind batch of real review sheets (docs/sheets.md,
"Eighth held-out check (blind)"), each reproduced on a small synthetic sheet of the same
pattern (invented values): two value columns named by the methods they compare ('DESR',
'Conventional'; no header names the metric or the proposed method) drafted as a study-design
sheet that passed 'sheet check' with the comparison dropped unsaid; a totals row labelled in
the paper-id column counted as a paper; a workbook whose first sheet holds notes only."""

from __future__ import annotations

import openpyxl

from falseclaims.sheets import read_venue
from falseclaims.sheets.draft.inspect import inspect_sheet
from sheet_drafting import drafted as _drafted, write_rows as _write

_STUDIES = [f"Author{i} et al. ({1995 + i})" for i in range(8)]


def _two_methods(header=("Study", "Radiographs", "DESR", "Conventional")):
    rows = [list(header)]
    rows += [[s, 40 + 9 * i, round(0.70 + i / 40, 3), round(0.66 + i / 45, 3)]
             for i, s in enumerate(_STUDIES)]
    return rows


def test_two_value_columns_named_by_method_are_asked_not_dropped(tmp_path):
    """A meta-analysis table of one row per study with the AUC of the new technique and
    of the conventional one side by side, the metric named only in the file name: the
    draft ran as a study-design sheet ('OK, 18 papers, 0 results rows')."""
    d, block = _drafted(_write(tmp_path, _two_methods()))
    assert any("values of methods compared" in p and "name the metric" in p
               for p in d.problems)
    assert block["columns"]["wide"]["DESR"].startswith("TODO")


def test_one_metric_under_two_method_names_is_asked_with_the_metric(tmp_path):
    """The same sheet with a merged 'AUC' header over both columns ('AUC DESR', 'AUC
    Conventional' once combined): the metric is named, which is the proposed one is not."""
    d, block = _drafted(_write(tmp_path, _two_methods(
        ("Study", "Radiographs", "AUC DESR", "AUC Conventional"))))
    assert any("values of methods compared" in p and "check the metric (auc" in p
               for p in d.problems)
    assert block["columns"]["wide"]["AUC DESR"].startswith("TODO")


def test_a_single_value_column_stays_a_study_design_sheet(tmp_path):
    """The guard: one value per paper and nothing to compare it with is no question."""
    rows = [["Study", "Radiographs", "AUC"]]
    rows += [[s, 40 + i, round(0.7 + i / 40, 3)] for i, s in enumerate(_STUDIES)]
    d, _ = _drafted(_write(tmp_path, rows))
    assert not any("values of methods compared" in p for p in d.problems)


def test_columns_naming_different_metrics_are_no_methods_compared(tmp_path):
    """The guard: 'Sensitivity' and 'Specificity' side by side are two metrics of one
    method, not two methods."""
    d, _ = _drafted(_write(tmp_path, _two_methods(
        ("Study", "Radiographs", "Sensitivity", "Specificity"))))
    assert not any("values of methods compared" in p for p in d.problems)


def test_numbered_categories_are_no_methods_compared(tmp_path):
    """The guard: ratings written '3. (+) statement', '1. (none) comments' (a number
    leading a category) in two columns are no values of two methods."""
    rows = [["Paper ID", "Statement", "Comments"]]
    rows += [[f"P{i}", f"{2 + i % 3}. (+) statement", f"{2 + (i + 1) % 3}. (-) comments"]
             for i in range(10)]
    d, _ = _drafted(_write(tmp_path, rows))
    assert not any("values of methods compared" in p for p in d.problems)


def test_a_totals_row_labelled_in_the_id_column_is_no_paper(tmp_path):
    """'Total / pooled' under the studies, in the study column, with numbers beside it:
    counted as the 19th paper of 18."""
    rows = [["Study", "n_test", "Accuracy"]]
    rows += [[s, 40 + i, round(0.7 + i / 40, 3)] for i, s in enumerate(_STUDIES)]
    rows += [["Total / pooled", 400, 0.78], ["Pooled (random effects)", "", 0.77]]
    _, block = _drafted(_write(tmp_path, rows))
    assert len(read_venue(dict(block), base_dir=".", venue="v").papers) == len(_STUDIES)


def test_a_paper_named_with_a_summary_word_stays_a_paper(tmp_path):
    """The guard: a label made of summary words only is a totals row; a study named
    'Mean Teacher' or 'Overall survival' is a paper."""
    rows = [["Study", "n_test", "Accuracy"]]
    rows += [[s, 40 + i, round(0.7 + i / 40, 3)] for i, s in enumerate(_STUDIES)]
    rows += [["Mean Teacher", 50, 0.8], ["Overall survival", 60, 0.81]]
    _, block = _drafted(_write(tmp_path, rows))
    assert len(read_venue(dict(block), base_dir=".", venue="v").papers) == len(_STUDIES) + 2


def test_a_notes_first_sheet_is_passed_over_for_the_table(tmp_path):
    """A workbook whose first sheet holds one line of notes: the draft read that sheet,
    found no rows and stopped ('the sheet has only its header')."""
    wb = openpyxl.Workbook()
    wb.active.title = "README"
    wb.active["A1"] = "Data of the review; the table follows"
    ws = wb.create_sheet("studies")
    ws.append(["Study", "n_test", "Accuracy", "Best prior accuracy"])
    for i, s in enumerate(_STUDIES):
        ws.append([s, 40 + i, round(0.8 + i / 50, 3), round(0.78 + i / 50, 3)])
    path = tmp_path / "w.xlsx"
    wb.save(path)
    g = inspect_sheet(path)
    assert g.sheet == "studies" and g.n_rows == len(_STUDIES)
    assert any("README" in w for w in g.warnings)
    _, block = _drafted(path)
    assert block["papers_sheet"] == "studies"
    assert len(read_venue(dict(block), base_dir=str(tmp_path), venue="v").papers) == 8
