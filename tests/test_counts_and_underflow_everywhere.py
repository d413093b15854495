"""The last two outputs that spoke otherwise: table mode printed a probability that underflowed
as "0 [0, 0]" beside check's sentence saying "below 1e-300", and `table --n 10.000` and
`sota --n 10.000` read 10 where `check` and `plan` refuse it as ambiguous (10 or 10,000)."""

from __future__ import annotations

import json

import pytest

from falseclaims.cli import main

TABLE = "| Method | Accuracy |\n|---|---|\n| A | **0.95** |\n| B | 0.90 |\n"


@pytest.fixture
def table(tmp_path):
    path = tmp_path / "t.md"
    path.write_text(TABLE, encoding="utf-8")
    return path


def test_table_text_and_report_write_an_underflowed_probability_as_check_does(
        table, tmp_path, capsys):
    report = tmp_path / "r.html"
    assert main(["table", str(table), "--n", "200000", "--report", str(report)]) == 0
    out = capsys.readouterr().out
    assert "P(false claim) = below 1e-300 [below 1e-300, below 1e-300]" in out
    assert "= 0 [" not in out and "is below 1e-300" in out
    html = report.read_text(encoding="utf-8")
    assert "below 1e-300" in html


def test_table_json_flags_the_runner_ups_underflow(table, capsys):
    assert main(["table", str(table), "--n", "200000", "--json"]) == 0
    metric = json.loads(capsys.readouterr().out)["result"]["tables"][0]["metrics"][0]
    assert metric["p_runner_up"] == 0 and metric["p_runner_up_underflow"] is True


def test_an_ordinary_probability_is_not_flagged(table, capsys):
    assert main(["table", str(table), "--n", "300", "--json"]) == 0
    metric = json.loads(capsys.readouterr().out)["result"]["tables"][0]["metrics"][0]
    assert 0 < metric["p_runner_up"] < 1 and metric["p_runner_up_underflow"] is False


@pytest.mark.parametrize("argv", [
    ["table", "{table}", "--n", "10.000"],
    ["table", "{table}", "--n", "TM=10.000"],
    ["sota", "--m", "5", "--n", "10.000", "--p", "0.9"],
])
def test_every_count_option_refuses_a_dot_grouped_size(argv, table, capsys):
    argv = [a.format(table=table) for a in argv]
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    assert "10.000 is ambiguous: write 10000 or 10" in capsys.readouterr().err


@pytest.mark.parametrize("n", ["10", "10.0", "1e4", "10_000", "1000.000"])
def test_sizes_that_are_not_ambiguous_still_read(n, capsys):
    assert main(["sota", "--m", "5", "--n", n, "--p", "0.9"]) == 0
