"""One voice for one claim: ``falseclaims check`` (text, ``--json``, ``--report`` HTML), the
web page, table mode (a two-row table of the same claim) and the Python API give the same
probability, the same verdict words and the same names for it.

The seven claims span both tasks, the verdicts (robust, weak, not robust), SDs given and
imputed, and a probability that underflows (1.5e-443 by mpmath: "below 1e-300" in every
output). Numbers are compared at the 8 significant digits of the JSON; the printed ones as
each output prints them (``falseclaims.readout.probability_text``)."""

import html
import json
import re

import pytest

import falseclaims
from falseclaims.cli import main
from falseclaims.readout import probability_text

flask = pytest.importorskip("flask", reason="the 'web' extra (flask) is not installed")

from falseclaims.web import create_app  # noqa: E402

# (task, n, A, B, SD of A, SD of B, verdict): the verdicts as check words them, checked here
# against the thresholds of config claim_check (robust below 0.05, weak above 0.3)
CLAIMS = [
    ("cls", 500, "0.86", "0.85", None, None, "Weak claim"),
    ("cls", 1000, "0.86", "0.85", None, None, "Not robust"),
    ("cls", 300, "0.95", "0.90", None, None, "Robust claim"),
    ("seg", 40, "0.90", "0.88", "0.05", "0.06", "Robust claim"),
    ("seg", 20, "0.85", "0.84", "0.10", "0.10", "Not robust"),
    ("seg", 60, "0.80", "0.78", None, None, "Not robust"),
    ("cls", 3000, "0.99", "0.50", None, None, "Robust claim"),  # underflows
]
IDS = [f"{t}-{n}-{a}-{b}" for t, n, a, b, *_ in CLAIMS]


@pytest.fixture(scope="module")
def client():
    return create_app().test_client()


def _cli(capsys, *argv) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def _check_argv(task, n, a, b, sd_a, sd_b) -> list[str]:
    argv = ["check", "--task", task, "--n", str(n), "--a", a, "--b", b, "--decimals", "2"]
    return argv + (["--sd-a", sd_a, "--sd-b", sd_b] if sd_a else [])


def _plain(page: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


@pytest.mark.parametrize("claim", CLAIMS, ids=IDS)
def test_one_claim_one_voice(claim, capsys, tmp_path, client):
    task, n, a, b, sd_a, sd_b, verdict = claim
    argv = _check_argv(task, n, a, b, sd_a, sd_b)
    res = json.loads(_cli(capsys, *argv, "--json"))["result"]
    main_row = next(r for r in res["results"] if r["assumption"] == "median")
    p, under = main_row["probability"], main_row["probability_underflow"]
    assert res["verdict"] == verdict
    assert under == (claim is CLAIMS[-1])  # only the last one underflows
    sentence = res["interpretation"]
    assert sentence.startswith(verdict + ":")
    assert probability_text(p, underflow=under) in sentence

    # check text: the median row's P and the last line, as the JSON says them
    text = _cli(capsys, *argv).splitlines()
    row = next(line for line in text if line.startswith("median"))
    assert probability_text(p, 4, under) in row
    assert text[-1] == sentence

    # check --report: the verdict box says the same sentence and probability
    report = tmp_path / "r.html"
    _cli(capsys, *argv, "--report", str(report))
    page = _plain(report.read_text(encoding="utf-8"))
    assert sentence in page and probability_text(p, underflow=under) in page

    # the web page: the command's envelope, and the page shows its sentence and verdict
    form = {"task": task, "n": str(n), "a": a, "b": b, "decimals": "2"}
    form.update({"sd_a": sd_a, "sd_b": sd_b} if sd_a else {})
    ans = client.post("/api/check", data=form).get_json()
    assert ans["ok"], ans["errors"]
    assert ans["envelope"]["result"] == res
    shown = _plain(ans["html"])
    assert sentence in shown and f"Verdict: {verdict} ." in shown
    assert probability_text(p, underflow=under) in shown

    # table mode: the same claim as a two-row table (± over the test cases, so the SDs are
    # the per-case SDs check is given)
    column = "Accuracy" if task == "cls" else "Dice"
    cells = (a, b) if not sd_a else (f"{a} ± {sd_a}", f"{b} ± {sd_b}")
    path = tmp_path / "t.md"
    path.write_text(f"| Method | {column} |\n|---|---|\n| Ours | {cells[0]} |\n"
                    f"| Base | {cells[1]} |\n", encoding="utf-8")
    out = _cli(capsys, "table", str(path), "--n", str(n), "--pm-over", "test", "--json")
    m = json.loads(out)["result"]["tables"][0]["metrics"][0]
    assert (m["winner"], m["runner_up"]) == ("Ours", "Base")
    assert m["p_runner_up"] == p and m["p_runner_up_underflow"] == under
    assert m["verdict"] == verdict
    # the same sentence, the methods named where check says A and B
    assert m["interpretation"] == sentence.replace(" B ", " Base ").replace(" A ", " Ours ")
    table_text = _cli(capsys, "table", str(path), "--n", str(n), "--pm-over", "test")
    assert f"P(false claim) = {probability_text(p, 4, under)} [" in table_text
    assert m["interpretation"] in table_text

    # the Python API: the same probability, and its notes among check's
    kw = {"sd_a": float(sd_a), "sd_b": float(sd_b)} if sd_a else {}
    r = falseclaims.probability(task, n=n, a=float(a), b=float(b), **kw)
    assert r.probability == pytest.approx(p, rel=1e-7, abs=0)
    assert set(r.notes()) <= set(json.loads(_cli(capsys, *argv, "--json"))["notes"])
