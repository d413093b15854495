"""Drafting failures met on real review sheets of other fields (docs/sheets.md), each
reproduced on a small synthetic sheet of the same pattern (invented values): citation
counts, class prevalences, annotation dates, kinds of method."""

from __future__ import annotations

import csv

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
