"""Patterns found by running `falseclaims percase` on a fourth batch of real per-case files
(docs/percase.md, "Real per-case files, fourth batch"): files without case ids whose rows
are the same cases in the same order (paired by position only when the user says so,
``--paired-by-order``, and the output says it), model outputs saved as NumPy arrays, a
per-case export of one segmentation method beside another's with other case ids and
regions, two exports of one run with different extra columns. Each test of a fix fails on
the code before it (the guards say so); numbers are checked against pandas, p-values
against scipy and a published table.

Real files (verbatim, with LICENSE and SOURCE.md) in tests/data/percase_real/:
ecg_ribeiro2020/ (MIT), expected_cost_pneumoniamnist/ (MIT). The BraTS and lung files of
the batch have no licence: their shapes are rebuilt here with made-up values.
"""

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from cli_runs import one_line_error, run_cli
from test_percase_real3 import assert_mcnemar_as_published

DATA = Path(__file__).parent / "data" / "percase_real"
ECG = DATA / "ecg_ribeiro2020"
FINDINGS = ["1dAVb", "RBBB", "LBBB", "SB", "AF", "ST"]
NPY = DATA / "expected_cost_pneumoniamnist"


def _json(capsys, argv) -> dict:
    code, out = run_cli(capsys, [*argv, "--json"])
    assert code == 0, out.err
    return json.loads(out.out)


def _ecg(*names: str) -> list[str]:
    return [str(ECG / n) for n in names]


# ------------------------------------------------------------ rows paired by position


def test_declared_order_reproduces_the_published_mcnemar_for_every_finding(capsys):
    # Supplementary Table 3 of Ribeiro et al. (2020), McNemar chi-square without continuity
    # correction, DNN vs cardiology residents: the files as published (no case id; dnn.csv
    # with an unnamed row-number column), paired by row because the user says so
    published = pd.read_csv(ECG / "mcnemar.csv", index_col=0).loc["DNN vs cardio."]
    for finding in FINDINGS:
        res = _json(capsys, ["percase", *_ecg("dnn.csv", "cardiology_residents.csv"),
                             "--labels", str(ECG / "gold_standard.csv"), "--subtask",
                             finding, "--paired-by-order"])["result"]
        assert_mcnemar_as_published(res, published[finding])


def test_the_pairing_by_position_is_said_in_the_text_and_the_json(capsys):
    argv = ["percase", *_ecg("dnn.csv", "emergency_residents.csv"), "--labels",
            str(ECG / "gold_standard.csv"), "--subtask", "1dAVb", "--paired-by-order"]
    code, out = run_cli(capsys, argv)
    assert code == 0, out.err
    said = [line for line in out.out.splitlines() if "paired by their position" in line]
    assert len(said) == 1 and "--paired-by-order" in said[0] and "827 rows each" in said[0]
    notes = _json(capsys, argv)["notes"]
    assert any("paired by their position" in n for n in notes)


def test_without_the_option_rows_are_still_never_paired_by_position(capsys):
    # guard (passes before): nothing is paired by position unless the user says so; the
    # refusal now names the option
    err = one_line_error(capsys, ["percase", *_ecg("dnn.csv", "cardiology_residents.csv"),
                                  "--labels", str(ECG / "gold_standard.csv"), "--subtask",
                                  "1dAVb"])
    assert "never by their position" in err and "--paired-by-order" in err


def test_files_of_different_lengths_are_not_paired_by_position(tmp_path, capsys):
    short = tmp_path / "gold_standard.csv"
    lines = (ECG / "gold_standard.csv").read_text().splitlines()
    short.write_text("\n".join(lines[:-1]) + "\n")  # the last tracing missing
    err = one_line_error(capsys, ["percase", *_ecg("dnn.csv", "cardiology_residents.csv"),
                                  "--labels", str(short), "--subtask", "1dAVb",
                                  "--paired-by-order"])
    assert "different numbers of rows" in err and "826" in err and "827" in err


def test_files_with_case_ids_are_paired_by_them_not_by_position(tmp_path, capsys):
    # a shuffled copy with ids: pairing it by position would be wrong, so the option is
    # refused where the files name their cases
    for name in ("gold_standard.csv", "dnn.csv", "cardiology_residents.csv"):
        d = pd.read_csv(ECG / name, index_col=0 if name == "dnn.csv" else None)
        d.insert(0, "record", [f"ecg{i:03d}" for i in range(len(d))])
        d.sample(frac=1, random_state=1).to_csv(tmp_path / name, index=False)
    files = [str(tmp_path / n) for n in ("dnn.csv", "cardiology_residents.csv")]
    err = one_line_error(capsys, ["percase", *files, "--labels",
                                  str(tmp_path / "gold_standard.csv"), "--subtask", "1dAVb",
                                  "--paired-by-order"])
    assert "'record'" in err and "leave out --paired-by-order" in err
    res = _json(capsys, ["percase", *files, "--labels", str(tmp_path / "gold_standard.csv"),
                         "--subtask", "1dAVb"])["result"]
    assert (res["only_a"], res["only_b"]) == (11, 6)  # by id: as the ordered files


def test_one_file_per_method_without_ids_paired_by_declared_order(tmp_path, capsys):
    rng = np.random.default_rng(4)
    a = pd.DataFrame({"liver": rng.uniform(0.80, 0.97, 30), "spleen": rng.uniform(0.7, 0.9, 30)})
    b = a.clip(upper=1.0) - rng.uniform(0.0, 0.03, (30, 2))
    a.to_csv(tmp_path / "unet.csv", index=False)
    b.to_csv(tmp_path / "segresnet.csv", index=False)
    files = [str(tmp_path / "unet.csv"), str(tmp_path / "segresnet.csv")]
    code, out = run_cli(capsys, ["percase", *files, "--subtask", "liver"])
    assert code == 2 and "'name'" in out.err  # without the option: no case column (guard)
    out = _json(capsys, ["percase", *files, "--subtask", "liver", "--paired-by-order"])
    res = out["result"]
    assert res["n"] == 30 and (res["a"], res["b"]) == ("unet", "segresnet")
    means = {r["method"]: r["mean"] for r in res["ranking"]}
    assert means["unet"] == pytest.approx(a["liver"].mean(), abs=1e-8)
    assert means["segresnet"] == pytest.approx(b["liver"].mean(), abs=1e-8)
    p = stats.ttest_1samp(a["liver"] - b["liver"], 0.0, alternative="greater").pvalue
    assert res["probability"] == pytest.approx(p, rel=1e-5)
    assert any("paired by their position" in n for n in out["notes"])


def test_the_option_is_refused_for_a_layout_that_names_its_cases(tmp_path, capsys):
    f = tmp_path / "claims.csv"
    f.write_text("case_id,alg_a,alg_b\nc1,0.9,0.8\nc2,0.8,0.7\nc3,0.7,0.7\n")
    err = one_line_error(capsys, ["percase", str(f), "--paired-by-order"])
    assert "--paired-by-order" in err and "names its cases" in err


# ------------------------------------------------------------------- binary model outputs


def test_numpy_arrays_are_refused_saying_what_they_are(capsys):
    # was: "row 1; expected text without control characters ... remove it"
    err = one_line_error(capsys, ["percase", str(NPY / "scores.npy"), str(NPY / "targets.npy"),
                                  "--labels", str(NPY / "targets.npy")])
    assert "NumPy array" in err and "(624,)" in err and "uint8" in err
    assert "control character" not in err


def test_a_pickle_is_refused_saying_what_it_is(tmp_path, capsys):
    import pickle

    f = tmp_path / "preds.csv"
    f.write_bytes(pickle.dumps({"a": [0.9, 0.8]}, protocol=4))
    g = tmp_path / "other.csv"
    g.write_text("case_id,alg_a,alg_b\nc1,0.9,0.8\nc2,0.8,0.7\n")
    err = one_line_error(capsys, ["percase", str(f), str(g)])
    assert "Python pickle" in err


# -------------------------------------------------- segmentation exports (shapes rebuilt)


def _brats(tmp_path) -> tuple[str, str]:
    """nnU-Net's per-case export of the batch (pandas index, Case, Class = label 1..3) and
    a Swin UNETR export (Ids, '<region> dice', '<region> jaccard'): other ids, regions."""
    rows = [{"Dice": 0.8 + 0.01 * i, "n_ref": 100 + i, "Case": f"BraTS20_{i:03d}",
             "Class": c} for i in range(2, 8) for c in (1, 2, 3)]
    nn = tmp_path / "nnunet" / "per_case_metrics.csv"
    nn.parent.mkdir()
    pd.DataFrame(rows).to_csv(nn)  # with its index column, as the file of the batch
    swin = tmp_path / "swin" / "swinUNETR_test_results.csv"
    swin.parent.mkdir()
    pd.DataFrame({"Ids": [f"BraTS20_Training_{i:03d}" for i in range(4, 9)],
                  "WT dice": 0.9, "WT jaccard": 0.8, "TC dice": 0.7, "TC jaccard": 0.6}
                 ).to_csv(swin, index=False)
    return str(nn), str(swin)


def test_two_exports_with_other_case_ids_are_refused_naming_both_spellings(tmp_path, capsys):
    # was: "expected a column named 'name'" for both files
    nn, swin = _brats(tmp_path)
    err = one_line_error(capsys, ["percase", nn, swin])
    assert "no case in common" in err
    assert "BraTS20_002" in err and "BraTS20_Training_004" in err


def test_a_label_the_other_export_lacks_is_named_in_one_line(tmp_path, capsys):
    # --subtask 1 (nnU-Net's label) against the Swin export's regions: was three lines of
    # "expected at least 2 methods for task '1'", '2', '3'
    nn, swin = _brats(tmp_path)
    err = one_line_error(capsys, ["percase", nn, swin, "--subtask", "1"])
    assert "swinUNETR_test_results.csv, column '1'" in err and "WT dice" in err


def test_a_case_and_class_export_alone_is_described_as_one_method(tmp_path, capsys):
    nn, _ = _brats(tmp_path)
    err = one_line_error(capsys, ["percase", nn])
    assert "one method's results" in err and "('Case')" in err and "('Class')" in err


def test_exports_with_other_extra_columns_compare_the_chosen_one(tmp_path, capsys):
    # one run exported twice, the second with three more count columns: was refused for
    # them; with --subtask dice the other columns (a distance, the fold) are left out
    rng = np.random.default_rng(6)
    dice = rng.uniform(0.0, 0.8, 12)
    base = pd.DataFrame({"dice": dice, "hd95": rng.uniform(100, 300, 12), "fold": 1,
                         "case": [f"lung_{i:03d}.nii.gz" for i in range(12)]})
    base.to_csv(tmp_path / "per_case_metrics.csv", index=False)
    more = base.assign(dice=np.clip(dice + 0.05, 0, 1), tp=3)
    more.to_csv(tmp_path / "per_case_metrics_v2.csv", index=False)
    files = [str(tmp_path / "per_case_metrics.csv"), str(tmp_path / "per_case_metrics_v2.csv")]
    err = one_line_error(capsys, ["percase", *files])
    assert "'tp'" in err and "--subtask" in err
    out = _json(capsys, ["percase", *files, "--subtask", "dice"])
    res = out["result"]
    means = {r["method"]: r["mean"] for r in res["ranking"]}
    assert res["n"] == 12
    assert means["per_case_metrics"] == pytest.approx(dice.mean(), abs=1e-8)
    assert means["per_case_metrics_v2"] == pytest.approx(more["dice"].mean(), abs=1e-8)
    assert any("not compared" in n and "hd95" in n for n in out["notes"])
    err = one_line_error(capsys, ["percase", *files, "--subtask", "hd95"])
    assert "lower-is-better" in err


def _pneumonia_csvs(tmp_path) -> tuple[str, str, str]:
    """The ResNet-50's PneumoniaMNIST decisions (argmax of its log posteriors) as a CSV
    without ids, the labels likewise, and the decisions written in another row order (as
    each CIFAR model of the same repository wrote its test set): (model, shuffled, labels)."""
    scores, targets = np.load(NPY / "scores.npy"), np.load(NPY / "targets.npy")
    pred = pd.DataFrame({"predicted_lesion": scores.argmax(axis=1)})
    pred.to_csv(tmp_path / "resnet50.csv", index=False)
    pred.sample(frac=1, random_state=3).to_csv(tmp_path / "resnet50_rerun.csv", index=False)
    pd.DataFrame({"lesion": targets}).to_csv(tmp_path / "targets.csv", index=False)
    return tuple(str(tmp_path / n) for n in ("resnet50.csv", "resnet50_rerun.csv",
                                             "targets.csv"))


def test_rows_in_another_order_are_refused_when_they_agree_only_by_chance(tmp_path, capsys):
    model, shuffled, labels = _pneumonia_csvs(tmp_path)
    err = one_line_error(capsys, ["percase", model, shuffled, "--labels", labels, "--task",
                                  "classification", "--paired-by-order"])
    assert "resnet50_rerun.csv" in err and "another order" in err
    targets = np.load(NPY / "targets.npy")
    rerun = pd.read_csv(shuffled)["predicted_lesion"].to_numpy()
    assert f"{int((rerun == targets).sum())} of 624" in err


def test_a_model_in_the_labels_order_is_read_by_position(tmp_path, capsys):
    model, _, labels = _pneumonia_csvs(tmp_path)
    scores, targets = np.load(NPY / "scores.npy"), np.load(NPY / "targets.npy")
    flipped = tmp_path / "always_pneumonia.csv"
    pd.DataFrame({"predicted_lesion": np.ones(624, dtype=int)}).to_csv(flipped, index=False)
    res = _json(capsys, ["percase", model, str(flipped), "--labels", labels, "--task",
                         "classification", "--paired-by-order"])["result"]
    means = {r["method"]: r["mean"] for r in res["ranking"]}
    assert means["resnet50"] == pytest.approx((scores.argmax(axis=1) == targets).mean(),
                                              abs=1e-8)
    assert means["resnet50"] == pytest.approx(0.8958, abs=1e-4)  # the repository's 89.6 %
    assert means["always_pneumonia"] == pytest.approx(targets.mean(), abs=1e-8)


def test_a_lone_export_of_regions_is_not_offered_as_methods(tmp_path, capsys):
    # guard (passes before): the Swin UNETR export alone ('Ids', 'WT dice', 'TC dice', ...)
    # is one method's regions; no --columns suggestion may offer WT and TC as two methods
    _, swin = _brats(tmp_path)
    err = one_line_error(capsys, ["percase", swin])
    assert "alg_WT" not in err and "give one file per method" in err


def test_per_method_files_in_another_order_are_flagged_in_a_note(tmp_path, capsys):
    # one file per method has no labels to check the order against; the per-case values of
    # two methods on the same cases correlate, so a shuffled file is said (a note only)
    rng = np.random.default_rng(8)
    a = pd.DataFrame({"liver": rng.uniform(0.5, 0.97, 40)})
    b = a - rng.uniform(0.0, 0.03, (40, 1))
    a.to_csv(tmp_path / "unet.csv", index=False)
    b.sample(frac=1, random_state=2).to_csv(tmp_path / "shuffled.csv", index=False)
    out = _json(capsys, ["percase", str(tmp_path / "unet.csv"), str(tmp_path / "shuffled.csv"),
                         "--paired-by-order"])
    said = [n for n in out["notes"] if "not positively correlated" in n]
    shuffled = pd.read_csv(tmp_path / "shuffled.csv")["liver"]
    r, p = stats.pearsonr(a["liver"], shuffled, alternative="greater")
    assert p > 0.05 and len(said) == 1 and f"r = {r:.2f}" in said[0]
    b.to_csv(tmp_path / "ordered.csv", index=False)
    out = _json(capsys, ["percase", str(tmp_path / "unet.csv"), str(tmp_path / "ordered.csv"),
                         "--paired-by-order"])
    assert not [n for n in out["notes"] if "not positively correlated" in n]


def test_two_case_and_class_exports_are_compared_per_label(tmp_path, capsys):
    # nnU-Net's per-case export of the batch ('Case', 'Class' = label) for two trainers:
    # 'Class' names the structure, the Dice column is compared (was: no such structure
    # column, every column a "task")
    rng = np.random.default_rng(9)
    frames = {}
    for name, shift in (("trainer_a", 0.0), ("trainer_b", -0.02)):
        rows = [{"Dice": float(np.clip(0.8 + 0.1 * rng.standard_normal() + shift, 0, 1)),
                 "IoU": 0.5, "Case": f"BraTS20_{i:03d}", "Class": c}
                for i in range(20) for c in (1, 2, 3)]
        frames[name] = pd.DataFrame(rows)
        (tmp_path / name).mkdir()
        frames[name].to_csv(tmp_path / name / "per_case_metrics.csv")
    files = [str(tmp_path / n / "per_case_metrics.csv") for n in frames]
    res = _json(capsys, ["percase", *files, "--subtask", "2"])["result"]
    means = {r["method"]: r["mean"] for r in res["ranking"]}
    for name, f in frames.items():
        assert means[name] == pytest.approx(f.loc[f["Class"] == 2, "Dice"].mean(), abs=1e-8)
    assert res["n"] == 20
