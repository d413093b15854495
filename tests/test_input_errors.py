"""One Problem and one input error: every reader (sheets, per-case, table, config) raises a
FalseclaimsInputError whose message is format_problems of its problems."""

from __future__ import annotations

import csv
import importlib
import inspect
import pkgutil

import pytest

import falseclaims
from falseclaims.config import load_config
from falseclaims.config_validation import ConfigError, schema_path, validate
from falseclaims.errors import MAX_LISTED, FalseclaimsInputError, Problem, format_problems
from falseclaims.percase.errors import PerCaseValidationError
from falseclaims.percase.readers import read_long
from falseclaims.sheets import SheetValidationError, read_venue
from falseclaims.sheets.read.cells import CellError, parse_size
from falseclaims.table.readers import TableReadError, read_tables


def _write(path, rows):
    with open(path, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(rows)
    return path


def _bad_sheet(tmp_path):
    _write(tmp_path / "p.csv", [["paper_id", "task", "n_test"], ["p1", "classification", "abc"],
                                ["p2", "nonsense", "10"]])
    _write(tmp_path / "r.csv", [["paper_id", "method", "metric", "value"],
                                ["p1", "a", "accuracy", "0.9"]])
    cfg = {"papers": "p.csv", "results": "r.csv", "layout": "long"}
    return lambda: read_venue(cfg, base_dir=tmp_path, venue="v")


def _bad_percase(tmp_path):
    path = tmp_path / "l.csv"
    path.write_text("case_id,task,method,metric,value\n1,t,A,dsc,x\n1,t,B,dsc,y\n",
                    encoding="utf-8")
    return lambda: read_long(path)


def _bad_config(tmp_path):
    return lambda: validate({"analysis": {"nonsense": 1}, "anaylsis": {}},
                            schema_path("config"))


def _missing_config(tmp_path):
    return lambda: load_config(tmp_path / "nothere.yaml")


def _bad_table(tmp_path):
    path = tmp_path / "t.docx"
    path.write_text("x", encoding="utf-8")
    return lambda: read_tables(path)


def _missing_table(tmp_path):
    return lambda: read_tables(tmp_path / "nothere.csv")


def _bad_cell(tmp_path):
    return lambda: parse_size("abc")


def _binary_sheet(tmp_path):
    from falseclaims.sheets.draft.inspect import inspect_sheet

    path = tmp_path / "s.csv"
    path.write_bytes(b"\x00\x01binary")
    return lambda: inspect_sheet(path)


def _long_layout_grouped(tmp_path):
    return lambda: read_venue({"papers": "p.csv", "results": "r.csv", "layout": "long",
                               "group_rows_by_id": True}, base_dir=tmp_path, venue="v")


READERS = {"sheets": (_bad_sheet, SheetValidationError),
           "sheets: venue config": (_long_layout_grouped, FalseclaimsInputError),
           "sheets: cell": (_bad_cell, CellError),
           "sheets: inspect": (_binary_sheet, SheetValidationError),
           "per-case": (_bad_percase, PerCaseValidationError),
           "config: schema": (_bad_config, ConfigError),
           "config: file": (_missing_config, ConfigError),
           "table: file type": (_bad_table, TableReadError),
           "table: missing": (_missing_table, TableReadError)}


@pytest.mark.parametrize("reader", list(READERS))
def test_every_reader_raises_the_one_input_error_rendered_by_the_one_formatter(reader,
                                                                              tmp_path):
    make, cls = READERS[reader]
    with pytest.raises(cls) as info:
        make(tmp_path)()
    exc = info.value
    assert isinstance(exc, FalseclaimsInputError) and isinstance(exc, ValueError)
    assert exc.problems and all(type(p) is Problem for p in exc.problems)
    assert str(exc) == format_problems(exc.problems, exc.subject, exc.context, exc.hint)


def test_sheet_and_percase_problems_are_located(tmp_path):
    with pytest.raises(SheetValidationError) as info:
        _bad_sheet(tmp_path)()
    located = {(p.file, p.row, p.column) for p in info.value.problems}
    assert ("p.csv", 2, "n_test") in located and ("p.csv", 3, "task") in located
    assert str(info.value).startswith("venue 'v': 2 problem(s) in the extraction sheets:\n  - ")
    with pytest.raises(PerCaseValidationError) as info:
        _bad_percase(tmp_path)()
    assert {(p.row, p.column) for p in info.value.problems} == {(2, "value"), (3, "value")}


def test_problem_renders_where_got_and_expected():
    # hand-written: the one form every reader's message is built from
    assert str(Problem("a.xlsx", sheet="S", row=3, column="C", value="x", expected="a number")
               ) == "a.xlsx, sheet 'S', row 3, column 'C': got 'x'; expected a number"
    assert str(Problem("a.csv", column="C", expected="a column")) == \
        "a.csv, column 'C'; expected a column"
    assert str(Problem("a.csv", message="file not found")) == "a.csv: file not found"
    assert str(Problem(message="plain")) == "plain"
    assert str(Problem(expected="a number")) == "expected a number"
    with pytest.raises(TypeError):  # no positional order to get wrong
        Problem("a.csv", None, 3)


def test_format_problems_one_line_or_a_counted_list_with_a_limit():
    one = [Problem("f", row=2, expected="x")]
    assert format_problems(one, context="venue 'v'", hint="h") == \
        "venue 'v': f, row 2; expected x; h"
    many = [Problem("f", row=r, expected="x") for r in range(2, MAX_LISTED + 7)]
    text = format_problems(many, "per-case input", hint="h").split("\n")
    assert text[0] == f"{len(many)} problem(s) in per-case input:"
    assert text[1] == "  - f, row 2; expected x" and len(text) == 1 + MAX_LISTED + 2
    assert text[-2:] == ["  - ... and 5 more problem(s)", "  hint: h"]


def test_a_plain_message_is_one_problem():
    exc = FalseclaimsInputError("config venues.v: id: row needs layout: wide_top2")
    assert str(exc) == "config venues.v: id: row needs layout: wide_top2"
    assert exc.problems == [Problem(message="config venues.v: id: row needs layout: wide_top2")]


def _package_modules():
    for info in pkgutil.walk_packages(falseclaims.__path__, "falseclaims."):
        if info.name.split(".")[1] in ("sheets", "percase", "table") or \
                info.name.startswith("falseclaims.config"):
            yield importlib.import_module(info.name)


def test_reader_exceptions_are_the_one_input_error():
    """No reader package defines an error class of its own beside the one type (internal
    control flow, such as xlsx's _TooBig, is private and never leaves its module)."""
    own = [(m.__name__, name) for m in _package_modules()
           for name, obj in vars(m).items()
           if inspect.isclass(obj) and issubclass(obj, Exception) and obj.__module__ == m.__name__
           and not name.startswith("_") and not issubclass(obj, FalseclaimsInputError)]
    assert own == []
