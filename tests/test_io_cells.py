"""The one cell grammar (falseclaims.io.cells) shared by the sheet reader and table mode,
pinned against hand-written cells: each expected reading is written out by hand, not taken
from the code. The two callers differ only where their modules say so (a sheet rejects a
bracketed part a printed table notes and ignores; a table strips LaTeX first)."""

import pytest

from falseclaims.io.cells import NumberError, Reading, decimals, read_measure
from falseclaims.sheets.read.cells import CellError, parse_measure
from falseclaims.table.cells import parse_printed_cell


@pytest.mark.parametrize("text, value, dec, percent", [
    ("85.3", 85.3, 1, False),
    ("85.3%", 85.3, 1, True),
    ("85.3 %", 85.3, 1, True),
    ("0.853", 0.853, 3, False),
    ("85.30", 85.3, 2, False),
    (".5", 0.5, 1, False),
    ("+0.5", 0.5, 1, False),
    ("\u22120.5", -0.5, 1, False),    # Unicode minus
    ("\u20130.5", -0.5, 1, False),    # a leading en dash before a digit
    ("1e10", 1e10, 0, False),
    ("1E10", 1e10, 0, False),
    ("1.5e-3", 0.0015, 4, False),
    ("0.85\u00a0%", 0.85, 2, True),  # a non-breaking space
])
def test_a_plain_number_is_read_with_its_places_and_percent_sign(text, value, dec, percent):
    r = read_measure(text)
    assert (r.value, r.sd, r.decimals, r.percent) == (value, None, dec, percent)


def test_a_percent_sign_tells_85_3_percent_from_the_fraction_0_853():
    """Percent is detected from the sign, never guessed from the size: '85.3%' is marked,
    '0.853' and '85.3' are not (the callers decide a column's unit from the marks)."""
    assert read_measure("85.3%").percent and not read_measure("0.853").percent
    assert not read_measure("85.3").percent
    assert read_measure("85.3 ± 2.1%").percent  # the SD's sign marks the cell
    assert read_measure("85.3 (83.1%-87.4%)").percent
    # the 95 of "95% CI" is the interval's level, not a percent sign of the value
    assert not read_measure("0.9 (95% CI 0.8-0.95)").percent
    assert read_measure("%85") is None  # a sign before the number is no known way to write


@pytest.mark.parametrize("text", ["0.85 ± 0.03", "0.85 +/- 0.03", "0.85 + / - 0.03",
                                  "0.85 +- 0.03", "0.85±0.03"])
def test_a_plus_minus_sd_in_any_spelling(text):
    r = read_measure(text)
    assert (r.value, r.sd, r.sd_text, r.aside_kind, r.plus_minus) == (0.85, 0.03, "0.03", "",
                                                                       True)


@pytest.mark.parametrize("text", ["0.91 (0.03)", "0.91 (SD 0.03)", "0.91 (sd=0.03)",
                                  "0.91 (SD: 0.03)", "0.91 (± 0.03)"])
def test_one_number_in_parentheses_is_the_sd(text):
    r = read_measure(text)
    assert (r.value, r.sd, r.aside_kind, r.plus_minus) == (0.91, 0.03, "sd", False)


@pytest.mark.parametrize("text, low, high", [
    ("0.85 (0.80-0.90)", "0.80", "0.90"),
    ("0.85 (0.80 – 0.90)", "0.80", "0.90"),
    ("0.931 [0.913, 0.947]", "0.913", "0.947"),
    ("0.85 (95% CI: 0.80 to 0.90)", "0.80", "0.90"),
    ("0.85 (CI 0.80; 0.90)", "0.80", "0.90"),
])
def test_two_numbers_in_brackets_are_an_interval_not_an_sd(text, low, high):
    r = read_measure(text)
    assert (r.value, r.sd, r.aside_kind, r.interval) == (0.85 if low[2] == "8" else 0.931,
                                                         None, "interval", (low, high))


def test_one_number_in_square_brackets_is_no_sd():
    """In print '85.3 [12]' cites reference 12: a bracketed single number is 'other'."""
    r = read_measure("85.3 [12]")
    assert (r.value, r.sd, r.aside_kind) == (85.3, None, "other")
    with pytest.raises(CellError):
        parse_measure("0.85 [0.03]")
    cell = parse_printed_cell("85.3 [12]")
    assert (cell.value, cell.sd, cell.ignored) == (85.3, None, "[12]")


def test_a_decimal_comma_only_where_the_caller_allows_it():
    """A sheet's metric value is at most 100 (a comma is a decimal comma there); a printed
    table may hold a count such as 1,234, so table mode reads no comma as a decimal point."""
    r = read_measure("0,853", decimal_comma=True)
    assert (r.value, r.decimals, r.decimal_comma) == (0.853, 3, True)
    assert read_measure("0,853") is None
    assert read_measure("1,234") is None
    assert parse_printed_cell("1,234").value is None
    assert parse_measure("0,853").value == 0.853
    assert read_measure("0.85", decimal_comma=True).decimal_comma is False


def test_numbers_from_a_spreadsheet():
    assert read_measure(0.853) == Reading(0.853, decimals=3)
    assert read_measure(12) == Reading(12.0, decimals=0)
    assert read_measure(float("nan")) is None
    assert read_measure(float("inf")) is None
    assert read_measure(True) is None and read_measure(None) is None


def test_a_number_beyond_the_floating_point_range_is_refused_by_both_callers():
    with pytest.raises(NumberError, match="finite"):
        read_measure("5e400")
    with pytest.raises(CellError, match="finite"):
        parse_measure("5e400")
    assert parse_printed_cell("5e400").value is None  # was inf before the grammar was shared


@pytest.mark.parametrize("text", ["1+" * 4000 + "1",           # 8 KB of arithmetic
                                  "1" * 8000 + "x",            # 8 KB of digits, then junk
                                  "(" * 4000 + "1" + ")" * 4000,
                                  "0.5 (" + "1-" * 4000 + ")"])
def test_a_hostile_8kb_cell_is_no_number_and_no_trap(text):
    r = read_measure(text)
    assert r is None or r.aside_kind == "other"
    assert parse_printed_cell(text).sd is None
    if r is None:
        with pytest.raises(CellError):
            parse_measure(text)


@pytest.mark.parametrize("text", ["0.5\x00", "0.5\x1b[2J", "\x1f0.5", "0.5\x7f"])
def test_a_control_character_makes_no_number_in_either_caller(text):
    assert read_measure(text) is None
    with pytest.raises(CellError):
        parse_measure(text)
    assert parse_printed_cell(text).value is None


def test_tabs_and_line_breaks_are_spaces():
    assert read_measure("0.85\n± 0.03").sd == 0.03
    assert read_measure("\t85.3%\r\n").value == 85.3


@pytest.mark.parametrize("text", ["", "NA", "-", "abc", "0.85 0.90", "0.85/0.90", "1.2.3",
                                  "85.3 ± ", "± 2.1", "0.85 ± 0.03 ± 0.01"])
def test_what_is_not_a_number_cell(text):
    assert read_measure(text) is None


@pytest.mark.parametrize("token, places", [("85", 0), ("85.30", 2), ("1e3", 0), ("1.5e-3", 4),
                                           ("2.5E2", 0), ("0,25", 2), ("5.", 0)])
def test_decimals_shown(token, places):
    assert decimals(token) == places


def test_the_two_callers_read_the_same_number_the_same_way():
    """Value, SD and percent of a cell both modes take agree; only the result objects
    differ (a sheet's Measure with notes, a table's Cell with its marks)."""
    for text in ["85.3%", "0.853", "0.85 ± 0.03", "0.91 (0.03)", "0.85 (0.80-0.90)",
                 "85.3 ± 2.1%", "1E10", "\u22120.5"]:
        m, c = parse_measure(text), parse_printed_cell(text)
        assert (m.value, m.sd, m.percent_sign) == (c.value, c.sd, c.percent), text


def test_the_sheet_rejects_what_a_printed_table_notes_and_ignores():
    for text in ["85.3 (best)", "0.85 ± 0.03 (0.80-0.90)"]:
        with pytest.raises(CellError):
            parse_measure(text)
    assert parse_printed_cell("85.3 (best)").ignored == "(best)"
    assert parse_printed_cell("0.85 ± 0.03 (0.80-0.90)").ignored == "(0.80-0.90)"


def test_latex_markup_is_the_tables_own():
    c = parse_printed_cell(r"$\mathbf{85.3 \pm 2.1}^{\dagger}$")
    assert (c.value, c.sd, c.bold, c.marks, c.decimals) == (85.3, 2.1, True, True, 1)
    assert parse_printed_cell(r"1.4 \cdot 10^{6}").value == 1.4e6
    assert read_measure(r"$85.3 \pm 2.1$") is None  # the grammar itself knows no LaTeX


def test_the_sheet_notes_what_it_read():
    m = parse_measure("0,85 (0,80-0,90)")
    assert (m.value, m.sd) == (0.85, None)
    assert m.notes == ("interval (0,80, 0,90) in '0,85 (0,80-0,90)' ignored: it is not an SD",
                       "decimal comma in '0,85 (0,80-0,90)' read as a decimal point")
    assert parse_measure("0.85 (SD 0.03)").notes == (
        "SD 0.03 taken from the value cell '0.85 (SD 0.03)'",)
