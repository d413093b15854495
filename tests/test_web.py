"""`falseclaims serve` (docs/web.md): the page answers with the commands' own envelopes and
reports, refuses bad input next to the field in the commands' words, escapes what users
type and enforces its upload and time limits. Driven through Flask's test client; the
browser test is tests/test_web_browser.py."""

from __future__ import annotations

import io
import json
import re
import shutil
from pathlib import Path

import pytest

flask = pytest.importorskip("flask", reason="the 'web' extra (flask) is not installed")

from falseclaims.cli import main  # noqa: E402
from falseclaims.config import find_config  # noqa: E402
from falseclaims.web import create_app  # noqa: E402
from falseclaims.web.forms import FieldError, reported_values  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SEG = ROOT / "data" / "example" / "percase_segmentation_synthetic.csv"
LATEX = ROOT / "data" / "example" / "tables" / "latex_segmentation.tex"


@pytest.fixture(scope="module")
def client():
    return create_app().test_client()


def _config() -> list[str]:
    found = find_config(None)
    return [f"--config={Path(found).resolve()}"] if found else []


CONFIG = _config()  # as the app resolves it when created, before any test changes directory


def _cli(capsys, *argv) -> tuple[str, dict]:
    capsys.readouterr()
    code = main([*argv, *CONFIG])
    out = capsys.readouterr().out
    assert code in (0, 1), out
    return out, json.loads(out)


def _same_report(page: str, cli: str) -> None:
    """The same report, figures aside: matplotlib's PNG bytes of the percase figures vary
    with the process's hash seed (two runs of the command differ there too)."""
    png = re.compile(r"data:image/png;base64,[A-Za-z0-9+/=]+")
    assert len(png.findall(page)) == len(png.findall(cli)) > 0
    assert png.sub("PNG", page) == png.sub("PNG", cli)


def _upload(path: Path, name: str | None = None):
    return (io.BytesIO(path.read_bytes()), name or path.name)


# ------------------------------------------------------------------ page == command line
def test_check_page_equals_cli_and_reads_percent(client, capsys):
    """86% / 85% typed with a % sign are 0.86 / 0.85 for the command: the page's envelope is
    the command's, byte for byte, and the page shows its probability and verdict."""
    ans = client.get("/api/check?task=cls&n=500&a=86%25&b=85%25").get_json()
    assert ans["ok"], ans["errors"]
    text, cli = _cli(capsys, "check", "--task", "classification", "--n", "500", "--a", "0.86",
                     "--b", "0.85", "--json")
    assert ans["envelope"] == cli and ans["envelope_text"] == text
    main_row = next(r for r in cli["result"]["results"] if r["assumption"] == "median")
    from falseclaims.percase.verdict import probability_text
    assert f'id="probability">{probability_text(main_row["probability"])}<' in ans["html"]
    assert cli["result"]["verdict"] in ans["html"] and "detected: a % sign" in ans["html"]


def test_check_page_with_b_ahead_equals_cli(client, capsys):
    """B reported higher than A: the command computes P(theta_A <= theta_B) with a note that
    B leads (docs/cli.md) instead of refusing, and the page shows the same envelope."""
    ans = client.get("/api/check?task=cls&n=500&a=0.8&b=0.85").get_json()
    assert ans["ok"], ans["errors"]
    text, cli = _cli(capsys, "check", "--task", "classification", "--n", "500", "--a", "0.8",
                     "--b", "0.85", "--json")
    assert ans["envelope"] == cli and ans["envelope_text"] == text
    assert any("B leads" in n for n in cli["notes"]), cli["notes"]


@pytest.mark.parametrize("query, read_as, how, note, a", [
    ("a=86&b=85", "percent", "detected", "detected: values above 1", 0.86),
    ("a=86%25&b=85%25", "percent", "detected", "detected: a % sign", 0.86),
    ("a=0.86&b=0.85", "fraction", "detected", "detected: every value in [0, 1]", 0.86),
    ("a=0.86&b=0.85&units=percent", "percent", "declared", "declared (percent)", 0.0086),
    ("a=0.86&b=0.85&units=fraction", "fraction", "declared", "declared (fraction)", 0.86),
])
def test_check_json_says_how_it_read_the_units(client, query, read_as, how, note, a):
    """The command's envelope holds only fractions; the page's JSON says how the typed values
    were read (a=86 is 0.86 because values above 1 are percent), as its HTML does."""
    ans = client.get(f"/api/check?task=cls&n=500&{query}").get_json()
    assert ans["ok"], ans["errors"]
    assert ans["units"] == {"read_as": read_as, "how": how, "note": note}
    assert ans["envelope"]["result"]["a"] == pytest.approx(a, abs=1e-12)
    assert f"values read as {read_as}, {note}" in ans["html"]


def test_plan_json_says_how_it_read_the_units_and_refusals_carry_none(client):
    ans = client.get("/api/plan?task=cls&delta=2&level=85").get_json()
    assert ans["ok"], ans["errors"]
    assert ans["units"] == {"read_as": "percent", "how": "detected",
                            "note": "detected: values above 1"}
    ans = client.get("/api/check?task=cls&n=500&a=86&b=0.85").get_json()
    assert not ans["ok"] and ans["units"] is None


def test_check_band_is_the_table_modes_band(client):
    """The sensitivity band (congruence Q1-Q3 x SD levels x rounding) is the one
    `falseclaims table` reports for the same pair (falseclaims.table.analysis)."""
    from falseclaims.config import load_config
    from falseclaims.percase.verdict import probability_text
    from falseclaims.table.analysis import pair_probability

    ans = client.get("/api/check?task=seg&n=40&a=90.1&b=88.4&decimals=1").get_json()
    assert ans["ok"], ans["errors"]
    res = ans["envelope"]["result"]
    assert (res["a"], res["b"], res["decimals"]) == (0.901, 0.884, 3)  # percent -> fractions
    want = pair_probability("segmentation", 40, 0.901, 0.884, None, None,
                            load_config(find_config(None)), decimals=3, band=True)
    lo, hi = (probability_text(v) for v in want["band"])
    assert f'id="band">[{lo}, {hi}]<' in ans["html"]
    assert want["band_sd_levels"] == ["q1", "mean", "q3"] and lo != hi


def test_check_downloads_are_the_cli_outputs(client, capsys, tmp_path):
    q = "task=segmentation&n=40&a=0.9&b=0.88&sd_a=0.05&sd_b=0.06"
    got = client.get(f"/download/check.json?{q}")
    assert got.headers["Content-Disposition"].startswith("attachment")
    text, _ = _cli(capsys, "check", "--task", "segmentation", "--n", "40", "--a", "0.9",
                   "--b", "0.88", "--sd-a", "0.05", "--sd-b", "0.06", "--json")
    assert got.get_data(as_text=True) == text
    html = client.get(f"/download/check.html?{q}").get_data(as_text=True)
    report = tmp_path / "r.html"
    main(["check", "--task", "segmentation", "--n", "40", "--a", "0.9", "--b", "0.88",
          "--sd-a", "0.05", "--sd-b", "0.06", f"--report={report}", *CONFIG])
    assert html == report.read_text(encoding="utf-8")


def test_plan_page_equals_cli_with_grid(client, capsys):
    ans = client.get("/api/plan?task=seg&delta=1%25&level=85%25").get_json()
    assert ans["ok"], ans["errors"]
    text, cli = _cli(capsys, "plan", "--task", "segmentation", "--delta", "0.01", "--level",
                     "0.85", "--json")
    assert ans["envelope"]["result"] == cli["result"] and ans["envelope"]["notes"] == cli["notes"]
    median = next(r for r in cli["result"]["results"] if r["congruence_level"] == "median")
    assert f"{median['n']} = n*" in ans["html"]  # the planned size is a column of the grid
    assert 'class="mine"' in ans["html"]  # and the planned delta a row


def test_percase_page_equals_cli_report_and_json(client, capsys, tmp_path, monkeypatch):
    ans = client.post("/api/percase", data={"task": "segmentation", "files": _upload(SEG)},
                      content_type="multipart/form-data").get_json()
    assert ans["ok"], ans["errors"]
    shutil.copy(SEG, tmp_path / SEG.name)
    monkeypatch.chdir(tmp_path)  # the command run where the file is, as the page runs it
    text, cli = _cli(capsys, "percase", SEG.name, "--task", "segmentation",
                     "--report=percase_report.html", "--json")
    assert ans["envelope_text"] == text
    _same_report(ans["report"], (tmp_path / "percase_report.html").read_text(encoding="utf-8"))
    assert cli["result"]["verdict"] in ans["html"]


def test_table_paste_equals_cli(client, capsys, tmp_path, monkeypatch):
    ans = client.post("/api/table", data={"text": LATEX.read_text(encoding="utf-8"),
                                          "n": "120"},
                      content_type="multipart/form-data").get_json()
    assert ans["ok"], ans["errors"]
    shutil.copy(LATEX, tmp_path / "pasted.tex")
    monkeypatch.chdir(tmp_path)
    text, cli = _cli(capsys, "table", "pasted.tex", "--json", "--report=table_report.html",
                     "--n=120")
    assert ans["envelope_text"] == text
    _same_report(ans["report"], (tmp_path / "table_report.html").read_text(encoding="utf-8"))
    for m in cli["result"]["tables"][0]["metrics"]:
        assert f'class="winner">{m["winner"]}<' in ans["html"]
        for k, tier in enumerate(m["tiers"], 1):
            assert f'<td class="num">{k}</td><td>{", ".join(tier)}</td>' in ans["html"]


def test_table_upload_xlsx(client, tmp_path):
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    for row in (["Method", "Accuracy"], ["A", 0.91], ["B", 0.90], ["C", 0.80]):
        ws.append(row)
    path = tmp_path / "t.xlsx"
    wb.save(path)
    ans = client.post("/api/table", data={"file": _upload(path), "n": "300"},
                      content_type="multipart/form-data").get_json()
    assert ans["ok"], ans["errors"]
    m = ans["envelope"]["result"]["tables"][0]["metrics"][0]
    assert m["winner"] == "A" and m["tiers"][0] == ["A", "B"]  # 0.91 vs 0.90 at n = 300: tied


# ------------------------------------------------------------------ refusals
BASE = ["--task=classification", "--n=500", "--a=0.86", "--b=0.85"]


@pytest.mark.parametrize("query, field, argv", [
    ("task=cls&n=abc&a=0.86&b=0.85", "n", [*BASE, "--n=abc"]),
    ("task=cls&n=1&a=0.86&b=0.85", "n", [*BASE, "--n=1"]),
    ("task=cls&n=500&a=0.86&b=0.85&sd_a=0.1", "sd_a", [*BASE, "--sd-a=0.1"]),
    ("task=cls&n=500&a=0.86&b=0.85&congruence=-0.5", "congruence",
     [*BASE, "--congruence=-0.5"]),
    ("task=cls&n=500&a=0.86&b=0.85&decimals=x", "decimals", [*BASE, "--decimals=x"]),
    ("task=cls&a=0.86&b=0.85", "n", ["--task=classification", "--a=0.86", "--b=0.85"]),
])
def test_check_refusals_in_the_commands_words(client, capsys, query, field, argv):
    ans = client.get(f"/api/check?{query}").get_json()
    assert not ans["ok"] and list(ans["errors"]) == [field] and ans["html"] == ""
    # the last of a repeated option counts for argparse; the CLI refuses repeats, so dedupe
    options = dict(a.split("=", 1) for a in argv)
    capsys.readouterr()
    try:
        code = main(["check", *(f"{k}={v}" for k, v in options.items())])
    except SystemExit as exc:  # argparse's refusals
        code = exc.code
    assert code == 2
    err = capsys.readouterr().err.strip()
    assert err == f"falseclaims check: error: {ans['errors'][field]}", (err, ans["errors"])


def test_units_mixed_or_contradicting_are_refused():
    with pytest.raises(FieldError, match="reads as a fraction but 86 as percent") as e:
        reported_values({"a": "86", "b": "0.85"}, ("a", "b"), "auto")
    assert e.value.field == "b"
    with pytest.raises(FieldError, match="% sign but units are declared fraction"):
        reported_values({"a": "86%", "b": "85%"}, ("a", "b"), "fraction")
    assert reported_values({"a": "86.25", "b": "85"}, ("a", "b"), "auto")[0] == \
        {"a": "0.8625", "b": "0.85"}
    assert reported_values({"a": "0.5", "b": "0.25"}, ("a", "b"), "percent")[0] == \
        {"a": "0.005", "b": "0.0025"}


def test_percase_file_errors_land_next_to_the_file(client):
    bad = io.BytesIO(b"case_id,alg_a\nc1,0.5\n")
    ans = client.post("/api/percase", data={"task": "segmentation", "files": (bad, "x.csv")},
                      content_type="multipart/form-data").get_json()
    assert not ans["ok"] and "x.csv" in ans["errors"]["files"]
    assert "expected at least 2 method columns" in ans["errors"]["files"]


def test_upload_size_and_time_limits(tmp_path):
    small = create_app(max_upload_mb=0.001).test_client()
    big = io.BytesIO(b"case_id,alg_a,alg_b\n" + b"c,0.5,0.6\n" * 500)  # 5 kB > 1 kB
    got = small.post("/api/percase", data={"task": "segmentation", "files": (big, "big.csv")},
                     content_type="multipart/form-data")
    assert got.status_code == 413 and "larger than 0.001 MB" in got.get_json()["errors"]["form"]
    slow = create_app(time_limit=0.05).test_client()  # less than starting Python takes
    ans = slow.post("/api/percase", data={"task": "segmentation", "files": _upload(SEG)},
                    content_type="multipart/form-data").get_json()
    assert not ans["ok"] and "stopped after 0.05 s" in ans["errors"]["form"]


# ------------------------------------------------------------------ escaping
SCRIPT = "<script>alert(1)</script>"


def test_script_names_are_escaped_everywhere(client):
    rows = "".join(f"c{i},{0.80 + i / 100:.2f},{0.78 + i / 200:.3f}\n" for i in range(12))
    csv = f"case_id,alg_{SCRIPT},alg_plain\n{rows}".encode()
    ans = client.post("/api/percase", data={"task": "segmentation",
                                            "files": (io.BytesIO(csv), "s.csv")},
                      content_type="multipart/form-data").get_json()
    assert ans["ok"], ans["errors"]
    assert SCRIPT in json.dumps(ans["envelope"])  # the data keep the name
    assert SCRIPT not in ans["html"] and "&lt;script&gt;alert(1)&lt;/script&gt;" in ans["html"]
    assert SCRIPT not in ans["report"]  # the command's report escapes it too
    table = f"| Method | Accuracy |\n|---|---|\n| {SCRIPT} | 0.91 |\n| B | 0.80 |\n"
    ans = client.post("/api/table", data={"text": table, "n": "200"},
                      content_type="multipart/form-data").get_json()
    assert ans["ok"], ans["errors"]
    assert SCRIPT not in ans["html"] and "&lt;script&gt;" in ans["html"]
    page = client.get("/?task=cls&n=500&a=" + "%3Cscript%3Ealert(1)%3C/script%3E&b=0.85")
    body = page.get_data(as_text=True)
    assert body.count("<script") == 1  # only the page's own script tag
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in body


def test_pages_load_nothing_from_elsewhere(client):
    for path in ("/", "/plan", "/percase", "/table"):
        got = client.get(path)
        body = got.get_data(as_text=True)
        assert got.status_code == 200 and "http://" not in body and "https://" not in body
        assert "default-src 'self'" in got.headers["Content-Security-Policy"]
        assert got.headers["Cache-Control"] == "no-store"
    assert client.get("/static/web.js").status_code == 200


def test_server_rendered_without_script(client):
    body = client.get("/?task=cls&n=500&a=0.86&b=0.85").get_data(as_text=True)
    assert 'id="probability">0.340<' in body and "/download/check.json?task=cls" in body


def test_serve_refuses_bad_options(capsys):
    assert main(["serve", "--port", "70000"]) == 2
    assert "--port must be in [0, 65535]" in capsys.readouterr().err
    assert main(["serve", "--time-limit", "0"]) == 2


ISIC = ROOT / "data" / "external" / "isic2018-skin-tone-predictions"
TOUCHSTONE = ROOT / "data" / "external" / "touchstone-totalsegmentator-dsc"


def test_real_isic_predictions_with_labels(client, capsys, tmp_path, monkeypatch):
    """Three ISIC 2018 prediction files and the ground-truth file, uploaded: the page's
    answer is the command's. If the command cannot write its report, the page shows the
    answer without it and the report's error (the same line the command prints)."""
    preds = [ISIC / f"predictions_01DataShift0{k}Threshold41.csv" for k in (1, 3, 5)]
    ans = client.post("/api/percase", data={
        "task": "classification", "positive": "MEL", "files": [_upload(p) for p in preds],
        "labels": _upload(ISIC / "metadata.csv")},
        content_type="multipart/form-data").get_json()
    assert ans["ok"], ans["errors"]
    for p in [*preds, ISIC / "metadata.csv"]:
        shutil.copy(p, tmp_path / p.name)
    monkeypatch.chdir(tmp_path)
    argv = ["percase", *(p.name for p in preds), "--task=classification", "--positive=MEL",
            "--labels=metadata.csv", *CONFIG]
    capsys.readouterr()
    code = main([*argv, "--json", "--report=percase_report.html"])
    out, err = capsys.readouterr()
    if code == 0:
        assert ans["envelope_text"] == out and ans["report"] and "report-error" not in ans["html"]
    else:  # the report failed: the page has the answer without it, and the error
        assert main([*argv, "--json"]) == 0
        assert ans["envelope_text"] == capsys.readouterr().out
        assert ans["report"] is None
        assert f"could not be written: {err.strip().split(': error: ', 1)[1]}" in \
            ans["html"].replace("&#39;", "'")
    assert ans["envelope"]["result"]["n"] == 2927


def test_message_naming_an_uploaded_file_sits_under_the_file_field(client):
    """A file the command cannot read: the message names the file first (and suggests
    --columns), so it belongs to the file field, not to the column-names field."""
    ans = client.post("/api/percase", data={
        "task": "segmentation", "files": _upload(TOUCHSTONE / "nnU-Net_U-Net.csv")},
        content_type="multipart/form-data").get_json()
    assert list(ans["errors"]) == ["files"]
    assert ans["errors"]["files"].startswith("nnU-Net_U-Net.csv: cannot tell the layout")


def test_plan_grid_cell_equals_check(client, capsys):
    """A cell of the Fig 6 grid (n = 100, Δ = 0.01 at level 0.85) is what `falseclaims
    check` says for n = 100, A = 0.85, B = 0.84 under each congruence level (another path
    through the library: the check command, not the figure's function)."""
    html = client.get("/api/plan?task=segmentation&delta=0.01&level=0.85").get_json()["html"]
    head = re.search(r"<thead>(.*?)</thead>", html.split('id="grid"')[1]).group(1)
    sizes = [int(re.match(r"\d+", h).group(0)) for h in re.findall(r'class="num">([^<]*)<', head)]
    row = re.search(r'<tr class="mine"><th>0\.01</th>(.*?)</tr>', html).group(1)
    cells = re.findall(r'>([\d.]+) <span class="small">\(([\d.]+), ([\d.]+)\)</span>', row)
    median, q1, q3 = cells[sizes.index(100)]
    cli = _cli(capsys, "check", "--task=segmentation", "--n=100", "--a=0.85", "--b=0.84",
               "--json")[1]
    p = {r["assumption"]: r["probability"] for r in cli["result"]["results"]}
    assert (median, q1, q3) == tuple(f"{100 * p[k]:.1f}" for k in ("median", "q1", "q3"))


def test_forms_work_without_script(client):
    """The per-case form posted to its page (no JavaScript) gets the page with the result;
    an unknown page is not found."""
    body = client.post("/percase", data={"task": "segmentation", "files": _upload(SEG)},
                       content_type="multipart/form-data").get_data(as_text=True)
    assert 'id="probability">' in body and "<iframe" in body
    assert client.get("/nothing").status_code == 404
    assert client.get("/api/nothing").status_code == 404


def test_table_tie_at_the_top_has_no_winner_on_the_page(client):
    text = "| Method | Dice |\n|---|---|\n| A | 0.85 |\n| B | 0.85 |\n| C | 0.80 |\n"
    ans = client.post("/api/table", data={"text": text, "n": "50"},
                      content_type="multipart/form-data").get_json()
    assert ans["ok"], ans["errors"]
    assert 'No single winner: <strong class="winner">A = B</strong>' in ans["html"]
    assert "Winner: " not in ans["html"]


def test_table_n_from_the_caption_says_so_on_the_page(client):
    # the reader should check a size taken from the caption, as the text report says
    text = ("Table 2: Results on the test set (n = 120).\n\n| Method | Dice |\n|---|---|\n"
            "| A | 0.86 |\n| B | 0.85 |\n| C | 0.80 |\n")
    ans = client.post("/api/table", data={"text": text},
                      content_type="multipart/form-data").get_json()
    assert ans["ok"], ans["errors"]
    assert "n = 120 (printed in the caption)" in ans["html"]


def test_check_page_shows_an_underflowed_probability_as_its_bound(client, capsys):
    """n = 3000, A = 0.99, B = 0.5: the exact probability (about 1e-443 by mpmath) is below
    the smallest double, so the engine returns 0. The command line says "below 1e-300"; the
    page said "0.0e+00" (as if the claim could not be false)."""
    ans = client.get("/api/check?task=cls&n=3000&a=0.99&b=0.5").get_json()
    assert ans["ok"], ans["errors"]
    main_row = next(r for r in ans["envelope"]["result"]["results"]
                    if r["assumption"] == "median")
    assert main_row["probability"] == 0.0 and main_row["probability_underflow"]
    assert 'id="probability">below 1e-300<' in ans["html"]
    text, _ = _cli(capsys, "check", "--task", "classification", "--n", "3000", "--a", "0.99",
                   "--b", "0.5", "--json")
    assert "below 1e-300" in ans["envelope_text"] or "below 1e-300" in text
