"""Drafting failures met on held-out check 10 (docs/sheets.md, "Held-out check 10"), each
reproduced on a small synthetic sheet of the same pattern (invented values): a units row
"(patients)" under the header read as a paper without an id (the draft refused); a
risk-of-bias domain headed "measurement" (cells Low / Moderate) and a free-text
"measurement_method" drafted as the metric column; an outcome "baseline_value" beside
"post_value" (before and after one intervention) drafted as a prior method's and the
proposed method's values; text files whose rows hold more fields than the header (author
lists with unquoted commas; a column name left out) drafted with every cell shifted and
passed by ``sheet check``."""

from __future__ import annotations

import pytest

from falseclaims.errors import FalseclaimsInputError
from falseclaims.sheets import read_venue
from sheet_drafting import drafted as _drafted, write_rows as _write

_IDS = ["Chen-2022", "Kim-2021", "Patel-2022", "Liu-2023", "Singh-2023", "Garcia-2024"]


def _papers(block) -> int:
    return len(read_venue(dict(block), base_dir=".", venue="v").papers)


def _design(units_row=None):
    rows = [["Study ID", "Year", "Country", "Sample Size", "Imaging Modality", "Study Design"]]
    rows += [units_row] if units_row else []
    rows += [[s, 2020 + k % 4, ["China", "UK", "Spain"][k % 3], 800 + 97 * k,
              ["CT", "MRI"][k % 2], ["Prospective", "Retrospective"][k % 2]]
             for k, s in enumerate(_IDS)]
    return rows


def test_a_units_row_under_the_header_is_no_paper(tmp_path):
    """'(patients)' under 'Sample Size', nothing else on the row: a units row, skipped by
    its label (it had been read as a paper without an id and the draft refused)."""
    d, block = _drafted(_write(tmp_path, _design(["", "", "", "(patients)", "", ""])))
    assert not d.problems
    assert _papers(block) == len(_IDS)
    assert "units" in d.text


def test_a_row_without_an_id_naming_things_in_words_stays_a_problem(tmp_path):
    """The guard: a first row without an id holding ordinary words is a paper missing its
    id (asked), never skipped as units."""
    d, _ = _drafted(_write(tmp_path, _design(["", 2021, "Peru", 640, "CT", "Prospective"])))
    assert d.problems


def _rob():
    rows = [["study_id", "assessment_tool", "randomization", "measurement", "overall_risk"]]
    rows += [[s, ["ROB_2.0", "ROBINS_I"][k % 2], "Low", ["Low", "Moderate"][k % 2],
              ["Low", "Moderate", "High"][k % 3]] for k, s in enumerate(_IDS)]
    return rows


def test_a_measurement_header_over_risk_levels_is_no_metric(tmp_path):
    """A risk-of-bias domain 'measurement' (Low / Moderate): not the metric column."""
    _, block = _drafted(_write(tmp_path, _rob()))
    assert "metric" not in block["columns"]["wide"].values()
    assert _papers(block) == len(_IDS)


def test_a_measured_metric_column_stays_the_metric(tmp_path):
    """The guard: a 'measure' header whose cells name metrics is the metric column."""
    rows = [["study_id", "measure", "value"]]
    rows += [[s, ["Dice", "AUC"][k % 2], 0.8 + k / 100] for k, s in enumerate(_IDS)]
    _, block = _drafted(_write(tmp_path, rows))
    assert block["columns"]["wide"].get("measure") == "metric"


def _before_after(names=False):
    rows = [["study_id", "outcome_name", "measurement_method", "baseline_value", "post_value",
             "p_value", "title"] + (["method", "comparator"] if names else [])]
    rows += [[s, "mortality", "Prospective surveillance with microbiologic confirmation",
              15.2 + k, 8.7 + k, 0.013, f"A stewardship programme {k}"]
             + (["RAST", "standard care"] if names else []) for k, s in enumerate(_IDS)]
    return rows


def test_values_before_and_after_one_intervention_are_no_comparison(tmp_path):
    """'baseline_value' and 'post_value' (mortality before / after a programme) are no
    proposed method's and prior method's values, and a free-text 'measurement_method'
    is no metric: no claim is drafted from them (a question on the values may remain)."""
    _, block = _drafted(_write(tmp_path, _before_after()))
    wide = block["columns"]["wide"]
    assert wide.get("baseline_value") != "value_best_prior"
    assert wide.get("post_value") != "value_proposed"
    assert wide.get("measurement_method") in (None, "ignore")


def test_a_baseline_column_beside_named_methods_stays_the_prior_value(tmp_path):
    """The guard: with the methods named, 'baseline'/'post' headers keep their values."""
    _, block = _drafted(_write(tmp_path, _before_after(names=True)))
    assert "value_best_prior" in block["columns"]["wide"].values()


def _ragged(tmp_path, name="t.csv"):
    lines = ["study_id,design,country,events,rr_lci,rr_uci,risk"]
    lines += [f"{s},rct,Kenya,{40 + k},0.56,0.48,0.64,low" for k, s in enumerate(_IDS)]
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_rows_wider_than_the_header_are_asked_and_check_stops(tmp_path):
    """Every row one field more than the header names (the 'rr' name left out): one
    question naming the row and both counts; reading the draft stops on it."""
    d, block = _drafted(_ragged(tmp_path))
    assert len(d.problems) == 1
    assert "row 2 holds 8 fields, the header names 7" in d.problems[0]
    with pytest.raises(FalseclaimsInputError, match="still to fix .*8 fields"):
        _papers(block)


def test_one_note_past_the_header_stays_a_sheet(tmp_path):
    """The guard: one row with a stray note past the last column is no shifted table."""
    lines = ["study_id,design,country"] + [f"{s},rct,Kenya" for s in _IDS]
    lines[3] += ",see erratum"
    path = tmp_path / "n.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    d, block = _drafted(path)
    assert not any("fields" in p for p in d.problems)
