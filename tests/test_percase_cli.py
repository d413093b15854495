"""`falseclaims percase`: JSON, validation errors, report, example files, browser render."""

import json
import re
import shutil
import subprocess
from pathlib import Path

import pandas as pd
import pytest

from falseclaims.cli import main
from falseclaims.config import load_config
from falseclaims.examples.percase_files import FILES, write_examples

ROOT = Path(__file__).resolve().parents[1]
EX = ROOT / "data" / "example"
SEG = EX / FILES["segmentation"]
CLS = EX / FILES["classification"]
BIN = EX / FILES["binary"]
BIN_SCORES = EX / FILES["binary_scores"]


def _run(capsys, *argv):
    code = main(["percase", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def _json(capsys, *argv):
    code, out, err = _run(capsys, *argv, "--json", "--bootstrap", "300")
    assert code == 0, err
    d = json.loads(out)  # the envelope: the result with its notes
    return {**d["result"], "notes": d["notes"]}


def test_example_files_are_reproducible(tmp_path):
    written = write_examples(load_config(), tmp_path)
    assert len(written) == 4
    for p in written:
        assert p.read_bytes() == (EX / p.name).read_bytes(), p.name


def test_segmentation_json(capsys):
    res = _json(capsys, str(SEG), "--task", "segmentation")
    for key in ("task", "n", "ranking", "a", "b", "congruence", "sd_a", "sd_b", "probability",
                "tests"):
        assert key in res
    assert res["a"] == res["ranking"][0]["method"] and res["b"] == res["ranking"][1]["method"]
    assert set(res["tests"]) == {"paired_t", "wilcoxon", "sign_test", "shapiro_wilk", "f_test",
                                 "bartlett", "levene", "pitman_morgan"}
    assert {"statistic", "pvalue"} <= set(res["tests"]["wilcoxon"])
    df = pd.read_csv(SEG)
    assert res["n"] == len(df)
    assert res["ranking"][0]["mean"] == pytest.approx(df[f"alg_{res['a']}"].mean())
    assert 0 <= res["probability"] <= 0.5


def test_classification_json_and_delong(capsys):
    res = _json(capsys, str(CLS), "--task", "classification")
    assert set(res["tests"]) == {"mcnemar_exact", "mcnemar_midp", "mcnemar_chi2", "sign_test"}
    assert res["sd_a"] is None
    res = _json(capsys, str(BIN), "--task", "classification", "--scores", str(BIN_SCORES))
    assert "delong" in res["tests"] and res["tests"]["delong"]["pvalue"] is not None


def test_all_pairs_and_seed(capsys):
    r1 = _json(capsys, str(SEG), "--task", "segmentation", "--all-pairs", "--seed", "3")
    r2 = _json(capsys, str(SEG), "--task", "segmentation", "--all-pairs", "--seed", "3")
    assert r1 == r2
    assert len(r1["all_pairs"]) == 6 and "p_wilcoxon_holm" in r1["all_pairs"][0]


def _write(tmp_path, text, name="f.csv"):
    p = tmp_path / name
    p.write_text(text)
    return str(p)


@pytest.mark.parametrize("task, text, pattern, extra", [
    ("segmentation", "case_id,alg_a,alg_b\nc1,0.8,0.7\nc1,0.9,0.8\nc3,0.7,0.6\n",
     r"each case id once", ()),
    ("segmentation", "case_id,alg_a,alg_b\nc1,0.8,0.7\nc2,,0.8\nc3,0.7,0.6\n", r"a number", ()),
    ("segmentation", "case_id,alg_a,alg_b\nc1,0.8,0.7\nc2,85,0.8\nc3,0.7,0.6\n",
     r"\[0, 1\]", ()),
    ("segmentation", "case_id,alg_a\nc1,0.8\nc2,0.9\nc3,0.7\n", r"at least 2", ()),
    ("classification", "case_id,ground_truth,alg_a,alg_b\nc1,x,x,y\nc2,y,z,y\nc3,x,x,x\n",
     r"class set", ("--classes", "x,y")),
    ("classification", "case_id,ground_truth,alg_a,alg_b\nc1,x,x,y\nc2,y,,y\nc3,x,x,x\n",
     r"predicted label", ()),
])
def test_validation_errors_exit_2(tmp_path, capsys, task, text, pattern, extra):
    code, _, err = _run(capsys, _write(tmp_path, text), "--task", task, *extra)
    assert code == 2
    assert err.startswith("falseclaims percase: error:")
    assert re.search(pattern, err), err
    assert "row" in err or "column" in err


def test_bad_arguments(tmp_path, capsys):
    code, _, err = _run(capsys, str(tmp_path / "missing.csv"), "--task", "segmentation")
    assert code == 2 and "not found" in err
    code, _, err = _run(capsys, str(SEG), "--task", "segmentation", "--bootstrap", "5")
    assert code == 2 and "--bootstrap" in err
    code, _, err = _run(capsys, str(CLS), "--task", "classification", "--scores", str(SEG))
    assert code == 2 and "scores lack" in err
    code, _, err = _run(capsys, str(SEG), "--task", "segmentation", "--report", "x.txt")
    assert code == 2 and ".html" in err


def test_long_layout(tmp_path, capsys):
    df = pd.read_csv(SEG).melt(id_vars="case_id", var_name="method", value_name="value")
    df["method"] = df["method"].str.removeprefix("alg_")
    df.insert(1, "task", "liver")
    df.insert(3, "metric", "dsc")
    p = tmp_path / "long.csv"
    df.to_csv(p, index=False)
    res_long = _json(capsys, str(p), "--task", "segmentation")
    res_wide = _json(capsys, str(SEG), "--task", "segmentation")
    assert res_long["probability"] == pytest.approx(res_wide["probability"])
    assert res_long["ranking"] == res_wide["ranking"]


@pytest.mark.parametrize("path, task", [(BIN, "classification"), (CLS, "classification"),
                                        (SEG, "segmentation")])
def test_task_read_from_the_input(capsys, path, task):
    """Without --task: 0/1 or label predictions beside a ground_truth column are
    classification (no note: nothing was assumed); scores in [0, 1] without one are
    segmentation, with a note saying so. The result equals the run with --task given."""
    inferred = _json(capsys, str(path))
    given = _json(capsys, str(path), "--task", task)
    assert inferred["task"] == task
    assert inferred["probability"] == given["probability"]
    assert inferred["ranking"] == given["ranking"]
    said = [n for n in inferred["notes"] if n.startswith("task: ")]
    if task == "segmentation":
        assert len(said) == 1 and "scores in [0, 1]" in said[0] and "--task" in said[0]
        assert inferred["notes"] == [*said, *given["notes"]]
    else:
        assert not said and inferred["notes"] == given["notes"]


def test_task_inferred_for_the_long_layout(tmp_path, capsys):
    df = pd.read_csv(SEG).melt(id_vars="case_id", var_name="method", value_name="value")
    df.insert(1, "task", "liver")
    df.insert(3, "metric", "dsc")
    df.to_csv(tmp_path / "long.csv", index=False)
    res = _json(capsys, str(tmp_path / "long.csv"))
    assert res["task"] == "segmentation" and "the value column are scores" in res["notes"][0]


@pytest.mark.parametrize("rows, why", [
    (["1,1,0", "2,0,1", "3,1,1", "4,0,0"], "hold only 0 and 1 and there is no ground_truth"),
    (["1,81,70", "2,90,71", "3,88,60", "4,70,60"], "percent? (--task segmentation --units"),
    (["1,cat,dog", "2,dog,dog", "3,cat,cat", "4,dog,cat"], "hold text (labels?)"),
    (["1,1.5,0.5", "2,0.4,0.2", "3,0.1,0.3", "4,2.0,0.6"], None),
])
def test_task_asked_for_when_the_input_does_not_tell(tmp_path, capsys, rows, why):
    """0/1 without a ground truth, percent-looking numbers, labels without a ground truth,
    and (with a ground_truth column) scores instead of labels: one line asking for --task."""
    header = "case_id,alg_a,alg_b"
    if why is None:  # scores beside a ground truth
        header, rows = "case_id,ground_truth,alg_a,alg_b", [
            f"{r.split(',')[0]},1,{','.join(r.split(',')[1:])}" for r in rows]
        why = "hold scores such as 1.5, not predicted labels"
    p = tmp_path / "x.csv"
    p.write_text("\n".join([header, *rows]) + "\n")
    code, _, err = _run(capsys, str(p))
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert f"{p}: cannot tell the task" in err and why in err and "give --task" in err


def _report(tmp_path, capsys, *argv):
    path = tmp_path / "report.html"
    code, out, err = _run(capsys, *argv, "--bootstrap", "300", "--report", str(path))
    assert code == 0, err
    return path


def test_report_names_the_input_in_words(tmp_path, capsys):
    """The report's inputs say how the file was read in words, not as an option value
    ("layout claims_reloaded"), and leave out the structure name a one-structure file
    does not have; a long file with named structures keeps it."""
    from falseclaims.percase.layouts import LAYOUT_WORDS

    html = _report(tmp_path, capsys, str(SEG), "--task", "segmentation").read_text()
    inputs = html.split("Inputs", 1)[1].split("Ranking", 1)[0]
    assert "claims_reloaded" not in inputs and ">layout<" not in inputs
    assert "one column per method (case_id, alg_&lt;method&gt;)" in inputs
    assert "structure" not in inputs
    df = pd.read_csv(SEG).melt(id_vars="case_id", var_name="method", value_name="value")
    df.insert(1, "task", "liver")
    df.insert(3, "metric", "dsc")
    df.to_csv(tmp_path / "long.csv", index=False)
    html = _report(tmp_path, capsys, str(tmp_path / "long.csv")).read_text()
    inputs = html.split("Inputs", 1)[1].split("Ranking", 1)[0]
    assert "one row per case and method" in inputs and "liver" in inputs
    assert set(LAYOUT_WORDS) == {"long", "claims_reloaded", "wide_per_method", "predictions",
                                 "nnunet"}


def test_report_self_contained(tmp_path, capsys):
    path = _report(tmp_path, capsys, str(SEG), "--task", "segmentation", "--all-pairs")
    html = path.read_text()
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", html)
    # 3 figures of the pair + the critical-difference diagram of the 4 methods
    assert html.count("data:image/png;base64,") == 4
    for text in ("Ranking", "Classical paired tests", "Wilcoxon signed-rank", "All pairs",
                 'id="verdict"', "Iman–Davenport", "Pitman–Morgan"):
        assert text in html
    # human labels, not identifiers; counts as integers
    for raw in ("pitman_morgan", "mcnemar_exact", "congruence_used", "p_wilcoxon", ".0000<"):
        assert raw not in html, raw
    path = _report(tmp_path, capsys, str(BIN), "--task", "classification", "--scores",
                   str(BIN_SCORES))
    html = path.read_text()
    assert "DeLong (AUC)" in html and "Agreement" not in html.split("<h2>Figures")[0][-10:]
    assert html.count("data:image/png;base64,") == 3  # 2 methods: no omnibus test
    assert "McNemar, sensitivity (among positives)" in html
    assert "[DeLong1988]" in html and "[Demsar2006]" not in html  # cites what ran


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(CHROMIUM is None, reason="chromium not installed")
def test_report_renders_in_headless_chromium(tmp_path, capsys):
    path = _report(tmp_path, capsys, str(CLS), "--task", "classification")
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
    dom = subprocess.run([CHROMIUM, *flags, "--dump-dom", path.as_uri()], capture_output=True,
                         text=True, timeout=120).stdout
    assert "Probability of a false claim" in dom
    assert re.search(r"Robust claim|Not robust|Weak claim", dom)
    assert dom.count("<img") == 4  # 3 figures of the pair + the critical-difference diagram
    png = tmp_path / "shot.png"
    subprocess.run([CHROMIUM, *flags, "--hide-scrollbars", "--window-size=1100,2400",
                    f"--screenshot={png}", path.as_uri()], capture_output=True, timeout=120)
    assert png.is_file() and png.stat().st_size > 50_000  # figures drawn, not a blank page


def test_case_mismatch_checked_only_in_the_requested_subtask(tmp_path, capsys):
    """One file per method (Touchstone layout): B lacks case c6 for the liver only. With
    --subtask spleen the liver is not compared, so it runs; with --subtask liver the one
    problem names the task and the --case-mismatch intersect fix."""
    a = tmp_path / "A.csv"
    b = tmp_path / "B.csv"
    a.write_text("name,liver,spleen\nc1,0.91,0.80\nc2,0.85,0.77\nc3,0.88,0.69\n"
                 "c4,0.93,0.84\nc5,0.79,0.73\nc6,0.90,0.81\n")
    b.write_text("name,liver,spleen\nc1,0.86,0.78\nc2,0.84,0.70\nc3,0.81,0.71\n"
                 "c4,0.92,0.79\nc5,0.80,0.66\nc6,,0.80\n")
    res = _json(capsys, str(a), str(b), "--task", "segmentation", "--subtask", "spleen")
    assert res["n"] == 6
    code, _, err = _run(capsys, str(a), str(b), "--task", "segmentation", "--subtask", "liver")
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert "task 'liver'" in err and "spleen" not in err, err
    assert "--case-mismatch intersect" in err, err
    res = _json(capsys, str(a), str(b), "--task", "segmentation", "--subtask", "liver",
                "--case-mismatch", "intersect")
    assert res["n"] == 5


WIDTH_PROBE = """<script>window.addEventListener('load', () => {
  const over = [...document.querySelectorAll('table, figure, p, li')]
    .filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1);
  document.body.setAttribute('data-overflow', String(over.length));
  document.body.setAttribute('data-scroll', String(document.documentElement.scrollWidth));
});</script></body>"""


@pytest.mark.skipif(CHROMIUM is None, reason="chromium not installed")
@pytest.mark.parametrize("argv", [
    (str(SEG), "--task", "segmentation", "--all-pairs"),
    (str(BIN), "--task", "classification", "--scores", str(BIN_SCORES), "--all-pairs"),
])
def test_report_fits_a_1000px_window(tmp_path, capsys, argv):
    """Every table, figure and paragraph of the report lies within a 1000 px wide window
    (measured by the browser after layout), and the page does not scroll sideways."""
    path = _report(tmp_path, capsys, *argv)
    probe = tmp_path / "probe.html"
    probe.write_text(path.read_text().replace("</body>", WIDTH_PROBE), encoding="utf-8")
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
             "--window-size=1000,1400"]
    dom = subprocess.run([CHROMIUM, *flags, "--dump-dom", probe.as_uri()],
                         capture_output=True, text=True, timeout=120).stdout
    m = re.search(r'data-overflow="(\d+)" data-scroll="(\d+)"', dom)
    assert m, dom[:300]
    assert m.group(1) == "0" and int(m.group(2)) <= 1000, m.groups()
