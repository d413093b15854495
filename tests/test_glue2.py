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
