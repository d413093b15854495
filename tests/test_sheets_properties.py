"""Property tests (hypothesis): valid sheets never crash; invalid cells are always named."""

from __future__ import annotations

import csv

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from falseclaims.sheets import SheetValidationError, read_venue
from falseclaims.sheets.schema import load_schema, table_to_records

jsonschema = pytest.importorskip("jsonschema")

SETTINGS = settings(max_examples=20, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])

bools = st.sampled_from(["yes", "no", "Y", "n", "TRUE", "false", "1", "0", ""])
splits = st.sampled_from(["train_test", "train_val_test", "cv_only", "cv_plus_test", "unclear",
                          "Train/Test", ""])
sizes = st.one_of(st.integers(1, 10**6).map(str),
                  st.integers(1000, 999_999).map(lambda n: f"{n:,}"), st.just(""))
fractions = st.floats(0, 1, allow_nan=False).map(lambda x: f"{x:.3f}")
messy_fractions = st.tuples(fractions, st.sampled_from(["{}", " {} ", "{} ± 0.02", "{} (0.01)",
                                                        "\u00a0{}"])).map(
    lambda t: t[1].format(t[0]))


@st.composite
def valid_sheet(draw):
    n = draw(st.integers(1, 6))
    papers = [["paper_id", "task", "in_scope", "split", "cv_folds", "n_test", "statistical_test"]]
    results = [["paper_id", "method", "metric", "value", "sd", "sd_over", "n_test"]]
    for i in range(n):
        split = draw(splits)
        folds = str(draw(st.integers(2, 10))) if "cv" in split else ""
        papers.append([f"p{i}", draw(st.sampled_from(["classification", "Segmentation"])),
                       draw(bools), split, folds, draw(sizes), draw(bools)])
        for m in range(draw(st.integers(0, 3))):
            results.append([f"p{i}", f"m{m}", draw(st.sampled_from(["accuracy", "DSC", "auc"])),
                            draw(messy_fractions), "", draw(st.sampled_from(["", "test", "cv"])),
                            draw(sizes)])
    return papers, results


def _write(tmp_path, papers, results):
    for name, rows in (("p.csv", papers), ("r.csv", results)):
        with open(tmp_path / name, "w", newline="", encoding="utf-8") as fh:
            csv.writer(fh).writerows(rows)
    return {"papers": "p.csv", "results": "r.csv", "layout": "long", "units": "fraction"}


@SETTINGS
@given(sheet=valid_sheet())
def test_random_valid_sheets_read_and_match_schema(tmp_path, sheet):
    papers, results = sheet
    s = read_venue(_write(tmp_path, papers, results), base_dir=tmp_path, venue="h")
    assert len(s.papers) == len(papers) - 1 and len(s.results) == len(results) - 1
    assert s.results["value"].between(0, 1).all()
    # the vectorised schema check agrees with jsonschema itself
    for name, df in (("papers", s.papers), ("results", s.results)):
        validator = jsonschema.Draft202012Validator(load_schema(name))
        for rec in table_to_records(df):
            validator.validate(rec)


BAD_CELLS = {
    "task": st.sampled_from(["detection", "cls?", "42"]),
    "in_scope": st.sampled_from(["maybe", "2", "yess", "unclear"]),
    "split": st.sampled_from(["holdout", "k-fold?", "test only"]),
    "n_test": st.sampled_from(["12.5", "0,853", "1.234", "-3", "0", "about 50", "1e3"]),
    "value": st.sampled_from(["high", "0.9.1", "1.5", "-0.2", "0.8 0.1", "0,8.1", "80%%x"]),
    "sd_over": st.sampled_from(["patients", "bootstrap"]),
}


@SETTINGS
@given(sheet=valid_sheet(), column=st.sampled_from(sorted(BAD_CELLS)), data=st.data())
def test_random_invalid_cell_is_named(tmp_path, sheet, column, data):
    papers, results = sheet
    table = results if column in ("value", "sd_over") else papers
    assume(len(table) > 1)
    j = table[0].index(column)
    i = data.draw(st.integers(1, len(table) - 1))
    bad = data.draw(BAD_CELLS[column])
    table[i][j] = bad
    with pytest.raises(SheetValidationError) as exc:
        read_venue(_write(tmp_path, papers, results), base_dir=tmp_path)
    file = "p.csv" if table is papers else "r.csv"
    assert any(p.file == file and p.row == i + 1 and p.column == column
               for p in exc.value.problems), str(exc.value)
    assert f"row {i + 1}" in str(exc.value)
