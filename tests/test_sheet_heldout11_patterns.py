"""Drafting failures met on held-out check 11 (docs/sheets.md, "Held-out check 11"), each
reproduced on a small synthetic sheet of the same pattern (invented values): a results
file without a header row (its first paper read as the column names, a packed
'task#dataset#metric#score' name giving the metric, the rest passed as papers); a
meta-analysis's pooled estimates ('k' studies, '0.29 [0.24, 0.34]') passed as papers with
'k' as the test-set size; a test-set size column holding 'n=120', '1,570' and '~194' set
aside as text; effect sizes and test statistics (correlations, standard errors, p values)
and a score with its reproduction offered as the values of methods compared."""

from __future__ import annotations

import pytest

from falseclaims.errors import FalseclaimsInputError
from falseclaims.sheets import read_venue
from sheet_drafting import drafted as _drafted, write_rows as _write

_IDS = ["Chen 2019", "Kim 2020", "Patel 2021", "Liu 2021", "Singh 2022", "Garcia 2023",
        "Okafor 2023"]


def _papers(block) -> int:
    return len(read_venue(dict(block), base_dir=".", venue="v").papers)


def test_a_file_without_a_header_row_is_asked_and_check_stops(tmp_path):
    """Every line a paper: a pdf name and its results packed as task#data#metric#score
    joined by '$'. The first line is no header: one question, and reading stops on it."""
    rows = [[f"{1700 + k}.0{k}95{k}.pdf" if k % 2 else f"P1{k}-10{k}.pdf",
             f"ner#CoNLL 2003#F1#9{k}.{k}$pos#PTB#Accuracy#97.{k}"] for k in range(8)]
    d, block = _drafted(_write(tmp_path, rows, "results.tsv", "\t"))
    assert len(d.problems) == 1 and "no header row" in d.problems[0]
    assert "'.pdf'" in d.problems[0] and "'#'" in d.problems[0]
    with pytest.raises(FalseclaimsInputError, match="still to fix .*no header row"):
        _papers(block)


def test_names_holding_numbers_stay_the_header(tmp_path):
    """The guard: every name holds a digit ('Model v2', 'AUC@0.5'), but none is shaped
    like its cells: the header."""
    rows = [["Model v2", "AUC@0.5"]] + [[f"Net-{k}", 0.8 + k / 100] for k in range(6)]
    d, _ = _drafted(_write(tmp_path, rows))
    assert not any("no header row" in p for p in d.problems)


def _pooled(with_id=False):
    rows = [(["Study"] if with_id else []) + ["Outcome", "Setting", "k", "n", "Naive.FE",
                                              "Naive.RE"]]
    rows += [([s] if with_id else []) +
             [["AggAff", "AggBeh", "AggCog"][i % 3], ["Exp", "Nonexp"][i % 2], 12 + i,
              900 + 71 * i, f"0.{20 + i} [0.{15 + i}, 0.{25 + i}]",
              f"0.{22 + i} [0.{14 + i}, 0.{30 + i}]"] for i, s in enumerate(_IDS)]
    return rows


def test_pooled_estimates_are_asked_not_read_as_papers(tmp_path):
    """Rows of pooled estimates (k studies each, estimate [interval]) and no paper column:
    one question naming 'k' and a packed estimate, and reading stops; 'k' is no size."""
    d, block = _drafted(_write(tmp_path, _pooled()))
    assert len(d.problems) == 1 and "pooled estimates" in d.problems[0]
    assert "'k'" in d.problems[0] and "0.20 [0.15, 0.25]" in d.problems[0]
    assert block["columns"]["wide"].get("k") != "n_test"
    with pytest.raises(FalseclaimsInputError, match="still to fix .*pooled estimates"):
        _papers(block)


def test_studies_with_their_intervals_stay_papers(tmp_path):
    """The guard: a paper column beside the same cells: papers, not pooled estimates."""
    d, block = _drafted(_write(tmp_path, _pooled(with_id=True)))
    assert not any("pooled estimates" in p for p in d.problems)
    assert block["columns"]["wide"].get("Study") == "paper_id"


def _sizes(cells):
    rows = [["Paper", "Task", "Metric", "Proposed (%)", "Best baseline (%)", "Test set (n)"]]
    rows += [[s, "classification", "accuracy", 90.1 + k, 88.2 + k, c]
             for k, (s, c) in enumerate(zip(_IDS, cells))]
    return rows


def test_sizes_written_loosely_are_the_test_set_size(tmp_path):
    """'n=120', '1,570', '~194' under a test-set size header: the test-set size column;
    'n=120' and '1,570' read, '~194' (approximate) refused naming the cell, never 194."""
    cells = ["n=120", "1,570", "~194", "n=231", "2,680", "~305", "n=342"]
    d, block = _drafted(_write(tmp_path, _sizes(cells)))
    assert block["columns"]["wide"]["Test set (n)"] == "n_test"
    assert "got '~194'" in d.text and "got '~305'" in d.text
    assert "got 'n=120'" not in d.text and "got '1,570'" not in d.text


def test_a_protocol_under_a_test_set_header_stays_no_size(tmp_path):
    """The guard: free text naming the protocol under a test-set header is no size."""
    cells = ["held-out 20%", "external cohort", "hold-out split", "20% held out",
             "external site", "held-out 30%", "temporal split"]
    _, block = _drafted(_write(tmp_path, _sizes(cells)))
    assert block["columns"]["wide"].get("Test set (n)") != "n_test"


def test_effect_sizes_are_not_offered_as_values_of_methods(tmp_path):
    """A meta-analysis's effect sizes and statistics (correlation, standard error, p):
    the question says what they are, never asks which is the proposed method's."""
    rows = [["ID", "Study.name", "Sample.size", "Correlation", "Std.Err", "p.twotail",
             "confidence_interval_lower"]]
    rows += [[k + 1, f"A{k}AB", 60 + 17 * k, 0.012 + k / 50, 0.13 - k / 100, 0.4 + k / 50,
              k / 60 - 0.05] for k in range(7)]
    d, _ = _drafted(_write(tmp_path, rows))
    assert len(d.problems) == 1 and "effect sizes and test statistics" in d.problems[0]
    assert "'Correlation'" in d.problems[0] and "'p.twotail'" in d.problems[0]
    assert "'confidence_interval_lower'" in d.problems[0].split(" hold ")[0]
    assert "which is the proposed" not in d.problems[0]


def test_a_score_and_its_reproduction_are_no_comparison(tmp_path):
    """A score as first reported and as reproduced (a reproducibility survey): one
    method, no comparison; the question says so."""
    rows = [["Original paper", "Reproduction paper", "Original_score", "Reproduction_score"]]
    rows += [[s, f"Repro {k}", 80.35 + k, 79.42 + k] for k, s in enumerate(_IDS)]
    d, _ = _drafted(_write(tmp_path, rows))
    assert len(d.problems) == 1 and "as reproduced" in d.problems[0]
    assert "which is the proposed" not in d.problems[0]


def test_two_methods_values_are_still_asked(tmp_path):
    """The guard: two number columns naming methods stay the values-compared question."""
    rows = [["Study", "DESR", "Conventional"]]
    rows += [[s, 0.81 + k / 100, 0.77 + k / 100] for k, s in enumerate(_IDS)]
    d, _ = _drafted(_write(tmp_path, rows))
    assert any("values of methods compared?" in p for p in d.problems)
