"""`falseclaims percase` speaks with the voice of `falseclaims check`: a probability that
underflowed to 0 is written as the bound it is below (never "0", which reads as "this
claim cannot be false"), the same claim given both ways gets the same verdict words and
probability sentence, and the ``--columns`` value suggested for a file of per-method
columns names only columns of numbers (or of predicted labels) as methods.

Independent references: mpmath for the size of the underflowed probability, pandas for the
means read with the suggested mapping, and the output of `check` for the same claim."""

import json

import mpmath
import numpy as np
import pandas as pd
import pytest

from cli_runs import one_line_error, run_cli
from falseclaims.readout import UNDERFLOW_BELOW


def _json(capsys, argv) -> dict:
    code, out = run_cli(capsys, [*argv, "--json"])
    assert code == 0, out.err
    return json.loads(out.out)


def _text(capsys, argv) -> str:
    code, out = run_cli(capsys, argv)
    assert code == 0, out.err
    return out.out


@pytest.fixture(scope="module")
def big_claim(tmp_path_factory):
    """100,000 cases, accuracy 0.95 (A) vs 0.90 (B): A alone right on 10,000 cases, B alone
    on 5,000 (both right on 85,000, so p11 = 0.85)."""
    n = 100_000
    truth = np.zeros(n, dtype=int)
    a, b = truth.copy(), truth.copy()
    a[:5_000] = 1           # A wrong on 5,000 cases
    b[5_000:15_000] = 1     # B wrong on 10,000 others
    path = tmp_path_factory.mktemp("voice") / "big.csv"
    pd.DataFrame({"case_id": [f"c{i}" for i in range(n)], "ground_truth": truth,
                  "alg_A": a, "alg_B": b}).to_csv(path, index=False)
    return str(path)


BIG = ["--task", "classification", "--classes", "0,1", "--bootstrap", "200"]


def test_the_underflowed_probability_is_truly_below_the_bound():
    # P = I_1/2(x1 + 1, x2 + 1) with x1 = 10,000 only-A and x2 = 5,000 only-B cases is
    # P(X >= 10,001) for X ~ Binomial(15,001, 1/2): at least the term P(X = 10,001) (exact,
    # mpmath), at most the Chernoff bound exp(-n KL(k/n || 1/2)); positive, so "0" would be
    # wrong, and below the printed bound
    n, k = 15_001, 10_001
    lower = mpmath.binomial(n, k) / mpmath.mpf(2) ** n
    q = k / n
    upper = mpmath.exp(-n * (q * mpmath.log(2 * q) + (1 - q) * mpmath.log(2 * (1 - q))))
    assert 0 < lower <= upper < UNDERFLOW_BELOW


def test_text_writes_an_underflow_as_its_bound_not_0(capsys, big_claim):
    # was: "P(false claim) = 0" and "... is 0, below 0.05"
    out = _text(capsys, ["percase", big_claim, *BIG, "--all-pairs"])
    assert "P(false claim) below 1e-300" in out, out
    assert "P(false claim) = 0" not in out
    assert "at least as good as A is below 1e-300, below 0.05" in out
    pairs = out.split("all pairs (Holm-adjusted):")[1].splitlines()
    assert "below 1e-300" in pairs[2], pairs


def test_json_flags_the_underflow_and_words_it_as_check_does(capsys, big_claim):
    res = _json(capsys, ["percase", big_claim, *BIG, "--all-pairs"])["result"]
    assert res["probability"] == 0.0
    assert res["probability_underflow"] is True
    assert res["all_pairs"][0]["probability_underflow"] is True
    assert (res["only_a"], res["only_b"], res["congruence"]) == (10_000, 5_000, 0.85)
    chk = _json(capsys, ["check", "--task", "classification", "--n", "100000", "--a", "0.95",
                         "--b", "0.90", "--congruence", "0.85"])["result"]
    assert chk["results"][0]["probability_underflow"] is True
    assert (res["verdict"], res["interpretation"]) == (chk["verdict"], chk["interpretation"])


def test_a_probability_that_is_exactly_0_is_not_flagged(capsys, tmp_path):
    # every case 0.05 better: no spread, P = 0 by construction (a point mass, not an
    # underflow); the note says why
    path = tmp_path / "shift.csv"
    b = np.linspace(0.6, 0.9, 30)
    pd.DataFrame({"case_id": range(30), "alg_A": b + 0.05, "alg_B": b}).to_csv(path,
                                                                              index=False)
    doc = _json(capsys, ["percase", str(path), "--task", "segmentation"])
    assert doc["result"]["probability"] == 0.0
    assert doc["result"]["probability_underflow"] is False
    assert any("no spread" in n for n in doc["notes"])


def _segmentation_file(tmp_path, shift: float, n: int = 40) -> str:
    rng = np.random.default_rng(7)
    z = rng.normal(size=n)
    a = np.clip(0.84 + shift + 0.05 * z + 0.03 * rng.normal(size=n), 0, 1)
    b = np.clip(0.84 + 0.05 * z + 0.03 * rng.normal(size=n), 0, 1)
    path = tmp_path / f"seg_{shift}.csv"
    pd.DataFrame({"case_id": [f"c{i}" for i in range(n)], "alg_A": a.round(4),
                  "alg_B": b.round(4)}).to_csv(path, index=False)
    return str(path)


@pytest.mark.parametrize("shift", [0.02, 0.006, 0.001])  # robust, not robust, weak
def test_the_same_claim_given_both_ways_reads_the_same(capsys, tmp_path, shift):
    path = _segmentation_file(tmp_path, shift)
    res = _json(capsys, ["percase", path, "--task", "segmentation"])["result"]
    assert (res["a"], res["b"]) == ("A", "B")
    argv = ["check", "--task", "segmentation", "--n", str(res["n"]), "--a",
            repr(res["mean_a"]), "--b", repr(res["mean_b"]), "--sd-a", repr(res["sd_a"]),
            "--sd-b", repr(res["sd_b"]), "--congruence", repr(res["congruence"])]
    chk = _json(capsys, argv)["result"]
    assert res["probability"] == pytest.approx(chk["results"][0]["probability"], rel=1e-6)
    assert res["verdict"] == chk["verdict"]
    assert res["interpretation"] == chk["interpretation"]
    # the text prints the probability as check's table does (4 decimals)
    shown = [ln for ln in _text(capsys, argv).splitlines() if ln.startswith("given")][0]
    line = [ln for ln in _text(capsys, ["percase", path, "--task", "segmentation"])
            .splitlines() if ln.startswith("P(false claim)")][0]
    assert line.split("= ")[1] == shown.split()[-1]


def test_the_runner_up_leading_is_noted_in_checks_words(capsys, tmp_path):
    # was: "--a B has the lower mean: the probability is that of the claim 'B beats A',
    # which the data do not favour"; check says "A leads: ... swap the values"
    path = _segmentation_file(tmp_path, 0.02)
    doc = _json(capsys, ["percase", path, "--task", "segmentation", "--a", "B", "--b", "A"])
    res = doc["result"]
    chk = _json(capsys, ["check", "--task", "segmentation", "--n", str(res["n"]), "--a",
                         repr(res["mean_a"]), "--b", repr(res["mean_b"]), "--sd-a",
                         repr(res["sd_a"]), "--sd-b", repr(res["sd_b"]), "--congruence",
                         repr(res["congruence"])])
    assert res["verdict"] == chk["result"]["verdict"] == "B leads"
    ours = next(n for n in doc["notes"] if "leads" in n)
    theirs = next(n for n in chk["notes"] if "leads" in n)
    assert ours.startswith("A leads: its mean ")
    assert theirs.startswith("B leads: its reported value ")
    tail = "so the probability that {} is not truly better is above 0.5; for the claim '{} " \
           "beats {}' swap"
    assert tail.format("B", "A", "B") in ours and tail.format("A", "B", "A") in theirs


def test_the_suggested_mapping_leaves_text_columns_out_and_says_so(capsys, tmp_path):
    # was: --columns case_id=case,alg_site=site,alg_scanner=scanner,alg_unet=unet,...
    path = tmp_path / "sites.csv"
    df = pd.DataFrame({"case": ["c1", "c2", "c3", "c4", "c5"],
                       "site": ["A", "B", "A", "B", "A"],
                       "scanner": ["GE", "Siemens", "GE", "GE", "Philips"],
                       "unet": [0.81, 0.79, 0.90, 0.70, 0.84],
                       "nnunet": [0.85, 0.83, 0.88, 0.75, 0.86]})
    df.to_csv(path, index=False)
    err = one_line_error(capsys, ["percase", str(path), "--task", "segmentation"])
    assert "'site', 'scanner' left out (text, not per-case numbers)" in err
    mapping = err.rstrip().rsplit("--columns ", 1)[1]
    assert mapping == "case_id=case,alg_unet=unet,alg_nnunet=nnunet"
    doc = _json(capsys, ["percase", str(path), "--task", "segmentation", "--columns", mapping])
    means = {r["method"]: r["mean"] for r in doc["result"]["ranking"]}
    assert means == pytest.approx({"unet": df["unet"].mean(), "nnunet": df["nnunet"].mean()})
    assert any("'site', 'scanner' not in the column mapping: left out" in n
               for n in doc["notes"])


def test_predicted_labels_stay_methods_in_the_suggestion(capsys, tmp_path):
    # text columns whose values are ground-truth labels are predictions, not left out
    path = tmp_path / "labels.csv"
    pd.DataFrame({"image": ["i1", "i2", "i3", "i4"], "label": ["MEL", "NV", "NV", "MEL"],
                  "resnet": ["MEL", "NV", "MEL", "MEL"], "vit": ["NV", "NV", "NV", "MEL"],
                  "site": ["A", "B", "A", "B"]}).to_csv(path, index=False)
    err = one_line_error(capsys, ["percase", str(path)])
    assert err.rstrip().endswith(
        "--columns case_id=image,ground_truth=label,alg_resnet=resnet,alg_vit=vit"), err
    assert "'site' left out (text" in err


def test_a_file_with_one_numeric_column_gets_no_mapping(capsys, tmp_path):
    # one method's numbers beside text: no two methods remain, so no mapping is suggested
    path = tmp_path / "one.csv"
    pd.DataFrame({"case": ["c1", "c2"], "site": ["A", "B"], "unet": [0.8, 0.7]}).to_csv(
        path, index=False)
    err = one_line_error(capsys, ["percase", str(path), "--task", "segmentation"])
    assert "if each column after" not in err
    assert "numbers in unet and text in case, site" in err
