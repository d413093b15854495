"""A probability of a false claim that underflowed to 0 is said one way everywhere: the text of
`check`, its HTML report, the web page and the JSON of `check` and `plan` (marked, never a bare
0), all from one formatter (falseclaims.readout.probability_text). Each test fails on the code
before, except the controls named as such."""

import json
import re
from pathlib import Path

import mpmath
import pytest

import falseclaims
from falseclaims.claims.check import check_claim
from falseclaims.claims.plan import smallest_n
from falseclaims.cli import main
from falseclaims.percase.verdict import interpretation_text
from falseclaims.readout import UNDERFLOW_BELOW, probability_text

SRC = Path(__file__).resolve().parents[1] / "src" / "falseclaims"
BELOW = f"below {UNDERFLOW_BELOW:g}"
# n = 3000, A = 0.99, B = 0.5: I_1/2(x1 + 1, x2 + 1) is about 1.5e-443 (mpmath, below)
CLS = ["check", "--task", "cls", "--n", "3000", "--a", "0.99", "--b", "0.5"]
# segmentation, n = 450: P = 2.8e-264, but the low end of its rounding range (A = 0.95,
# B = 0.55) underflows while the probability itself does not
SEG = ["check", "--task", "seg", "--n", "450", "--a", "0.9", "--b", "0.6", "--sd-a", "0.1",
       "--sd-b", "0.1", "--decimals", "1"]


def _html(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    return re.sub(r"data:image/png;base64,[A-Za-z0-9+/=]+", "PNG", text)


def test_the_classification_probability_is_positive_below_the_bound():
    row = check_claim("cls", 3000, 0.99, 0.5, falseclaims.load_config(None))["results"][1]
    exact = mpmath.betainc(row["x1"] + 1, row["x2"] + 1, 0, 0.5, regularized=True)
    assert row["probability"] == 0.0 and 0 < exact < UNDERFLOW_BELOW


def test_check_html_report_says_below_the_bound(tmp_path, capsys):
    # was: the verdict box "0", the sentence "is 0,", every table cell "0", the range [0, 0]
    report = tmp_path / "r.html"
    assert main([*CLS, "--decimals", "2", "--report", str(report)]) == 0
    html = _html(report)
    assert f'<span class="prob">{BELOW}</span>' in html
    assert f"as good as A is {BELOW}, below 0.05" in html
    assert f"the probability lies in [{BELOW}, {BELOW}]" in html
    cells = re.findall(r'<td class="num">([^<]*)</td>', html)
    assert cells.count(BELOW) == 3 and cells.count(f"[{BELOW}, {BELOW}]") == 3
    assert "0" not in cells and "[0, 0]" not in cells


def test_check_html_report_keeps_an_exact_zero(tmp_path, capsys):
    # control: SDs 0 leave the paired differences no spread, P is exactly 0
    report = tmp_path / "r.html"
    assert main(["check", "--task", "seg", "--n", "50", "--a", "0.8", "--b", "0.79",
                 "--sd-a", "0", "--sd-b", "0", "--report", str(report)]) == 0
    html = _html(report)
    assert "below" not in html.replace("below 0.05", "")
    assert '<span class="prob">0</span>' in html


def test_a_range_end_that_underflowed_is_marked_where_the_probability_did_not(capsys):
    # was: segmentation range "[0, 3.6e-193]", the row's probability 2.8e-264 unmarked
    assert main([*SEG, "--json"]) == 0
    row = json.loads(capsys.readouterr().out)["result"]["results"][1]
    assert row["probability"] > 0 and not row["probability_underflow"]
    assert row["probability_range"][0] == 0.0 and row["probability_range"][1] > 0
    assert row["probability_range_underflow"] == [True, False]
    assert main(SEG) == 0
    line = next(ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("median"))
    assert f"[{BELOW}, 3.6e-193]" in line


def test_the_sentence_itself_knows_the_underflow():
    # was: the sentence said "is 0," and the command line replaced the words afterwards
    text = interpretation_text(0.0, None, underflow=True)
    assert text.startswith(f"Robust claim: the probability that B is truly at least as good "
                           f"as A is {BELOW}, below 0.05")
    assert " is 0," in interpretation_text(0.0, None)  # control: an exact 0


def test_plan_json_marks_a_probability_at_n_max_that_underflowed(capsys):
    # was: "probability_at_n_max": 0.0 without a mark (the true value is about 1.5e-443)
    assert main(["plan", "--task", "cls", "--delta", "0.49", "--level", "0.99", "--n-max",
                 "3000", "--congruence", "0.5", "--json"]) == 0
    row = json.loads(capsys.readouterr().out)["result"]["results"][0]
    assert row["probability_at_n_max"] == 0.0 and row["probability_at_n_max_underflow"]
    ok = smallest_n("cls", 0.01, 0.9, 0.67, n_max=1000)  # control: P(1000) = 0.17
    assert ok.probability_at_n_max > 0.1 and not ok.probability_at_n_max_underflow
    point = smallest_n("seg", 0.01, 0.8, 1.0, n_max=1000,
                       sd_model=falseclaims.SDModel(0.05, 0.0, 0.0, 1.0, 1.0))
    assert point.probability_at_n_max == 0.0 and not point.probability_at_n_max_underflow


def test_web_check_page_writes_the_range_ends_as_the_command_line(capsys):
    pytest.importorskip("flask")
    from falseclaims.web import create_app

    client = create_app().test_client()
    query = "task=seg&n=450&a=0.9&b=0.6&sd_a=0.1&sd_b=0.1&decimals=1&units=fraction"
    ans = client.get(f"/api/check?{query}").get_json()
    assert ans["ok"], ans["errors"]
    assert f"[{BELOW}, 3.6e-193]" in ans["html"]  # was "[0, 3.6e-193]"


def test_one_formatter_writes_the_bound():
    """Only falseclaims.readout writes the words of an underflow; every other module calls
    probability_text (was: three copies, in cli/check.py, web/pages.py and the sentence
    patched by a string replace)."""
    writers = [p.relative_to(SRC).as_posix() for p in SRC.rglob("*.py")
               if re.search(r"below \{UNDERFLOW_BELOW", p.read_text(encoding="utf-8"))]
    assert writers == ["readout.py"]
    assert probability_text(0.0, 4, underflow=True) == BELOW
    assert probability_text(0.0, 4) == "0"  # control: an exact 0
