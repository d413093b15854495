"""Drafting failures met on the ninth blind batch of real review sheets (docs/sheets.md,
"Ninth held-out check (blind)"), each reproduced on a small synthetic sheet of the same
pattern (invented values): a double extraction (two rows per study, a running extraction
``id``) and a table of effect sizes keyed by ``publication_id`` counted by row; a rater's
check sheet keyed by PubMed links read as rows; a benchmark table of methods x data sets
with cells written 'mean(sd)' and a table of runs (classifier x data set x iteration) passed
as study-design sheets with the accuracies dropped unsaid; a totals row labelled 'Total of
included studies 2025' counted as a paper; a study's sample size drafted as the test-set
size; the metric named only by the file name (``auc.csv``) not offered."""

from __future__ import annotations

from falseclaims.sheets import read_venue
from sheet_drafting import drafted as _drafted, write_rows as _write


def _papers(block) -> int:
    return len(read_venue(dict(block), base_dir=".", venue="v").papers)


def _double_extraction(n=6):
    rows = [["id", "study_id", "read_calctype", "extract_user"]]
    for i in range(n):
        for j, user in enumerate(("SN", "TS")):
            rows.append([2 * i + j + 1, 100 + 7 * i, ["change score", "unclear"][(i + j) % 2],
                         user])
    return rows


def test_a_named_study_id_beats_a_bare_extraction_id(tmp_path):
    """Two rows per study, one per extracting researcher: the running extraction ``id``
    (unique) was the paper id, 40 rows read as 40 papers of 20 studies."""
    _, block = _drafted(_write(tmp_path, _double_extraction()))
    assert _papers(block) == 6


def test_a_bare_id_alone_stays_the_paper_id(tmp_path):
    """The guard: a bare ``id`` with no other id column stays the paper id."""
    rows = [["id", "read_calctype"]] + [[i + 1, "change score"] for i in range(8)]
    _, block = _drafted(_write(tmp_path, rows))
    assert block["columns"]["wide"].get("id") == "paper_id" or "id" not in block
    assert _papers(block) == 8


def test_a_publication_id_is_the_paper_key(tmp_path):
    """Effect sizes of originals and replications, each row naming its publication:
    no id found, ``id: row`` counted 87 rows as papers of 27 publications."""
    rows = [["effect_id", "type", "metric_reported", "size_reported", "publication_id"]]
    pubs = [3, 8, 3, 5, 8, 9, 3, 5, 12, 9]
    rows += [[10 + i // 2, ["original", "replication"][i % 2], "d", round(0.2 + i / 20, 2), p]
             for i, p in enumerate(pubs)]
    _, block = _drafted(_write(tmp_path, rows))
    assert _papers(block) == len(set(pubs))


def test_publication_links_are_the_paper_ids(tmp_path):
    """A rater's check sheet keyed by PubMed links, one link checked twice: no id column,
    rows read as papers."""
    links = [f"https://pubmed.ncbi.nlm.nih.gov/{31000000 + 17 * i}/" for i in range(9)]
    links.append(links[3])
    rows = [["link", "correct", "comments"]]
    rows += [[u, ["TRUE", "FALSE"][i % 3 == 0], ""] for i, u in enumerate(links)]
    _, block = _drafted(_write(tmp_path, rows))
    assert block.get("id") != "row"
    assert _papers(block) == 9


def test_values_written_with_their_sd_are_methods_compared(tmp_path):
    """Accuracy of four methods (columns) on data sets (rows), each cell 'mean(sd)': read
    as a study-design sheet of 'papers' with the comparison dropped unsaid."""
    rows = [["", "MLP", "FCN", "ResNet", "Encoder"]]
    rows += [[f"Data{i}", f"{60 + i}.{i}({1 + i % 3}.1)", f"{70 + i}.2(0.{i})",
              f"{72 + i}.0(1.5)", f"{50 + i}.4(2.{i})"] for i in range(8)]
    d, _ = _drafted(_write(tmp_path, rows))
    assert any("values of methods compared" in p for p in d.problems)


def test_one_value_with_its_sd_stays_a_study_design_sheet(tmp_path):
    """The guard: one 'mean(sd)' column and nothing to compare it with is no question."""
    rows = [["Study", "Accuracy"]] + [[f"S{i}", f"{60 + i}.1({i}.2)"] for i in range(8)]
    d, _ = _drafted(_write(tmp_path, rows))
    assert not any("values of methods compared" in p for p in d.problems)


def test_rows_of_runs_without_a_paper_column_are_asked(tmp_path):
    """classifier x data set x iteration with their accuracies, no paper column: every
    row was read as a paper (``id: row``), the accuracies set aside as 'one value per
    paper', and the sheet passed as a study-design sheet of 1080 papers."""
    rows = [["classifier_name", "dataset_name", "iteration", "accuracy"]]
    rows += [[c, d, it, round(0.6 + 0.01 * (i % 30), 3)]
             for i, (c, d, it) in enumerate((c, d, it) for c in ("mlp", "fcn", "resnet")
                                            for d in ("ArabicDigits", "AUSLAN")
                                            for it in range(3))]
    d, block = _drafted(_write(tmp_path, rows))
    assert any("no paper id column" in p and "accuracy" in p for p in d.problems)
    assert str(block.get("id", "")).startswith("TODO")


def test_rows_without_a_paper_column_and_no_results_still_run(tmp_path):
    """The guard: an anonymised sheet of one row per paper with categories and no result
    (id: row) still runs as a study-design sheet."""
    rows = [["Readability", "Pseudo Code", "Year"]]
    rows += [[["Good", "Low", "Ok"][i % 3], ["Yes", "No"][i % 2], 2000 + i] for i in range(9)]
    d, block = _drafted(_write(tmp_path, rows))
    assert block.get("id") == "row"
    assert not any("no paper id column" in p for p in d.problems)


def test_a_totals_label_mixing_other_words_is_no_paper(tmp_path):
    """'Total of included studies 2025' in the PMID column over counts, under numeric ids:
    counted as the 9th paper of 8."""
    rows = [["pmid", "title", "accuracy", "sensitivity"]]
    rows += [[41100000 + 13 * i, f"A title {i}", "", ""] for i in range(8)]
    rows += [["Total of included studies 2025", "", 1, 3]]
    _, block = _drafted(_write(tmp_path, rows))
    assert _papers(block) == 8


def test_a_study_sample_size_is_no_test_set_size(tmp_path):
    """'actual_sample_size' (the study's sample) was drafted as the test-set size; one
    cell '239, 702' then stopped 'sheet check'."""
    rows = [["pmid", "actual_sample_size", "actual_AUC"]]
    rows += [[33000000 + i, 80 + 11 * i, f"0.7{i}, 0.8{i}"] for i in range(9)]
    _, block = _drafted(_write(tmp_path, rows))
    assert block["columns"]["wide"]["actual_sample_size"] != "n_test"


def test_the_metric_a_file_name_names_is_offered(tmp_path):
    """The metric named only by the file name ('auc.csv'): the question said 'no header
    names it'."""
    rows = [["Study", "Radiographs", "DESR", "Conventional"]]
    rows += [[f"S{i}", 40 + i, round(0.7 + i / 40, 3), round(0.66 + i / 45, 3)]
             for i in range(8)]
    d, _ = _drafted(_write(tmp_path, rows, name="auc.csv"))
    assert any("values of methods compared" in p and "auc" in p and "file name" in p
               for p in d.problems)


def test_numbers_under_a_model_header_are_its_value_not_its_name(tmp_path):
    """'model' beside 'comparator', both holding AUCs: 'model' (0.73, 0.773) was drafted as
    the proposed method's name, so the draft asked only for the metric of 'comparator'."""
    rows = [["pmid", "n", "model", "comparator"]]
    rows += [[33000000 + i, 90 + i, round(0.7 + i / 40, 3), round(0.66 + i / 45, 3)]
             for i in range(8)]
    _, block = _drafted(_write(tmp_path, rows, name="auc.csv"))
    assert block["columns"]["wide"]["model"] == "value_proposed"


def test_names_under_a_model_header_stay_the_method_name(tmp_path):
    """The guard: method names under 'Model' stay the proposed method's name."""
    rows = [["Study", "Model", "Accuracy", "Baseline"]]
    rows += [[f"S{i}", f"Net{i}", round(0.8 + i / 100, 3), round(0.78 + i / 100, 3)]
             for i in range(8)]
    _, block = _drafted(_write(tmp_path, rows))
    assert block["columns"]["wide"]["Model"] == "name_proposed"


def test_a_second_table_below_the_first_is_refused(tmp_path):
    """A summary per extractor under a double extraction, after an empty row: its header
    and rows were read as 4 more papers."""
    rows = _double_extraction() + [[], ["extract_user", "n_extractions"], ["SN", 6],
                                   ["TS", 6]]
    d, block = _drafted(_write(tmp_path, rows))
    assert any("a second table starts at row" in p for p in d.problems)
    assert block["columns"]["wide"]["study_id"].startswith("TODO")


def test_rows_after_an_empty_row_stay_papers(tmp_path):
    """The guard: an empty row inside a table, papers below it as wide as above."""
    rows = _double_extraction()
    rows = rows[:5] + [[]] + rows[5:]
    d, _ = _drafted(_write(tmp_path, rows))
    assert not any("a second table" in p for p in d.problems)


def test_a_record_numbering_publication_id_leaves_the_doi_the_id(tmp_path):
    """The guard: a Dimensions export's 'Publication ID' (pub.1154305577, one per record)
    beside a DOI on every row, two records titled alike ('Editorial'): the DOI stays the
    paper id and every record a paper (a first version of the publication-id rule grouped
    them by title: 693 papers of 729)."""
    rows = [["Rank", "Publication ID", "DOI", "Title"]]
    rows += [[i + 1, f"pub.11543{i:05d}", f"10.1016/j.x.2023.{i:03d}",
              "Editorial" if i in (2, 5) else f"Title {i}"] for i in range(9)]
    _, block = _drafted(_write(tmp_path, rows))
    assert _papers(block) == 9


def _rated(second):
    rows = [["Study", "n_test", "Statistical test", "Statistical test"]]
    rows += [[f"S{i}", 40 + i, "t-test" if i % 2 else "none", second(i)] for i in range(8)]
    return rows


def test_two_raters_copies_of_one_column_are_asked(tmp_path):
    """Two raters' copies of one column ('Statistical test' twice, the second rater
    disagreeing on two papers): the first was mapped by its letter, the second ignored."""
    d, block = _drafted(_write(tmp_path, _rated(
        lambda i: "t-test" if i % 2 or i in (2, 4) else "none")))
    assert any("two raters' copies" in p and "statistical_test" in p for p in d.problems)
    assert any(str(v).startswith("TODO") for v in block["columns"]["wide"].values())


def test_identical_copies_of_one_column_keep_the_first(tmp_path):
    """The guard: an exported column twice with the same cells is one column."""
    d, block = _drafted(_write(tmp_path, _rated(lambda i: "t-test" if i % 2 else "none")))
    assert not any("two raters' copies" in p for p in d.problems)
    assert "statistical_test" in block["columns"]["wide"].values()
