"""Drafting failures met on real review sheets of other fields (docs/sheets.md), each
reproduced on a small synthetic sheet of the same pattern (invented values): citation
counts, class prevalences, annotation dates, kinds of method."""

from __future__ import annotations

import csv

import pytest

from falseclaims.sheets.draft.inspect import inspect_sheet


def _roles(tmp_path, rows):
    path = tmp_path / "s.csv"
    with open(path, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(rows)
    return {c.name: c for c in inspect_sheet(path).columns}


def test_counts_and_population_descriptions_are_no_sizes_or_results(tmp_path):
    rows = [["Title", "Citations", "frailty_prevalence_pct", "date_annotated", "Test n"]]
    rows += [[f"Paper {i}", str(3 * i + 1), f"Robust 3{i}.3; Pre-frail 41.4; Frail 2{i}.3",
              f"2{i}/08/20", str(100 + i)] for i in range(8)]
    c = _roles(tmp_path, rows)
    assert c["Citations"].role == "(ignore)"  # a citation count is not the test-set size
    assert c["frailty_prevalence_pct"].role == "(ignore)"  # not methods with values
    assert c["date_annotated"].role == "(ignore)" and not c["date_annotated"].split_sizes
    assert c["Test n"].role == "n_test"


def test_a_kind_of_method_is_not_the_compared_method(tmp_path):
    rows = [["Study", "Method", "feature_selection_method", "Best model", "AUROC ours",
             "AUROC baseline"]]
    kinds = ["1. Classical Machine Learning", "2. Deep Learning", "3. Ensemble"]
    rows += [[f"Lee {2010 + i}", kinds[i % 3], f"RF variable importance {i}", f"XGB-{i}",
              f"0.8{i}", f"0.7{i}"] for i in range(9)]
    c = _roles(tmp_path, rows)
    assert c["Method"].role not in ("name_proposed", "name_best_prior")
    assert c["feature_selection_method"].role not in ("name_proposed", "name_best_prior")
    assert c["AUROC ours"].role == "value_proposed"
    assert c["AUROC baseline"].role == "value_best_prior"


def test_flags_shares_and_running_numbers_are_no_sizes(tmp_path):
    """Held-out sheets: 0/1 flag columns headed `train` / `test` (does the paper describe
    its test set?), test shares `Test (%)` and a running number 1, 2, 3, ... were drafted as
    test-set sizes; a `hypothesis` flag (a hypothesis stated) as the statistical test."""
    rows = [["benchmark_number", "Title", "train", "test", "hypothesis", "Test (%)",
             "statistical test", "Test n"]]
    rows += [[str(i + 1), f"Paper {i}", str(i % 2), str((i + 1) % 2), str(i % 2),
              str(10 + 5 * (i % 3)), "yes" if i % 2 else "no", str(200 + 7 * i)]
             for i in range(9)]
    c = _roles(tmp_path, rows)
    assert c["train"].role == "(ignore)" and c["test"].role == "(ignore)"
    assert c["Test (%)"].role == "(ignore)"
    assert c["benchmark_number"].role not in ("n_test", "n_train", "n_val")
    assert c["hypothesis"].role != "statistical_test"
    assert c["statistical test"].role == "statistical_test"
    assert c["Test n"].role == "n_test"


def _long(tmp_path, metric, values, key="Key"):
    rows = [[key, "Identifier", "Model", "Test (%)", "Rank within study", metric]]
    rows += [[f"K{i // 3}", f"Author{i // 3}, 20{10 + i // 3}", ["ARIMA", "RF", "LSTM"][i % 3],
              "25", str(i % 3 + 1), values(i)] for i in range(12)]
    path = tmp_path / "pme.csv"
    with open(path, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(rows)
    return path


def test_a_long_table_holding_its_paper_columns_is_both_tables(tmp_path):
    """A held-out results table (one row per paper x model, a paper key on every row, a
    rank within the study, the test share in percent) with no papers table: it was drafted
    NOT READY, naming the missing papers table. The one sheet is now both tables; the rank
    and the share are no sizes. 4 papers of 3 models each, by construction."""
    import yaml

    from falseclaims.sheets import read_venue
    from falseclaims.sheets.draft.draft import draft_config

    path = _long(tmp_path, "Accuracy", lambda i: f"0.{70 + i}")
    g = inspect_sheet(path)
    c = {col.name: col for col in g.columns}
    assert c["Rank within study"].role == "(ignore)" and c["Test (%)"].role == "(ignore)"
    d = draft_config(g, "v", str(path))
    assert not d.text.startswith("# NOT READY") and not d.problems
    block = yaml.safe_load(d.text)["venues"]["v"]
    assert block["papers"] == block["results"] == str(path)
    s = read_venue(block, ".", "v")
    assert sorted(s.papers["paper_id"]) == ["K0", "K1", "K2", "K3"]
    assert len(s.results) == 12 and set(s.results["metric"]) == {"accuracy"}


def test_an_error_metric_is_never_the_value_of_a_probability(tmp_path):
    """The same table reporting RMSE (lower is better): RMSE was drafted as the value of a
    score read as higher-is-better. Now no value is drafted, the draft says why (no
    probability) and reads the sheet as the study design of its 4 papers."""
    import yaml

    from falseclaims.sheets import read_venue
    from falseclaims.sheets.draft.draft import draft_config

    path = _long(tmp_path, "RMSE", lambda i: f"{1.2 + 0.1 * i:.2f}")
    d = draft_config(inspect_sheet(path), "v", str(path))
    assert not d.text.startswith("# NOT READY") and not d.problems
    assert "no probability: RMSE is an error metric (lower is better)" in d.text
    block = yaml.safe_load(d.text)["venues"]["v"]
    assert block["columns"]["wide"]["RMSE"] == "ignore" and "results" not in block
    s = read_venue(block, ".", "v")
    assert sorted(s.papers["paper_id"]) == ["K0", "K1", "K2", "K3"] and s.results.empty


def _observations(tmp_path, metrics):
    """A benchmark review's shape: one row per paper x data set x tool, metric values."""
    rows = [["doi", "dataset_id", "tool_name_clean", *metrics, "truth_total"]]
    rows += [[f"doi.org/10.1/b{i // 6}", f"Dataset{i // 6}.{i % 2}", ["Arriba", "STAR-Fusion",
              "JAFFA"][i % 3], *[f"0.{70 + 5 * k + i}" for k in range(len(metrics))], "500"]
             for i in range(12)]
    path = tmp_path / "obs.csv"
    with open(path, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(rows)
    return path


def test_metric_values_left_unmapped_are_not_a_study_design_sheet(tmp_path):
    """A held-out benchmark review keeps one row per paper x data set x tool: drafted as a
    study-design sheet, values of a metric the probability model reads (accuracy) would be
    dropped: the draft says NOT READY and names the columns. Recall, precision and F1 have
    no probability model (falseclaims.metrics): nothing is lost, the draft runs as study
    design, says so in one remark and takes the task the metrics name (classification); a
    sheet of metric names only (no values) stays a study-design sheet."""
    from falseclaims.sheets import read_venue
    from falseclaims.sheets.draft.draft import draft_config

    path = _observations(tmp_path, ["accuracy", "balanced_acc"])
    d = draft_config(inspect_sheet(path), "v", str(path))
    assert d.text.startswith("# NOT READY TO RUN")
    assert any("results would be lost" in p and "'accuracy'" in p for p in d.problems)
    path = _observations(tmp_path, ["recall", "precision", "f1_score"])
    d = draft_config(inspect_sheet(path), "v", str(path))
    assert not d.problems and not d.text.startswith("# NOT READY")
    said = [r for r in d.remarks if r.startswith("no probability")]
    assert len(said) == 1 and all(f"'{m}'" in said[0] for m in ("recall", "precision",
                                                                  "f1_score"))
    block = d.config["venues"]["v"]
    assert block["constants"]["task"] == "classification"
    s = read_venue(dict(block, papers=str(path)), ".", "v")
    assert s.papers["paper_id"].nunique() == 2 and s.results.empty
    design = tmp_path / "design.csv"
    with open(design, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows([["Title", "Performance metrics", "Dataset"]]
                                 + [[f"Paper {i}", "accuracy; F1", f"D{i}"] for i in range(8)])
    d = draft_config(inspect_sheet(design), "v", str(design))
    assert not d.problems


def test_a_free_text_split_protocol_is_drafted_as_split_with_every_cell_listed(tmp_path):
    """Held-out sheets carry the split as free text under headers such as `Train/Val/Test
    Split Protocol` or `validation` (read as sizes, then ignored as "a size header over text
    cells"). The draft now maps the column to split with values: rules; cells that name no
    split are unclear, never guessed; each cell's category is listed in the draft. The
    expected categories are assigned by hand from the cells' words (config/README.md)."""
    import yaml

    from falseclaims.sheets import read_venue
    from falseclaims.sheets.draft.draft import draft_config

    by_hand = {"10-fold cross-validation": "cv_only", "5-fold CV": "cv_only",
               "70/30 holdout": "train_test", "train/test split": "train_test",
               "external test set": "train_test", "not reported": "unclear",
               "5-fold CV + independent test set": "cv_plus_test",
               "train/val/test": "train_val_test", "leave-one-out": "cv_only",
               "random split": "unclear"}
    for header in ("Train/Val/Test Split Protocol", "validation", "evaluation protocol"):
        rows = [["Title", "Year", header, "Accuracy ours", "Accuracy baseline", "Test n"]]
        rows += [[f"Paper {i}", str(2015 + i), cell, f"0.8{i}", f"0.7{i}", str(100 + 13 * i)]
                 for i, cell in enumerate(by_hand)]
        path = tmp_path / "s.csv"
        with open(path, "w", newline="", encoding="utf-8") as fh:
            csv.writer(fh).writerows(rows)
        g = inspect_sheet(path)
        assert {c.name: c.role for c in g.columns}[header] == "split", header
        d = draft_config(g, "v", str(path))
        block = yaml.safe_load(d.text)["venues"]["v"]
        assert block["columns"]["wide"][header] == "split"
        assert "split" in block["values"] and "derive" not in block
        for cell, cat in by_hand.items():  # every mapping stated in the draft's comments
            assert f"#   split {cell!r} -> {cat}" in d.text, (header, cell)
        papers = read_venue(block, ".", "v").papers.set_index("title")
        assert {cell: papers.loc[f"Paper {i}", "split"]
                for i, cell in enumerate(by_hand)} == by_hand


def test_a_split_header_over_other_text_is_not_a_split_column(tmp_path):
    """Free text under a split-like header that names no split (software, notes) stays
    unmapped: the split column needs at least half its cells to say a split."""
    rows = [["Title", "evaluation protocol", "Test n"]]
    rows += [[f"Paper {i}", f"scored with tool {i} by two raters", str(100 + i)]
             for i in range(8)]
    c = _roles(tmp_path, rows)
    assert c["evaluation protocol"].role == "(ignore)"
    assert not c["evaluation protocol"].values


def test_a_metric_name_inside_another_word_names_no_metric(tmp_path):
    """Held-out remote-sensing review: the header 'indices' holds 'dice', so the draft set
    metric: dsc, task: segmentation on a sheet of overall accuracies and took 'indices' (0/1)
    as the value column; 'previous' holds 'iou'. A share of the majority class is no result."""
    from falseclaims.sheets.draft.draft import draft_config

    rows = [["DOI", "indices", "previous_studies", "fraction_majority_class", "OA_reported"]]
    rows += [[f"10.1/x{i // 2}", str(i % 2), f"{i} studies", f"0.{40 + i}", f"0.{80 + i}"]
             for i in range(10)]
    path = tmp_path / "rs.csv"
    with open(path, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(rows)
    g = inspect_sheet(path)
    roles = {c.name: c.role for c in g.columns}
    assert roles["indices"] != "value_proposed"
    assert roles["fraction_majority_class"] == "(ignore)"
    d = draft_config(g, "v", str(path))
    constants = d.config["venues"]["v"].get("constants", {})
    assert "metric" not in constants and "task" not in constants
    assert not any("dsc" in r or "segmentation" in r for r in d.remarks)


def test_data_cells_merged_across_columns_refuse_in_one_problem(tmp_path):
    """Held-out emotion-recognition review: a sheet laid out for reading (results merged
    across metric columns, stacked sub-tables with merged group labels) gave 221 problems,
    one per merged range and then every id they broke. It is refused in one problem naming
    how many ranges, in which rows, and what the sheet needs; the draft says NOT READY with
    that one reason."""
    import openpyxl

    from falseclaims.sheets import read_venue
    from falseclaims.sheets.draft.draft import draft_config
    from falseclaims.sheets.read.errors import SheetValidationError

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["Paper ID", "Title", "Accuracy", "F-score", "Recall"])
    for i in range(8):
        ws.append([f"P{i}", f"Paper {i}", 0.8 + i / 100, 0.7, 0.6])
    ws.merge_cells("C4:E4")  # one result over three metric columns
    ws.append([])
    for r, label in ((12, "High valenced"), (13, "MELD"), (14, "Audio only")):
        ws.cell(r, 1, label)
        ws.cell(r, 2, "Group")
        ws.merge_cells(f"B{r}:D{r}")
    path = tmp_path / "laid_out.xlsx"
    wb.save(path)
    block = {"papers": str(path), "layout": "wide_top2", "units": "fraction",
             "columns": {"wide": {"Paper ID": "paper_id", "Title": "title"}}}
    with pytest.raises(SheetValidationError) as e:
        read_venue(block, ".", "v")
    assert len(e.value.problems) == 1
    text = str(e.value.problems[0])
    assert "4 merged range(s)" in text and "rows 4-14" in text and "C4:E4" in text
    d = draft_config(inspect_sheet(path), "v", str(path))
    assert d.text.startswith("# NOT READY TO RUN")
    assert len(d.problems) == 1 and "merged range(s)" in d.problems[0]


def test_value_columns_naming_no_metric_refuse_in_one_line(tmp_path):
    """Held-out review of LLM judges: an 'agreement' and a 'human_baseline' column (values,
    no metric named anywhere) gave a draft whose reading failed twice in six lines (metric,
    then task); the draft names what is missing in one line."""
    from falseclaims.sheets.draft.draft import draft_config

    rows = [["id", "method", "agreement", "human_baseline"]]
    rows += [[f"s{i}", f"Qual coding {i % 2}", f"0.{50 + i}", f"0.{40 + i}"] for i in range(8)]
    path = tmp_path / "judges.csv"
    with open(path, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(rows)
    d = draft_config(inspect_sheet(path), "v", str(path))
    assert d.text.startswith("# NOT READY TO RUN")
    assert len(d.problems) == 1 and d.problems[0].startswith("no metric:")
    assert "'agreement'" in d.problems[0] and "constants: {metric" in d.problems[0]


def test_a_trial_number_is_the_key_of_a_diagnostic_accuracy_sheet(tmp_path):
    """Held-out diagnostic-test-accuracy sheet: one row per study, 2x2 counts, `Trial`
    (1, 2, 3, ...) the only key. The running number was set aside as no size and no id was
    left: `id: row` and, every column ignored, 0 papers read. `Trial` is the paper id."""
    from falseclaims.sheets import read_venue
    from falseclaims.sheets.draft.draft import draft_config

    rows = [["Trial", "TP", "FN", "TN", "FP", "Modality"]]
    rows += [[str(i + 1), str(90 + i), str(7 + i), str(399 - i), str(1 + i), "Xp"]
             for i in range(6)]
    path = tmp_path / "dta.csv"
    with open(path, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(rows)
    d = draft_config(inspect_sheet(path), "v", str(path))
    block = d.config["venues"]["v"]
    assert block["columns"]["wide"]["Trial"] == "paper_id" and "id" not in block
    s = read_venue(dict(block, papers=str(path)), ".", "v")
    assert sorted(s.papers["paper_id"].astype(str)) == [str(i) for i in range(1, 7)]
    # the block drafted before: every column ignored, `id: row` still numbers the 6 rows
    ignored = dict(block, papers=str(path), id="row",
                   columns={"wide": dict.fromkeys(rows[0], "ignore")})
    s = read_venue(ignored, ".", "v")
    assert s.papers["paper_id"].tolist() == [f"row {r}" for r in range(2, 8)]
