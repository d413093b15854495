"""`falseclaims percase` companions: McNemar on sensitivity and specificity ([Rainio2024]),
K >= 3 methods, --a/--b, the task-mismatch message, large-n advice, constant scores, and the
report's number format. References are hand counts, scipy and statsmodels."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from test_percase_cli import BIN, CLS, SEG, _json, _run  # one runner for percase

from falseclaims.cli import main
from falseclaims.percase import paired_tests as pt
from falseclaims.report import number


# ---------------------------------------------------------------- per-class McNemar
def test_per_class_mcnemar_by_hand_count():
    """8 positives, 6 negatives. Positives: only A right 5x, only B right 1x -> exact
    binomial p = 2 P(X <= 1 | 6, 1/2) = 14/64. Negatives: only B right 3x -> p = 2/8."""
    truth = ["p"] * 8 + ["n"] * 6
    a = [1, 1, 1, 1, 1, 0, 1, 0] + [0, 0, 0, 1, 1, 1]
    b = [0, 0, 0, 0, 0, 1, 1, 0] + [1, 1, 1, 1, 1, 1]
    sens, spec = pt.mcnemar_per_class(np.array(a, bool), np.array(b, bool), truth, "p")
    assert sens.test == "mcnemar_sensitivity" and sens.n == 6
    assert sens.pvalue == pytest.approx(14 / 64, rel=1e-12)
    assert spec.test == "mcnemar_specificity" and spec.n == 3
    assert spec.pvalue == pytest.approx(2 / 8, rel=1e-12)
    assert "sensitivity of A 0.7500 vs B 0.2500" in sens.note


def test_per_class_mcnemar_matches_statsmodels_and_differs_from_overall():
    """Each class against statsmodels' McNemar on that class's 2x2 table (chi-square with
    continuity correction when b + c >= 20, exact otherwise, as [Rainio2024] advises). A
    method that trades specificity for sensitivity: the overall test sees no difference."""
    tables = pytest.importorskip("statsmodels.stats.contingency_tables")
    rng = np.random.default_rng(11)
    truth = np.array([1] * 300 + [0] * 300)
    a = np.where(truth == 1, rng.random(600) < 0.9, rng.random(600) < 0.7)
    b = np.where(truth == 1, rng.random(600) < 0.7, rng.random(600) < 0.9)
    sens, spec = pt.mcnemar_per_class(a, b, truth, 1)
    for res, sel in ((sens, truth == 1), (spec, truth == 0)):
        t = pd.crosstab(a[sel], b[sel]).to_numpy()
        exact = t[0, 1] + t[1, 0] < 20
        ref = tables.mcnemar(t, exact=exact, correction=True)
        assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-9)
        assert res.pvalue < 1e-4
    overall = pt.mcnemar_exact(int((a & ~b).sum()), int((~a & b).sum()))
    assert overall.pvalue > 0.05


def test_binary_file_gets_both_p_values_in_text_json_and_report(tmp_path, capsys):
    res = _json(capsys, str(BIN), "--task", "classification")
    assert res["positive_class"] == "1"
    tests = res["tests"]
    assert list(tests)[:2] == ["mcnemar_sensitivity", "mcnemar_specificity"]
    truth = pd.read_csv(BIN)
    for key, sel in (("mcnemar_sensitivity", truth["ground_truth"] == 1),
                     ("mcnemar_specificity", truth["ground_truth"] == 0)):
        sub = truth[sel]
        ok_a = sub["alg_cnn_a"] == sub["ground_truth"]
        ok_b = sub["alg_cnn_b"] == sub["ground_truth"]
        b, c = int((ok_a & ~ok_b).sum()), int((~ok_a & ok_b).sum())
        assert tests[key]["n"] == b + c
        if b + c < 20:
            expected = stats.binomtest(b, b + c, 0.5).pvalue
        else:
            expected = stats.chi2.sf((abs(b - c) - 1) ** 2 / (b + c), 1)
        assert tests[key]["pvalue"] == pytest.approx(expected, rel=1e-7)  # JSON floats: 8 significant digits
    assert "extra" in tests["mcnemar_exact"]["label"]
    code, out, _ = _run(capsys, str(BIN), "--task", "classification", "--bootstrap", "300")
    assert "McNemar, sensitivity (among positives)" in out
    assert "McNemar, specificity (among negatives)" in out
    report = tmp_path / "r.html"
    _run(capsys, str(BIN), "--task", "classification", "--bootstrap", "300", "--report",
         str(report))
    html = report.read_text()
    assert "McNemar, sensitivity (among positives)" in html and "positive class" in html
    # a multi-class file has no per-class McNemar
    assert "mcnemar_sensitivity" not in _json(capsys, str(CLS), "--task",
                                              "classification")["tests"]


def test_positive_class_choice(tmp_path, capsys):
    p = tmp_path / "b.csv"
    p.write_text("case_id,ground_truth,alg_a,alg_b\n" + "".join(
        f"c{i},{'tumour' if i % 3 else 'healthy'},{'tumour' if i % 2 else 'healthy'},"
        f"{'tumour' if i % 5 else 'healthy'}\n" for i in range(40)))
    res = _json(capsys, str(p), "--task", "classification")
    assert res["positive_class"] == "tumour"  # second in sorted order, noted
    assert any("--positive" in n for n in res["notes"])
    res = _json(capsys, str(p), "--task", "classification", "--positive", "healthy")
    assert res["positive_class"] == "healthy"
    code, _, err = _run(capsys, str(p), "--task", "classification", "--positive", "x")
    assert code == 2 and "not a class" in err


# ---------------------------------------------------------------- K >= 3, --a/--b
def test_three_or_more_methods_get_the_omnibus_test(capsys):
    res = _json(capsys, str(SEG), "--task", "segmentation")
    om = res["omnibus"]
    df = pd.read_csv(SEG).drop(columns="case_id")
    ref = stats.friedmanchisquare(*[df[c] for c in df.columns])
    assert om["friedman"]["statistic"] == pytest.approx(ref.statistic, rel=1e-7)
    assert len(om["pairs"]) == 6 and om["critical_difference"] > 0
    code, out, _ = _run(capsys, str(SEG), "--task", "segmentation", "--bootstrap", "300")
    assert "Iman-Davenport F" in out and "Nemenyi p" in out
    assert "omnibus" not in _json(capsys, str(BIN), "--task", "classification")


def test_a_and_b_choose_the_pair(capsys):
    res = _json(capsys, str(SEG), "--task", "segmentation", "--a", "swinunetr", "--b", "unet")
    assert (res["a"], res["b"]) == ("swinunetr", "unet") and res["chosen_pair"]
    df = pd.read_csv(SEG)
    assert res["mean_a"] == pytest.approx(df["alg_swinunetr"].mean())
    assert res["probability"] > 0.5  # the lower-ranked method as A: the claim is not favoured
    assert any("lower mean" in n for n in res["notes"])
    for argv, msg in ((("--a", "unet"), "both --a and --b"),
                      (("--a", "unet", "--b", "nope"), "not a method"),
                      (("--a", "unet", "--b", "unet"), "same method")):
        code, _, err = _run(capsys, str(SEG), "--task", "segmentation", *argv)
        assert code == 2 and msg in err, err


# ---------------------------------------------------------------- messages and advice
def test_task_mismatch_is_named(capsys):
    code, _, err = _run(capsys, str(BIN), "--task", "segmentation")
    assert code == 2 and "has ground-truth labels" in err and "--task classification" in err
    code, _, err = _run(capsys, str(SEG), "--task", "classification")
    assert code == 2 and "look like per-case scores" in err and "--task segmentation" in err


def test_large_n_does_not_prefer_wilcoxon_from_shapiro():
    """At n = 500,000 skewed differences fail Shapiro-Wilk, yet the advice keeps the t-test
    (central limit theorem); at n = 200 the same shape advises Wilcoxon."""
    rng = np.random.default_rng(0)
    for n, wilcoxon_advised in ((200, True), (500_000, False)):
        d = rng.exponential(0.02, n) - 0.015
        x = np.clip(0.8 + d / 2, 0, 1)
        y = np.clip(0.8 - d / 2, 0, 1)
        results = pt.segmentation_tests(x, y)
        sw = next(r for r in results if r.test == "shapiro_wilk")
        assert sw.pvalue < 0.05
        advice = " ".join(pt.recommend(results, "segmentation"))
        assert ("rather than the paired t-test" in advice) is wilcoxon_advised, advice
        assert ("central limit theorem" in advice) is (not wilcoxon_advised)
        if n == 200:  # the threshold is claim_check.large_n
            lowered = " ".join(pt.recommend(results, "segmentation", large_n=100))
            assert "central limit theorem" in lowered


def test_constant_scores_reported_as_undefined_with_reasons(tmp_path, capsys):
    p = tmp_path / "c.csv"
    p.write_text("case_id,alg_a,alg_b\n" + "".join(
        f"c{i},0.9,{0.8 + 0.01 * (i % 3)}\n" for i in range(30)))
    res = _json(capsys, str(p), "--task", "segmentation")
    assert res["congruence"] is None
    assert "constant values for a" in res["congruence_note"]
    # s_A = 0: P = t_{n-1}(sqrt(n)(mean_b - mean_a) / s_B), whatever r
    b = np.array([0.8 + 0.01 * (i % 3) for i in range(30)])
    expected = stats.t.cdf(np.sqrt(30) * (b.mean() - 0.9) / b.std(ddof=1), 29)
    assert res["probability"] == pytest.approx(expected, rel=1e-7)  # JSON floats: 8 significant digits
    for name in ("f_test", "bartlett", "pitman_morgan"):
        assert res["tests"][name]["pvalue"] is None
        assert res["tests"][name]["note"].startswith("not computed:")
    code, out, _ = _run(capsys, str(p), "--task", "segmentation", "--bootstrap", "300")
    assert "congruence r = undefined (constant values for a" in out
    assert "±1.000" not in out and " nan" not in out


# ---------------------------------------------------------------- report format
@pytest.mark.parametrize("value, count, text", [
    (903.0, True, "903"), (903, False, "903"), (1234567, False, "1,234,567"),
    (0.18562, False, "0.1856"), (12.3456, False, "12.35"), (0.0123456, False, "0.01235"),
    (3.2e-7, False, "3.20e-07"), (float("nan"), False, "–"), (None, False, "–"),
    (0.0, False, "0"), (True, False, "yes"),
])
def test_one_number_format(value, count, text):
    assert number(value, count=count) == text


def test_check_report_uses_labels_and_cites_only_what_ran(tmp_path, capsys):
    path = tmp_path / "c.html"
    code = main(["check", "--task", "segmentation", "--n", "62", "--a", "0.87", "--b", "0.85",
                 "--decimals", "2", "--report", str(path)])
    capsys.readouterr()
    assert code == 0
    html = path.read_text()
    for raw in ("congruence_used", "range_min", "range_max", "sd_imputed"):
        assert raw not in html, raw
    assert "congruence used" in html and "P over the rounding interval" in html
    assert "[Christodoulou2025]" in html
    assert "[Rainio2024]" not in html and "McNemar" not in html  # check runs no classical test
