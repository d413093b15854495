"""Every CLI input error exits 2 with one line naming the option or file."""

import copy
import json

import pytest
import yaml

from falseclaims.cli import main

CHECK = ["check", "--task", "classification", "--n", "100", "--a", "0.9", "--b", "0.8"]


def _err(capsys, argv):
    with pytest.raises(SystemExit) as exc:
        raise SystemExit(main(argv))
    err = capsys.readouterr().err.strip()
    assert exc.value.code == 2, err
    assert len(err.splitlines()) == 1, err
    return err


@pytest.mark.parametrize("make, expected", [
    (lambda d: d, "--report must name an .html file"),
    (lambda d: (d / "r.html").mkdir() or d / "r.html", "is a directory"),
    (lambda d: d / "missing" / "r.html", "does not exist"),
])
def test_report_path_checked_before_work(tmp_path, capsys, make, expected):
    target = make(tmp_path)
    err = _err(capsys, [*CHECK, "--report", str(target)])
    assert err.startswith("falseclaims check: error: --report") and expected in err, err


@pytest.mark.parametrize("argv, expected", [
    (["--m", "1e20", "--n", "100"], "--m must be between 1 and 10^15; got 1e+20"),
    (["--m", "100000000000000000000", "--n", "100"], "--m must be between 1 and"),
    (["--m", "10", "--n", "1e14"], "--n must be between 1 and 10^9"),
    (["--m", "0", "--n", "100"], "--m must be between 1"),
    (["--m", "2.5", "--n", "100"], "argument --m: expected a whole number, got '2.5'"),
    (["--m", "ten", "--n", "100"], "argument --m: expected a whole number, got 'ten'"),
])
def test_sota_bounds(capsys, argv, expected):
    err = _err(capsys, ["sota", *argv, "--p", "0.9"])
    assert expected in err, err


@pytest.mark.parametrize("key, value, expected", [
    (("grid", "n"), [1000, 10**12], "multiplicity.grid.n[1]: expected a number <= 1000000000, "
                                     "got 1000000000000"),
    (("example", "m"), 10**16, "multiplicity.example.m: expected a number <= "),
])
def test_pipeline_multiplicity_config_has_the_sota_bounds(config, key, value, expected):
    """The pipeline's multiplicity stage runs the same computation as `sota`: its config is
    bounded by the same limits, before any job starts."""
    from falseclaims.cli.sota import MAX_M, MAX_N
    from falseclaims.config_validation import config_problems, schema_path

    cfg = copy.deepcopy(config)
    cfg["multiplicity"][key[0]][key[1]] = value
    problems = config_problems(cfg, schema_path("config"))
    assert any(expected in line for line in problems), problems
    defs = yaml.safe_load(schema_path("multiplicity").read_text(encoding="utf-8"))["$defs"]
    assert (defs["m"]["maximum"], defs["n"]["maximum"]) == (MAX_M, MAX_N)


def test_sota_accepts_exponent_notation(capsys):
    assert main(["sota", "--m", "1e3", "--n", "3e3", "--p", "0.9", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)["result"]
    assert (result["m"], result["n"]) == (1000, 3000)


def test_percase_directory_and_missing_file(tmp_path, capsys):
    err = _err(capsys, ["percase", str(tmp_path), "--task", "segmentation"])
    assert "is a directory" in err
    err = _err(capsys, ["percase", str(tmp_path / "x.csv"), "--task", "segmentation"])
    assert "x.csv" in err and "not found" in err


@pytest.mark.parametrize("value, expected", [
    ("1e9", "--bootstrap must be in [100, 1,000,000]; got 1000000000"),
    ("50", "--bootstrap must be in [100, 1,000,000]; got 50"),
])
def test_percase_bootstrap_bounded(tmp_path, capsys, value, expected):
    f = tmp_path / "s.csv"
    f.write_text("case_id,alg_a,alg_b\nc1,0.8,0.7\nc2,0.9,0.8\nc3,0.7,0.6\n")
    err = _err(capsys, ["percase", str(f), "--task", "segmentation", "--bootstrap", value])
    assert expected in err, err


@pytest.mark.parametrize("argv, expected", [
    ([], "commands:"),
    (["sheet"], "inspect"),
])
def test_bare_command_prints_its_help(capsys, argv, expected):
    """Bare `falseclaims` (and `falseclaims sheet`) print the help with exit code 0."""
    with pytest.raises(SystemExit) as exc:
        raise SystemExit(main(argv))
    out = capsys.readouterr().out
    assert exc.value.code == 0 and expected in out and "exit codes" in out


def test_version_from_package_metadata(capsys):
    from importlib.metadata import version
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out.strip() == f"falseclaims {version('falseclaims')}"


def _parsers(parser, prog=""):
    """(prog, parser) for every command and sub-command."""
    import argparse
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                yield sub.prog, sub
                yield from _parsers(sub)


def test_every_command_and_option_has_a_help_text():
    import argparse

    from falseclaims.cli import build_parser
    missing = []
    for prog, p in _parsers(build_parser()):
        if not p.description:
            missing.append(f"{prog}: description")
        missing += [f"{prog} {a.dest}" for a in p._actions
                    if not a.help and not isinstance(a, argparse._SubParsersAction)]
    assert missing == []


def test_sheet_check_help_names_the_config_lookup(capsys):
    with pytest.raises(SystemExit):
        main(["sheet", "check", "--help"])
    assert "$FALSECLAIMS_CONFIG" in " ".join(capsys.readouterr().out.split())


def test_sheet_check_without_any_config_says_so(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("FALSECLAIMS_CONFIG", raising=False)
    err = _err(capsys, ["sheet", "check", "--venue", "X"])
    assert err.startswith("falseclaims sheet: error: no config file found"), err
    assert str(tmp_path) in err and "--config FILE" in err, err


@pytest.mark.parametrize("argv, expected", [
    (["plan", "--task", "classification", "--delta", "0.01", "--level", "85"],
     "falseclaims plan: error: --level 85 looks like a percentage; give a fraction in [0, 1], "
     "e.g. 0.85"),
    (["plan", "--task", "classification", "--delta", "0.01", "--level", "0.85", "--target",
      "5"], "--target 5 looks like a percentage"),
    (["plan", "--task", "classification", "--delta", "0.01", "--level", "0"],
     "--level must lie in (0, 1]; got 0"),
    (["sota", "--m", "10", "--n", "100", "--p", "80"],
     "falseclaims sota: error: --p 80 looks like a percentage; give a fraction in [0, 1], "
     "e.g. 0.8"),
    (["sota", "--m", "10", "--n", "100", "--p", "-0.1"], "--p must be a fraction in [0, 1]"),
])
def test_percent_values_name_the_option(capsys, argv, expected):
    assert expected in _err(capsys, argv)


@pytest.mark.parametrize("argv, expected", [
    (["--congruence-source", "msd"],
     "congruence source 'msd' is estimated by the pipeline and exists only inside it "
     "(config 'congruence:' defines paper); after a pipeline run its quartiles are in "
     "results/estimation/congruence/msd_quartiles.csv: pass one with --congruence"),
    (["--congruence-source", "bogus"],
     "congruence source 'bogus' is not defined (config 'congruence:' defines paper)"),
])
def test_estimated_congruence_source_explained(capsys, argv, expected):
    """In a checkout config/config.yaml lists estimated sources in `congruence.use`; the
    command line has only the inline ones."""
    from pathlib import Path
    config = Path(__file__).resolve().parents[1] / "config" / "config.yaml"
    err = _err(capsys, ["plan", "--task", "classification", "--delta", "0.01", "--level",
                        "0.85", "--config", str(config), *argv])
    assert err == f"falseclaims plan: error: {expected}"


def test_estimated_sd_source_explained(capsys):
    from pathlib import Path
    config = Path(__file__).resolve().parents[1] / "config" / "config.yaml"
    err = _err(capsys, ["plan", "--task", "segmentation", "--delta", "0.01", "--level", "0.85",
                        "--config", str(config), "--sd-source", "touchstone"])
    assert "SD model source 'touchstone' is estimated by the pipeline" in err, err
    assert "results/estimation/sd_model/touchstone.yaml" in err, err
