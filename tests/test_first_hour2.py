"""First hour, second walk: users the first walk did not play.

A reviewer pasting numbers copied from a PDF (a minus sign U+2212, sizes with thin spaces
between digit groups, a ligature in a word, a value with its spread), a meta-researcher
running two venues of their own side by side, and a user without a checkout. Each test
failed before its fix."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from cli_runs import one_line_error, run_cli

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
CHECK = ["check", "--task", "cls", "--a", "0.87", "--b", "0.86", "--json"]


def _envelope(capsys, argv) -> dict:
    code, out = run_cli(capsys, argv)
    assert code == 0, out.err
    return json.loads(out.out)


def _median(envelope: dict) -> float:
    return next(r["probability"] for r in envelope["result"]["results"]
                if r["assumption"] == "median")


# ------------------------------------------------------------ numbers copied from a PDF
@pytest.mark.parametrize("size", ["1\u2009024", "1\u202f024", "1\u00a0024", "1 024",
                                  "1,024", "1'024", "1.024"])
def test_a_size_with_its_digits_grouped_as_printed_is_that_size(capsys, size):
    # was: "argument --n: expected a whole number, got '1 024'" for a size copied from a
    # paper's table or caption, which `falseclaims table` reads as 1024
    given = _envelope(capsys, [*CHECK, "--n", size])
    plain = _envelope(capsys, [*CHECK, "--n", "1024"])
    assert given["inputs"]["n"] == 1024
    assert _median(given) == _median(plain)


@pytest.mark.parametrize("size, whole", [("10,000", 10), ("10.000", 10), ("2,000", 2)])
def test_a_size_with_one_group_of_zeros_is_still_ambiguous(capsys, size, whole):
    # 10,000 is also 10 written with a decimal comma: refused as 10.000 already was
    # (was: "expected a whole number, got '10,000'", which did not say why)
    err = one_line_error(capsys, [*CHECK, "--n", size])
    assert f"argument --n: {size} is ambiguous: write {whole * 1000} or {whole}" in err


def test_a_pearson_r_with_a_minus_sign_from_a_pdf_is_negative(capsys):
    # was: "argument --congruence: expected a number, got '−0.2'" (U+2212, as PDFs print
    # a minus)
    argv = ["check", "--task", "seg", "--n", "40", "--a", "0.90", "--b", "0.88", "--json"]
    pdf = _envelope(capsys, [*argv, "--congruence", "\u22120.2"])
    typed = _envelope(capsys, [*argv, "--congruence", "-0.2"])
    assert pdf["inputs"]["congruence"] == -0.2
    assert pdf["result"] == typed["result"]


@pytest.mark.parametrize("value, give", [("0.85 \u00b1 0.09", "0.85"),
                                         ("85.2 \u00b1 4.1 %", "0.852"),
                                         ("85.2% \u00b1 4.1%", "0.852"),
                                         ("0.85+/-0.09", "0.85")])
def test_a_value_with_its_spread_asks_for_the_value_alone(capsys, value, give):
    # was: "expected a number, got '0.85 ± 0.09'", not saying which part to give or where
    # the SD goes
    err = one_line_error(capsys, ["check", "--task", "seg", "--n", "62", "--a", value,
                                  "--b", "0.84"])
    assert f"argument --a: got {value!r}, a value with its spread" in err
    assert f"give the value alone: --a {give}" in err and "--sd-a" in err
    # control: the value it names is accepted (a fraction, as --a expects)
    code, _ = run_cli(capsys, ["check", "--task", "seg", "--n", "62", "--a", give,
                               "--b", "0.84"])
    assert code == 0


def test_a_task_word_with_a_ligature_is_the_task(capsys):
    # 'classiﬁcation' copied from a PDF holds the ligature ﬁ (U+FB01); was refused with
    # "did you mean 'classification'?"
    given = _envelope(capsys, [*CHECK[:2], "classi\ufb01cation", *CHECK[3:], "--n", "500"])
    assert given["inputs"]["task"] == "classification"


def test_the_web_page_reads_a_size_copied_from_a_pdf():
    # the page passes n to the command: it answers as for 1024 (was: the field refused)
    pytest.importorskip("flask", reason="the 'web' extra (flask) is not installed")
    from falseclaims.web import create_app

    page = create_app().test_client()
    answers = [page.get("/api/check", query_string={"task": "cls", "n": n, "a": "0.87",
                                                    "b": "0.86"}).get_json()
               for n in ("1\u2009024", "1024")]
    assert all(a["ok"] for a in answers), answers
    assert answers[0]["envelope"]["result"] == answers[1]["envelope"]["result"]


def test_the_closed_form_agrees_at_a_grouped_size(capsys):
    # independent check of the number the grouped size gives: classification at Q3
    # congruence 0.83 (feasible for 0.87 / 0.86), x1 = n (a - c), x2 = n (b - c),
    # P = I_1/2(x2 + 1, x1 + 1) (docs/method.md)
    from scipy.special import betainc

    given = _envelope(capsys, [*CHECK, "--n", "1\u2009024"])
    q3 = next(r for r in given["result"]["results"] if r["assumption"] == "q3")
    x1, x2 = 1024 * (0.87 - 0.83), 1024 * (0.86 - 0.83)
    assert q3["probability"] == pytest.approx(betainc(x1 + 1, x2 + 1, 0.5), rel=1e-6)


# ------------------------------------------------------- two venues of one's own
def _readme_block_after(marker: str) -> list[str]:
    text = README.split(marker, 1)[1]
    block = text.split("```console", 1)[1].split("```", 1)[0]
    return [line[2:] for line in block.strip().splitlines() if line.startswith("$ ")]


def _two_drafted_venues(folder: Path, capsys) -> None:
    """A project folder of one's own (README, "Where to run it") with two venues drafted by
    `sheet inspect --write`: a `;` CSV with decimal commas in Windows-1252, as a German
    Excel exports it, and a workbook whose table is on its second sheet."""
    openpyxl = pytest.importorskip("openpyxl")
    (folder / "config").mkdir()
    shutil.copy(ROOT / "config" / "config.yaml", folder / "config" / "config.yaml")
    (folder / "data").mkdir()
    (folder / "data" / "external").symlink_to(ROOT / "data" / "external")
    (folder / "data" / "venue1.csv").write_bytes(
        "Paper;Title;Task;Test cases;Ours (%);Best prior (%);Split\n"
        "P1;\u00dcbersicht 1;classification;500;91,2;90,3;train/test\n"
        "P2;\u00dcbersicht 2;segmentation;60;85,1;84,0;train/test\n".encode("cp1252"))
    book = openpyxl.Workbook()
    book.active.title = "Notes"
    book.active.append(["Extraction of venue 2, data on the next sheet"])
    sheet = book.create_sheet("Extraction")
    for row in (["Paper", "Task", "Test cases", "Ours", "Best prior", "Split"],
                ["Q1", "classification", 800, 0.88, 0.87, "train/test"],
                ["Q2", "segmentation", 40, 0.91, 0.90, "train/test"]):
        sheet.append(row)
    book.save(folder / "data" / "venue2.xlsx")
    for name, argv in (("venue1", ["data/venue1.csv"]),
                       ("venue2", ["data/venue2.xlsx", "--sheet", "Extraction"])):
        code, out = run_cli(capsys, ["sheet", "inspect", *argv, "--venue", name,
                                     "--write", f"{name}.yaml"])
        assert code == 0, out.err
        draft = yaml.safe_load((folder / f"{name}.yaml").read_text())
        assert draft["run_venues"] == [name]
    assert draft["venues"]["venue2"]["papers_sheet"] == "Extraction"


def _dry_run(folder: Path, argv: list[str]) -> subprocess.CompletedProcess:
    exe = shutil.which("snakemake") or pytest.skip("snakemake is not installed")
    return subprocess.run([exe, "-n", "-s", str(ROOT / "Snakefile"), *argv], cwd=folder,
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(ROOT / "src")})


def test_readme_two_venues_recipe_runs(tmp_path, capsys, monkeypatch):
    """Was: README said "Several venues in one run also give comparison outputs" and no
    more; each draft names only its own venue in `run_venues`, and a report command with
    `--configfile a --configfile b` reads b only (Snakemake 9). The README's two commands
    plan the run of both venues and the comparison."""
    commands = _readme_block_after("**Two venues of your own, side by side**")
    assert len(commands) == 2 and all(c.startswith("snakemake ") for c in commands)
    monkeypatch.chdir(tmp_path)
    _two_drafted_venues(tmp_path, capsys)
    run = _dry_run(tmp_path, shlex.split(commands[0])[1:])
    assert run.returncode == 0, (run.stdout + run.stderr)[-2000:]
    assert "venue_comparison" in run.stdout + run.stderr
    report = [a for a in shlex.split(commands[1])[1:] if a != "--report"
              and not a.endswith(".html")]
    assert report == [a for a in shlex.split(commands[0])[1:] if a != "--cores"
                      and not a.isdigit()]  # the report reads the run's config
    # control: the repeated option the README warns of reads the second file only
    twice = _dry_run(tmp_path, ["--configfile", "venue1.yaml", "--configfile", "venue2.yaml",
                                "--config", 'run_venues=["venue1","venue2"]'])
    assert twice.returncode != 0
    assert "names 'venue1', which is not a key of venues" in twice.stdout + twice.stderr


def test_readme_names_the_second_sheet_and_the_package_examples():
    """Was: README said nothing of a workbook whose table is not on its first sheet (the
    draft of its notes sheet is a 3-paper design-only venue), nor where a user without a
    checkout finds the example files every command's example names."""
    text = " ".join(README.split())
    assert "`--sheet Extraction`" in text
    assert "python -m falseclaims.examples.percase_files --out data/example" in text
    # the report's pygments now comes with the package (snakemake[reports]): no workaround
    assert "pygments must be installed" not in text


def test_the_package_examples_command_writes_what_readme_names(tmp_path, capsys, monkeypatch):
    # control of the sentence above, without a checkout: the command writes the file the
    # README's percase example names, and that example then runs as written
    run = subprocess.run([sys.executable, "-m", "falseclaims.examples.percase_files",
                          "--out", "data/example"], cwd=tmp_path, capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "`data/example/percase_segmentation_synthetic.csv`" in README
    example = next(line[2:] for line in README.splitlines()
                   if line.startswith("$ falseclaims percase data/example/"))
    monkeypatch.chdir(tmp_path)
    code, out = run_cli(capsys, shlex.split(example)[1:])
    assert code == 0, out.err
    assert (tmp_path / "report_percase.html").is_file()
    # the sheet example: written by its generator, byte for byte the checkout's file
    sheet = "data/example/venue_c_synthetic_messy.xlsx"
    assert f"python -m falseclaims.examples.venue_c --out {sheet}" in " ".join(README.split())
    run = subprocess.run([sys.executable, "-m", "falseclaims.examples.venue_c", "--out", sheet],
                         cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert (tmp_path / sheet).read_bytes() == (ROOT / sheet).read_bytes()


# ------------------------------------------------------------ without the web extra
def test_serve_without_flask_names_what_to_install(capsys, monkeypatch):
    """Was: "pip install 'falseclaims[web]'", which asks a package index for a distribution
    named falseclaims, not the checkout a user installed from (`pip install /path/clone`)."""
    monkeypatch.setitem(sys.modules, "flask", None)  # as if flask were not installed
    for name in [m for m in sys.modules if m == "falseclaims.web" or
                 m.startswith("falseclaims.web.")]:
        monkeypatch.delitem(sys.modules, name)
    err = one_line_error(capsys, ["serve"])
    assert ("the web page needs the 'web' extra (flask is missing): pip install flask "
            "(in the checkout: pip install -e '.[web]')") in err
    assert "falseclaims[web]" not in err


# ------------------------------------------------------------ a planner's level names
@pytest.mark.parametrize("argv", [
    ["plan", "--task", "cls", "--delta", "0.005", "--level", "0.85"],
    ["check", "--task", "seg", "--n", "40", "--a", "0.90", "--b", "0.88"],
])
@pytest.mark.parametrize("level", ["median", "Q3"])
def test_a_congruence_level_name_says_every_level_is_shown(capsys, argv, level):
    # falseclaims.probability takes congruence="q3" (docs/api.md); the commands said only
    # "expected a number, got 'median'" to a planner asking for each level
    err = one_line_error(capsys, [*argv, "--congruence", level])
    assert (f"argument --congruence: expected a number, got {level!r}: without --congruence "
            "every level is shown (Q1, median, Q3)") in err
    # control: without the option, the three levels are there
    code, out = run_cli(capsys, [*argv, "--json"])
    levels = [r.get("assumption", r.get("congruence_level"))
              for r in json.loads(out.out)["result"]["results"]]
    assert code == 0 and levels == ["q1", "median", "q3"]
    # a word that is no level keeps the plain refusal
    assert "every level" not in one_line_error(capsys, [*argv, "--congruence", "high"])


def test_the_plan_page_says_the_same_of_a_level_name():
    pytest.importorskip("flask", reason="the 'web' extra (flask) is not installed")
    from falseclaims.web import create_app

    answer = create_app().test_client().get("/api/plan", query_string={
        "task": "cls", "delta": "0.005", "level": "0.85", "congruence": "median"}).get_json()
    assert not answer["ok"]
    assert answer["errors"]["congruence"].startswith(
        "argument --congruence: expected a number, got 'median': without --congruence every "
        "level is shown")
