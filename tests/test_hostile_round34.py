"""Hostile inputs of the round-34 battery (nnU-Net summaries, the web page) that found
something open: each test writes its hostile input in a temporary directory and fails on the
code before the fix."""

import json

import pytest

from falseclaims.cli import main
from falseclaims.percase.nnunet_layout import read_nnunet_summaries

CASES = [f"case_{i}" for i in range(6)]
DICE_A = [0.91, 0.88, 0.93, 0.85, 0.90, 0.87]
DICE_B = [0.90, 0.86, 0.93, 0.83, 0.88, 0.88]


def _summary(dice, metric="Dice", extra=None):
    return {"mean": {}, "metric_per_case": [
        {"reference_file": f"/gt/{c}.nii.gz", "prediction_file": f"/pred/{c}.nii.gz",
         "metrics": {"1": {metric: d, "TP": 300, **(extra or {})}}}
        for c, d in zip(CASES, dice, strict=True)]}


def _write(tmp_path, method, text) -> str:
    p = tmp_path / method / "summary.json"
    p.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        p.write_bytes(text)
    else:
        p.write_text(text if isinstance(text, str) else json.dumps(text), encoding="utf-8")
    return str(p)


def _one_line_error(capsys, argv) -> str:
    code = main(argv)
    out = capsys.readouterr()
    assert code == 2, out.err
    assert "Traceback" not in out.err + out.out
    assert len(out.err.strip().splitlines()) == 1, out.err
    return out.err


@pytest.mark.parametrize("text", [
    '{"metric_per_case":' + "[" * 100_000 + "]" * 100_000 + "}",  # RecursionError in json
    "[" * 5_000 + "]" * 5_000,
])
def test_deeply_nested_json_names_the_file(tmp_path, capsys, text):
    a = _write(tmp_path, "A", text)
    b = _write(tmp_path, "B", _summary(DICE_B))
    err = _one_line_error(capsys, ["percase", a, b])
    assert a in err and "nested too deeply" in err and "unexpected" not in err


def test_a_number_of_thousands_of_digits_names_the_file(tmp_path, capsys):
    text = json.dumps(_summary(DICE_A)).replace("0.91", "1" + "0" * 5000, 1)
    a = _write(tmp_path, "A", text)
    b = _write(tmp_path, "B", _summary(DICE_B))
    err = _one_line_error(capsys, ["percase", a, b])
    assert a in err and "thousands of digits" in err
    assert "set_int_max_str_digits" not in err  # Python's advice is not the user's


def test_a_utf16_summary_is_read(tmp_path, capsys):
    a = _write(tmp_path, "A", json.dumps(_summary(DICE_A)).encode("utf-16"))
    b = _write(tmp_path, "B", _summary(DICE_B))
    pc = read_nnunet_summaries([a, b])
    assert pc.matrix("1", "dice")["A"].tolist() == DICE_A


def test_a_regression_summary_is_one_line_per_file(tmp_path, capsys):
    """A summary of MAE/PSNR only: before, one problem per case and label (a page of dicts);
    now one line for the file naming the metrics it holds."""
    a = _write(tmp_path, "A", _summary(DICE_A, metric="MAE", extra={"PSNR": 30.0}))
    b = _write(tmp_path, "B", _summary(DICE_B))
    err = _one_line_error(capsys, ["percase", a, b])
    assert a in err and "no Dice value in any of its 6 label entries" in err
    assert "MAE, PSNR" in err


def test_metric_iou_missing_from_one_file_is_one_line(tmp_path, capsys):
    a = _write(tmp_path, "A", _summary(DICE_A, extra={"IoU": 0.8}))
    b = _write(tmp_path, "B", _summary(DICE_B))
    err = _one_line_error(capsys, ["percase", a, b, "--metric", "IoU"])
    assert b in err and "no IoU value" in err and "Dice" in err


def test_a_label_missing_its_metric_in_some_cases_still_names_each(tmp_path):
    """Control: only when no entry of a file has the metric is it one line."""
    doc = _summary(DICE_A)
    del doc["metric_per_case"][2]["metrics"]["1"]["Dice"]
    a = _write(tmp_path, "A", doc)
    b = _write(tmp_path, "B", _summary(DICE_B))
    with pytest.raises(ValueError, match=r"metric_per_case\[2\]\.1"):
        read_nnunet_summaries([a, b])


def test_a_summary_json_among_csv_files_is_refused(tmp_path, capsys):
    a = _write(tmp_path, "A", _summary(DICE_A))
    csv = tmp_path / "b.csv"
    csv.write_text("case_id,dice\n" + "".join(f"{c},{d}\n" for c, d in zip(CASES, DICE_B,
                                                                           strict=True)))
    err = _one_line_error(capsys, ["percase", a, str(csv)])
    assert a in err and "a JSON file" in err and str(csv) in err


def test_a_summary_json_given_a_table_layout_is_refused(tmp_path, capsys):
    a = _write(tmp_path, "A", _summary(DICE_A))
    err = _one_line_error(capsys, ["percase", a, "--layout", "long"])
    assert a in err and "table layout 'long'" in err


def test_the_same_summary_twice_is_said(tmp_path, capsys):
    a = _write(tmp_path, "A", _summary(DICE_A))
    err = _one_line_error(capsys, ["percase", a, str(tmp_path / "A" / "." / "summary.json")])
    assert "given twice" in err


def test_web_plan_without_a_config_file(tmp_path, monkeypatch):
    """`falseclaims serve` started outside a project (no config/config.yaml): the packaged
    defaults of the commands held no look-up grid, and the plan page answered 500 (KeyError);
    they hold it now (cli_config.schema.yaml requires it), so the page shows its grid."""
    pytest.importorskip("flask")
    from falseclaims.web import create_app

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("FALSECLAIMS_CONFIG", raising=False)
    client = create_app().test_client()
    got = client.get("/api/plan?task=seg&delta=0.02&level=0.85")
    assert got.status_code == 200 and got.get_json()["ok"]
    page = client.get("/plan?task=cls&delta=0.02&level=0.85")
    assert page.status_code == 200
    from falseclaims.config import cli_defaults
    sizes = cli_defaults()["lookup_grid"]["classification"]["n"]
    assert f">{sizes[0]:,}<" in page.get_data(as_text=True) or \
        f">{sizes[0]}<" in page.get_data(as_text=True)


def _probability(capsys, argv) -> float:
    code = main(["percase", *argv, "--json", "--bootstrap", "200"])
    out = capsys.readouterr()
    assert code == 0, out.err
    return json.loads(out.out)["result"]["probability"]


def test_percent_summaries_with_units_percent_are_read(tmp_path, capsys):
    """The refusal of percent Dice says 'or pass --units percent'; the nnU-Net reader ignored
    --units and refused again. Now the same P as the fractions."""
    pct = [_write(tmp_path / "pct", m, _summary([round(d * 100, 1) for d in dice]))
           for m, dice in (("A", DICE_A), ("B", DICE_B))]
    frac = [_write(tmp_path / "frac", m, _summary(dice))
            for m, dice in (("A", DICE_A), ("B", DICE_B))]
    got = _probability(capsys, [*pct, "--units", "percent"])
    assert got == pytest.approx(_probability(capsys, frac), abs=1e-12)


def test_a_file_whose_every_value_is_nan_is_named(tmp_path, capsys):
    """Before: 'got ['B']; expected at least 2 methods', the NaN note lost with the error."""
    a = _write(tmp_path, "A", json.dumps(_summary([float("nan")] * 6), allow_nan=True))
    b = _write(tmp_path, "B", _summary(DICE_B))
    err = _one_line_error(capsys, ["percase", a, b])
    assert a in err and "every Dice value NaN or null (6)" in err


def test_web_field_given_twice_is_refused():
    """`a` twice in the address: the page used the first value unsaid; the command refuses a
    repeated option."""
    pytest.importorskip("flask")
    from falseclaims.web import create_app

    client = create_app().test_client()
    ans = client.get("/api/check?task=cls&n=500&a=0.86&a=0.10&b=0.85").get_json()
    assert not ans["ok"] and ans["errors"] == {"a": "a given 2 times; expected it once"}
    ans = client.post("/api/table", data={"text": "| M | Dice |\n|---|---|\n| A | 0.9 |\n"
                                                  "| B | 0.8 |\n", "n": ["100", "5"]}).get_json()
    assert not ans["ok"] and "n given 2 times" in ans["errors"]["n"]


def test_a_label_with_the_metric_under_two_spellings_is_refused(tmp_path, capsys):
    """{"dice": 0.9, "DICE": 0.1}: the first key was compared unsaid."""
    doc = _summary(DICE_A)
    doc["metric_per_case"][0]["metrics"]["1"] = {"dice": 0.9, "DICE": 0.1}
    a = _write(tmp_path, "A", doc)
    b = _write(tmp_path, "B", _summary(DICE_B))
    err = _one_line_error(capsys, ["percase", a, b])
    assert "metric_per_case[0].1" in err and "dice, DICE" in err


def test_nan_written_as_text_says_how_to_write_it(tmp_path, capsys):
    doc = _summary(DICE_A)
    doc["metric_per_case"][0]["metrics"]["1"]["Dice"] = "NaN"
    a = _write(tmp_path, "A", doc)
    b = _write(tmp_path, "B", _summary(DICE_B))
    err = _one_line_error(capsys, ["percase", a, b])
    assert "metric_per_case[0].1.Dice" in err and "JSON's NaN or null" in err


def test_one_summary_alone_is_one_line(tmp_path, capsys):
    """Before: one 'expected at least 2 methods' line per label."""
    doc = _summary(DICE_A)
    for case in doc["metric_per_case"]:
        case["metrics"]["2"] = dict(case["metrics"]["1"])
    a = _write(tmp_path, "A", doc)
    err = _one_line_error(capsys, ["percase", a])
    assert a in err and "1 summary.json given; expected one per method" in err


def test_an_empty_summary_is_said_empty(tmp_path, capsys):
    a = _write(tmp_path, "A", "\n")
    b = _write(tmp_path, "B", _summary(DICE_B))
    err = _one_line_error(capsys, ["percase", a, b])
    assert f"{a}: empty file" in err


def _bomb(tmp_path, unpacked_mb: int) -> str:
    """A workbook of a two-row table whose sheet part also holds an XML comment of
    ``unpacked_mb`` MB of spaces: valid XML, a few kB in the file."""
    import zipfile

    import openpyxl

    wb = openpyxl.Workbook()
    for row in (["Method", "Accuracy"], ["A", 0.91], ["B", 0.90]):
        wb.active.append(row)
    good = tmp_path / "good.xlsx"
    wb.save(good)
    bomb = tmp_path / "bomb.xlsx"
    with zipfile.ZipFile(good) as zin, zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as z:
        for item in zin.infolist():
            data = zin.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml":
                data = data.replace(b"</sheetData>",
                                    b"</sheetData><!--" + b" " * (unpacked_mb << 20) + b"-->")
            z.writestr(item, data)
    return str(bomb)


def test_table_refuses_an_xlsx_zip_bomb_before_reading_it(tmp_path, capsys, monkeypatch):
    """`table` read the workbook's parts without the size check `sheet` makes (a 1.5 MB file
    unpacking to 1.5 GB parsed for minutes); the limit is lowered here to keep the file small."""
    import falseclaims.io.xlsx as xlsx

    monkeypatch.setattr(xlsx, "MAX_XLSX_BYTES", 2 << 20)
    bomb = _bomb(tmp_path, 3)
    err = _one_line_error(capsys, ["table", bomb, "--n", "100"])
    assert bomb in err and "expands to 3 MB: a damaged file or a zip bomb" in err
    assert main(["table", str(tmp_path / "good.xlsx"), "--n", "100"]) == 0  # control


def test_web_shows_every_problem_of_a_refused_upload():
    """A refusal listing several problems showed only its first line on the page
    ('2 problem(s) in per-case input:'), none of the problems."""
    pytest.importorskip("flask")
    import io

    from falseclaims.web import create_app

    files = [(io.BytesIO(json.dumps(_summary(d, metric="MAE")).encode()), f"{m}.json")
             for m, d in (("a", DICE_A), ("b", DICE_B))]
    ans = create_app().test_client().post(
        "/api/percase", data={"task": "segmentation", "files": files},
        content_type="multipart/form-data").get_json()
    assert not ans["ok"] and list(ans["errors"]) == ["files"]
    lines = ans["errors"]["files"].split("\n")
    assert lines[0] == "2 problem(s) in per-case input:"
    assert lines[1].startswith("- a.json, column 'metric_per_case[0].1': got 'no Dice value")
    assert lines[2].startswith("- b.json")


def test_api_no_files_or_one_path_as_a_string(tmp_path):
    """`read_nnunet_summaries([])` never returned (method naming looped over no paths); a
    path given as a str was read as its characters ('o: given twice')."""
    from falseclaims.percase.nnunet_layout import method_names

    assert method_names([]) == []
    with pytest.raises(ValueError, match="no nnU-Net summary files given"):
        read_nnunet_summaries([])
    a = _write(tmp_path, "A", _summary(DICE_A))
    for given in (a, tmp_path / "A" / "summary.json"):
        with pytest.raises(ValueError, match="1 summary.json given"):
            read_nnunet_summaries(given)
