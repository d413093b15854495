"""Workflow catalog conventions: the catalog file, snakefmt-clean rule files, named targets
for the parts, a quiet default profile and step logs with details kept out of the console."""

import logging
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
RULE_FILES = [ROOT / "Snakefile", *sorted((ROOT / "workflow" / "rules").glob("*.smk"))]
PARTS = ("survey", "estimation", "calibration", "multiplicity")


def test_catalog_file_has_the_documented_keys():
    """Keys of the Snakemake workflow catalog's usage file (its README, 'Standardized
    usage'); config/README.md documents the config as the catalog expects."""
    doc = yaml.safe_load((ROOT / ".snakemake-workflow-catalog.yml").read_text())
    assert set(doc) == {"usage"}
    usage = doc["usage"]
    assert set(usage) <= {"mandatory-flags", "software-stack-deployment", "report"}
    assert set(usage["mandatory-flags"]) <= {"desc", "flags"}
    stack = usage["software-stack-deployment"]
    assert set(stack) <= {"conda", "apptainer", "apptainer+conda", "singularity",
                          "singularity+conda"} and any(stack.values())
    assert all(isinstance(v, bool) for v in stack.values()) and usage["report"] is True
    if stack.get("conda"):
        assert (ROOT / "envs" / "falseclaims.yaml").is_file()
    assert (ROOT / "config" / "README.md").is_file()


def test_rule_files_are_snakefmt_clean():
    exe = shutil.which("snakefmt") or str(Path(sys.executable).with_name("snakefmt"))
    if not Path(exe).exists():
        pytest.skip("snakefmt not installed (pip install -e '.[test]')")
    res = subprocess.run([exe, "--check", *map(str, RULE_FILES)], cwd=ROOT,
                         capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr[-3000:]


def test_named_targets_exist_and_are_documented():
    res = subprocess.run([sys.executable, "-m", "snakemake", "--list-target-rules"], cwd=ROOT,
                         capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr[-2000:]
    rules = set(res.stdout.split())
    assert set(PARTS) <= rules
    readme = (ROOT / "README.md").read_text()
    for part in PARTS:
        assert f"snakemake {part}" in readme or f"`{part}`" in readme, part


def test_default_profile_is_quiet():
    profile = yaml.safe_load((ROOT / "profiles" / "default" / "config.yaml").read_text())
    assert not profile.get("printshellcmds")
    assert {"rules", "progress"} <= set(profile.get("quiet", []))


def test_step_details_go_to_the_log_not_the_console(tmp_path, capsys):
    """A step's DEBUG details land in its log file only; its INFO summary on both."""
    from falseclaims.pipeline import run_step

    log_file = tmp_path / "step.log"

    def step(_):
        log = logging.getLogger("falseclaims.estimation")
        log.info("touchstone: congruence segmentation q1 0.5")
        log.debug("touchstone: MONAI: 3349 empty cells")

    snake = SimpleNamespace(log=[str(log_file)], rule="estimation_congruence",
                            output=["a.csv"], wildcards={})
    run_step(snake, step)
    err = capsys.readouterr().err
    text = log_file.read_text()
    assert "q1 0.5" in err and "empty cells" not in err and "done:" not in err
    assert "q1 0.5" in text and "empty cells" in text and "done: a.csv" in text
    logging.getLogger().handlers.clear()


def test_estimation_summaries_are_one_short_line():
    from falseclaims.estimation.stages import brief

    line = brief({"source": "msd", "citation": "x" * 300,
                  "segmentation": {"q1": 0.4459, "median": 0.6365, "q3": 0.79}})
    assert line == "segmentation q1 0.4459, segmentation median 0.6365, segmentation q3 0.79"


def test_where_to_look_names_the_headline_and_the_report():
    from falseclaims.config import where_to_look

    line = where_to_look({"venues": {"a": {}, "b": {}}})
    assert "results/a/summary.csv" in line and "venue_comparison.csv" in line
    assert "snakemake --report report.html" in line and "\n" not in line
    # run_venues: only the venues this run made are named
    line = where_to_look({"venues": {"a": {}, "b": {}}, "run_venues": ["b"]})
    assert "results/b/summary.csv" in line and "results/a/" not in line
    assert "venue_comparison.csv" not in line


def test_the_report_hint_keeps_the_runs_configfile(tmp_path, monkeypatch):
    """After `snakemake --configfile mine.yaml` the hint builds the report of that config
    (without it Snakemake would report the default venues): the file as the user named it
    (relative to the working directory), quoted for the shell, and --config mentioned."""
    from falseclaims.config import where_to_look

    monkeypatch.chdir(tmp_path)
    cfg = {"venues": {"a": {}}}
    line = where_to_look(cfg, [tmp_path / "mine.yaml", tmp_path / "my dir" / "b.yaml"])
    # one --configfile with both files: Snakemake keeps only the last of repeated options
    assert "`snakemake --report report.html --configfile mine.yaml 'my dir/b.yaml'`" in line
    assert "--config values" not in line
    assert "this run's --config values" in where_to_look(cfg, [], True)
    assert "`snakemake --report report.html`" in where_to_look(cfg)


def test_closing_lines_state_the_front_pages_headline(tmp_path, monkeypatch):
    """The closing lines give, per venue and task, the papers and the share above each
    cutoff with the range exactly as the front page states them (its HTML, rendered from the
    same numbers.csv); a numbers.csv older than its summary.csv (a partial run) is not
    printed."""
    import html
    import os

    import pandas as pd

    from falseclaims.survey.front_page import closing_lines, headline_fragment

    monkeypatch.chdir(tmp_path)
    rows = []
    for task, n, shares in (("classification", 43, (36, 24)), ("segmentation", 131, (70, 33))):
        for cutoff, k, lo, hi in zip((0.05, 0.3), shares, (0.6, 0.2), (0.9, 0.4)):
            rows.append({"venue": "v", "task": task, "name": f"share_above_{cutoff:g}",
                         "value": k / n, "unit": "share", "n_population": n, "low": lo,
                         "high": hi, "range": "", "paper_value": ""})
    numbers = pd.DataFrame(rows)
    (tmp_path / "results" / "v").mkdir(parents=True)
    (tmp_path / "results" / "v" / "summary.csv").write_text("x\n")
    numbers.to_csv(tmp_path / "results" / "v" / "numbers.csv", index=False)
    cfg = {"venues": {"v": {"label": "My venue"}},
           "congruence": {"use": ["paper"]}, "sd_model": {"use": ["m"]},
           "analysis": {"headline_congruence": "median", "headline_sd": "mean"}}
    lines = closing_lines(cfg)
    assert lines[0].startswith("Headline: ") and \
        "(median congruence (paper), mean imputed SD (m); in brackets" in lines[0]
    cls = next(line for line in lines if "classification" in line)
    seg = next(line for line in lines if "segmentation" in line)
    assert cls.strip() == ("My venue, classification (43 papers): > 5%: 84% [60%–90%], "
                           "> 30%: 56% [20%–40%]")
    assert "(131 papers): > 5%: 53% [60%–90%], > 30%: 25% [20%–40%]" in seg
    page = html.unescape(headline_fragment({"v": numbers}, {"v": "My venue"}, "x"))
    for text in ("84% (36)", "60%–90%", "56% (24)", "20%–40%", "53% (70)", "25% (33)"):
        assert text in page  # the same words on the front page
    assert lines[-1].startswith("Done.")
    old = os.stat(tmp_path / "results" / "v" / "summary.csv").st_mtime - 60
    os.utime(tmp_path / "results" / "v" / "numbers.csv", (old, old))
    assert len(closing_lines(cfg)) == 1


def test_closing_lines_of_a_run_of_design_only_venues(tmp_path, monkeypatch):
    """A run whose venues record no results (numbers.csv holds only the ``design_only`` row)
    ends with the front page's words for them, not with an error: such a run of a held-out
    design-only sheet (71 papers) raised KeyError 'task' after every job had finished."""
    import html

    import pandas as pd

    from falseclaims.survey.front_page import closing_lines, headline_fragment

    monkeypatch.chdir(tmp_path)
    numbers = pd.DataFrame([{"venue": "d", "task": "", "name": "design_only", "value": 71,
                             "unit": "papers", "n_population": 71, "low": "", "high": "",
                             "range": "", "paper_value": ""}])
    (tmp_path / "results" / "d").mkdir(parents=True)
    numbers.to_csv(tmp_path / "results" / "d" / "numbers.csv", index=False)
    cfg = {"venues": {"d": {"label": "Design sheet"}},
           "congruence": {"use": ["paper"]}, "sd_model": {"use": ["m"]},
           "analysis": {"headline_congruence": "median", "headline_sd": "mean"}}
    lines = closing_lines(cfg)
    assert "  Design sheet: design-only: 71 papers, no results recorded" in lines
    page = html.unescape(headline_fragment({"d": numbers}, {"d": "Design sheet"}, "x"))
    assert "design-only: 71 papers, no results recorded" in page
    assert lines[-1].startswith("Done.")


def test_summary_marks_the_headline_rows():
    """summary.csv's column ``headline``: True on exactly the rows of the headline assumption
    (one congruence source and level; segmentation also one SD source and level), one per
    task and cutoff; False on the sensitivity analyses."""
    import pandas as pd

    from falseclaims.survey.headline import Headline
    from falseclaims.survey.exceedance import mark_headline, share_above

    rows = []
    for task, sds in (("classification", [("none", "none")]),
                      ("segmentation", [("m", "mean"), ("m", "q1"), ("k", "mean")])):
        for source in ("paper", "other"):
            for level in ("q1", "median", "q3"):
                for sd_source, sd_level in sds:
                    for i, p in enumerate((0.01, 0.2, 0.4)):
                        rows.append({"venue": "v", "task": task, "paper_id": f"p{i}",
                                     "congruence_source": source, "congruence_level": level,
                                     "sd_source": sd_source, "sd_level": sd_level,
                                     "probability": p})
    summary = share_above(pd.DataFrame(rows), [0.05, 0.3])
    marked = mark_headline(summary, Headline("paper", "median", "m", "mean"))
    assert list(marked.columns) == [*summary.columns, "headline"]
    head = marked[marked["headline"]]
    assert len(head) == 4 and set(head["task"]) == {"classification", "segmentation"}
    assert set(head["congruence_source"]) == {"paper"}
    assert set(head["congruence_level"]) == {"median"}
    assert set(zip(head["sd_source"], head["sd_level"])) == {("none", "none"), ("m", "mean")}
    assert marked["headline"].sum() == 4 and marked["headline"].dtype == bool


def test_scripts_write_tables_only_through_table_io():
    """One writer for every table (fixed float format, byte-identical reruns): no script
    calls DataFrame.to_csv / to_parquet / yaml.dump itself."""
    import ast

    offenders = []
    for path in sorted((ROOT / "workflow" / "scripts").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in ("to_csv", "to_parquet",
                                                                 "safe_dump", "dump"):
                offenders.append(f"{path.name}:{node.lineno} {node.attr}")
    assert offenders == []


JOB = """
import logging, sys
from types import SimpleNamespace
from falseclaims.errors import FalseclaimsInputError
from falseclaims.pipeline import run_job

def step(smk):
    with open(smk.output[0], "w") as fh:
        fh.write("x" * 100000)
    logging.getLogger("falseclaims.t").info("summary line")
    sys.stdout.write("buffered, no newline")
    if smk.rule == "bad":
        raise FalseclaimsInputError("a bad cell")

smk = SimpleNamespace(log=[sys.argv[1]], rule=sys.argv[2], output=[sys.argv[3]], wildcards={})
run_job(smk, step)
raise AssertionError("run_job returned")
"""


@pytest.mark.parametrize("rule, status", [("good", 0), ("bad", 1)])
def test_run_job_ends_the_process_with_everything_written(tmp_path, rule, status):
    """The scripts' entry ends the process itself (no teardown): the step's output, its log
    and buffered standard output are complete, and the exit status says how it went."""
    log, out = tmp_path / "job.log", tmp_path / "out.txt"
    proc = subprocess.run([sys.executable, "-c", JOB, str(log), rule, str(out)],
                          capture_output=True, text=True,
                          env={"PYTHONPATH": str(ROOT / "src"), "PATH": ""})
    assert proc.returncode == status, proc.stderr
    assert out.read_text() == "x" * 100000
    assert proc.stdout == "buffered, no newline"
    assert "run_job returned" not in proc.stderr
    text = log.read_text()
    assert "summary line" in text
    assert ("done: " in text) == (status == 0)
    assert ("ERROR in rule bad" in text) == (status == 1)
