"""Hostile inputs of the round-36 battery (the engine called directly with dates, time spans,
complex numbers, Fraction cells and integer column names; probabilities that underflow;
the JSON of check, plan and sota) that found something open: each test fails on the code
before the fix, except the controls named as such."""

import datetime
import json
from fractions import Fraction

import mpmath
import numpy as np
import pandas as pd
import pytest

import falseclaims
from falseclaims import engine, stats
from falseclaims.claims.check import UNDERFLOW_BELOW, check_claim
from falseclaims.cli import main
from falseclaims.cli.envelope import rounded
from falseclaims.engine import probabilities, probability


# ------------------------------------------------- the engine's own input checks
@pytest.mark.parametrize("kwargs, expected", [
    # was n = 18262 (days since 1970), a probability without a word
    ({"n": np.datetime64("2020-01-01")}, "n must be numeric; got dates"),
    ({"n": np.array(["2020-01-01"], dtype="datetime64[D]")}, "n must be numeric; got dates"),
    ({"a": np.timedelta64(0, "D")}, "a must be numeric; got time spans"),  # was a = 0.0
    ({"b": datetime.timedelta(days=0)}, "b must be numeric; got a time span"),
    ({"a": np.array([0.86 + 0.5j])}, "a must be numeric; got complex numbers"),
    ({"n": 10**400}, "n must be numeric; got an integer of 401 digits"),  # was OverflowError
    ({"n": bytearray(b"500")}, "n must be numeric; got bytes"),  # was n = 53, 48, 48
    ({"n": [500, datetime.date(2020, 1, 1)]}, "n at index 1 must be numeric; got a date"),
    ({"congruence": np.timedelta64(1, "D")}, "congruence must be numeric; got time spans"),
])
def test_engine_probability_itself_refuses_what_numpy_misreads(kwargs, expected):
    args = {"n": 500, "a": 0.86, "b": 0.85, **kwargs}
    with pytest.raises(ValueError, match=expected):
        engine.probability("cls", args.pop("n"), args.pop("a"), args.pop("b"), **args)


@pytest.mark.parametrize("name", ["sd_a", "sd_b"])
def test_engine_refuses_a_time_span_as_an_sd(name):
    with pytest.raises(ValueError, match=f"{name} must be numeric; got time spans"):
        engine.probability("seg", 50, 0.8, 0.79, **{name: np.timedelta64(5, "D")})


def test_closed_forms_share_the_checks():
    # the closed forms were reached with n = 18262 from a date
    with pytest.raises(ValueError, match="n must be numeric; got dates"):
        stats.prob_false_claim_classification(np.datetime64("2020-01-01"), 0.86, 0.85, 0.8)
    with pytest.raises(ValueError, match="must be numeric; got an integer of 401 digits"):
        stats.prob_false_claim_segmentation(10**400, 0.8, 0.79, 0.1, 0.1, 0.5)


def test_probabilities_reads_fraction_cells_as_probability_does():
    # Fraction cells were refused "expected a number" while probability() took them
    exact = pd.DataFrame({"task": ["cls", "seg"], "n": [Fraction(500), 40],
                          "a": [Fraction(43, 50), Fraction(4, 5)], "b": [0.85, 0.79]})
    floats = pd.DataFrame({"task": ["cls", "seg"], "n": [500, 40], "a": [0.86, 0.8],
                           "b": [0.85, 0.79]})
    got = probabilities(exact)["probability"].to_numpy()
    assert got.tobytes() == probabilities(floats)["probability"].to_numpy().tobytes()
    assert got[0] == probability("cls", 500, Fraction(43, 50), 0.85).probability


def test_probabilities_takes_an_integer_column_name_for_the_task():
    # a CSV read with header=None has columns 0, 1, ...: task=0 was "must be one of ..."
    df = pd.DataFrame({0: ["cls", "seg"], "n": [500, 40], "a": [0.86, 0.8], "b": [0.85, 0.79]})
    named = df.rename(columns={0: "task"})
    assert (probabilities(df, task=0)["probability"].tolist()
            == probabilities(named)["probability"].tolist())


@pytest.mark.parametrize("column, values, expected", [
    ("n", pd.to_timedelta([500, 600], unit="D"), "column 'n': got time spans"),
    ("a", pd.to_datetime(["2020-01-01", "2020-01-02"]), "column 'a': got dates"),
    ("b", [0.85, 0.84 + 0.1j], "column 'b': got complex numbers"),
    ("n", [500, 10**400], "column 'n', row 1: got an integer of 401 digits"),
])
def test_probabilities_itself_names_the_column_of_a_misread_cell(column, values, expected):
    df = pd.DataFrame({"task": ["cls", "cls"], "n": [500, 600], "a": [0.86, 0.8],
                       "b": [0.85, 0.79]})
    df[column] = pd.Series(values, dtype=object) if column == "n" and isinstance(
        values, list) else values
    with pytest.raises(ValueError, match=expected):
        probabilities(df)


def test_valid_inputs_give_the_public_and_the_engine_answer_bit_for_bit():
    # control: the checks moved from the package's wrappers into the engine
    for args in (("cls", [500, 1000], [0.86, 0.9], 0.85), ("seg", 40, 0.8, [0.79, 0.7])):
        assert (falseclaims.probability(*args).to_dict()
                == engine.probability(*args).to_dict())
    assert falseclaims.probabilities is probabilities  # one implementation, no wrapper


# ------------------------------------------------- probabilities that underflow
def _tcdf(df, t):
    x = mpmath.mpf(df) / (df + mpmath.mpf(t) ** 2)
    return 0.5 * mpmath.betainc(mpmath.mpf(df) / 2, 0.5, 0, x, regularized=True)


@pytest.mark.parametrize("task, n, a, b", [("cls", 3000, 0.99, 0.5),
                                           ("seg", 10**6, 0.99, 0.5)])
def test_check_says_an_underflowed_probability_is_below_its_bound(task, n, a, b, capsys):
    cfg = falseclaims.load_config(None)
    row = check_claim(task, n, a, b, cfg)["results"][1]
    assert row["probability"] == 0.0 and row["probability_underflow"]
    if task == "cls":  # the closed form in mpmath: positive, below the bound
        exact = mpmath.betainc(row["x1"] + 1, row["x2"] + 1, 0, 0.5, regularized=True)
    else:
        exact = _tcdf(n - 1, np.sqrt(n) * (b - a) / row["sd_diff"])
    assert 0 < exact < UNDERFLOW_BELOW
    assert main(["check", "--task", task, "--n", str(n), "--a", str(a), "--b", str(b)]) == 0
    out = capsys.readouterr().out
    assert "below 1e-300" in out and " is 0," not in out  # was "P ... 0", "is 0"
    assert not [ln for ln in out.splitlines() if ln.startswith("median") and ln.endswith(" 0")]


def test_check_range_over_rounding_says_its_underflowed_ends(capsys):
    # was "range over rounding (2 decimals)  [0, 0]"
    assert main(["check", "--task", "cls", "--n", "3000", "--a", "0.99", "--b", "0.5",
                 "--decimals", "2"]) == 0
    line = next(ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("median"))
    assert "[below 1e-300, below 1e-300]" in line


def test_an_exact_zero_is_not_called_an_underflow(capsys):
    # control: SDs 0 give a point mass, P exactly 0
    cfg = falseclaims.load_config(None)
    row = check_claim("seg", 50, 0.8, 0.79, cfg, sd_a=0.0, sd_b=0.0)["results"][0]
    assert row["probability"] == 0.0 and not row["probability_underflow"]
    row = check_claim("cls", 2000, 0.99, 0.5, cfg)["results"][0]  # 2.3e-266: no underflow
    assert row["probability"] > 0 and not row["probability_underflow"]


def test_check_json_marks_the_underflow(capsys):
    assert main(["check", "--task", "cls", "--n", "100000000", "--a", "0.99", "--b", "0.5",
                 "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["result"]["results"]
    assert all(r["probability"] == 0.0 and r["probability_underflow"] for r in rows)


# ------------------------------------------------- JSON numbers
def test_json_does_not_round_a_value_into_a_whole_number(capsys):
    # p = 0.999999999 was echoed "p": 1.0 and the interval's upper end 1.0
    assert rounded(0.999999999) == 0.999999999 and rounded(-0.999999999) == -0.999999999
    assert rounded(75.00000000000001) == 75.0  # control: noise beside a count still goes
    assert rounded(0.11558356479999998) == 0.11558356  # control: still 8 digits
    assert main(["sota", "--m", "2", "--n", "1000000000", "--p", "0.999999999", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)["result"]
    assert res["p"] == 0.999999999 and res["ci_single"][1] < 1.0 and res["mean"] < 1.0


def _no_constant(text):
    raise AssertionError(f"{text} is no JSON number")


@pytest.mark.parametrize("argv", [
    ["check", "--task", "cls", "--n", "500", "--a", "nan", "--b", "0.85"],
    ["check", "--task", "cls", "--n", "500", "--a", "0.86", "--b", "0.85", "--config",
     "/dev/null"],
    ["check", "--task", "cls", "--n", "1000000000", "--a", "0.99", "--b", "0.01"],
    ["check", "--task", "seg", "--n", "50", "--a", "0.8", "--b", "0.79", "--sd-a", "0",
     "--sd-b", "0"],
    ["plan", "--task", "cls", "--delta", "0.01", "--level", "0.9", "--target", "1e-300"],
    ["plan", "--task", "seg", "--delta", "1e-9", "--level", "0.9"],
    ["plan", "--task", "cls", "--delta", "0.01", "--level", "0.9", "--target", "nan"],
    ["sota", "--m", "50", "--n", "1000", "--p", "0.8", "--alpha", "1e-320"],
    ["sota", "--m", "1e15", "--n", "1e9", "--p", "0.5"],
    ["sota", "--m", "50", "--n", "1000", "--p", "0.8", "--alpha", "nan"],
])
def test_json_is_valid_on_success_and_on_error(argv, capsys):
    # control: every exit writes one JSON object without NaN/Infinity literals
    try:
        main([*argv, "--json"])
    except SystemExit:
        pass
    json.loads(capsys.readouterr().out, parse_constant=_no_constant)


@pytest.mark.parametrize("delta, expected", [
    ([0.01, 0.02], "delta must be a single number; got list"),  # was float() on a list
    (datetime.date(2020, 1, 1), "delta must be a single number; got a date"),
    (0.01 + 1j, "delta must be a single number; got a complex number"),
])
def test_the_planner_itself_refuses_what_is_no_single_number(delta, expected):
    # the round-35 check lived in the package's wrapper: falseclaims.claims.plan.smallest_n
    # called directly still met Python's "float() argument must be ..."
    from falseclaims.claims.plan import smallest_n

    with pytest.raises(ValueError, match=expected):
        smallest_n("cls", delta, 0.9, 0.8)
    assert falseclaims.smallest_n is smallest_n  # one function, no wrapper
