"""Round 39 hostile inputs (docs/robustness.md, "Round 39"): values pasted with their spread
or interval in brackets and sizes with their spread are answered with the number to give
(was "expected a number" / "expected a whole number"); check's SD-model note names the
model as the headline and plan do ("MSD reference", not the config key)."""
import pytest

from falseclaims.cli import main
from falseclaims.engine import probability


def _error(capsys, argv):
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    return capsys.readouterr().err


CHECK = ["check", "--task", "segmentation", "--b", "0.83", "--n", "100"]


@pytest.mark.parametrize("pasted, given, sd", [
    ("0.85 (0.02)", "--a 0.85", "--sd-a 0.02"),
    ("0.85 (±0.05)", "--a 0.85", "--sd-a 0.05"),
    ("85.3% (4.1%)", "--a 0.853", "--sd-a 0.041"),
])
def test_a_value_with_its_spread_in_brackets_names_both_options(capsys, pasted, given, sd):
    err = _error(capsys, [*CHECK, "--a", pasted])
    assert "spread in brackets" in err and given in err and sd in err


@pytest.mark.parametrize("pasted", ["0.85 [0.80, 0.90]", "0.85 (0.80-0.90)",
                                    "0.85 (95% CI 0.80–0.90)"])
def test_a_value_with_its_interval_gives_the_value_and_no_sd(capsys, pasted):
    err = _error(capsys, [*CHECK, "--a", pasted])
    assert "with its interval; give the value alone: --a 0.85" in err
    assert "--sd-a" not in err


@pytest.mark.parametrize("argv, expected", [
    (["check", "--task", "seg", "--a", "0.85", "--b", "0.83", "--n", "100 ± 5"],
     "a whole number with its spread; give it alone: 100"),
    (["check", "--task", "seg", "--a", "0.85", "--b", "0.83", "--n", "1,000 (50)"],
     "give it alone: 1,000"),
    (["plan", "--task", "cls", "--delta", "0.02", "--level", "0.85", "--n-max", "1000±10"],
     "give it alone: 1000"),
    (["plan", "--task", "cls", "--delta", "0.02", "--level", "0.85 (0.02)"],
     "give the value alone: --level 0.85"),
    (["sota", "--m", "10", "--n", "100", "--p", "0.9 (0.85-0.95)"],
     "give the value alone: --p 0.9"),
    (["sota", "--m", "10 ± 2", "--n", "100", "--p", "0.9"], "give it alone: 10"),
    (["sota", "--m", "10", "--n", "100 (5)", "--p", "0.9"], "give it alone: 100"),
    (["check", "--task", "cls", "--a", "0.85", "--b", "0.83", "--n", "100", "--decimals",
      "2±1"], "give it alone: 2"),
])
def test_every_number_option_names_the_number_to_give(capsys, argv, expected):
    assert expected in _error(capsys, argv)


def test_an_unclosed_bracket_is_still_no_number(capsys):
    assert "expected a number" in _error(capsys, [*CHECK, "--a", "0.85 (0.05"])


def test_check_names_the_sd_model_as_the_headline_does(capsys):
    assert main(["check", "--task", "segmentation", "--a", "0.85", "--b", "0.83",
                 "--n", "50"]) == 0
    out = capsys.readouterr().out
    assert "(SD model MSD reference, mean level)" in out
    assert "msd_reference" not in out
    notes = probability("segmentation", a=0.85, b=0.83, n=50).notes()
    assert any("SD model MSD reference" in n for n in notes)


def test_plain_values_still_run(capsys):
    assert main(["check", "--task", "segmentation", "--a", "0.85", "--b", "0.83",
                 "--n", "100"]) == 0
    assert "0.0088" in capsys.readouterr().out  # the value before this round's change


@pytest.mark.parametrize("cell, expected", [
    ("0.85 (0.02)", "give 0.85 here, and 0.02, if a per-case SD, as sd_a or sd_b"),
    ("85.3% (4.1%)", "give 0.853 here, and 0.041"),
    ("0.85 [0.80, 0.90]", "give 0.85 here; an interval is no per-case SD"),
])
def test_the_api_names_the_value_in_a_cell_with_brackets(cell, expected):
    with pytest.raises(ValueError, match="a must be numeric") as e:
        probability("segmentation", a=cell, b=0.83, n=100)
    assert expected in str(e.value)


def test_check_and_percase_reports_say_who_wrote_them(tmp_path, capsys):
    """A report saved beside source tables: `table --dir` reads any HTML <table>; the
    generator tag lets it tell a page falseclaims wrote (check's and percase's reports had
    none: their tables were read as claims, "unknown metric in column 'P(false claim)'")."""
    report = tmp_path / "check.html"
    assert main(["check", "--task", "cls", "--a", "0.91", "--b", "0.88", "--n", "100",
                 "--report", str(report)]) == 0
    assert '<meta name="generator" content="falseclaims">' in report.read_text()[:2000]
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    a.write_text("dice\n0.80\n0.85\n0.90\n0.70\n0.88\n")
    b.write_text("dice\n0.78\n0.84\n0.86\n0.69\n0.85\n")
    pc = tmp_path / "percase.html"
    assert main(["percase", str(a), str(b), "--paired-by-order", "--report", str(pc)]) in (0, 1)
    assert '<meta name="generator" content="falseclaims">' in pc.read_text()[:2000]
