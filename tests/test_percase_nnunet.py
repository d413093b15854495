"""`falseclaims percase` on nnU-Net's evaluation summaries (summary.json, versions 1 and 2).

The same per-case Dice written as nnU-Net summaries and as a long CSV must give the same
comparison (the CSV path is the independent reader); NaN Dice (reference and prediction
both empty) is left out with a note; broken files are refused in one line.
"""

import json
import math

import pandas as pd
import pytest

from falseclaims.cli import main
from falseclaims.percase.nnunet_layout import case_name, method_names, read_nnunet_summaries
from falseclaims.percase.readers import detect_layout

# per-case Dice of two trainers on 8 cases, two labels (hand-written, not generated)
DICE = {
    "Trainer_A": {"1": [0.91, 0.88, 0.93, 0.85, 0.90, 0.87, 0.92, 0.89],
                  "2": [0.71, 0.65, 0.80, 0.62, 0.75, 0.70, 0.77, 0.68]},
    "Trainer_B": {"1": [0.90, 0.86, 0.93, 0.83, 0.88, 0.88, 0.90, 0.87],
                  "2": [0.73, 0.60, 0.78, 0.66, 0.70, 0.69, 0.75, 0.70]},
}
CASES = [f"BraTS_{i:03d}" for i in range(1, 9)]


def _v2(dice: dict, folder: str = "/data/nnUNet_raw/Dataset001/labelsTr") -> dict:
    per_case = []
    for i, case in enumerate(CASES):
        metrics = {}
        for label, values in dice.items():
            d = values[i]
            metrics[label] = {"Dice": d, "IoU": d / (2 - d) if not math.isnan(d) else d,
                              "FN": 10, "FP": 12, "TP": 300, "TN": 10_000, "n_pred": 312,
                              "n_ref": 310}
        per_case.append({"metrics": metrics, "prediction_file": f"/pred/{case}.nii.gz",
                         "reference_file": f"{folder}/{case}.nii.gz"})
    return {"foreground_mean": {"Dice": 0.8}, "mean": {}, "metric_per_case": per_case}


def _v1(dice: dict) -> dict:
    rows = [{**{label: {"Dice": values[i], "Jaccard": 0.5, "Accuracy": 0.99}
                for label, values in dice.items()},
             "reference": f"/gt/{case}.nii.gz", "test": f"/pred/{case}.nii.gz"}
            for i, case in enumerate(CASES)]
    return {"author": "Fabian", "results": {"all": rows, "mean": {}}, "task": "Task001"}


def _write(tmp_path, docs: dict) -> list[str]:
    paths = []
    for method, doc in docs.items():
        p = tmp_path / "nnUNet_results" / f"{method}__nnUNetPlans__3d_fullres" / "fold_0" / \
            "validation" / "summary.json"
        p.parent.mkdir(parents=True)
        # allow_nan: nnU-Net writes NaN as JSON's non-standard NaN
        p.write_text(json.dumps(doc, indent=4, allow_nan=True))
        paths.append(str(p))
    return paths


def _long_csv(tmp_path, label: str) -> str:
    rows = [{"case_id": c, "task": label, "method": f"{m}__nnUNetPlans__3d_fullres",
             "metric": "dice", "value": DICE[m][label][i]}
            for m in DICE for i, c in enumerate(CASES)]
    p = tmp_path / f"long_{label}.csv"
    pd.DataFrame(rows).to_csv(p, index=False)
    return str(p)


def _json(capsys, *argv):
    code = main(["percase", *argv, "--json", "--bootstrap", "300"])
    out = capsys.readouterr()
    assert code == 0, out.err
    return json.loads(out.out)


@pytest.mark.parametrize("label", ["1", "2"])
def test_summaries_compare_as_the_same_values_in_a_long_csv(tmp_path, capsys, label):
    files = _write(tmp_path, {m: _v2(d) for m, d in DICE.items()})
    got = _json(capsys, *files, "--subtask", label)
    want = _json(capsys, _long_csv(tmp_path, label), "--task", "segmentation")
    assert got["result"]["n"] == want["result"]["n"] == 8
    assert got["result"]["ranking"] == want["result"]["ranking"]
    assert got["result"]["probability"] == pytest.approx(want["result"]["probability"],
                                                          abs=1e-12)
    assert got["result"]["tests"]["wilcoxon"] == want["result"]["tests"]["wilcoxon"]
    assert got["result"]["input"]["layout"] == "nnunet"


def test_method_names_are_the_differing_path_parts(tmp_path):
    files = _write(tmp_path, {m: _v2(d) for m, d in DICE.items()})
    assert method_names(files) == ["Trainer_A__nnUNetPlans__3d_fullres",
                                   "Trainer_B__nnUNetPlans__3d_fullres"]
    assert method_names(["/x/a.json", "/x/b.json"]) == ["a", "b"]
    assert method_names(["/r/unet/summary.json"]) == ["unet"]


def test_case_ids_drop_the_image_extension():
    assert case_name("/data/labelsTr/BraTS_001.nii.gz") == "BraTS_001"
    assert case_name("C:\\gt\\case_7.nrrd") == "case_7"
    assert case_name("liver.v2_12.mha") == "liver.v2_12"
    assert case_name("nodot") == "nodot"


def test_version_1_summary(tmp_path):
    files = _write(tmp_path, {m: _v1(d) for m, d in DICE.items()})
    assert detect_layout(files[0]) == "nnunet"
    pc = read_nnunet_summaries(files)
    assert sorted(pc.tasks) == ["1", "2"]
    wide = pc.matrix("2", "dice")
    assert list(wide.index) == CASES
    assert wide["Trainer_B__nnUNetPlans__3d_fullres"].tolist() == DICE["Trainer_B"]["2"]


def test_iou_on_request(tmp_path):
    files = _write(tmp_path, {m: _v2(d) for m, d in DICE.items()})
    pc = read_nnunet_summaries(files, metric="IoU")
    assert pc.task_metrics("1") == ["iou"]
    d = DICE["Trainer_A"]["1"][0]
    assert pc.matrix("1", "iou").iloc[0, 0] == pytest.approx(d / (2 - d))


def test_nan_dice_left_out_with_a_note_and_case_sets_compared(tmp_path, capsys):
    dice = {m: {k: list(v) for k, v in d.items()} for m, d in DICE.items()}
    dice["Trainer_A"]["2"][3] = float("nan")  # both empty in A
    dice["Trainer_B"]["2"][3] = float("nan")  # ... and in B: the case leaves label 2
    files = _write(tmp_path, {m: _v2(d) for m, d in dice.items()})
    pc = read_nnunet_summaries(files)
    assert len(pc.matrix("2", "dice")) == 7
    assert any("undefined" in n and "left out" in n for n in pc.notes)
    # a false positive in B on a case empty in A: B has Dice 0 there, A none -> refused
    dice["Trainer_B"]["2"][3] = 0.0
    files = _write(tmp_path / "fp", {m: _v2(d) for m, d in dice.items()})
    code = main(["percase", *files, "--subtask", "2"])
    err = capsys.readouterr().err
    assert code == 2 and "--case-mismatch intersect" in err and "BraTS_004" in err
    res = _json(capsys, *files, "--subtask", "2", "--case-mismatch", "intersect")
    assert res["result"]["n"] == 7


def test_broken_summaries_refused_in_one_line(tmp_path, capsys):
    files = _write(tmp_path, {m: _v2(d) for m, d in DICE.items()})
    with open(files[1], "w") as fh:
        fh.write('{"metric_per_case": [ {"metrics": ')
    code = main(["percase", *files, "--subtask", "1"])
    err = capsys.readouterr().err
    assert code == 2 and files[1] in err and "not valid JSON" in err
    assert "Traceback" not in err
    doc = _v2(DICE["Trainer_B"])
    doc["metric_per_case"][2]["metrics"]["1"]["Dice"] = "0.9"
    with open(files[1], "w") as fh:
        json.dump(doc, fh)
    code = main(["percase", *files, "--subtask", "1"])
    err = capsys.readouterr().err
    assert code == 2 and "metric_per_case[2].1.Dice" in err and "a number" in err


def test_one_summary_is_not_a_comparison(tmp_path, capsys):
    files = _write(tmp_path, {"Trainer_A": _v2(DICE["Trainer_A"])})
    code = main(["percase", files[0], "--subtask", "1"])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err and "method" in err


def test_a_summary_without_cases_or_not_of_nnunet(tmp_path, capsys):
    files = _write(tmp_path, {m: _v2(d) for m, d in DICE.items()})
    with open(files[0], "w") as fh:
        json.dump({"metric_per_case": [], "mean": {}}, fh)
    code = main(["percase", *files])
    err = capsys.readouterr().err
    assert code == 2 and "metric_per_case" in err and "at least one case" in err
    with open(files[0], "w") as fh:
        json.dump({"dice": [0.9, 0.8]}, fh)
    code = main(["percase", *files])
    err = capsys.readouterr().err
    assert code == 2 and "not an nnU-Net summary" in err and files[0] in err
