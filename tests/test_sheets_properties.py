"""Property tests (hypothesis): valid sheets never crash; invalid cells are always named."""

from __future__ import annotations

import csv

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from falseclaims.sheets import SheetValidationError, read_venue
from falseclaims.sheets.read.schema import load_schema

jsonschema = pytest.importorskip("jsonschema")

SETTINGS = settings(max_examples=20, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])

bools = st.sampled_from(["yes", "no", "Y", "n", "TRUE", "false", "1", "0", ""])
splits = st.sampled_from(["train_test", "train_val_test", "cv_only", "cv_plus_test", "unclear",
                          "Train/Test", ""])
sizes = st.one_of(st.integers(2, 10**6).map(str),
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
    "n_test": st.sampled_from(["12.5", "0,853", "2.000", "-3", "0", "about 50", "1.5e-1"]),
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


def test_the_only_value_above_one_under_units_fraction_is_named_by_its_row(tmp_path):
    """The example hypothesis found: one results row, its value 1.5 under `units: fraction`.
    The reader says the units key is likely wrong; with one such value the problem is that
    cell, so it carries its row and column (it was a sheet-level problem without a row)."""
    papers = [["paper_id", "task", "in_scope", "split", "cv_folds", "n_test", "statistical_test"],
              ["p0", "classification", "yes", "train_test", "", "", "yes"]]
    results = [["paper_id", "method", "metric", "value", "sd", "sd_over", "n_test"],
               ["p0", "m0", "accuracy", "1.5", "", "", ""]]
    with pytest.raises(SheetValidationError) as exc:
        read_venue(_write(tmp_path, papers, results), base_dir=tmp_path)
    assert any(p.file == "r.csv" and p.row == 2 and p.column == "value"
               for p in exc.value.problems), str(exc.value)


# --- column-wise fast paths (quote-free CSV split, plain results table) vs the general path

plain_values = st.one_of(fractions, fractions, fractions, fractions,
                         st.sampled_from(["0.5", "1", "0", "85.2", "0.93%", "1.5", "-0.1",
                                          "0.8 ± 0.01", "12.5", "nan"]))
metrics = st.sampled_from(["accuracy", "DSC", "auc", "HD95", "kappa", "mcc", "Acc"])


@st.composite
def nearly_plain_sheet(draw):
    """Mostly plain sheets; each draw may add what sends a table to the per-record path
    (values > 1 or '%', SDs > 1, duplicates, unknown ids, distances, blank lines, quotes)."""
    n = draw(st.integers(1, 5))
    papers = [["paper_id", "task", "n_test"]]
    results = [["paper_id", "method", "metric", "value", "sd", "sd_over"]]
    for i in range(n):
        papers.append([f"p{i}", draw(st.sampled_from(["classification", "segmentation"])),
                       draw(sizes)])
        for m in range(draw(st.integers(0, 3))):
            results.append([draw(st.sampled_from([f"p{i}"] * 9 + ["p9"])),
                            draw(st.sampled_from([f"m{m}"] * 9 + ["m0"])), draw(metrics),
                            draw(plain_values),
                            draw(st.sampled_from(["", "", "0.01", "0.2", "2", "5%"])),
                            draw(st.sampled_from(["", "test"]))])
    return papers, results, draw(st.sampled_from(["auto", "auto", "fraction", "percent"])), \
        draw(st.sampled_from(["", "", "\n", '"q"', "\r\n"]))


def _outcome(tmp_path, cfg):
    try:
        s = read_venue(cfg, base_dir=tmp_path, venue="h")
    except SheetValidationError as exc:
        return str(exc)
    return [df.to_csv(index=False) + str(df.dtypes.to_dict())
            for df in (s.papers, s.results, s.notes)]


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sheet=nearly_plain_sheet())
def test_fast_paths_equal_the_general_path(tmp_path, sheet, monkeypatch):
    import falseclaims.sheets.read.reader as reader_mod
    import falseclaims.io.textio as io_mod  # the text reader's fast paths

    papers, results, units, extra = sheet
    cfg = _write(tmp_path, papers, results)
    cfg["units"] = units
    with open(tmp_path / "r.csv", "a", newline="", encoding="utf-8") as fh:
        fh.write(extra)  # a trailing blank line, a quoted cell or CRLF
    fast = _outcome(tmp_path, cfg)
    with monkeypatch.context() as m:
        m.setattr(reader_mod, "plain_results", lambda *a, **k: None)
        m.setattr(io_mod, "_split_plain", lambda *a, **k: None)
        m.setattr(io_mod, "_split_columns", lambda *a, **k: None)
        general = _outcome(tmp_path, cfg)
    assert fast == general


def test_plain_results_path_is_taken_for_a_clean_sheet(tmp_path, monkeypatch):
    import falseclaims.sheets.read.reader as reader_mod

    taken = []
    real = reader_mod.plain_results

    def spy(*a, **k):
        out = real(*a, **k)
        taken.append(out is not None)
        return out

    monkeypatch.setattr(reader_mod, "plain_results", spy)
    papers = [["paper_id", "task"], ["p0", "classification"], ["p1", "segmentation"]]
    results = [["paper_id", "method", "metric", "value", "sd"],
               ["p0", "a", "accuracy", "0.9", "0.01"], ["p0", "b", "accuracy", "0.8", ""],
               ["p1", "a", "dsc", "0.7", ""], ["p1", "a", "hd95", "12.5", "3"]]
    cfg = {**_write(tmp_path, papers, results), "units": "auto"}
    s = read_venue(cfg, base_dir=tmp_path, venue="h")
    assert taken == [True]
    assert s.results["value"].tolist() == [0.9, 0.8, 0.7, 12.5]
    assert s.notes["note"].str.contains("units auto-detected as fraction: all 3").any()
    # one value in percent among fractions: the general path names the cell
    results[2][3] = "80"
    try:
        read_venue(cfg := {**_write(tmp_path, papers, results), "units": "auto"},
                   base_dir=tmp_path, venue="h")
    except SheetValidationError as exc:
        assert "row 3" in str(exc) and "looks like percent" in str(exc)
    else:
        raise AssertionError("a percent value among fractions must be refused")
    assert taken == [True, False]


def table_to_records(df: pd.DataFrame) -> list[dict]:
    """Rows as JSON-like dicts (NA -> None, numpy scalars -> Python), for jsonschema."""
    out = []
    for rec in df.astype(object).to_dict(orient="records"):
        out.append({k: (None if (v is None or v is pd.NA or (isinstance(v, float) and np.isnan(v)))
                        else v.item() if isinstance(v, np.generic) else v)
                    for k, v in rec.items()})
    return out
