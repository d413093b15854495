"""Cross-cutting fixes of one round, each where users read it:

- the percase HTML report and the web percase page write a probability that underflowed to
  0 as the bound it is below ("below 1e-300"), as the command line does, never as 0;
- the web page's table view shows the verdict words table mode prints per column;
- a test-set size such as "10.000" (10,000 with '.' grouping digits, or 10) is refused as
  ambiguous by `check`, `plan` and the web page, not read as 10; valid sizes read as before;
- the wording of config/README.md, config/config.yaml comments, report captions and
  docs/multiplicity.md follows the code (tie cutoff, sensitivity range, small p).

Independent references: mpmath for the size of the underflowed probability, `falseclaims
check` for the verdict words of the same claim, the package's own wording constants."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import mpmath
import numpy as np
import pandas as pd
import pytest

from cli_runs import one_line_error, run_cli
from falseclaims.readout import UNDERFLOW_BELOW

ROOT = Path(__file__).resolve().parents[1]
BOUND = f"below {UNDERFLOW_BELOW:g}"


def _json(capsys, argv) -> dict:
    code, out = run_cli(capsys, [*argv, "--json"])
    assert code == 0, out.err
    return json.loads(out.out)


# ------------------------------------------------------------------ 1. underflow, report/web
@pytest.fixture(scope="module")
def far_apart(tmp_path_factory):
    """3,000 cases: A alone right on 1,500, B alone on 50, both on 150, neither on 1,300;
    C = B (a third method, so the all-pairs table has rows)."""
    n = 3000
    truth = np.zeros(n, dtype=int)
    a = np.r_[np.zeros(1500), np.ones(50), np.ones(1300), np.zeros(150)].astype(int)
    b = np.r_[np.ones(1500), np.zeros(50), np.ones(1300), np.zeros(150)].astype(int)
    path = tmp_path_factory.mktemp("glue") / "far_apart.csv"
    pd.DataFrame({"case_id": [f"c{i}" for i in range(n)], "ground_truth": truth,
                  "alg_A": a, "alg_B": b, "alg_C": b}).to_csv(path, index=False)
    return path


PERCASE = ["--task", "classification", "--classes", "0,1", "--bootstrap", "200"]


def test_the_far_apart_claim_truly_underflows():
    # P = I_1/2(x1 + 1, x2 + 1) with 1,500 only-A and 50 only-B cases: positive, far below
    # the bound (so "0" would be wrong and the bound is right)
    exact = mpmath.betainc(1501, 51, 0, 0.5, regularized=True)
    assert 0 < exact < mpmath.mpf("1e-308")


def test_percase_report_writes_the_bound_not_0(capsys, far_apart, tmp_path):
    report = tmp_path / "r.html"
    res = _json(capsys, ["percase", str(far_apart), *PERCASE, "--all-pairs", f"--report={report}"])
    assert res["result"]["probability"] == 0.0 and res["result"]["probability_underflow"]
    page = report.read_text(encoding="utf-8")
    assert f'<span class="prob">{BOUND}</span>' in page                 # verdict box
    assert f"<th>P(false claim)</th><td>{BOUND}</td>" in page            # Bayes table
    pairs = re.findall(r"<tr><td>(\w)</td><td>(\w)</td><td class=\"num\">[^<]*</td>"
                       r"<td class=\"num\">[^<]*</td><td class=\"num\">([^<]*)</td>", page)
    assert dict(((a, b), p) for a, b, p in pairs)[("A", "B")] == BOUND    # all-pairs table
    assert dict(((a, b), p) for a, b, p in pairs)[("A", "C")] == BOUND
    assert "<th>P(false claim)</th><td>0</td>" not in page
    # the sentence is check's own for the same counts
    assert html.escape(res["result"]["interpretation"], quote=False) in page


def test_percase_report_pair_of_equal_methods_stays_a_number(capsys, far_apart, tmp_path):
    # control: B vs C (identical predictions) is 0.5, not an underflow
    report = tmp_path / "r.html"
    _json(capsys, ["percase", str(far_apart), *PERCASE, "--all-pairs", f"--report={report}"])
    page = report.read_text(encoding="utf-8")
    assert re.search(r"<tr><td>B</td><td>C</td>(<td class=\"num\">[^<]*</td>){2}"
                     r"<td class=\"num\">0\.500</td>", page)


def test_web_percase_page_writes_the_bound_not_0(far_apart):
    pytest.importorskip("flask")
    from falseclaims.web import create_app

    client = create_app().test_client()
    ans = client.post("/api/percase", data={
        "task": "classification", "classes": "0,1", "bootstrap": "200",
        "files": (far_apart.open("rb"), far_apart.name)},
        content_type="multipart/form-data").get_json()
    assert ans["ok"], ans["errors"]
    assert ans["envelope"]["result"]["probability_underflow"]
    assert f'id="probability">{BOUND}<' in ans["html"]


# ------------------------------------------------------------------ 2. table view verdict
def test_web_table_view_shows_checks_verdict_words(capsys):
    pytest.importorskip("flask")
    from falseclaims.web import create_app

    text = "| Method | Accuracy |\n|---|---|\n| A | 0.91 |\n| B | 0.89 |\n| C | 0.80 |\n"
    ans = create_app().test_client().post(
        "/api/table", data={"text": text, "n": "300"},
        content_type="multipart/form-data").get_json()
    assert ans["ok"], ans["errors"]
    m = ans["envelope"]["result"]["tables"][0]["metrics"][0]
    # the same claim given to check: its verdict and sentence (independent of table mode)
    chk = _json(capsys, ["check", "--task", "classification", "--n", "300", "--a", "0.91",
                         "--b", "0.89"])["result"]
    assert (m["verdict"], m["interpretation"]) == (chk["verdict"], chk["interpretation"])
    page = html.unescape(ans["html"])
    assert f'<strong class="verdict-label">{chk["verdict"]}</strong>' in page
    assert f'<span class="interpretation">{chk["interpretation"]}</span>' in page


# ------------------------------------------------------------------ 3. wording
def _flat(text: str) -> str:
    return " ".join(text.replace("#", " ").split())


def test_the_tie_cutoff_is_named_where_users_read_it():
    readme = _flat((ROOT / "config" / "README.md").read_text(encoding="utf-8"))
    assert "The tie cutoff is `claim_check.interpretation.robust_below`" in readme
    assert "tie cutoff is `planner.target`" not in readme
    assert "cutoff: planner.target" not in (ROOT / "config" / "config.yaml").read_text()
    for name in ("table_ties.rst", "table_agreement.rst"):
        rst = (ROOT / "workflow" / "report" / name).read_text(encoding="utf-8")
        assert "planner.target" not in rst and "claim_check.interpretation.robust_below" in rst


def test_the_sensitivity_range_is_worded_as_the_code_words_it():
    from falseclaims.survey.numbers import SENSITIVITY_RANGES

    words = SENSITIVITY_RANGES["one_at_a_time"]
    phrase = "congruence Q1, median and Q3 at the headline SD"
    assert phrase in words
    for path in (ROOT / "config" / "README.md", ROOT / "config" / "config.yaml",
                 ROOT / "workflow" / "report" / "numbers.rst"):
        flat = _flat(path.read_text(encoding="utf-8"))
        assert phrase in flat, path
        assert "congruence Q1/Q3 at the headline SD" not in flat, path
    facets = (ROOT / "workflow" / "report" / "fig5_venue_facets.rst").read_text()
    assert "no eligible papers" not in facets and "no analysed papers" in facets


def test_multiplicity_docs_state_the_small_p_result_the_command_gives(capsys):
    res = _json(capsys, ["sota", "--m", "1e15", "--n", "1", "--p", "1e-300"])["result"]
    # one classifier is right with probability 1e-300; the best of 1e15 with m p = 1e-285
    assert res["mean"] == pytest.approx(1e-285, rel=1e-9)
    doc = (ROOT / "docs" / "multiplicity.md").read_text(encoding="utf-8")
    assert "successes" in doc and "`sota --m 1e15\n--n 1 --p 1e-300` gives a mean of 1e−285" \
        in doc


# ------------------------------------------------------------------ 4. n = "10.000"
@pytest.mark.parametrize("given, big, small", [("10.000", 10000, 10), ("1.000", 1000, 1),
                                               ("250.000", 250000, 250)])
def test_check_refuses_a_dot_grouped_size(capsys, given, big, small):
    err = one_line_error(capsys, ["check", "--task", "classification", "--n", given,
                                  "--a", "0.9", "--b", "0.8"])
    assert f"{given} is ambiguous: write {big} or {small}" in err


def test_plan_refuses_a_dot_grouped_n_max(capsys):
    err = one_line_error(capsys, ["plan", "--task", "classification", "--delta", "0.01",
                                  "--n-max", "3.000"])
    assert "3.000 is ambiguous: write 3000 or 3" in err


def test_web_check_refuses_a_dot_grouped_size_next_to_the_field():
    pytest.importorskip("flask")
    from falseclaims.web import create_app

    ans = create_app().test_client().get(
        "/api/check?task=cls&n=10.000&a=0.9&b=0.8").get_json()
    assert not ans["ok"]
    assert "10.000 is ambiguous: write 10000 or 10" in ans["errors"]["n"]


@pytest.mark.parametrize("given, same_as", [("10.0", "10"), ("10.00", "10"),
                                            ("10.0000", "10"), ("1000.000", "1000"),
                                            ("1e4", "10000"), ("10_000", "10000"),
                                            (" 10 ", "10")])
def test_valid_sizes_read_as_before(capsys, given, same_as):
    argv = ["check", "--task", "classification", "--a", "0.9", "--b", "0.8"]
    assert _json(capsys, [*argv, f"--n={given}"]) == _json(capsys, [*argv, f"--n={same_as}"])
