"""Per-case files as users bring them: ';'-separated with decimal commas, DSC in percent,
positives-only classification, rows with an extra field, UTF-16 exports."""

import json

import numpy as np
import pytest

from falseclaims.cli import main
from falseclaims.percase.readers import PerCaseValidationError, read_claims_reloaded

RNG = np.random.default_rng(11)
N = 30
DSC_A = np.round(np.clip(RNG.normal(0.85, 0.05, N), 0, 1), 4)
DSC_B = np.round(np.clip(DSC_A - 0.02 + RNG.normal(0, 0.02, N), 0, 1), 4)


def _seg_csv(path, sep=",", scale=1.0, decimal=".", extra_row=None, encoding="utf-8"):
    lines = [sep.join(["case_id", "alg_a", "alg_b"])]
    for i, (a, b) in enumerate(zip(DSC_A, DSC_B)):
        cells = [f"c{i}", f"{a * scale:g}".replace(".", decimal),
                 f"{b * scale:g}".replace(".", decimal)]
        if i == extra_row:
            cells.append("0.5")
        lines.append(sep.join(cells))
    path.write_text("\n".join(lines) + "\n", encoding=encoding)
    return str(path)


def _percase(capsys, *argv):
    code = main(["percase", *argv, "--bootstrap", "200", "--json"])
    out = capsys.readouterr()
    return code, (_unwrap(json.loads(out.out)) if code == 0 else None), out.err


def _unwrap(d):
    """The --json envelope's result with its notes."""
    return {**d["result"], "notes": d["notes"]}


@pytest.fixture
def reference(tmp_path, capsys):
    code, res, err = _percase(capsys, _seg_csv(tmp_path / "ref.csv"), "--task", "segmentation")
    assert code == 0, err
    return res


def test_semicolon_and_decimal_comma_read_like_csv(tmp_path, capsys, reference):
    path = _seg_csv(tmp_path / "semi.csv", sep=";", decimal=",")
    code, res, err = _percase(capsys, path, "--task", "segmentation")
    assert code == 0, err
    assert res["probability"] == reference["probability"]
    assert res["mean_a"] == reference["mean_a"] and res["sd_b"] == reference["sd_b"]
    assert any("';'-separated" in n for n in res["notes"])
    assert any(f"{N} decimal comma(s)" in n for n in res["notes"])


def test_percent_dsc_is_one_hint(tmp_path, capsys):
    path = _seg_csv(tmp_path / "pct.csv", scale=100)
    code, _, err = _percase(capsys, path, "--task", "segmentation")
    assert code == 2
    assert len(err.strip().splitlines()) == 1, err
    assert "values look like percent: divide by 100 or pass --units percent" in err
    with pytest.raises(PerCaseValidationError) as exc:
        read_claims_reloaded(path)
    assert len(exc.value.problems) == 1


def test_units_percent_equals_fractions(tmp_path, capsys, reference):
    path = _seg_csv(tmp_path / "pct.csv", scale=100)
    code, res, err = _percase(capsys, path, "--task", "segmentation", "--units", "percent")
    assert code == 0, err
    assert res["mean_a"] == pytest.approx(reference["mean_a"], abs=1e-12)
    assert res["probability"] == pytest.approx(reference["probability"], rel=1e-9)
    assert any("divided by 100" in n for n in res["notes"])
    # fractions with --units percent: one hint the other way
    code, _, err = _percase(capsys, _seg_csv(tmp_path / "f.csv"), "--task", "segmentation",
                            "--units", "percent")
    assert code == 2 and "drop --units percent" in err and len(err.strip().splitlines()) == 1


def test_one_percent_typo_among_fractions_is_located(tmp_path):
    path = tmp_path / "typo.csv"
    _seg_csv(path)
    text = path.read_text().replace(f"c3,{DSC_A[3]:g}", "c3,87")
    path.write_text(text)
    with pytest.raises(PerCaseValidationError) as exc:
        read_claims_reloaded(path)
    assert [(p.row, p.column) for p in exc.value.problems] == [(5, "alg_a")]


def test_row_with_extra_field_named(tmp_path, capsys):
    path = _seg_csv(tmp_path / "extra.csv", extra_row=7)
    code, _, err = _percase(capsys, path, "--task", "segmentation")
    assert code == 2
    assert err.strip() == (f"falseclaims percase: error: {path}, row 9: got '4 fields'; "
                           "expected 3 fields like the header (a ',' inside a value? quote "
                           "the value)")


def test_utf16_file_read(tmp_path, capsys, reference):
    path = _seg_csv(tmp_path / "u16.csv", encoding="utf-16")
    code, res, err = _percase(capsys, path, "--task", "segmentation")
    assert code == 0, err
    assert res["probability"] == reference["probability"]


def _positives_only(path):
    rng = np.random.default_rng(3)
    rows = ["case_id,ground_truth,alg_a,alg_b"]
    for i in range(113):
        rows.append(f"c{i},1,{int(rng.random() < 0.9)},{int(rng.random() < 0.8)}")
    path.write_text("\n".join(rows) + "\n")
    return str(path)


def test_positives_only_classification(tmp_path, capsys):
    """A sensitivity table: every case positive, predictions 0/1. The class set is the
    union of truth and predicted labels (it used to be refused with 113 errors)."""
    path = _positives_only(tmp_path / "sens.csv")
    code, res, err = _percase(capsys, path, "--task", "classification")
    assert code == 0, err
    assert any("['0'] never occur in the ground truth" in n for n in res["notes"])
    code, res2, err = _percase(capsys, path, "--task", "classification", "--classes", "0,1")
    assert code == 0, err
    assert res2["probability"] == res["probability"]
    assert not any("never occur" in n for n in res2["notes"])
    code, _, err = _percase(capsys, path, "--task", "classification", "--classes", "1,2")
    assert code == 2 and "class set {1, 2}" in err


@pytest.mark.parametrize("argv, expected", [
    (["--task", "segmentation", "--classes", "0,1"], "--classes applies to classification"),
    (["--task", "classification", "--units", "percent"], "--units applies to segmentation"),
    (["--task", "classification", "--classes", "1"], "--classes needs at least 2"),
])
def test_option_misuse(tmp_path, capsys, argv, expected):
    code, _, err = _percase(capsys, _positives_only(tmp_path / "s.csv"), *argv)
    assert code == 2 and expected in err and len(err.strip().splitlines()) == 1, err


def test_workbook_given_as_per_case_file(tmp_path, capsys):
    book = tmp_path / "results.xlsx"
    book.write_bytes(b"PK\x03\x04 not really a workbook")
    code, _, err = _percase(capsys, str(book), "--task", "segmentation")
    assert code == 2 and "save the workbook as 'CSV UTF-8'" in err, err


def test_decimal_comma_leaves_ids_alone(tmp_path):
    path = tmp_path / "ids.csv"
    rows = ["case_id;alg_a;alg_b"] + [f"1,{i};0,8{i};0,7{i}" for i in range(5)]
    path.write_text("\n".join(rows) + "\n")
    pc = read_claims_reloaded(path)
    assert sorted(pc.table["case_id"].unique()) == [f"1,{i}" for i in range(5)]
    assert pc.matrix("task").loc["1,2", "a"] == pytest.approx(0.82)
