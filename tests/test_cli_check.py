"""`falseclaims check`: JSON keys, numbers, clamping/imputation notes, --decimals, errors."""

import itertools
import json
import re

import pytest

from falseclaims.cli import main
from falseclaims.config import configured_congruence, load_config, sd_model_from_config
from falseclaims.claims.check import check_claim
from falseclaims.stats import prob_false_claim_classification, prob_false_claim_segmentation

CFG = load_config()


def _run(capsys, *argv):
    code = main(["check", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def _json(capsys, *argv):
    code, out, err = _run(capsys, *argv, "--json")
    assert code == 0, err
    d = json.loads(out)  # the envelope: the result with its notes
    return {**d["result"], "notes": d["notes"]}


def test_json_keys_and_values_segmentation(capsys):
    res = _json(capsys, "--task", "segmentation", "--n", "62", "--a", "0.85", "--b", "0.84")
    assert {"task", "n", "a", "b", "results"} <= set(res)
    assert (res["task"], res["n"], res["a"], res["b"]) == ("segmentation", 62, 0.85, 0.84)
    assert [r["assumption"] for r in res["results"]] == ["q1", "median", "q3"]
    q = configured_congruence(CFG, "paper")["segmentation"]
    model = sd_model_from_config(CFG)
    sd_a, _ = model.predict(0.85, "mean")
    sd_b, _ = model.predict(0.84, "mean")
    for r in res["results"]:
        assert {"assumption", "congruence", "congruence_used", "sd_a", "sd_b",
                "probability"} <= set(r)
        assert r["congruence"] == q[r["assumption"]]
        assert r["sd_imputed"] and r["sd_a"] == pytest.approx(float(sd_a))
        expected = prob_false_claim_segmentation(62, 0.85, 0.84, sd_a, sd_b, r["congruence"])
        assert r["probability"] == pytest.approx(float(expected.probability))
    # higher congruence -> smaller probability
    p = [r["probability"] for r in res["results"]]
    assert p[0] > p[1] > p[2]
    assert any("imputed" in n for n in res["notes"])


def test_reported_sds_are_used_and_not_flagged(capsys):
    res = _json(capsys, "--task", "segmentation", "--n", "40", "--a", "0.9", "--b", "0.88",
                "--sd-a", "0.05", "--sd-b", "0.06", "--congruence", "0.5")
    (r,) = res["results"]
    assert r["assumption"] == "given" and not r["sd_imputed"]
    assert r["probability"] == pytest.approx(
        float(prob_false_claim_segmentation(40, 0.9, 0.88, 0.05, 0.06, 0.5).probability))


def test_classification_clamping_reported(capsys):
    code, out, _ = _run(capsys, "--task", "classification", "--n", "500", "--a", "0.86",
                        "--b", "0.85")
    assert code == 0
    assert "clamped" in out and "infeasible" in out
    res = _json(capsys, "--task", "classification", "--n", "500", "--a", "0.86", "--b", "0.85")
    by = {r["assumption"]: r for r in res["results"]}
    assert by["median"]["congruence_clamped"] and by["median"]["congruence_used"] == pytest.approx(0.71)
    assert not by["q3"]["congruence_clamped"]
    assert by["q3"]["probability"] == pytest.approx(
        float(prob_false_claim_classification(500, 0.86, 0.85, 0.83).probability))


def test_text_has_interpretation_line(capsys):
    code, out, _ = _run(capsys, "--task", "classification", "--n", "5000", "--a", "0.9",
                        "--b", "0.8")
    assert code == 0 and out.strip().splitlines()[-1].startswith("Robust claim")
    code, out, _ = _run(capsys, "--task", "classification", "--n", "50", "--a", "0.81",
                        "--b", "0.8")
    assert out.strip().splitlines()[-1].startswith("Weak claim")


@pytest.mark.parametrize("task", ["classification", "segmentation"])
def test_b_ahead_is_computed_as_the_api_computes_it_with_a_note(capsys, task):
    """B's value the higher: `check` and `falseclaims.probability` give the same number (the
    claim "A beats B" under the swap rule of docs/method.md: 1 - P of "B beats A", checked
    against the closed forms with A and B exchanged) and the same note; the verdict says B
    leads instead of refusing (CLI) or answering silently (API)."""
    import falseclaims

    res = _json(capsys, "--task", task, "--n", "500", "--a", "0.85", "--b", "0.86")
    api = falseclaims.probability(task, n=500, a=0.85, b=0.86)
    med = next(r for r in res["results"] if r["assumption"] == "median")
    assert med["probability"] == pytest.approx(api.probability, rel=1e-7)
    c = configured_congruence(CFG, "paper")[task]["median"]
    if task == "classification":
        swapped = prob_false_claim_classification(500, 0.86, 0.85, c).probability
    else:
        sd_b, _ = sd_model_from_config(CFG).predict(0.86, "mean")
        sd_a, _ = sd_model_from_config(CFG).predict(0.85, "mean")
        swapped = prob_false_claim_segmentation(500, 0.86, 0.85, sd_b, sd_a, c).probability
    assert api.probability == pytest.approx(1 - float(swapped), rel=1e-9)
    assert api.probability > 0.5
    lead = [t for t in res["notes"] if t.startswith("B leads")]
    assert len(lead) == 1 and lead[0] in api.notes()
    assert res["verdict"] == "B leads"
    code, out, _ = _run(capsys, "--task", task, "--n", "500", "--a", "0.85", "--b", "0.86")
    assert code == 0 and out.count("B leads") == 2  # the note and the verdict line
    assert out.strip().splitlines()[-1].startswith("B leads: ")


def test_rows_clamped_to_one_value_say_so(capsys):
    """q1 and median both moved to the feasible bound 0.71 print the same probability: the
    rows say they were clamped to the same value; a row clamped alone keeps "(clamped)"."""
    _, out, _ = _run(capsys, "--task", "cls", "--n", "500", "--a", "0.86", "--b", "0.85")
    rows = {line.split()[0]: line for line in out.splitlines()[2:5]}
    assert rows["Q1"].endswith("(clamped to the same feasible value)")
    assert rows["median"].endswith("(clamped to the same feasible value)")
    assert "clamped" not in rows["Q3"]
    _, out, _ = _run(capsys, "--task", "cls", "--n", "500", "--a", "0.9", "--b", "0.8",
                     "--congruence", "0.5")
    assert out.splitlines()[2].endswith("  (clamped)")


@pytest.mark.parametrize("argv, pattern", [
    (["--task", "segmentation", "--n", "62", "--a", "85.3", "--b", "0.84"], r"0\.853"),
    (["--task", "segmentation", "--n", "62", "--a", "0.85", "--b", "84"], r"0\.84"),
    (["--task", "classification", "--n", "1", "--a", "0.9", "--b", "0.8"], r"--n"),
    (["--task", "classification", "--n", "10", "--a", "0.9", "--b", "0.8", "--sd-a", "0.1"],
     r"segmentation only"),
    (["--task", "segmentation", "--n", "10", "--a", "0.9", "--b", "0.8", "--congruence", "2"],
     r"congruence"),
    (["--task", "segmentation", "--n", "10", "--a", "0.853", "--b", "0.8", "--decimals", "2"],
     r"more than 2 decimals"),
    (["--task", "regression", "--n", "10", "--a", "0.9", "--b", "0.8"], r"--task: expected one of classification, segmentation"),
    (["--task", "segmentation", "--n", "ten", "--a", "0.9", "--b", "0.8"], r"--n: expected a whole number"),
    (["--task", "segmentation", "--a", "0.9", "--b", "0.8"], r"required"),
])
def test_bad_arguments_one_line_exit_2(capsys, argv, pattern):
    with pytest.raises(SystemExit) as exc:
        code = main(["check", *argv])
        raise SystemExit(code)
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    assert re.search(pattern, err), err


def _corners(task, n, a, b, k, congruence, sd_a=None, sd_b=None):
    h = 0.5 * 10.0**-k
    out = []
    for da, db in itertools.product((-h, h), repeat=2):
        if task == "classification":
            out.append(float(prob_false_claim_classification(n, a + da, b + db,
                                                             congruence).probability))
        else:
            out.append(float(prob_false_claim_segmentation(n, a + da, b + db, sd_a, sd_b,
                                                           congruence).probability))
    return min(out), max(out)


@pytest.mark.parametrize("task, n, a, b, k", [
    ("classification", 500, 0.86, 0.85, 2), ("classification", 2000, 0.912, 0.9, 3),
    ("segmentation", 62, 0.85, 0.84, 2), ("segmentation", 200, 0.8, 0.7, 1)])
def test_decimals_range_brackets_point_and_matches_corners(task, n, a, b, k):
    sd = {} if task == "classification" else {"sd_a": 0.1, "sd_b": 0.12}
    res = check_claim(task, n, a, b, CFG, decimals=k, **sd)
    for r in res["results"]:
        lo, hi = r["probability_range"]
        assert lo <= r["probability"] <= hi
        assert hi <= 0.5 + 1e-12
        # fixed SDs / congruence: the function is monotone in both values -> corners
        c_lo, c_hi = _corners(task, n, a, b, k, r["congruence"], **sd)
        assert lo == pytest.approx(c_lo, abs=1e-9)
        assert hi == pytest.approx(c_hi, abs=1e-9)


def test_decimals_with_imputed_sds_brackets_and_cli(capsys):
    res = _json(capsys, "--task", "segmentation", "--n", "62", "--a", "0.85", "--b", "0.84",
                "--decimals", "2")
    assert res["decimals"] == 2
    for r in res["results"]:
        lo, hi = r["probability_range"]
        assert lo < r["probability"] < hi
        assert hi == pytest.approx(0.5)  # both true values may be 0.845


def test_report_is_self_contained(tmp_path, capsys):
    path = tmp_path / "claim.html"
    code, out, err = _run(capsys, "--task", "classification", "--n", "500", "--a", "0.86",
                          "--b", "0.85", "--decimals", "2", "--report", str(path))
    assert code == 0, err
    html = path.read_text()
    assert not re.search(r"""(src|href)\s*=\s*["']?https?:""", html)
    assert html.count("data:image/png;base64,") == 3
    assert 'id="verdict"' in html and "Weak claim" in html
    code, _, err = _run(capsys, "--task", "classification", "--n", "500", "--a", "0.86",
                        "--b", "0.85", "--report", str(tmp_path / "x.pdf"))
    assert code == 2 and ".html" in err


@pytest.mark.parametrize("p, decimals, text", [
    (1.671e-05, 3, "1.7e-05"), (0.00052, 4, "0.00052"), (0.0099, 3, "0.0099"),
    (0.0123, 3, "0.012"), (0.2223, 4, "0.2223"), (0.5, 3, "0.500"), (0.0, 3, "0"),
])
def test_probability_text_keeps_small_values_nonzero(p, decimals, text):
    from falseclaims.percase.verdict import probability_text
    assert probability_text(p, decimals) == text


def test_tiny_probability_not_printed_as_zero(capsys):
    """A = 0.9 vs B = 0.8 at n = 500 and congruence 1 (clamped to 0.8): P is far below 1e-4;
    the table and the interpretation show it with significant digits, never 0.0000."""
    res = _json(capsys, "--task", "classification", "--n", "500", "--a", "0.9", "--b", "0.8",
                "--congruence", "1")
    p = res["results"][0]["probability"]
    assert 0 < p < 1e-4
    code, out, _ = _run(capsys, "--task", "classification", "--n", "500", "--a", "0.9",
                        "--b", "0.8", "--congruence", "1")
    assert code == 0
    assert f"{p:.2g}" in out.splitlines()[2] and "0.0000" not in out, out
    assert f"as good as A is {p:.2g}, below 0.05" in out, out


@pytest.mark.parametrize("value, n, decimals, flagged", [
    (0.95, 10, None, True),     # 9/10 or 10/10 only
    (0.9, 10, None, False),
    (0.853, 347, None, False),  # 296/347 = 0.85302 prints 0.853
    (0.85, 347, None, False),   # 295/347 = 0.85014 prints 0.85
    (0.8533333333, 3000, None, False),  # 2560/3000
    (0.8534, 3000, None, True),
    (0.85, 7, 2, True),         # 6/7 = 0.857, 5/7 = 0.714
    (0.86, 7, 2, False),
])
def test_an_accuracy_no_whole_number_of_cases_gives_is_noted(value, n, decimals, flagged):
    """Checked against counting: some k in 0..n with k/n within half a unit of the last
    printed decimal."""
    from falseclaims.claims.check import granularity_note

    d = decimals if decimals is not None else len(repr(value).split(".")[1])
    exists = any(abs(k / n - value) <= 0.5 * 10 ** -d + 1e-12 for k in range(n + 1))
    assert exists is not flagged
    note = granularity_note("A", value, n, decimals)
    assert (note is not None) is flagged
    if flagged:
        assert f"out of n = {n}" in note


def test_check_prints_the_whole_cases_note_and_the_zero_sd_note(capsys):
    assert main(["check", "--task", "cls", "--n", "10", "--a", "0.95", "--b", "0.9"]) == 0
    out = capsys.readouterr().out
    assert "A = 0.95 is no whole number of correct cases out of n = 10" in out
    assert "B = 0.9 is no whole" not in out
    assert main(["check", "--task", "seg", "--n", "20", "--a", "0.9", "--b", "0.85",
                 "--sd-a", "0", "--sd-b", "0.1", "--json"]) == 0
    notes = json.loads(capsys.readouterr().out)["notes"]
    assert any(t.startswith("SD of A is 0") and "known exactly" not in t for t in notes)
