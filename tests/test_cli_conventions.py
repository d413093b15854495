"""Conventions shared by every command: did-you-mean, unknown and repeated options, task
aliases, help with examples and exit codes, the same numeric bounds."""

import json

import pytest

from falseclaims.cli import build_parser, main
from falseclaims.cli.conventions import MAX_N

CHECK = ["check", "--task", "classification", "--n", "100", "--a", "0.9", "--b", "0.8"]


def _exit(capsys, argv):
    with pytest.raises(SystemExit) as exc:
        raise SystemExit(main(argv))
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err.strip()


@pytest.mark.parametrize("argv, expected", [
    (["chek"], "unknown command 'chek'; did you mean 'check'? (commands: check, plan, "
               "percase, sota, sheet, table, serve)"),
    (["sheet", "inspct", "x.csv"], "unknown command 'inspct'; did you mean 'inspect'?"),
    # a mistyped command followed by options: the command is named, not its options
    (["chek", "--task", "cls", "--n", "500", "--a", "0.85", "--b", "0.84"],
     "unknown command 'chek'; did you mean 'check'?"),
    (["sheet", "inspct", "--units", "percent", "x.csv"],
     "unknown command 'inspct'; did you mean 'inspect'?"),
    (["check", "--taks", "cls", "--n", "5", "--a", "0.9", "--b", "0.8"],
     "unknown option --taks; did you mean --task?"),
    (["plan", "--task", "cls", "--delta", "0.01", "--levl", "0.9"],
     "unknown option --levl; did you mean --level?"),
    (["sota", "--m", "3", "--n", "10", "--p", "0.5", "--bogus"], "unknown option --bogus"),
    ([*CHECK, "--n", "200"], "option --n given twice (100 and 200); give it once"),
    ([*CHECK, "--json", "--json"], "option --json given twice"),
    (["check", "--task", "clss", "--n", "5", "--a", "0.9", "--b", "0.8"],
     "did you mean 'class'?"),
])
def test_mistakes_named_with_a_suggestion(capsys, argv, expected):
    code, _, err = _exit(capsys, argv)
    assert code == 2 and len(err.splitlines()) == 1 and expected in err, err
    assert "required" not in err


@pytest.mark.parametrize("alias", ["cls", "class", "CLS", "Classification"])
def test_task_aliases_as_in_sheets(capsys, alias):
    code, out, _ = _exit(capsys, ["check", "--task", alias, *CHECK[3:]])
    assert code == 0 and out.startswith("classification:")


def test_percase_and_plan_accept_aliases(capsys):
    code, out, _ = _exit(capsys, ["plan", "--task", "seg", "--delta", "0.02", "--level",
                                  "0.85", "--congruence", "0.6"])
    assert code == 0 and out.startswith("segmentation:")


@pytest.mark.parametrize("argv", [
    ["check", "--task", "cls", "--n", "1e30", "--a", "0.9", "--b", "0.8"],
    ["plan", "--task", "cls", "--delta", "0.01", "--level", "0.9", "--n-max", "1e30"],
    ["sota", "--m", "3", "--n", "1e30", "--p", "0.5"],
])
def test_same_size_bound_everywhere(capsys, argv):
    code, _, err = _exit(capsys, argv)
    assert code == 2 and len(err.splitlines()) == 1
    assert "10^9" in err or f"{MAX_N:,}" in err, err


def test_every_help_has_examples_and_exit_codes(capsys):
    parser = build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    for name in [None, *sub.choices, "sheet inspect", "sheet check"]:
        code, out, _ = _exit(capsys, [*name.split(), "--help"] if name else ["--help"])
        assert code == 0
        assert "examples:" in out and "exit codes:" in out, name
        example = next(line for line in out.splitlines() if line.strip().startswith(
            "falseclaims "))
        assert name is None or " ".join(example.split()[1:len(name.split()) + 1]) == name


def test_group_sizes_given_twice_are_shown_as_the_one_list_that_works(capsys):
    code, _, err = _exit(capsys, ["table", "t.tex", "--n", "TM=600", "--n=SP=500"])
    assert code == 2
    assert err.splitlines()[-1].endswith(
        "option --n given twice (TM=600 and SP=500); give it once (--n TM=600,SP=500)"), err


def test_table_argument_errors_are_one_line_and_keep_the_json_envelope(capsys):
    """table's --json hook had replaced the one-line error: the usage block came first."""
    code, out, err = _exit(capsys, ["table", "t.tex", "--n", "0"])
    assert code == 2 and not out
    assert err.splitlines() == ["falseclaims table: error: argument --n: expected a whole "
                                "number between 2 and 10^9; got 0"], err
    code, out, err = _exit(capsys, ["table", "t.tex", "--n", "0", "--json"])
    assert code == 2 and len(err.splitlines()) == 1
    assert json.loads(out)["result"]["error"].startswith("error: argument --n")
