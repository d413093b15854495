"""Patterns found by running `falseclaims percase` on a third batch of real per-case files
(docs/percase.md, "Real per-case files, third batch"): a per-case CSV of one method beside
nnU-Net summaries of another (with case ids written as nnU-Net input files, ``_0000``),
one file holding every method (a method column and one column per metric), and
classification files with one 0/1 column per finding (ECG abnormalities, CheXpert
findings). Each test of a fix fails on the code before it (the guards say so); numbers
are checked against pandas, p-values against scipy and against a published table.

Real files (verbatim, with LICENSE and SOURCE.md) in tests/data/percase_real/:
autonnunet_heart/ (BSD-3), mga_deboer/ (Apache-2.0), ecg_ribeiro2020/ (MIT).
"""

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from cli_runs import one_line_error, run_cli

DATA = Path(__file__).parent / "data" / "percase_real"
HEART = DATA / "autonnunet_heart"
MEDSAM2 = [str(HEART / "baseline_medsam2" / f"fold_{f}" / "validation_results.csv")
           for f in range(5)]
CONV = [str(HEART / "baseline_ConvolutionalEncoder" / f"fold_{f}" / "summary.json")
        for f in range(5)]
MGA = DATA / "mga_deboer"
MGA_COLUMNS = "case_id=pt_id,task=anatomy,method=methods"
ECG = DATA / "ecg_ribeiro2020"
FINDINGS = ["1dAVb", "RBBB", "LBBB", "SB", "AF", "ST"]


def _json(capsys, argv) -> dict:
    code, out = run_cli(capsys, [*argv, "--json"])
    assert code == 0, out.err
    return json.loads(out.out)


def _summary_dice(files) -> dict[str, float]:
    """{case: Dice of label 1} of nnU-Net v2 summaries, read with json alone."""
    out = {}
    for f in files:
        for c in json.loads(Path(f).read_text())["metric_per_case"]:
            out[c["reference_file"].rsplit("/", 1)[-1].removesuffix(".nii.gz")] = \
                c["metrics"]["1"]["Dice"]
    return out


def _check_pair(res: dict, a: pd.Series, b: pd.Series, names: tuple[str, str]) -> None:
    """n, means, leader and P(false claim) (= scipy's one-sided paired t p) of a result."""
    assert res["n"] == len(a) == len(b)
    means = {r["method"]: r["mean"] for r in res["ranking"]}
    assert means[names[0]] == pytest.approx(a.mean(), abs=1e-8)
    assert means[names[1]] == pytest.approx(b.mean(), abs=1e-8)
    assert (res["a"], res["b"]) == names
    p = stats.ttest_1samp(a.to_numpy() - b.to_numpy(), 0.0, alternative="greater").pvalue
    assert res["probability"] == pytest.approx(p, rel=1e-5)


# ------------------------------------- a per-case CSV beside nnU-Net summaries (_0000 ids)

def test_a_csv_beside_nnunet_summaries_is_read_with_channel_suffix_ids(capsys):
    # was: refused ("a JSON file among table files") with no way to read both; MedSAM2's
    # ids are nnU-Net input files ('la_003_0000.nii.gz'), the summaries' the cases ('la_003')
    argv = ["percase", *MEDSAM2, *CONV]
    err = one_line_error(capsys, argv)  # the CSV's columns are Dice per label: confirmed
    assert "--layout nnunet reads them beside the summaries" in err
    doc = _json(capsys, [*argv, "--layout", "nnunet"])
    conv = pd.Series(_summary_dice(CONV))
    med = pd.concat(pd.read_csv(f) for f in MEDSAM2)
    med.index = med["case"].str.removesuffix("_0000.nii.gz")
    med = med["1"].loc[conv.index]  # every MedSAM2 case is a summary case (KeyError if not)
    _check_pair(doc["result"], conv, med, ("baseline_ConvolutionalEncoder", "baseline_medsam2"))
    notes = " ".join(doc["notes"])
    assert "'la_003_0000.nii.gz'" in notes and "'la_003'" in notes
    assert "folds pooled" in notes


def test_channel_suffix_ids_are_not_matched_when_some_case_is_missing(tmp_path, capsys):
    # guard of the fix above: one MedSAM2 case dropped, the ids are no longer exactly the
    # summaries' cases, so none is renamed; the refusal says the ids are written otherwise
    # (before: "a JSON file among table files")
    rows = Path(MEDSAM2[0]).read_text().splitlines()
    short = tmp_path / "baseline_medsam2" / "fold_0" / "validation_results.csv"
    short.parent.mkdir(parents=True)
    short.write_text("\n".join(rows[:-1]) + "\n")
    code, out = run_cli(capsys, ["percase", str(short), CONV[0], "--layout", "nnunet"])
    assert code == 2
    assert "the same cases written otherwise? 'la_007' here is 'la_007_0000.nii.gz'" in out.err


def test_a_v1_evaluator_csv_beside_a_summary_names_cases_by_reference(tmp_path, capsys):
    # nnU-Net v1's evaluator writes 'reference,test,1,...' (paths of the reference and the
    # prediction); its values here are a real summary's, the other method a real summary
    doc = json.loads(Path(CONV[0]).read_text())
    target = tmp_path / "evaluator" / "results.csv"
    target.parent.mkdir()
    target.write_text("reference,test,1\n" + "".join(
        f"/data/gt/{Path(c['reference_file']).name},/data/pred/{Path(c['reference_file']).name},"
        f"{c['metrics']['1']['Dice']!r}\n" for c in doc["metric_per_case"]))
    other = tmp_path / "baseline_ResidualEncoderM" / "summary.json"
    other.parent.mkdir()
    other.write_bytes((HEART / "baseline_ResidualEncoderM" / "fold_0" / "summary.json")
                      .read_bytes())
    res = _json(capsys, ["percase", str(target), str(other), "--layout", "nnunet"])
    a, b = pd.Series(_summary_dice([CONV[0]])), pd.Series(_summary_dice([other]))
    names = {"evaluator": a, "baseline_ResidualEncoderM": b}
    top = max(names, key=lambda n: names[n].mean())
    low = next(n for n in names if n != top)
    _check_pair(res["result"], names[top], names[low].loc[names[top].index], (top, low))
    assert any("prediction paths (test) left out" in n for n in res["notes"])


# --------------------------------------- one file holding every method, a column per metric

def test_a_file_with_a_method_column_is_described_with_the_mapping(capsys):
    # was: "cannot tell the layout" listing the two layouts only
    err = one_line_error(capsys, ["percase", str(MGA / "scores.csv")])
    assert "'methods' names the methods (MGA, nnU-Net)" in err
    assert "assd, dice, hd95, iou hold numbers" in err
    assert f"--columns {MGA_COLUMNS}" in err


def test_the_mapping_reads_one_row_per_case_and_method(capsys):
    # was: "cannot tell the layout" even with the mapping (no value column)
    argv = ["percase", str(MGA / "scores.csv"), "--columns", MGA_COLUMNS, "--subtask",
            "Tumor", "--metric", "dice"]
    err = one_line_error(capsys, argv)  # MGA lacks 5 tumour cases: said, not dropped
    assert "lacks 5 case(s)" in err and "Center B Patient 11.nii.gz" in err
    doc = _json(capsys, [*argv, "--case-mismatch", "intersect"])
    d = pd.read_csv(MGA / "scores.csv")
    w = d[d["anatomy"] == "Tumor"].pivot(index="pt_id", columns="methods",
                                         values="dice").dropna()
    assert len(w) == 25
    _check_pair(doc["result"], w["nnU-Net"], w["MGA"], ("nnU-Net", "MGA"))
    assert any("center not metrics, left out" in n for n in doc["notes"])


def test_four_methods_in_one_file_with_an_empty_distance_cell(capsys):
    # scoresv2.csv: 4 methods; one hd95 cell empty (left out with a note, as the case
    # lacks that metric), Dice compared on the 22 brain cases every method has
    doc = _json(capsys, ["percase", str(MGA / "scoresv2.csv"), "--columns", MGA_COLUMNS,
                         "--subtask", "Brain", "--metric", "dice", "--case-mismatch",
                         "intersect"])
    d = pd.read_csv(MGA / "scoresv2.csv")
    w = d[d["anatomy"] == "Brain"].pivot(index="pt_id", columns="methods",
                                         values="dice").dropna()
    res = doc["result"]
    assert [r["method"] for r in res["ranking"]] == list(w.mean().sort_values(
        ascending=False).index)
    _check_pair(res, w["nnU-Net v2"], w["nnU-Net v1"], ("nnU-Net v2", "nnU-Net v1"))
    friedman = stats.friedmanchisquare(*(w[c] for c in w.columns))
    assert res["omnibus"]["friedman"]["pvalue"] == pytest.approx(friedman.pvalue, rel=1e-5)
    assert any("1 of hd95" in n for n in doc["notes"])


def test_a_distance_column_of_such_a_file_is_refused(capsys):
    # the lower-is-better refusal holds for metric columns too (before: layout unknown)
    err = one_line_error(capsys, ["percase", str(MGA / "scores.csv"), "--columns",
                                  MGA_COLUMNS, "--subtask", "Brain", "--metric", "hd95"])
    assert "lower-is-better" in err


# ---------------------------------------------- classification: one 0/1 column per finding

def test_files_without_a_case_column_are_not_paired_by_position(capsys):
    # the ECG annotations have no case id (the row is the tracing); was: "expected a
    # column named 'image'" and 'lesion' (the ISIC layout's)
    err = one_line_error(capsys, ["percase", str(ECG / "dnn.csv"),
                                  str(ECG / "cardiology_residents.csv"), "--labels",
                                  str(ECG / "gold_standard.csv"), "--subtask", "1dAVb"])
    assert "no column names the cases" in err and "never by their position" in err


def _with_ids(tmp_path, name: str, shuffle: bool = False) -> str:
    """A copy of an ECG annotation file with the tracing number as a 'record' column (what
    the refusal above asks for); ``shuffle``: its finding columns in reverse order."""
    d = pd.read_csv(ECG / name, index_col=0 if name == "dnn.csv" else None)
    d = d.reset_index(drop=True)
    if shuffle:
        d = d[d.columns[::-1]]
    d.insert(0, "record", [f"ecg{i:03d}" for i in range(len(d))])
    out = tmp_path / name
    d.to_csv(out, index=False)
    return str(out)


def test_one_column_per_finding_reproduces_the_published_mcnemar(tmp_path, capsys):
    # Supplementary Table 3 of Ribeiro et al. (2020): McNemar chi-square without continuity
    # correction, DNN vs cardiology residents, per abnormality; the residents' file with
    # its columns in another order (matched by name, never by position)
    labels = _with_ids(tmp_path, "gold_standard.csv")
    dnn = _with_ids(tmp_path, "dnn.csv")
    cardio = _with_ids(tmp_path, "cardiology_residents.csv", shuffle=True)
    published = pd.read_csv(ECG / "mcnemar.csv", index_col=0).loc["DNN vs cardio."]
    for finding in FINDINGS:
        res = _json(capsys, ["percase", dnn, cardio, "--labels", labels, "--subtask",
                             finding])["result"]
        assert_mcnemar_as_published(res, published[finding])


def test_several_findings_ask_for_one(tmp_path, capsys):
    files = [_with_ids(tmp_path, n) for n in ("dnn.csv", "emergency_residents.csv")]
    err = one_line_error(capsys, ["percase", *files, "--labels",
                                  _with_ids(tmp_path, "gold_standard.csv")])
    assert "one column per finding (1dAVb, RBBB, LBBB, SB, AF, ST)" in err
    assert "--subtask" in err


def test_the_predicted_and_true_label_may_share_a_column_name(tmp_path, capsys):
    # --columns value=1dAVb,ground_truth=1dAVb: one column name in different files; was
    # refused ("mapped twice"), then the other findings would have been class scores
    files = [_with_ids(tmp_path, n) for n in ("dnn.csv", "cardiology_residents.csv")]
    labels = _with_ids(tmp_path, "gold_standard.csv")
    res = _json(capsys, ["percase", *files, "--labels", labels, "--columns",
                         "case_id=record,value=1dAVb,ground_truth=1dAVb"])["result"]
    truth = pd.read_csv(ECG / "gold_standard.csv")["1dAVb"].to_numpy()
    dnn = pd.read_csv(ECG / "dnn.csv", index_col=0)["1dAVb"].to_numpy()
    cardio = pd.read_csv(ECG / "cardiology_residents.csv")["1dAVb"].to_numpy()
    means = {r["method"]: r["mean"] for r in res["ranking"]}
    assert means["dnn"] == pytest.approx(np.mean(dnn == truth))
    assert means["cardiology_residents"] == pytest.approx(np.mean(cardio == truth))


def test_per_method_score_files_give_delong(tmp_path, capsys):
    # --scores METHOD=FILE,...: one score file per method with a column per finding, as
    # CheXpert's model predictions (was: "--scores" took one case_id/alg_* file only, so
    # per-model score files could not reach DeLong). The ECG decisions are real; the scores
    # are seeded and synthetic (the paper's are .npy), their rows shuffled and columns
    # reversed: paired by case id and column name, never by position. AUCs as sklearn's.
    from sklearn.metrics import roc_auc_score

    labels = _with_ids(tmp_path, "gold_standard.csv")
    files = [_with_ids(tmp_path, n) for n in ("dnn.csv", "cardiology_residents.csv")]
    truth = pd.read_csv(labels)
    rng = np.random.default_rng(7)
    scores, aucs = [], {}
    for name in ("dnn", "cardiology_residents"):
        d = truth.copy()
        for f in FINDINGS:
            d[f] = truth[f] * 0.6 + rng.random(len(d)) * 0.7
        aucs[name] = roc_auc_score(truth["1dAVb"], d["1dAVb"])
        d = d.sample(frac=1.0, random_state=3)[["record", *FINDINGS[::-1]]]
        path = tmp_path / f"{name}_scores.csv"
        d.to_csv(path, index=False)
        scores.append(f"{name}={path}")
    res = _json(capsys, ["percase", *files, "--labels", labels, "--subtask", "1dAVb",
                         "--scores", ",".join(scores)])["result"]
    note = res["tests"]["delong"]["note"]
    a, b = res["a"], res["b"]
    assert f"AUC_A={aucs[a]:.4f}, AUC_B={aucs[b]:.4f}" in note
    assert res["tests"]["delong"]["pvalue"] is not None


# ------------------------------------------------ a file of no known layout: what it looks like

def test_one_models_rows_per_case_and_structure_given_alone_are_described(capsys):
    # the second batch's lone model file (nnU-Net v1 evaluator columns): was "cannot tell
    # the layout" and the two layouts it is not; now also what it is and what to give
    err = one_line_error(capsys, ["percase", str(DATA / "dcan_nn_unet" / "by_reference" /
                                                 "Task512_all.csv")])
    assert ("one method's results, one row per case ('reference') and structure "
            "('segment_id')") in err
    assert "give one such file per method" in err


def test_a_file_of_no_known_layout_says_its_columns(tmp_path, capsys):
    path = tmp_path / "odd.csv"
    path.write_text("foo,bar,baz\n1,0.7,x\n2,0.6,y\n")
    err = one_line_error(capsys, ["percase", str(path)])
    assert "looks like 2 rows with numbers in foo, bar and text in baz" in err
    assert "--columns method=COLUMN" in err


def assert_mcnemar_as_published(res: dict, published_p: float) -> None:
    """McNemar chi-square without continuity correction from the comparison's discordant
    counts, rounded as Ribeiro et al. (2020), Supplementary Table 3, prints it (827 ECGs)."""
    only_dnn = res["only_a"] if res["a"] == "dnn" else res["only_b"]
    only_cardio = res["only_b"] if res["a"] == "dnn" else res["only_a"]
    chi2 = (only_dnn - only_cardio) ** 2 / (only_dnn + only_cardio)
    assert round(float(stats.chi2.sf(chi2, 1)), 3) == pytest.approx(published_p, abs=1e-9)
    assert res["n"] == 827
