"""Patterns found by running `falseclaims percase` on a second batch of real per-case files
(docs/percase.md, "Real per-case files, second batch"): CSVs with one row per case and
structure, as nnU-Net v1's evaluator writes them (reference, segment_id, Dice, ...,
Total Positives Reference), one file per model. Each test of a fix fails on the code before
it (the guards say so); numbers are checked against pandas, the p-value against scipy.

Real files (verbatim, BSD-3, with LICENSE and SOURCE.md) are in
tests/data/percase_real/dcan_nn_unet/; the nnU-Net summaries in autonnunet_heart/.
"""

import json
from pathlib import Path

import pandas as pd
import pytest
from scipy import stats

from cli_runs import one_line_error as _one_line_error
from cli_runs import run_cli as _run

DATA = Path(__file__).parent / "data" / "percase_real"
DCAN = DATA / "dcan_nn_unet"
BY_REF = [str(DCAN / "by_reference" / f"Task{t}_all.csv") for t in (509, 512)]
BY_AGE = [str(DCAN / "by_age" / f"Task{t}_all.csv") for t in (509, 510)]
HEART = DATA / "autonnunet_heart"
TRAINERS = ["baseline_ConvolutionalEncoder", "baseline_ResidualEncoderM"]
COUNT = "Total Positives Reference"


def _paired(files: list[str], key: str, segment: int) -> pd.DataFrame:
    """The two files' rows of one segment joined on the case, read with pandas alone, with
    a column saying whether the reference voxel counts agree."""
    a, b = (pd.read_csv(f) for f in files)
    for d in (a, b):
        d["case"] = d[key].astype(str).str.rsplit("/", n=1).str[-1].str.removesuffix(".nii.gz")
    m = a.merge(b, on=["case", "segment_id"], suffixes=("_a", "_b"))
    m["same"] = m[f"{COUNT}_a"] == m[f"{COUNT}_b"]
    return m[m["segment_id"] == segment]


def _check_result(res: dict, m: pd.DataFrame, names: tuple[str, str]) -> None:
    assert res["n"] == len(m)
    means = {r["method"]: r["mean"] for r in res["ranking"]}
    assert means[names[0]] == pytest.approx(m["Dice_a"].mean(), abs=1e-8)  # the JSON holds 8 decimals
    assert means[names[1]] == pytest.approx(m["Dice_b"].mean(), abs=1e-8)  # the JSON holds 8 decimals
    assert (res["a"], res["b"]) == names  # the first model leads on the mean
    p = stats.ttest_1samp(m["Dice_a"] - m["Dice_b"], 0.0, alternative="greater").pvalue
    assert res["probability"] == pytest.approx(p, rel=1e-6)


# ------------------------------------------------- one row per case and structure (CSV)

def test_one_row_per_case_and_structure_is_read_per_structure(capsys):
    # was: "expected a column named 'name'" for both files (the layout was not read at all);
    # now the reference path names the case, segment_id the structure (--subtask), Dice is
    # compared; the two templates whose references differ are left out with intersect
    code, out = _run(capsys, ["percase", *BY_REF, "--subtask", "2", "--case-mismatch",
                              "intersect", "--json"])
    assert code == 0, out.err
    doc = json.loads(out.out)
    m = _paired(BY_REF, "reference", 2)
    assert m["case"].nunique() == 9 and int(m["same"].sum()) == 7
    _check_result(doc["result"], m[m["same"]], ("Task509_all", "Task512_all"))
    notes = " ".join(doc["notes"])
    assert "0mo_template_19, 0mo_template_20" in notes and "different reference" in notes
    # the case only one file has (7mo_updated_sub-786266 vs 7mo_sub-786266) is said, too
    assert "7mo_updated_sub-786266" in notes or "7mo_sub-786266" in notes


def test_the_same_case_name_with_a_different_reference_is_refused(capsys):
    # the wrong pairing: Task509's 0mo templates are other images than Task512's (the
    # reference voxel counts differ for every structure); before the fix no such file was
    # read, and nothing checked that one case name is one reference image
    err = _one_line_error(capsys, ["percase", *BY_REF, "--subtask", "2"])
    assert "2 case(s) with the same name but a different reference image" in err
    assert "0mo_template_19" in err and "--case-mismatch intersect" in err


def test_an_integer_case_column_named_with_columns(capsys):
    # cases keyed by age in months (0-8): the age column is the case id, age 0 has other
    # references in the two files (refused; left out with intersect)
    err = _one_line_error(capsys, ["percase", *BY_AGE, "--columns", "case_id=age_months",
                                   "--subtask", "2"])
    assert "1 case(s) with the same name but a different reference image (0)" in err
    code, out = _run(capsys, ["percase", *BY_AGE, "--columns", "case_id=age_months",
                              "--subtask", "2", "--case-mismatch", "intersect", "--json"])
    assert code == 0, out.err
    m = _paired(BY_AGE, "age_months", 2)
    assert sorted(m.loc[~m["same"], "case"]) == ["0"]
    _check_result(json.loads(out.out)["result"], m[m["same"]], ("Task509_all", "Task510_all"))


def test_means_per_structure_are_not_taken_for_cases(capsys):
    # a file of means per structure (no case column): refused saying its rows are structures
    # (was: "expected a column named 'name'")
    files = [str(DCAN / "means" / f"Task{t}_means.csv") for t in (509, 510)]
    code, out = _run(capsys, ["percase", *files])
    assert code == 2
    assert "rows are structures, not cases" in out.err
    assert "--columns case_id=COLUMN" in out.err


def test_two_test_sets_without_a_common_case_are_said_in_one_line(capsys):
    # Task504 was evaluated on 4 templates, Task512 on 10 other images: no case in common
    # (would be 52 lines, one per structure and file)
    err = _one_line_error(capsys, ["percase", str(DCAN / "Task504_all.csv"), BY_REF[1]])
    assert "the methods have no case in common" in err
    assert "4 cases" in err and "10 cases" in err


# -------------------------------------------------------- nnU-Net summaries (JSON)

def _heart_fold0(tmp_path: Path, change: bool) -> list[str]:
    files = []
    for t in TRAINERS:
        doc = json.loads((HEART / t / "fold_0" / "summary.json").read_text())
        if change and t == TRAINERS[1]:
            doc["metric_per_case"][0]["metrics"]["1"]["n_ref"] += 1000
        target = tmp_path / t / "fold_0" / "summary.json"
        target.parent.mkdir(parents=True)
        target.write_text(json.dumps(doc))
        files.append(str(target))
    return files


def test_a_summary_whose_reference_differs_is_refused(tmp_path, capsys):
    # the same check for nnU-Net v2 summaries (n_ref per case and label): one case's
    # reference count changed in one trainer's copy of the real Heart fold 0 summary
    # (was: the two values paired silently)
    files = _heart_fold0(tmp_path, change=True)
    first = json.loads(Path(files[0]).read_text())["metric_per_case"][0]
    name = first["reference_file"].rsplit("/", 1)[-1].removesuffix(".nii.gz")
    err = _one_line_error(capsys, ["percase", *files])
    assert f"1 case(s) with the same name but a different reference image ({name})" in err
    code, out = _run(capsys, ["percase", *files, "--case-mismatch", "intersect", "--json"])
    assert code == 0, out.err
    assert json.loads(out.out)["result"]["n"] == len(
        json.loads(Path(files[0]).read_text())["metric_per_case"]) - 1


def test_real_summaries_with_the_same_references_are_compared(tmp_path, capsys):
    # guard (right before): the real summaries' n_ref agree case by case, nothing refused
    files = _heart_fold0(tmp_path, change=False)
    code, out = _run(capsys, ["percase", *files, "--json"])
    assert code == 0, out.err
    n = len(json.loads(Path(files[0]).read_text())["metric_per_case"])
    assert json.loads(out.out)["result"]["n"] == n
