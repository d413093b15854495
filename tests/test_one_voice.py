"""One voice: the pipeline, the CLI, the report, the figures and the Python API name results
with the same words, and every command the product prints works as written.

Each test failed before its fix (a TypeError, an internal key in the text, a command missing
the run's -s / --config, a venue missing from the comparison)."""

from __future__ import annotations

import csv
import shlex
from pathlib import Path

import figure_fixtures as fx
import numpy as np
import pandas as pd
import pytest
import yaml

from falseclaims import figures
from falseclaims.cli import main
from falseclaims.config import (Headline, cli_defaults, command_line_config, command_line_places,
                                where_to_look)
from falseclaims.plausibility import check_venue
from falseclaims.sheets import read_venue
from falseclaims.style import NO_DATA
from falseclaims.survey.front_page import front_page_html, headline_text, sheet_check_command

REPO = Path(__file__).resolve().parents[1]
HEAD = Headline("paper", "median", "msd_reference", "mean")


# ------------------------------------------------------------------ P1, P9: plausibility
def _cv_sheet(tmp_path: Path) -> dict:
    """Six papers evaluated by cross-validation only (every one excluded at the distinct
    test set step), their Task column filling two fields (``Task: [task, metric]``)."""
    rows = [["Paper", "Task", "Split", "n_test", "Ours", "SOTA"]]
    rows += [[f"P{i}", "segmentation", "cv_only", 100, f"0.9{i}", f"0.8{i}"] for i in range(6)]
    with open(tmp_path / "s.csv", "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(rows)
    return {"papers": "s.csv", "layout": "wide_top2", "units": "fraction",
            "columns": {"wide": {"Paper": "paper_id", "Task": ["task", "metric"],
                                 "Split": "split", "n_test": "n_test",
                                 "Ours": "value_proposed", "SOTA": "value_best_prior"}},
            "values": {"metric": {"segmentation": "dsc"}},
            "constants": {"in_scope": True, "values_only_in_figures": False}}


def test_a_column_filling_two_fields_with_every_paper_excluded_is_judged(tmp_path):
    """Was: TypeError 'unhashable type: list' (sheet check: "unexpected TypeError (a bug)")."""
    block = _cv_sheet(tmp_path)
    s = read_venue(block, tmp_path, "v")
    (f,) = check_venue("v", block, s.papers, s.results, cli_defaults())
    assert f.check == "all_excluded" and "6 of 6 papers" in f.message
    # the flow's words, not the exclusion key
    assert "'distinct test set' step" in f.message
    assert "no_distinct_test_set" not in f.message


def test_sheet_check_of_that_block_exits_without_a_bug(tmp_path, monkeypatch, capsys):
    cfg = cli_defaults()
    cfg["venues"] = {"v": _cv_sheet(tmp_path) | {"label": "CV only"}}
    (tmp_path / "my.yaml").write_text(yaml.safe_dump(cfg), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code = main(["sheet", "check", "--venue", "v", "--config", "my.yaml"])
    out = capsys.readouterr()
    assert "a bug" not in out.out + out.err and "TypeError" not in out.out + out.err
    assert code in (0, 1) and "distinct test set" in out.out + out.err


# ------------------------------------------------------------------ P9: source names
def test_headline_names_its_sources_in_words():
    text = HEAD.describe("segmentation")
    assert text == "median congruence (paper), mean imputed SD (MSD reference)"
    assert "_" not in text
    latex = figures.venue_comparison_latex(
        pd.DataFrame([{"venue": "v", "label": "V", "task": "segmentation", "n_papers": 3,
                       "share_above_0.05": 0.5}]), HEAD)
    assert "msd" not in latex and "MSD reference" in latex


# ------------------------------------------------------------------ P2, P3, P8: commands
def test_report_command_carries_the_runs_snakefile_and_folder():
    argv = ["--cores", "2", "-s", "/opt/fc/Snakefile", "--configfile", "mine.yaml"]
    files, _ = command_line_config(argv)
    line = where_to_look({"venues": {"mine": {}}}, files, places=command_line_places(argv))
    assert "`snakemake -s /opt/fc/Snakefile --report report.html --configfile mine.yaml`" \
        in line
    argv = ["--snakefile", "my dir/Snakefile", "--directory", "/p", "--cores", "1"]
    line = where_to_look({"venues": {"a": {}}}, places=command_line_places(argv))
    assert "`snakemake -s 'my dir/Snakefile' --directory /p --report report.html`" in line
    assert command_line_places(["--cores", "2"]) == []
    # --config values: carried as typed (a reminder only when they are not known)
    argv = ["--cores", "2", "--config", "run_venues=[mine]", "a=b c", "--configfile", "m.yaml"]
    files, with_config = command_line_config(argv)
    line = where_to_look({"venues": {"mine": {}}}, files, with_config,
                         places=command_line_places(argv))
    assert ("`snakemake --config 'run_venues=[mine]' 'a=b c' --report report.html "
            "--configfile m.yaml` and open it") in line
    assert "this run's --config values" in where_to_look({"venues": {"a": {}}}, [], True)


def test_front_page_check_command_names_the_runs_config_and_runs(tmp_path, monkeypatch,
                                                                 capsys):
    """The implausible-result banner's command, after a run with --configfile, reads the
    venue from that file (config/config.yaml does not define it): the command as printed
    finds the venue."""
    cfg = yaml.safe_load((REPO / "config" / "config.yaml").read_text(encoding="utf-8"))
    block = dict(cfg["venues"]["venue_b_synthetic"], label="Mine")
    cfg["venues"] = {"mine": block}
    cfg["run_venues"] = ["mine"]
    mine = tmp_path / "mine.yaml"
    mine.write_text(yaml.safe_dump(cfg), encoding="utf-8")
    monkeypatch.chdir(REPO)  # the project folder: the sheet paths are relative to it
    page = front_page_html({}, {"mine": "Mine"}, [], "x", {"mine": ["ids read as numbers"]},
                           [str(mine)])
    command = sheet_check_command("mine", [str(mine)])
    assert command == f"falseclaims sheet check --venue mine --config {mine}"
    assert command in page
    words = shlex.split(command)
    assert main(words[1:]) in (0, 1)
    assert "unknown venue" not in capsys.readouterr().err
    # without the run's config the venue is unknown: the reason the banner names it
    assert main(words[1:5]) == 2
    capsys.readouterr()
    # a venue of config/config.yaml needs no --config
    assert sheet_check_command("venue_b_synthetic", [str(mine)]) == \
        "falseclaims sheet check --venue venue_b_synthetic"


def test_docs_examples_name_the_configfile_and_two_methods(capsys):
    data = (REPO / "data" / "README.md").read_text(encoding="utf-8")
    assert "`snakemake --report report.html`" not in data
    assert "`snakemake --report report.html --configfile mine.yaml`" in data
    cli = (REPO / "docs" / "cli.md").read_text(encoding="utf-8")
    assert "alg_a=pred_A,alg_b=pred_B" in cli
    with pytest.raises(SystemExit):
        main(["percase", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "case_id=ID,alg_a=pred_A,alg_b=pred_B" in help_text


# ------------------------------------------------------------------ P5: level names
def test_check_and_plan_name_levels_as_the_report_does(capsys):
    """Q1 / median / Q3 (levels.LEVEL_LABELS) in the table, the notes and the plan; one
    word for a congruence outside the feasible range: clamped."""
    assert main(["check", "--task", "classification", "--n", "100", "--a", "0.9",
                 "--b", "0.85"]) == 0
    out = capsys.readouterr().out
    rows = [line.split()[0] for line in out.splitlines()[2:5]]
    assert rows == ["Q1", "median", "Q3"]
    assert "note: Q1 congruence 0.47 is infeasible" in out and "note: q1" not in out
    assert main(["plan", "--task", "classification", "--level", "0.9", "--delta", "0.05"]) == 0
    out = capsys.readouterr().out
    assert "congruence Q1 = 0.47 (infeasible; clamped to 0.75)" in out
    assert "congruence q1" not in out and "moved into feasible" not in out
    assert main(["plan", "--task", "segmentation", "--level", "0.9", "--delta", "0.02",
                 "--sd-level", "q3"]) == 0
    assert "SDs imputed (MSD reference, Q3)" in capsys.readouterr().out  # headline words


# ------------------------------------------------------------------ P7: empty venues
def test_a_venue_without_analysed_papers_is_compared_and_named():
    prob = fx.probabilities(fx.top2(n=(4, 5)), sources=("paper",))
    curves = fx.curves(prob, np.linspace(0, 0.5, 11))
    # the exceedance curves hold the summary's columns (tests/test_figures_robust.py)
    table = figures.venue_comparison({"a": curves, "b": curves.iloc[0:0]}, HEAD,
                                     {"a": "A", "b": "Venue B"})
    b = table[table["venue"] == "b"]
    assert len(b) == 1 and int(b["n_papers"].iloc[0]) == 0 and b["label"].iloc[0] == "Venue B"
    assert b.filter(like="share_above_").isna().all(axis=None)
    assert f"Venue B & {NO_DATA} & 0" in figures.venue_comparison_latex(table, HEAD)
    fig, _ = figures.fig5_venues({"a": curves, "b": curves.iloc[0:0]}, HEAD,
                                 {"a": "A", "b": "Venue B"})
    assert f"{NO_DATA}: Venue B" in fig._suptitle.get_text()
    # the one venue drawn is named in the legend (a single curve had none)
    # (with its analysed papers per task, panel a / b)
    assert "A (4 / 5)" in [t.get_text() for legend in fig.legends for t in legend.texts]


def test_figures_front_page_and_console_say_no_analysed_papers_alike():
    numbers = {"none": pd.DataFrame(
        [["none", "classification", "papers_found", "papers found", 3, "papers",
          "papers found", 3, None, None, "", "", ""]],
        columns=["venue", "task", "name", "description", "value", "unit", "population",
                 "n_population", "low", "high", "range", "paper_value", "paper_source"])}
    assert NO_DATA == "no analysed papers"
    assert NO_DATA in front_page_html(numbers, {"none": "Empty"}, [], "x")
    assert headline_text(numbers, {"none": "Empty"}) == [f"  Empty: {NO_DATA}"]


def test_range_caption_names_the_levels_the_range_spans_for_any_headline():
    """The front page's and console's range caption named "congruence Q1/Q3" also when the
    headline is Q3 (the range then spans Q1 and the median): it names every level that
    sensitivity_band takes, whatever the headline level."""
    from falseclaims.levels import LEVEL_LABELS
    from falseclaims.survey.numbers import SENSITIVITY_RANGES, sensitivity_band

    rows = [{"task": "segmentation", "congruence_source": "paper", "congruence_level": c,
             "sd_source": "msd_reference", "sd_level": s}
            for c in ("q1", "median", "q3") for s in ("q1", "mean", "q3")]
    summary = pd.DataFrame(rows)
    text = SENSITIVITY_RANGES["one_at_a_time"]
    for level in ("q1", "median", "q3"):
        band = sensitivity_band(summary, Headline("paper", level, "msd_reference", "mean"),
                                "segmentation")
        head_sd = band[band["sd_level"] == "mean"]
        named = [LEVEL_LABELS[c] for c in head_sd["congruence_level"]]
        assert f"congruence {named[0]}, {named[1]} and {named[2]} at the headline SD" in text
        head_c = band[band["congruence_level"] == level]
        named = [LEVEL_LABELS[s] for s in head_c["sd_level"]]
        assert f"SD {named[0]}, {named[1]} and {named[2]} at the headline congruence" in text
