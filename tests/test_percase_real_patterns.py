"""Patterns found by running `falseclaims percase` on real per-case result files from
public repositories (docs/percase.md, "Real per-case files, first batch"). Each test of a
fix fails on the code before it (the guards, of behaviour that was right, say so); numbers
are checked against an independent computation (the JSON/CSV read with the standard library
or pandas, the p-value with scipy).

Real files (verbatim, with their licences) are in tests/data/percase_real/.
"""

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from cli_runs import one_line_error as _one_line_error
from cli_runs import run_cli as _run

DATA = Path(__file__).parent / "data" / "percase_real"
HEART = DATA / "autonnunet_heart"
TRAINERS = ["baseline_ConvolutionalEncoder", "baseline_ResidualEncoderM",
            "baseline_ResidualEncoderL"]
RANKSEG = DATA / "rankseg_hippocampus" / "case_paired_deltas.csv"


def _heart_dice(trainer: str) -> dict[str, float]:
    """Every case's Dice over the five folds, read with json alone."""
    dice = {}
    for fold in range(5):
        doc = json.loads((HEART / trainer / f"fold_{fold}" / "summary.json").read_text())
        for case in doc["metric_per_case"]:
            name = case["reference_file"].rsplit("/", 1)[-1].removesuffix(".nii.gz")
            assert name not in dice
            dice[name] = case["metrics"]["1"]["Dice"]
    return dice


# ---------------------------------------------------------------- cross-validation folds

def test_cross_validation_folds_are_pooled_per_method(capsys):
    # was: 15 'methods' (trainer/fold_N) whose case sets differ, refused, and the hint
    # --case-mismatch intersect then found 0 common cases
    files = [str(HEART / t / f"fold_{f}" / "summary.json") for t in TRAINERS for f in range(5)]
    code, out = _run(capsys, ["percase", *files, "--json"])
    assert code == 0, out.err
    doc = json.loads(out.out)
    res = doc["result"]
    dice = {t: _heart_dice(t) for t in TRAINERS}
    assert res["n"] == 20 == len(dice[TRAINERS[0]])
    means = {r["method"]: r["mean"] for r in res["ranking"]}
    assert set(means) == set(TRAINERS)
    for t in TRAINERS:
        assert means[t] == pytest.approx(np.mean(list(dice[t].values())), abs=1e-8)
    assert (res["a"], res["b"]) == ("baseline_ResidualEncoderM", "baseline_ConvolutionalEncoder")
    cases = sorted(dice[res["a"]])
    diff = np.array([dice[res["a"]][c] - dice[res["b"]][c] for c in cases])
    # with empirical inputs the probability is the one-sided paired t-test p-value
    p = stats.ttest_1samp(diff, 0.0, alternative="greater").pvalue
    assert res["probability"] == pytest.approx(p, rel=1e-6)
    assert any("cross-validation folds pooled per method" in n for n in doc["notes"])


def test_a_case_in_two_folds_of_a_method_is_refused(tmp_path, capsys):
    # the same validation set given as two folds is no cross-validation: each case must
    # come from one fold (was: compared as 4 'methods' trainer/fold_N without a word)
    files = []
    for t in TRAINERS[:2]:
        for fold in (0, 1):
            target = tmp_path / t / f"fold_{fold}" / "summary.json"
            target.parent.mkdir(parents=True)
            target.write_bytes((HEART / t / "fold_0" / "summary.json").read_bytes())
            files.append(str(target))
    code, out = _run(capsys, ["percase", *files])
    assert code == 2, out.out
    assert "fold_1/summary.json, column 'case_id': got 'la_007'; expected each case once" \
        in out.err, out.err


def test_one_fold_per_method_keeps_the_trainer_names(capsys):
    # guard, no fix: one summary per method is read as before
    files = [str(HEART / t / "fold_0" / "summary.json") for t in TRAINERS[:2]]
    code, out = _run(capsys, ["percase", *files, "--json"])
    assert code == 0, out.err
    res = json.loads(out.out)["result"]
    assert res["n"] == 4
    assert {r["method"] for r in res["ranking"]} == set(TRAINERS[:2])


# ---------------------------------------------------------------- <method>_<metric> columns

def test_method_metric_columns_and_differences_give_a_mapping_of_one_metric(capsys):
    # was: the suggested --columns made every column a method, delta_dice and the IoU ones
    # included, and giving it back crashed (IndexError)
    err = _one_line_error(capsys, ["percase", str(RANKSEG)])
    assert err.rstrip().endswith(
        "--columns case_id=case_id,alg_argmax=argmax_foreground_mean_dice,"
        "alg_rankseg=rankseg_foreground_mean_dice"), err
    assert "'delta_dice', 'delta_iou' left out (differences" in err
    assert "2 metrics (dice, iou): those of 'dice'" in err


def test_the_suggested_mapping_reads_the_file_leaving_the_rest_out_with_a_note(capsys):
    # was: refused, "expected only case_id, and alg_* columns", for each unmapped column
    mapping = ("case_id=case_id,alg_argmax=argmax_foreground_mean_dice,"
               "alg_rankseg=rankseg_foreground_mean_dice")
    code, out = _run(capsys, ["percase", str(RANKSEG), "--columns", mapping, "--json"])
    assert code == 0, out.err
    doc = json.loads(out.out)
    res = doc["result"]
    df = pd.read_csv(RANKSEG)
    assert res["n"] == len(df) == 260
    means = {r["method"]: r["mean"] for r in res["ranking"]}
    assert means["argmax"] == pytest.approx(df["argmax_foreground_mean_dice"].mean(), abs=1e-8)
    assert means["rankseg"] == pytest.approx(df["rankseg_foreground_mean_dice"].mean(),
                                             abs=1e-8)
    assert res["a"] == "rankseg"
    diff = df["rankseg_foreground_mean_dice"] - df["argmax_foreground_mean_dice"]
    p = stats.ttest_1samp(diff, 0.0, alternative="greater").pvalue
    assert res["probability"] == pytest.approx(p, rel=1e-6)
    left = [n for n in doc["notes"] if "not in the column mapping: left out" in n]
    assert left and "'delta_dice'" in left[0] and "'argmax_foreground_mean_iou'" in left[0]


def test_the_v1_reader_reads_a_real_nnunet_v1_layout_as_the_file_means_say(tmp_path):
    # guard, no fix: the v1 reader had met hand-built summaries only; a real v1 summary's
    # layout (results.all, 'reference'/'test', NaN where both empty) rebuilt from the
    # heart v2 values must give per-label means equal to a plain nanmean
    from falseclaims.percase.nnunet_layout import read_nnunet_summaries
    doc = json.loads((HEART / TRAINERS[0] / "fold_0" / "summary.json").read_text())
    entries = [{"reference": c["reference_file"], "test": c["prediction_file"],
                "1": {"Dice": c["metrics"]["1"]["Dice"], "Jaccard": c["metrics"]["1"]["IoU"]},
                "2": {"Dice": float("nan"), "Jaccard": float("nan")}}
               for c in doc["metric_per_case"]]
    v1 = tmp_path / "summary.json"
    v1.write_text(json.dumps({"author": "Fabian", "results": {"all": entries, "mean": {}}}))
    pc = read_nnunet_summaries({"m": str(v1)}, min_methods=1)
    got = pc.table.groupby("task")["value"].mean()
    assert list(got.index) == ["1"]
    assert got["1"] == pytest.approx(np.mean([c["metrics"]["1"]["Dice"]
                                              for c in doc["metric_per_case"]]), abs=1e-15)
    assert any("4 Dice value(s) undefined" in n for n in pc.notes)


def test_negative_values_are_said_not_a_crash(tmp_path, capsys):
    # a column of differences (negative numbers above -1) made the task inference index an
    # empty selection: "unexpected IndexError ... (a bug in falseclaims)"
    f = tmp_path / "deltas.csv"
    f.write_text("case_id,alg_a,alg_delta\nc1,0.9,-0.0002\nc2,0.8,0.0001\nc3,0.85,-0.0003\n")
    err = _one_line_error(capsys, ["percase", str(f)])
    assert "outside [0, 1] such as -0.0002 (negative: a column of differences" in err, err


# ---------------------------------------------------------------- files without a header

def test_a_headerless_predictions_file_is_said(tmp_path, capsys):
    # real pattern (per-image predictions, tab-separated, no header): its first row's
    # repeated '1' was reported as a header naming a column twice
    rows = ["AI1_01_hpf_10.jpg\t1\tnetwork_1\t0.892332\t1",
            "AI1_01_hpf_11.jpg\t1\tnetwork_1\t0.999997\t1",
            "AI1_01_hpf_12.jpg\t0\tnetwork_1\t0.100000\t0"]
    files = []
    for name in ("predictions_a.txt", "predictions_b.txt"):
        (tmp_path / name).write_text("\n".join(rows) + "\n")
        files.append(str(tmp_path / name))
    err = _one_line_error(capsys, ["percase", *files])
    assert "row 1: got 'AI1_01_hpf_10.jpg', '1', 'network_1', '0.892332', '1'" in err, err
    assert "the file has no header line" in err


def test_a_headerless_file_without_repeated_cells_is_said(tmp_path, capsys):
    # was: "cannot tell the layout from its columns ['img_001.png', '0.81', '0.79']"
    f = tmp_path / "nohead.csv"
    f.write_text("img_001.png,0.81,0.79\nimg_002.png,0.86,0.83\nimg_003.png,0.74,0.75\n")
    err = _one_line_error(capsys, ["percase", str(f)])
    assert "nohead.csv, row 1: got 'img_001.png', '0.81', '0.79'" in err, err
    assert "the file has no header line" in err


def test_whole_number_column_names_are_not_taken_for_data(tmp_path, capsys):
    # guard, no fix: nnU-Net label columns '1', '2' (a real MedSAM2 per-case file: header
    # '1,2,case') are column names
    f = tmp_path / "labels.csv"
    f.write_text("1,2,case\n0.68,0.62,hippocampus_017_0000.nii.gz\n"
                 "0.73,0.68,hippocampus_019_0000.nii.gz\n")
    err = _one_line_error(capsys, ["percase", str(f)])
    assert "no header line" not in err
    assert "cannot tell the layout from its columns ['1', '2', 'case']" in err


def test_one_methods_per_label_file_given_alone_says_how_to_give_it(capsys):
    # the real MedSAM2 file alone: was only "cannot tell the layout"
    f = HEART / "baseline_medsam2" / "fold_0" / "validation_results.csv"
    err = _one_line_error(capsys, ["percase", str(f)])
    assert err.rstrip().endswith("if it holds one method's results per structure (1), give "
                                 "one such file per method: falseclaims percase A.csv B.csv "
                                 "--columns case_id=case"), err


def test_several_files_with_task_classification_ask_for_the_labels(tmp_path, capsys):
    # was: "layout 'wide_per_method' holds segmentation results"
    files = []
    for name in ("a.csv", "b.csv"):
        (tmp_path / name).write_text("case_id,pred\nc1,1\nc2,0\nc3,1\n")
        files.append(str(tmp_path / name))
    err = _one_line_error(capsys, ["percase", *files, "--task", "classification"])
    assert "--labels FILE" in err, err


# ---------------------------------------------------------------- lower-is-better metrics

def _assd_long(tmp_path) -> Path:
    # per-case ASSD in mm below 1 (easy organs): b's surfaces are farther, b is WORSE
    rows = ["case_id,task,method,metric,value"]
    for i, (a, b) in enumerate([(0.32, 0.51), (0.22, 0.40), (0.80, 0.75), (0.30, 0.60),
                                (0.41, 0.58)]):
        rows += [f"c{i},liver,a,dice,{0.95 - a / 10:.3f}", f"c{i},liver,b,dice,{0.95 - b / 10:.3f}",
                 f"c{i},liver,a,assd,{a}", f"c{i},liver,b,assd,{b}"]
    f = tmp_path / "metrics_long.csv"
    f.write_text("\n".join(rows) + "\n")
    return f


@pytest.mark.parametrize("extra", [[], ["--task", "segmentation"]])
def test_a_distance_metric_is_refused_not_ranked_higher_is_better(tmp_path, capsys, extra):
    # was: "1. b 0.5650 (A)": the method with the larger surface distance ranked best
    f = _assd_long(tmp_path)
    err = _one_line_error(capsys, ["percase", str(f), "--metric", "assd", *extra])
    assert "the metric 'assd' is lower-is-better" in err, err
    assert "--metric Dice" in err


def test_the_dice_rows_beside_a_distance_are_compared(tmp_path, capsys):
    # guard, no fix: a file holding a distance too is still compared on its Dice rows
    f = _assd_long(tmp_path)
    code, out = _run(capsys, ["percase", str(f), "--metric", "dice", "--json"])
    assert code == 0, out.err
    assert json.loads(out.out)["result"]["a"] == "a"


def test_hd95_of_an_nnunet_fork_summary_is_refused(tmp_path, capsys):
    # nnU-Net forks add HD95 to each label's metrics; --metric HD95 was compared as a score
    # (its values up to ~10 mm drew "percent?" hints, values below 1 mm a wrong winner)
    files = []
    for t in TRAINERS[:2]:
        doc = json.loads((HEART / t / "fold_0" / "summary.json").read_text())
        for case in doc["metric_per_case"]:
            case["metrics"]["1"]["HD95"] = round(1.0 - case["metrics"]["1"]["Dice"], 4)
        target = tmp_path / t / "summary.json"
        target.parent.mkdir()
        target.write_text(json.dumps(doc))
        files.append(str(target))
    err = _one_line_error(capsys, ["percase", *files, "--metric", "HD95"])
    assert "the metric 'hd95' is lower-is-better" in err, err


# ---------------------------------------------------------------- per-method CSVs by folder

def test_per_method_csvs_of_one_name_are_named_by_folder_and_folds_pooled(tmp_path, capsys):
    # real MedSAM2 results: fold_N/validation_results.csv, one file name for every run;
    # was: "two files give method name 'validation_results'". The second method's files are
    # the real nnU-Net summaries of the same folds written in MedSAM2's layout.
    files, nnunet = [], {}
    for fold in range(5):
        files.append(str(HEART / "baseline_medsam2" / f"fold_{fold}" / "validation_results.csv"))
        doc = json.loads((HEART / TRAINERS[0] / f"fold_{fold}" / "summary.json").read_text())
        target = tmp_path / "nnunet" / f"fold_{fold}" / "validation_results.csv"
        target.parent.mkdir(parents=True)
        lines = ["1,case"]
        for case in doc["metric_per_case"]:
            name = case["reference_file"].rsplit("/", 1)[-1].replace(".nii.gz", "_0000.nii.gz")
            nnunet[name] = case["metrics"]["1"]["Dice"]
            lines.append(f"{case['metrics']['1']['Dice']!r},{name}")
        target.write_text("\n".join(lines) + "\n")
        files.append(str(target))
    code, out = _run(capsys, ["percase", *files, "--columns", "case_id=case", "--json"])
    assert code == 0, out.err
    doc = json.loads(out.out)
    res = doc["result"]
    medsam2 = pd.concat([pd.read_csv(f) for f in files if "medsam2" in f])
    assert res["n"] == 20 == len(medsam2) == len(nnunet)
    means = {r["method"]: r["mean"] for r in res["ranking"]}
    assert len(means) == 2
    (m_name,) = [m for m in means if "medsam2" in m]
    (n_name,) = [m for m in means if m != m_name]
    assert means[m_name] == pytest.approx(medsam2["1"].mean(), abs=1e-8)
    assert means[n_name] == pytest.approx(np.mean(list(nnunet.values())), abs=1e-8)
    assert any("cross-validation folds pooled per method" in n for n in doc["notes"])


def test_the_same_csv_given_twice_is_still_refused(capsys):
    # guard, no fix: the same file three times (was a crash risk of the new naming)
    f = str(HEART / "baseline_medsam2" / "fold_0" / "validation_results.csv")
    err = _one_line_error(capsys, ["percase", f, f, f, "--columns", "case_id=case"])
    assert "two files give method name 'validation_results'" in err, err


def test_case_ids_written_with_the_channel_suffix_are_named_not_paired(tmp_path, capsys):
    # MedSAM2's ids keep nnU-Net's channel suffix ('la_007_0000.nii.gz'), nnU-Net's own
    # summaries drop it ('la_007'): the case sets differ; was: listed, with the hint
    # --case-mismatch intersect, which then finds no common case. Now the refusal says the
    # ids are the same cases written otherwise and does not suggest the intersection.
    medsam2 = HEART / "baseline_medsam2" / "fold_0" / "validation_results.csv"
    doc = json.loads((HEART / TRAINERS[0] / "fold_0" / "summary.json").read_text())
    target = tmp_path / "nnunet" / "validation_results.csv"
    target.parent.mkdir()
    target.write_text("1,case\n" + "".join(
        f"{c['metrics']['1']['Dice']!r},{c['reference_file'].rsplit('/', 1)[-1][:-7]}\n"
        for c in doc["metric_per_case"]))
    code, out = _run(capsys, ["percase", str(medsam2), str(target), "--columns", "case_id=case"])
    assert code == 2
    assert "the same cases written otherwise? 'la_007' here is 'la_007_0000.nii.gz'" in out.err
    assert "--case-mismatch intersect" not in out.err


def test_folds_beside_a_summary_of_all_folds(tmp_path, capsys):
    # nnU-Net v2's crossval_results_folds_0_1_2_3_4/summary.json holds every fold's cases in
    # one summary; one method given so, the other as its five fold summaries (was refused:
    # six 'methods' with different case sets)
    merged = {"metric_per_case": []}
    for fold in range(5):
        doc = json.loads((HEART / TRAINERS[1] / f"fold_{fold}" / "summary.json").read_text())
        merged["metric_per_case"] += doc["metric_per_case"]
    target = tmp_path / TRAINERS[1] / "crossval_results_folds_0_1_2_3_4" / "summary.json"
    target.parent.mkdir(parents=True)
    target.write_text(json.dumps(merged))
    files = [str(HEART / TRAINERS[0] / f"fold_{f}" / "summary.json") for f in range(5)]
    code, out = _run(capsys, ["percase", *files, str(target), "--json"])
    assert code == 0, out.err
    res = json.loads(out.out)["result"]
    assert res["n"] == 20
    means = sorted(r["mean"] for r in res["ranking"])
    want = sorted(np.mean(list(_heart_dice(t).values())) for t in TRAINERS[:2])
    assert means == pytest.approx(want, abs=1e-8)
