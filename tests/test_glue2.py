"""Cross-cutting fixes of one round, each checked against an independent reference:

1. the report command printed after a run with two ``--configfile`` files is the one form
   Snakemake reads (``--configfile a.yaml b.yaml``): the command-line model is checked
   against Snakemake's own argument parser;
2. ``snakemake --report`` works after a plain ``pip install``: the dependency carries
   Snakemake's ``reports`` extra, whose requirements (Snakemake's metadata) hold pygments;
3. a venue's relative sheet path is read from the working directory by `sheet check` as
   by the pipeline, with a hint when the file sits next to the config file instead;
4. a misspelled ``layout`` key is one error, not also "missing key 'results'";
5. task names in other spellings/languages, and metrics that are neither accuracy nor DSC,
   answered from one table (CLI and API);
6. one wording: plan's SD-model label, the pasted forms the docs list, the web's U+2212;
7. config/README.md on the paper's Fig 6 grid values."""

from __future__ import annotations

import importlib.metadata
import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]


# ------------------------------------------------------------------ 1. two --configfile files
@pytest.mark.parametrize("argv", [
    ["--cores", "2", "--configfile", "a.yaml", "--configfile", "b.yaml"],
    ["--configfile", "a.yaml", "b.yaml", "--cores", "2"],
    ["--configfiles", "a.yaml", "--config", "x=1", "--config", "y=2", "--configfile", "c.yaml",
     "d.yaml", "--report", "r.html"],
    ["-C", "x=1", "--cores", "2"],
    ["--cores", "2"],
])
def test_command_line_model_is_snakemakes(argv):
    """The files and --config values the Snakefile reads from sys.argv are those Snakemake's
    own parser keeps: a repeated --configfile replaces the earlier one."""
    from snakemake.cli import get_argument_parser

    from falseclaims.config import command_line_config, command_line_places

    theirs = get_argument_parser().parse_args(argv)
    files, with_config = command_line_config(argv)
    assert files == [str(f) for f in theirs.configfile]
    assert with_config == bool(theirs.config)
    places = command_line_places(argv)
    assert places[places.index("--config") + 1:] == theirs.config if theirs.config \
        else "--config" not in places


def test_printed_report_command_keeps_every_configfile(tmp_path, monkeypatch):
    """The report command after `--configfile a.yaml b.yaml`, parsed by Snakemake, names
    both files (the repeated form kept only b.yaml: the printed command failed)."""
    import shlex

    from snakemake.cli import get_argument_parser

    from falseclaims.config import where_to_look

    monkeypatch.chdir(tmp_path)
    line = where_to_look({"venues": {"a": {}, "b": {}}},
                         ["a.yaml", tmp_path / "my dir" / "b.yaml"])
    command = re.search(r"run `([^`]+)`", line).group(1)
    assert command == "snakemake --report report.html --configfile a.yaml 'my dir/b.yaml'"
    parsed = get_argument_parser().parse_args(shlex.split(command)[1:])
    assert [str(f) for f in parsed.configfile] == ["a.yaml", "my dir/b.yaml"]
    assert str(parsed.report) == "report.html"


# ------------------------------------------------------------------ 2. the report's extra
def test_snakemake_dependency_brings_what_the_report_needs():
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    snake = [Requirement(d) for d in deps["project"]["dependencies"]
             if Requirement(d).name == "snakemake"]
    assert len(snake) == 1 and "reports" in snake[0].extras
    # what that extra installs, in Snakemake's own metadata: pygments (the report's import)
    needs = [Requirement(r) for r in importlib.metadata.requires("snakemake")]
    extra = {r.name for r in needs if r.marker and r.marker.evaluate({"extra": "reports"})}
    assert "pygments" in extra
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "pygments must be installed" not in readme


# ------------------------------------------------------------------ 3. one rule for paths
def _project_with_config_elsewhere(root: Path) -> Path:
    """A project folder (config/config.yaml, data/) and other/rel.yaml naming the venue's
    sheet relative to its own folder (../data/x.csv), which is not where the pipeline, run
    in the project folder, looks."""
    import shutil

    import yaml

    (root / "config").mkdir(parents=True)
    shutil.copy(ROOT / "config" / "config.yaml", root / "config" / "config.yaml")
    (root / "data").mkdir()
    (root / "data" / "external").symlink_to(ROOT / "data" / "external")
    shutil.copy(ROOT / "data" / "example" / "venue_b_synthetic_wide.csv", root / "data" / "x.csv")
    repo = yaml.safe_load((ROOT / "config" / "config.yaml").read_text(encoding="utf-8"))
    venue = {**repo["venues"]["venue_b_synthetic"], "papers": "../data/x.csv"}
    (root / "other").mkdir()
    rel = root / "other" / "rel.yaml"
    rel.write_text(yaml.safe_dump({"venues": {"mine": venue}, "run_venues": ["mine"]}))
    return rel


def test_sheet_check_reads_relative_paths_as_the_pipeline_does(tmp_path, capsys, monkeypatch):
    """Was: `sheet check` read ../data/x.csv from the config file's folder (OK) while the
    pipeline stopped on it (working directory). Now both refuse; the check names the path
    that works from here, and that path passes both."""
    import os
    import shutil
    import subprocess

    from cli_runs import run_cli

    rel = _project_with_config_elsewhere(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("FALSECLAIMS_CONFIG", raising=False)
    code, out = run_cli(capsys, ["sheet", "check", "--venue", "mine", "--config", "other/rel.yaml"])
    assert code == 2
    assert ("papers: no such file ../data/x.csv (paths are relative to the working directory "
            f"{tmp_path}); it exists relative to {tmp_path / 'other'} (the config file's "
            "folder): write papers: data/x.csv") in out.err, out.err
    exe = shutil.which("snakemake") or pytest.skip("snakemake is not installed")

    def dry_run():
        return subprocess.run([exe, "-n", "-s", str(ROOT / "Snakefile"), "--configfile",
                               "other/rel.yaml"], cwd=tmp_path, capture_output=True, text=True,
                              timeout=300, env={**os.environ, "PYTHONPATH": str(ROOT / "src")})

    res = dry_run()
    assert res.returncode != 0
    assert "venues.mine.papers: no such file ../data/x.csv" in res.stdout + res.stderr
    rel.write_text(rel.read_text().replace("../data/x.csv", "data/x.csv"))  # as written
    code, out = run_cli(capsys, ["sheet", "check", "--venue", "mine", "--config", "other/rel.yaml"])
    assert code == 0 and "venue 'mine': OK, 100 papers" in out.out, out.out + out.err
    res = dry_run()
    assert res.returncode == 0, res.stdout + res.stderr


def test_missing_everywhere_gets_no_hint(tmp_path):
    from falseclaims.config import missing_files

    (tmp_path / "c.yaml").write_text("{}")
    lines = missing_files({"papers": "nowhere.csv"}, tmp_path, tmp_path / "c.yaml")
    assert lines == [f"papers: no such file nowhere.csv (paths are relative to the working "
                     f"directory {tmp_path})"]


# ------------------------------------------------------------------ 4. one error, not two
def test_misspelled_layout_is_one_error(tmp_path, capsys, monkeypatch):
    import yaml

    from cli_runs import run_cli

    monkeypatch.chdir(tmp_path)
    (tmp_path / "w.csv").write_text("paper_id,task\np1,segmentation\n")
    block = {"papers": "w.csv", "layuot": "long", "units": "fraction"}
    (tmp_path / "c.yaml").write_text(yaml.safe_dump({"venues": {"v": block}}))
    code, out = run_cli(capsys, ["sheet", "check", "--venue", "v", "--config", "c.yaml"])
    assert code == 2
    assert "unknown key 'layuot' (did you mean 'layout'?)" in out.err
    assert "results" not in out.err, out.err
    # control: the long layout without its results table still needs the key
    block = {"papers": "w.csv", "layout": "long", "units": "fraction"}
    (tmp_path / "c.yaml").write_text(yaml.safe_dump({"venues": {"v": block}}))
    code, out = run_cli(capsys, ["sheet", "check", "--venue", "v", "--config", "c.yaml"])
    assert code == 2 and "venues.v: missing key 'results'" in out.err, out.err


# ------------------------------------------------------------------ 5. metric names as tasks
@pytest.mark.parametrize("name, task", [
    ("Genauigkeit", "classification"), ("exactitud", "classification"),
    ("top-1 acc", "classification"), ("Top-1 Acc. (%)", "classification"),
    ("准确率", "classification"), ("précision globale", "classification"),
    ("DSC", "segmentation"), ("Dice score", "segmentation"),
    ("Dice-Koeffizient", "segmentation"), ("Mean Dice", "segmentation"),
])
def test_metric_names_name_their_task_in_cli_and_api(capsys, name, task):
    """Was: the list of tasks only (the CLI knew five English spellings, the API none)."""
    from cli_runs import one_line_error

    import falseclaims

    err = one_line_error(capsys, ["check", "--task", name, "--n", "100", "--a", "0.86",
                                  "--b", "0.85"])
    assert f"got {name!r} ({name} is a {task} metric: --task {task})" in err, err
    with pytest.raises(ValueError) as exc:
        falseclaims.probability(name, n=100, a=0.86, b=0.85)
    assert f"got {name!r} ({name} is a {task} metric: task={task!r})" in str(exc.value)


@pytest.mark.parametrize("name, what", [
    ("AUC", "the area under the ROC curve"), ("AUROC", "the area under the ROC curve"),
    ("F1", "an F1 score"), ("F1-score", "an F1 score"),
    ("IoU", "intersection over union"), ("mIoU", "intersection over union"),
    ("Sensitivity", "the rate of one class"),
])
def test_metrics_of_neither_task_are_said_to_be_neither(capsys, name, what):
    from cli_runs import one_line_error

    import falseclaims

    covers = ("neither accuracy nor DSC: falseclaims covers classification claims compared "
              "by accuracy and segmentation claims compared by mean DSC")
    err = one_line_error(capsys, ["plan", "--task", name, "--delta", "0.01", "--level", "0.9"])
    assert f"({name} is {what}" in err and covers in err, err
    with pytest.raises(ValueError) as exc:
        falseclaims.smallest_n(name, delta=0.01, level=0.9, congruence=0.6)
    assert f"({name} is {what}" in str(exc.value) and covers in str(exc.value)


def test_a_task_name_still_reads_and_an_unknown_word_gets_no_metric_hint(capsys):
    from cli_runs import one_line_error

    from falseclaims.tasks import resolve_task

    assert resolve_task("Classification") == "classification" and resolve_task("seg")
    err = one_line_error(capsys, ["check", "--task", "segmentaton", "--n", "100", "--a",
                                  "0.86", "--b", "0.85"])
    assert "did you mean 'segmentation'?" in err and "metric" not in err


# ------------------------------------------------------------------ 6. one wording
def test_plan_names_the_sd_model_as_the_headline_does(capsys):
    """Was "SDs imputed (msd_reference, mean)": the config key; the pipeline's headline
    (config.Headline.describe) says "MSD reference"."""
    from cli_runs import run_cli

    from falseclaims.config import Headline, load_config

    headline = Headline.from_config(load_config()).describe("segmentation")
    code, out = run_cli(capsys, ["plan", "--task", "seg", "--delta", "0.02", "--level", "0.9"])
    assert code == 0
    assert "SDs imputed (MSD reference, mean)" in out.out and "MSD reference" in headline
    assert "msd_reference" not in out.out


@pytest.mark.parametrize("a, b", [("86", "0.85\u200b"), ("86", "\u22120.5"),
                                  ("0.86", "\u221285")])
def test_web_cleans_pasted_values_before_the_units_decision(a, b):
    """A zero-width space or a U+2212 minus made the page skip the value when deciding the
    units (86 read as percent while '0.85\u200b' went on to the command, read 0.85): the
    mix is refused as it is for the same values typed plainly."""
    from falseclaims.io.raw_table import clean_text
    from falseclaims.web.forms import FieldError, reported_values

    with pytest.raises(FieldError) as pasted:
        reported_values({"a": a, "b": b}, ("a", "b"), "auto")
    with pytest.raises(FieldError) as typed:
        reported_values({"a": clean_text(a), "b": clean_text(b)}, ("a", "b"), "auto")
    assert str(pasted.value) == str(typed.value) and "reads as a fraction but" in str(typed.value)


def test_plan_page_and_help_write_the_search_bound_alike(capsys):
    from cli_runs import run_cli

    from falseclaims.web.app import create_app

    page = create_app().test_client().post("/plan", data={"task": "cls", "delta": "0.01",
                                                          "level": "0.9"})
    assert "sizes searched up to 10,000,000 (" in page.get_data(as_text=True)
    code, out = run_cli(capsys, ["plan", "--help"])
    assert "10,000,000" in " ".join(out.out.split()) and "1e7" not in out.out


def test_docs_list_the_pasted_forms_the_commands_read(capsys):
    """docs/cli.md names each pasted form; each is read (or refused) as it says."""
    from cli_runs import one_line_error, run_cli

    cli = " ".join((ROOT / "docs" / "cli.md").read_text(encoding="utf-8").split())
    for form in ("`1 024`", "`1,024`", "`1'024`", "`10,000`", "U+2212", "`--congruence median`",
                 "`Genauigkeit`", "`AUC`"):
        assert form in cli, form
    for size in ("1 024", "1\u2009024", "1,024", "1'024"):
        code, out = run_cli(capsys, ["check", "--task", "cls", "--n", size, "--a", "0.86",
                                     "--b", "0.85", "--json"])
        assert code == 0 and '"n": 1024' in out.out
    assert "10,000 is ambiguous: write 10000 or 10" in one_line_error(
        capsys, ["check", "--task", "cls", "--n", "10,000", "--a", "0.86", "--b", "0.85"])


# ------------------------------------------------------------------ 7. Fig 6 wording
def test_config_readme_says_the_fig6_values_are_drawn_not_listed():
    """The paper's Fig 6 shows a probability in each cell (its caption: "Each cell displays
    the median probability ..."); only its text does not list them."""
    text = " ".join((ROOT / "config" / "README.md").read_text(encoding="utf-8").split())
    assert "does not publish its grid values" not in text
    assert ("The paper's Fig 6 drawing shows its grid values (a probability in each cell), but "
            "its text does not list them") in text
