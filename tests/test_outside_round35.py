"""The pipeline and the package used from outside the project folder, the way users do: the
pipeline started in another folder, a project folder of one's own, a pipe or a device given
as config, schema errors read by someone who does not read regular expressions. Each test
fails on the code before the fix."""

import copy
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from falseclaims.cli import main
from falseclaims.config import check_config_files, load_config
from falseclaims.config_validation import SCHEMA_DIR, ConfigError, config_problems, schema_path

REPO = Path(__file__).resolve().parents[1]
SHEET_SCHEMAS = {"papers.schema.yaml", "results.schema.yaml"}  # sheets' rows, not the config


def _snakemake(cwd, *args, timeout=600):
    """Snakemake with this checkout's Snakefile and package, started in ``cwd``."""
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    return subprocess.run([sys.executable, "-m", "snakemake", "-s", str(REPO / "Snakefile"),
                           *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)


def _repo_config() -> dict:
    return yaml.safe_load((REPO / "config" / "config.yaml").read_text(encoding="utf-8"))


def _project(tmp_path, cfg: dict, data: str = "link") -> Path:
    """A project folder of one's own: config/config.yaml and data/ (a link to the repo's)."""
    proj = tmp_path / "proj"
    (proj / "config").mkdir(parents=True)
    (proj / "config" / "config.yaml").write_text(yaml.safe_dump(cfg, sort_keys=False),
                                                 encoding="utf-8")
    if data == "link":
        (proj / "data").symlink_to(REPO / "data", target_is_directory=True)
    return proj


# ------------------------------------------------------------------ pipeline: where it runs
@pytest.mark.parametrize("how", ["cd elsewhere", "--directory elsewhere"])
def test_pipeline_started_outside_the_project_folder_says_where_to_run(tmp_path, how):
    # was: InputFunctionException with a Python traceback (data/external/... looked up in
    # the other folder)
    args = ["--configfile", str(REPO / "config" / "config.yaml"), "-n"]
    if how.startswith("--directory"):
        (tmp_path / "x").mkdir()
        args += ["--directory", str(tmp_path / "x")]
    res = _snakemake(tmp_path, *args)
    out = res.stdout + res.stderr
    assert res.returncode != 0
    assert "Traceback" not in out and "InputFunctionException" not in out, out
    errors = [line for line in out.splitlines() if line.startswith("ERROR")]
    assert errors == [f"ERROR: no config/config.yaml in the working directory "
                      f"{tmp_path / 'x' if 'directory' in how else tmp_path}: run the pipeline "
                      f"from the project folder: cd {REPO}, or snakemake --directory {REPO}"], out


def test_pipeline_config_yaml_that_is_a_pipe_is_named(tmp_path):
    # was: Snakemake's `configfile:` waited on the pipe for ever
    (tmp_path / "config").mkdir()
    os.mkfifo(tmp_path / "config" / "config.yaml")
    res = _snakemake(tmp_path, "-n", timeout=120)  # the code before waits for ever
    assert res.returncode != 0
    assert ("ERROR: config/config.yaml: is not a regular file (a pipe or a device?)"
            in res.stderr), res.stderr


def test_pipeline_given_the_project_folder_with_directory_runs(tmp_path):
    res = _snakemake(tmp_path, "estimation", "--directory", str(REPO), "-n")
    assert res.returncode == 0, res.stdout + res.stderr


def test_estimation_files_missing_is_one_line_naming_the_key(tmp_path):
    # was: InputFunctionException, FileNotFoundError and a traceback through estimation.inputs
    cfg = _repo_config()
    for block in ("congruence_sources", "sd_sources"):
        cfg["estimation"][block]["touchstone"]["glob"] = "data/nothing_here/*.csv"
    res = _snakemake(_project(tmp_path, cfg), "-n", "estimation")
    out = res.stdout + res.stderr
    assert res.returncode != 0
    assert "Traceback" not in out and "InputFunctionException" not in out, out
    assert re.search(r"^ERROR: config estimation\.(congruence|sd)_sources\.touchstone: no file "
                     r"matches 'data/nothing_here/\*\.csv' .*working directory "
                     + re.escape(str(tmp_path / "proj")) + "$", out, re.M), out


@pytest.mark.pipeline
def test_venue_sheets_are_read_from_the_project_folder(tmp_path):
    # was: read from the Snakefile's folder (workflow.basedir) while Snakemake tracked the
    # project folder's file: the repository's 100 papers instead of the user's 9
    cfg = _repo_config()
    venue = "venue_b_synthetic"
    cfg["venues"] = {venue: cfg["venues"][venue]}
    proj = _project(tmp_path, cfg, data="own")
    sheet = Path(cfg["venues"][venue]["papers"])
    (proj / sheet).parent.mkdir(parents=True)
    (proj / "data" / "external").symlink_to(REPO / "data" / "external")  # the estimation's
    lines = (REPO / sheet).read_text(encoding="utf-8").splitlines(keepends=True)
    (proj / sheet).write_text("".join(lines[:10]), encoding="utf-8")
    # the comparison of an earlier run with two venues: no target with one venue, so it was
    # left as it was, naming the venue the config dropped
    stale = proj / "figures" / "comparison" / "venue_comparison.csv"
    stale.parent.mkdir(parents=True)
    stale.write_text("venue,label\nvenue_c_synthetic,Venue C\n", encoding="utf-8")
    target = f"results/{venue}/validated/papers.csv"
    res = _snakemake(proj, target, "--cores", "1")
    assert res.returncode == 0, res.stdout + res.stderr
    papers = (proj / target).read_text(encoding="utf-8").splitlines()
    assert len(papers) == 1 + 9 and len(lines) > 50
    assert not stale.exists()
    assert "removed 1 file(s) of an earlier run's venue comparison (figures/comparison/): this " \
           "run has one venue" in res.stderr


def test_sheet_path_edited_to_a_missing_file_after_a_run_is_refused(tmp_path):
    # was: Snakemake dropped validate_sheets (its input missing) and eligibility took the
    # earlier run's validated sheets as they were: the old sheet's results, unsaid (exit 0)
    cfg = _repo_config()
    venue = "venue_b_synthetic"
    cfg["venues"] = {venue: {**cfg["venues"][venue], "papers": "data/example/typo.csv"}}
    proj = _project(tmp_path, cfg)
    validated = proj / "results" / venue / "validated"
    validated.mkdir(parents=True)
    for name in ("papers.csv", "results.csv", "notes.csv", "notes_digest.html"):
        (validated / name).write_text("id\n", encoding="utf-8")
    res = _snakemake(proj, f"results/{venue}/eligible.csv", "-n")
    out = res.stdout + res.stderr
    assert res.returncode != 0, out
    assert ("ERROR: 1 file(s) the config names are missing:\n"
            f"  - config venues.{venue}.papers: no such file data/example/typo.csv (paths are "
            f"relative to the working directory {proj})") in out, out


def test_a_venue_sizes_table_is_an_input_of_its_first_job(tmp_path):
    # was: not an input (only papers and results): editing the sizes table reran nothing
    cfg = _repo_config()
    venue = "venue_b_synthetic"
    cfg["venues"] = {venue: {**cfg["venues"][venue],
                             "sizes": {"file": "sizes.csv", "on": "Dataset"}}}
    proj = _project(tmp_path, cfg)
    (proj / "sizes.csv").write_text("data set,test images\nX,100\n", encoding="utf-8")
    res = _snakemake(proj, f"results/{venue}/validated/papers.csv", "-n", "--quiet", "host")
    assert res.returncode == 0, res.stdout + res.stderr
    inputs = re.search(r"rule validate_sheets:\n\s+input: (.*)", res.stdout).group(1)
    assert inputs.split(", ") == ["data/example/venue_b_synthetic_wide.csv", "sizes.csv"]


def test_estimation_path_missing_is_named(tmp_path):
    cfg = _repo_config()
    cfg["estimation"]["sd_sources"]["msd"]["path"] = "data/external/gone.csv"
    res = _snakemake(_project(tmp_path, cfg), "-n")
    assert res.returncode != 0
    assert "  - config estimation.sd_sources.msd: no such file data/external/gone.csv" in (
        res.stdout + res.stderr)


def test_venue_sheet_that_is_a_folder_is_named(tmp_path):
    cfg = _repo_config()
    venue = "venue_b_synthetic"
    cfg["venues"] = {venue: {**cfg["venues"][venue], "papers": "sheet.csv"}}
    proj = _project(tmp_path, cfg)
    (proj / "sheet.csv").mkdir()
    res = _snakemake(proj, "-n")
    assert f"  - config venues.{venue}.papers: sheet.csv: is a directory, expected a file" in (
        res.stdout + res.stderr)


# ------------------------------------------------------------------ config files that are not files
@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "config.fifo"
    os.mkfifo(path)
    return path


def _check_err(capsys, *config) -> str:
    code = main(["check", "--task", "seg", "--n", "50", "--a", "0.9", "--b", "0.85", *config])
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1, err
    return err


@pytest.mark.parametrize("given, expected", [
    ("/dev/null", "/dev/null: is not a regular file (a pipe or a device?)"),  # was "no such file"
    ("-", "-: standard input is not read"),  # was "no such file"
])
def test_cli_config_that_is_no_file_is_named(capsys, given, expected):
    assert expected in _check_err(capsys, "--config", given)


def test_cli_config_fifo_is_named(capsys, fifo):
    assert f"{fifo}: is not a regular file (a pipe or a device?)" in _check_err(
        capsys, "--config", str(fifo))


def test_cli_config_folder_still_named(capsys, tmp_path):
    assert f"{tmp_path}: is a directory, expected a YAML file" in _check_err(
        capsys, "--config", str(tmp_path))


def test_env_config_device_is_named(monkeypatch):
    monkeypatch.setenv("FALSECLAIMS_CONFIG", "/dev/null")
    with pytest.raises(ConfigError, match=r"not a regular file .*\(from \$FALSECLAIMS_CONFIG\)"):
        load_config()


def test_pipeline_config_fifo_refused_before_it_is_read(fifo):
    # config/config.yaml as a pipe: was skipped by the strict reading (not a regular file),
    # then read by Snakemake's `configfile:`, which waits on it (--configfile files are read
    # by Snakemake before the Snakefile runs: out of the workflow's reach)
    with pytest.raises(ConfigError, match="is not a regular file"):
        check_config_files([str(fifo)])


# ------------------------------------------------------------------ schema errors in words
BASE = _repo_config()
V0 = next(iter(BASE["venues"]))


def _problems(mutate) -> list[str]:
    cfg = copy.deepcopy(BASE)
    mutate(cfg)
    return config_problems(cfg, schema_path("config"))


@pytest.mark.parametrize("mutate, expected", [
    # pattern: was "'/dev/null' does not match '\\.(csv|tsv|tab|txt|xlsx|xlsm)$'"
    (lambda c: c["venues"][V0].update(papers="/dev/null"),
     f"venues.{V0}.papers: expected a .csv, .tsv, .tab, .txt, .xlsx or .xlsm file, "
     "got /dev/null"),
    (lambda c: c["venues"][V0].update(results="r.pdf"),
     f"venues.{V0}.results: expected a .csv, .tsv, .tab, .txt, .xlsx or .xlsm file, got r.pdf"),
    # a key refused by its pattern: was "venues: 'my venue' does not match '^[A-Za-z0-9]...'"
    (lambda c: c["venues"].update({"my venue": c["venues"][V0]}),
     "venues: key 'my venue': expected a name of letters, digits, _, . and - starting with a "
     "letter or digit"),
    (lambda c: c["congruence"].update(use=["pa per"]),
     "congruence.use[0]: expected a name of letters, digits and _ (no spaces), got pa per"),
    (lambda c: c["venues"][V0].update(cell_overrides={"1B": 3}),
     f"venues.{V0}.cell_overrides: key '1B': expected a cell reference such as B12"),
    # bounds: were "0 is less than the minimum of 1", "[] should be non-empty", ...
    (lambda c: c["venues"][V0].update(header_row=0),
     f"venues.{V0}.header_row: expected a number >= 1, got 0"),
    (lambda c: c.update(seed=-1), "seed: expected a number >= 0, got -1"),
    (lambda c: c["figures"].update(cutoff=5), "figures.cutoff: expected a number < 0.5, got 5"),
    (lambda c: c["congruence"].update(use=[]),
     "congruence.use: expected a list of 1 or more items, got []"),
    (lambda c: c["congruence"].update(use=["paper", "paper"]),
     "congruence.use: expected a list without repeats, got [paper, paper]"),
    (lambda c: c.update(venues={}), "venues: expected a mapping of 1 or more entries, got {}"),
    (lambda c: c["venues"].update({"v" * 101: c["venues"][V0]}),
     "venues: key '" + "v" * 57 + "...': expected at most 100 characters"),
])
def test_schema_errors_say_what_is_expected_in_words(mutate, expected):
    problems = _problems(mutate)
    assert any(p.startswith(expected) for p in problems), problems
    assert not any(re.search(r"does not match|\\\\|\$'|minimum of|should be non-empty|"
                             r"too long|non-unique", p) for p in problems), problems


@pytest.mark.parametrize("mutate, expected", [
    (lambda c: c["venues"][V0].update(layout="wide"),
     f"venues.{V0}.layout: expected one of long, wide_top2, got wide"),
    (lambda c: c.update(seed=1.5), "seed: expected a whole number, got 1.5"),
    (lambda c: c["analysis"].update(exceedance_grd=1),
     "analysis: unknown key 'exceedance_grd' (did you mean 'exceedance_grid'?)"),
    (lambda c: c["venues"][V0].update(papers_shet="x"),
     f"venues.{V0}: unknown key 'papers_shet' (did you mean 'papers_sheet'?)"),
])
def test_other_schema_error_kinds_name_the_key_path(mutate, expected):
    """Controls: enum, type and near-miss keys were already clear lines (pass before)."""
    assert expected in _problems(mutate)


def test_every_config_schema_pattern_says_what_it_expects():
    """A pattern without ``patternMessage`` would print its regular expression."""
    def patterns(node, where):
        if isinstance(node, dict):
            if isinstance(node.get("pattern"), str) and "patternMessage" not in node:
                yield where
            for key, value in node.items():
                yield from patterns(value, f"{where}.{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                yield from patterns(value, f"{where}[{i}]")

    bare = [where for f in sorted(SCHEMA_DIR.glob("*.schema.yaml")) if f.name not in SHEET_SCHEMAS
            for where in patterns(yaml.safe_load(f.read_text(encoding="utf-8")), f.name)]
    assert bare == []

