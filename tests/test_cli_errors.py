"""Every CLI input error exits 2 with one line naming the option or file."""

import pytest

from falseclaims.cli import main
from falseclaims.cli.sota import MAX_M, MAX_N

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
    (["--m", "1e20", "--n", "100"], f"--m must be between 1 and {MAX_M:.0e}; got 1e+20"),
    (["--m", "100000000000000000000", "--n", "100"], "--m must be between 1 and"),
    (["--m", "10", "--n", "1e14"], f"--n must be between 1 and {MAX_N:.0e}"),
    (["--m", "0", "--n", "100"], "--m must be between 1"),
    (["--m", "2.5", "--n", "100"], "argument --m: expected a whole number, got '2.5'"),
    (["--m", "ten", "--n", "100"], "argument --m: expected a whole number, got 'ten'"),
])
def test_sota_bounds(capsys, argv, expected):
    err = _err(capsys, ["sota", *argv, "--p", "0.9"])
    assert expected in err, err


def test_sota_accepts_exponent_notation(capsys):
    assert main(["sota", "--m", "1e3", "--n", "3e3", "--p", "0.9", "--json"]) == 0
    assert '"m": 1000, "n": 3000' in capsys.readouterr().out


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
