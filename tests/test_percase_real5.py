"""Patterns from the fifth batch of real per-case files (docs/percase.md, "Real per-case files,
fifth batch"): two nnU-Net v2 summaries of one validation set (3d_fullres vs 3d_lowres) where
some labels are absent from some cases (Dice NaN), and one summary saved under two names.
The repository has no licence: the files here are rebuilt, same shape, made-up values."""

import json

import numpy as np
import pytest
from scipy import stats

from falseclaims.percase.errors import PerCaseValidationError
from falseclaims.percase.nnunet_layout import read_nnunet_summaries

NAN = float("nan")
REGION = "(1, 2, 3)"


def _summary(path, dice):
    """An nnU-Net v2 summary: dice maps case -> {label: value}; NaN written as JSON NaN."""
    cases = [{"reference_file": f"/gt/{case}.nii.gz", "prediction_file": f"/p/{case}.nii.gz",
              "metrics": {k: {"Dice": v, "n_ref": 10.0} for k, v in labels.items()}}
             for case, labels in dice.items()]
    path.write_text(json.dumps({"foreground_mean": {"Dice": 0.5}, "mean": {},
                                "metric_per_case": cases}))
    return path


def _pair(tmp_path):
    rng = np.random.default_rng(5)
    a, b = {}, {}
    for i in range(12):
        case = f"case_{i:05d}"
        a[case] = {REGION: 0.90 + 0.005 * i, "5": float(rng.uniform(0, .3))}
        b[case] = {REGION: 0.91 + 0.004 * i, "5": float(rng.uniform(0, .3))}
    a["case_00003"]["5"] = NAN
    b["case_00007"]["5"] = NAN
    b["case_00008"]["5"] = NAN
    (tmp_path / "fullres").mkdir()
    (tmp_path / "lowres").mkdir()
    return (_summary(tmp_path / "fullres" / "summary.json", a),
            _summary(tmp_path / "lowres" / "summary.json", b), a, b)


def test_nan_in_one_method_named_as_undefined_not_as_a_missing_case(tmp_path):
    fa, fb, *_ = _pair(tmp_path)
    with pytest.raises(PerCaseValidationError) as err:
        read_nnunet_summaries([fa, fb], compared_tasks=["5"])
    text = str(err.value)
    assert "lacks" not in text  # every case is in both files
    assert "'fullres', task '5', metric 'dice' has an undefined value" in text
    assert "case_00003" in text and "case_00007, case_00008" in text
    assert "false positive" in text


def test_intersect_leaves_the_nan_cases_out_as_scipy_does(tmp_path):
    fa, fb, a, b = _pair(tmp_path)
    pc = read_nnunet_summaries([fa, fb], compared_tasks=["5"], case_mismatch="intersect")
    wide = pc.matrix("5", "dice").dropna()
    x = np.array([a[c]["5"] for c in a])
    y = np.array([b[c]["5"] for c in b])
    ok = ~(np.isnan(x) | np.isnan(y))
    assert len(wide) == ok.sum() == 9
    assert stats.ttest_rel(wide["fullres"], wide["lowres"]).pvalue == pytest.approx(
        stats.ttest_rel(x[ok], y[ok]).pvalue)
    assert "fullres: 1 Dice value(s) undefined" in " ".join(pc.notes)


def test_nan_note_only_for_the_compared_label(tmp_path):
    fa, fb, *_ = _pair(tmp_path)
    pc = read_nnunet_summaries([fa, fb], compared_tasks=[REGION])
    assert not any("undefined" in n for n in pc.notes)
    assert pc.matrix(REGION, "dice").shape == (12, 2)


def _maps(tmp_path, second):
    a = {f"case_{i:05d}": {"(1, 2, 3, 4)": .9, "4": .1 + .01 * i} for i in range(6)}
    b = {f"case_{i:05d}": {k: .8 + .01 * i for k in second} for i in range(6)}
    (tmp_path / "eight").mkdir()
    (tmp_path / "seven").mkdir()
    return (_summary(tmp_path / "eight" / "summary.json", a),
            _summary(tmp_path / "seven" / "summary.json", b))


def test_summaries_without_a_label_in_common_refused_in_one_line(tmp_path):
    files = _maps(tmp_path, ["(1, 2, 3)", "2"])
    with pytest.raises(PerCaseValidationError, match="no label or region in common"):
        read_nnunet_summaries(files)


def test_different_label_maps_need_a_subtask_then_a_note(tmp_path):
    files = _maps(tmp_path, ["(1, 2, 3)", "4"])
    with pytest.raises(PerCaseValidationError, match=r"choose one .*--subtask \(4\)"):
        read_nnunet_summaries(files)
    pc = read_nnunet_summaries(files, compared_tasks=["4"])
    assert sorted(pc.tasks) == ["4"]
    assert any("different labels or regions" in n for n in pc.notes)


def test_byte_identical_summaries_refused(tmp_path):
    fa, *_ = _pair(tmp_path)
    copy = tmp_path / "copy.json"
    copy.write_bytes(fa.read_bytes())
    with pytest.raises(PerCaseValidationError, match="the same content as"):
        read_nnunet_summaries([fa, copy])


# ------------------------------------------------------------ the web page's --paired-by-order
def test_web_page_pairs_rows_by_order_only_when_ticked_with_the_commands_notes(capsys,
                                                                               tmp_path,
                                                                               monkeypatch):
    """The percase page's checkbox is ``--paired-by-order``: the same envelope (notes
    included) as the command; unticked, the page refuses as the command does."""
    pytest.importorskip("flask", reason="the 'web' extra (flask) is not installed")
    import io
    import shutil
    from pathlib import Path

    from falseclaims.cli import main
    from falseclaims.web import create_app

    ecg = Path(__file__).parent / "data" / "percase_real" / "ecg_ribeiro2020"
    names = ["dnn.csv", "cardiology_residents.csv", "gold_standard.csv"]

    def post(**extra):
        files = [(io.BytesIO((ecg / n).read_bytes()), n) for n in names[:2]]
        data = {"task": "classification", "subtask": "1dAVb", "files": files,
                "labels": (io.BytesIO((ecg / names[2]).read_bytes()), names[2]), **extra}
        return create_app().test_client().post("/api/percase", data=data,
                                                content_type="multipart/form-data").get_json()

    ans = post(paired_by_order="1")
    assert ans["ok"], ans["errors"]
    said = [n for n in ans["envelope"]["notes"] if "paired by their position" in n]
    assert len(said) == 1 and "827 rows each" in said[0]
    assert ans["envelope"]["inputs"]["paired_by_order"] is True
    for n in names:
        shutil.copy(ecg / n, tmp_path / n)
    monkeypatch.chdir(tmp_path)  # the command run where the files are, as the page runs it
    capsys.readouterr()
    main(["percase", *names[:2], "--labels", names[2], "--task", "classification",
          "--subtask", "1dAVb", "--paired-by-order", "--json"])
    cli = json.loads(capsys.readouterr().out)
    assert ans["envelope"]["notes"] == cli["notes"]
    assert ans["envelope"]["result"]["n"] == cli["result"]["n"] == 827
    refused = post()
    assert not refused["ok"]
    assert "never by their position unless declared (--paired-by-order" in " ".join(
        refused["errors"].values())
