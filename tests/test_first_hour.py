"""A new user's first hour: what the help and the README tell them to type works as written.

Each test here failed before its fix: a help example naming a venue that does not exist,
`sheet check` reading a config's sheet paths from another folder than the pipeline does,
a refusal that did not say how to check a venue of one's own config, and a top-level help
that showed no example of two of its commands."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from falseclaims.cli import build_parser
from falseclaims.cli.conventions import EPILOGS
from cli_runs import one_line_error, run_cli

ROOT = Path(__file__).resolve().parents[1]
# options whose value is a file the command writes: redirected into the test's folder
OUTPUTS = ("--report", "--write", "--html", "--csv", "--figure")
FILE_SUFFIXES = (".csv", ".tsv", ".xlsx", ".tex", ".md", ".yaml", ".json", ".html")

# a venue as a user fills it by hand: two tasks, one paper evaluated by cross-validation only
USER_SHEET = """Paper,Task,Metric,Test cases,Ours,Best baseline,Data split
P01,classification,Accuracy,500,0.912,0.903,train/test
P02,classification,Accuracy,1200,0.874,0.861,train/test
P03,segmentation,Dice,40,0.951,0.946,train/test
P04,segmentation,Dice,125,0.887,0.871,train/test
P05,segmentation,Dice,60,0.940,0.938,cv_only
"""
USER_VENUE = {"label": "My venue", "papers": "data/myvenue/sheet.csv",
              "layout": "wide_top2", "units": "fraction",
              "columns": {"wide": {"Paper": "paper_id", "Task": "task", "Metric": "metric",
                                   "Test cases": "n_test", "Ours": "value_proposed",
                                   "Best baseline": "value_best_prior",
                                   "Data split": "split"}},
              "constants": {"in_scope": True, "values_only_in_figures": False}}


def _examples() -> list[tuple[str, str]]:
    return [(name, line.strip()) for name, text in EPILOGS.items()
            for line in text.splitlines() if line.strip().startswith("falseclaims ")]


def _shipped_examples() -> list[tuple[str, str]]:
    return [(name, line) for name, line in _examples()
            if _runnable(line, Path("out")) is not None]


def _runnable(line: str, out_dir: Path) -> list[str] | None:
    """The example's arguments with its output files in ``out_dir``; None when it names an
    input file the checkout does not ship (results.csv, survey.xlsx: placeholders)."""
    argv = shlex.split(line.split("  (")[0])[1:]
    if argv[:1] == ["serve"]:
        return None  # runs until Ctrl-C; its help and refusals are tested in test_web
    for k, token in enumerate(argv):
        if k and argv[k - 1] in OUTPUTS:
            argv[k] = str(out_dir / Path(token).name)
        elif token.endswith(FILE_SUFFIXES) or token.endswith("/"):
            if not (ROOT / token).exists():
                return None
    return argv


def test_examples_on_the_user_s_own_files_are_told_apart():
    """The placeholders (results.csv, survey.xlsx, serve) are the ones left out above."""
    left_out = {line for _, line in _examples()} - {line for _, line in _shipped_examples()}
    assert "falseclaims serve" in left_out
    assert any("results.csv" in line for line in left_out)
    assert not any("data/example/" in line for line in left_out)


@pytest.mark.parametrize("where, line", _shipped_examples(), ids=lambda v: v)
def test_every_help_example_on_shipped_files_runs(where, line, capsys, monkeypatch,
                                                  tmp_path):
    """Was: `falseclaims sheet --help` showed `sheet check --venue miccai2023`, a venue no
    config defines (the example venue is miccai2023_synthetic): exit 2 for the first
    command a meta-researcher copies."""
    argv = _runnable(line, tmp_path)
    monkeypatch.chdir(ROOT)
    monkeypatch.delenv("FALSECLAIMS_CONFIG", raising=False)
    code, out = run_cli(capsys, argv)
    assert code == 0, f"{where} --help example `{line}` exited {code}: {out.err.strip()}"


def test_top_level_help_shows_every_command():
    """Was: bare `falseclaims` listed seven commands but showed no example of `table` or
    `serve`, the two a reader of a results table reaches for first."""
    parser = build_parser()
    commands = next(a for a in parser._actions if a.dest == "verb").choices
    shown = {shlex.split(line)[1] for name, line in _examples() if name == "falseclaims"}
    assert set(commands) <= shown, sorted(set(commands) - shown)


def _user_project(root: Path) -> Path:
    """A project folder as README "Your own sheet" sets it up, the config kept in a folder
    of its own (configs/) with the sheet path relative to the project folder, as
    `snakemake --configfile configs/myvenue.yaml` reads it."""
    (root / "data" / "myvenue").mkdir(parents=True)
    (root / "data" / "myvenue" / "sheet.csv").write_text(USER_SHEET)
    (root / "configs").mkdir()
    config = root / "configs" / "myvenue.yaml"
    config.write_text(yaml.safe_dump({"run_venues": ["myvenue"],
                                      "venues": {"myvenue": USER_VENUE}}))
    return config


def test_sheet_check_reads_sheet_paths_as_the_pipeline_does(capsys, monkeypatch,
                                                            tmp_path):
    """Was: `sheet check --config configs/myvenue.yaml` looked for the sheet in configs/
    (the config file's folder) while the pipeline, run with the same file in the same
    folder, reads it from the working directory: the check said 'not found' for a venue
    that runs."""
    config = _user_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("FALSECLAIMS_CONFIG", raising=False)
    code, out = run_cli(capsys, ["sheet", "check", "--venue", "myvenue",
                                 "--config", str(config.relative_to(tmp_path))])
    assert code == 0, out.out + out.err
    assert "venue 'myvenue': OK, 5 papers, 10 results rows" in out.out


def test_sheet_check_from_another_folder_names_the_path_to_write(
        capsys, monkeypatch, tmp_path):
    """One rule, the pipeline's: relative paths from the working directory. A config beside
    its data, checked from elsewhere, is refused as the pipeline would refuse it, with the
    path that works from here (was: read from the config's folder, so the check passed a
    config the pipeline stops on)."""
    project = tmp_path / "project"
    project.mkdir()
    _user_project(project)
    config = project / "myvenue.yaml"
    (project / "configs" / "myvenue.yaml").rename(config)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    code, out = run_cli(capsys, ["sheet", "check", "--venue", "myvenue",
                                 "--config", str(config)])
    assert code == 2, out.out + out.err
    assert ("papers: no such file data/myvenue/sheet.csv (paths are relative to the working "
            f"directory {elsewhere}); it exists relative to {project} (the config file's "
            "folder): write papers: ../project/data/myvenue/sheet.csv") in out.err, out.err


def test_unknown_venue_says_how_to_check_a_venue_of_one_s_own(capsys, monkeypatch):
    """Was: the front page of a `snakemake --configfile myvenue.yaml` run says to run
    `falseclaims sheet check --venue myvenue`; in the checkout that reads config/config.yaml
    and answered only "not in the config's venues: miccai2023_synthetic, ...", without the
    --config that finds it."""
    monkeypatch.chdir(ROOT)
    monkeypatch.delenv("FALSECLAIMS_CONFIG", raising=False)
    err = one_line_error(capsys, ["sheet", "check", "--venue", "myvenue"])
    assert "config/config.yaml" in err and "miccai2023_synthetic" in err
    assert "--config FILE" in err and "--configfile" in err


def test_readme_columns_example_runs_on_a_file_with_those_columns(capsys, monkeypatch,
                                                                 tmp_path):
    """Was: README's `--columns case_id=ID,ground_truth=label,alg_a=pred_A` named one
    method; an author whose file holds exactly the columns it names was told 'expected at
    least 2 method columns named alg_<name>'."""
    readme = (ROOT / "README.md").read_text()
    mapping = re.search(r"`--columns ([^`]+)`", readme).group(1)
    pairs = dict(part.split("=") for part in mapping.split(","))
    header = [pairs["case_id"], pairs["ground_truth"],
              *(theirs for role, theirs in pairs.items() if role.startswith("alg_"))]
    # hand-made labels: A right on 9 of 10 cases, B on 7 (both wrong on case 10)
    truth = [1, 0, 1, 1, 0, 0, 1, 0, 1, 1]
    right_a = [1] * 9 + [0]
    right_b = [1, 1, 1, 0, 1, 1, 0, 1, 1, 0]
    rows = [[f"c{k}", t, *(t if r else 1 - t for r in rights)]
            for k, (t, *rights) in enumerate(zip(truth, right_a, right_b))]
    if len(header) == 3:  # the one-method example: the file holds only what it names
        rows = [row[:3] for row in rows]
    (tmp_path / "mine.csv").write_text("\n".join(",".join(map(str, r))
                                                 for r in [header, *rows]) + "\n")
    monkeypatch.chdir(tmp_path)
    code, out = run_cli(capsys, ["percase", "mine.csv", "--columns", mapping, "--json"])
    assert code == 0, out.err
    result = json.loads(out.out)["result"]
    assert (result["n"], result["mean_a"], result["mean_b"]) == (10, 0.9, 0.7)
    # discordant cases: only A right 2, only B right 0; P = I_1/2(2 + 1, 0 + 1) = (1/2)^3
    assert (result["only_a"], result["only_b"]) == (2, 0)
    assert result["probability"] == pytest.approx(0.5 ** 3, abs=1e-12)
    assert result["verdict"] == "Not robust"


def test_readme_hand_written_venue_block_runs(capsys, monkeypatch, tmp_path):
    """Was: the block README offers for writing a venue by hand had no `in_scope`; on a
    sheet with the columns it describes every paper was excluded as out of scope
    ('in_scope not recorded'), and `sheet check` exited 1: no paper analysed."""
    openpyxl = pytest.importorskip("openpyxl")
    readme = (ROOT / "README.md").read_text()
    block = re.search(r"written by hand under `venues:`.*?```yaml\n(.*?)```", readme,
                      re.S).group(1)
    venues = yaml.safe_load(block)["venues"]
    (name, venue), = venues.items()
    book = openpyxl.Workbook()
    papers = book.active
    papers.title = venue["papers_sheet"]
    for row in (["Paper ID", "task", "N test", "split"],
                ["L1", "classification", 400, "train/test"],
                ["L2", "segmentation", 50, "train/test"]):
        papers.append(row)
    results = book.create_sheet(venue["results_sheet"])
    for row in (["paper_id", "method", "metric", "value"],
                ["L1", "Ours", "accuracy", 88.1], ["L1", "ResNet", "accuracy", 87.2],
                ["L2", "Ours", "dsc", 86.0], ["L2", "UNet", "dsc", 85.1]):
        results.append(row)
    (tmp_path / venue["papers"]).parent.mkdir(parents=True)
    book.save(tmp_path / venue["papers"])
    (tmp_path / "mine.yaml").write_text(yaml.safe_dump({"venues": venues}))
    monkeypatch.chdir(tmp_path)
    code, out = run_cli(capsys, ["sheet", "check", "--venue", name, "--config", "mine.yaml",
                                 "--json"])
    answer = json.loads(out.out)["result"]
    assert code == 0, answer
    assert (answer["papers"], answer["results"], answer["implausible"]) == (2, 4, [])


@pytest.mark.parametrize("made_before", [False, True])
def test_readme_names_the_error_of_a_target_after_configfile(made_before, tmp_path):
    """README, "Your own sheet": a target after `--configfile` is read as one more config
    file. Was: it named one error only (FileNotFoundError); a user who had run the venue
    before, so that the target exists, got another (WorkflowError: Config file must be
    given as JSON or YAML), which the README did not name."""
    exe = shutil.which("snakemake") or pytest.skip("snakemake is not installed")
    target = tmp_path / "results" / "myvenue" / "summary.csv"
    if made_before:
        target.parent.mkdir(parents=True)
        target.write_text("venue,task\nmyvenue,classification\n")
    (tmp_path / "myvenue.yaml").write_text("run_venues: [myvenue]\n")
    run = subprocess.run([exe, "-n", "-s", str(ROOT / "Snakefile"), "--configfile",
                          "myvenue.yaml", "results/myvenue/summary.csv"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=300,
                         env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    assert run.returncode != 0, run.stdout
    said = ("Config file must be given as JSON or YAML with keys at top level" if made_before
            else "FileNotFoundError")
    assert said in run.stdout + run.stderr
    readme = " ".join((ROOT / "README.md").read_text().split())
    assert said in readme


def _snakemake_dry_run(folder: Path) -> subprocess.CompletedProcess:
    exe = shutil.which("snakemake") or pytest.skip("snakemake is not installed")
    return subprocess.run([exe, "-n", "-s", str(ROOT / "Snakefile")], cwd=folder,
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(ROOT / "src")})


def test_readme_project_folder_of_one_s_own(tmp_path):
    """README, "Where to run it": a project folder of one's own. Was: "config/config.yaml
    and your data in it"; a config holding only the venue (what `sheet inspect --write`
    drafts) is refused key by key, and without data/external/ the estimation data are
    missing. The recipe it now gives (a copy of the config with the venue added, and
    data/external/) plans a run."""
    _user_project(tmp_path)
    (tmp_path / "config").mkdir()
    mine = yaml.safe_load((tmp_path / "configs" / "myvenue.yaml").read_text())
    (tmp_path / "config" / "config.yaml").write_text(yaml.safe_dump(mine))
    run = _snakemake_dry_run(tmp_path)
    assert run.returncode != 0 and "missing key 'seed'" in run.stdout + run.stderr
    config = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())
    config["venues"]["myvenue"] = USER_VENUE
    config["run_venues"] = ["myvenue"]
    (tmp_path / "config" / "config.yaml").write_text(yaml.safe_dump(config))
    run = _snakemake_dry_run(tmp_path)
    assert run.returncode != 0 and "data/external/" in run.stdout + run.stderr
    (tmp_path / "data" / "external").symlink_to(ROOT / "data" / "external")
    run = _snakemake_dry_run(tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "validate_sheets" in run.stdout + run.stderr


# the inputs behind each refusal docs/web.md quotes, typed into the check page
WEB_REFUSALS = {"argument --n: expected a whole number, got 'abc'":
                ("n", {"task": "cls", "n": "abc", "a": "0.86", "b": "0.85"}),
                "argument --n: 10.000 is ambiguous: write 10000 or 10":
                ("n", {"task": "cls", "n": "10.000", "a": "0.86", "b": "0.85"}),
                "--sd-a 8 looks like a percentage; give a fraction in [0, 1], e.g. 0.08":
                ("sd_a", {"task": "seg", "n": "50", "a": "0.85", "b": "0.84", "sd_a": "8",
                          "sd_b": "0.09", "units": "fraction"})}


def test_web_doc_quotes_the_refusals_the_page_gives():
    """Was: docs/web.md quoted `A is the reported winner: --a (0.8) must be >= --b (0.85);
    swap them` as a refusal; the page (as the command) answers such a pair with the
    verdict `B leads` instead."""
    pytest.importorskip("flask", reason="the 'web' extra (flask) is not installed")
    from falseclaims.web import create_app

    page = create_app().test_client()
    text = " ".join((ROOT / "docs" / "web.md").read_text().split())
    section = text.split("## Refusals", 1)[1].split("##", 1)[0]
    quoted = [q for q in re.findall(r"`([^`]+)`", section) if " " in q and "--" in q
              and not q.startswith("falseclaims")]
    assert quoted and set(quoted) <= set(WEB_REFUSALS), quoted
    for message, (field, inputs) in WEB_REFUSALS.items():
        answer = page.get("/api/check", query_string=inputs).get_json()
        assert answer["errors"] == {field: message}
    answer = page.get("/api/check", query_string={"task": "cls", "n": "500", "a": "0.8",
                                                  "b": "0.85"}).get_json()
    assert answer["ok"] and answer["envelope"]["result"]["verdict"] == "B leads"


def test_sheet_check_counts_notes_as_the_pipeline_log_does(capsys, monkeypatch, tmp_path):
    """Was: `sheet check` said '17 notes' where the pipeline's log of the same sheet says
    '5 notes change results, 12 informational': one count, two wordings."""
    from falseclaims.sheets import read_venue
    from falseclaims.sheets.read.reader import digest

    config = _user_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    code, out = run_cli(capsys, ["sheet", "check", "--venue", "myvenue", "--config",
                                 str(config)])
    assert code == 0, out.err
    s = read_venue(USER_VENUE, venue="myvenue")
    logged = re.search(r"\d+ notes change results, \d+ informational",
                       digest("myvenue", s.papers, s.results, s.notes)).group(0)
    assert f"10 results rows; {logged}" in out.out
