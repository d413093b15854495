"""Snakemake on inputs a new user brings: one-task and all-excluded venues end to end,
config edits that must rerun what they change, unsafe venue keys, and a bad sheet that
must fail with one ERROR block and no Python traceback. Each test works in a temporary
copy of the repository with its own config/config.yaml."""

from __future__ import annotations

import copy
import re
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
import repo_copy
import yaml

import venue_fixtures as vf
from falseclaims.survey.top2 import TOP2_COLUMNS
from falseclaims.io.table_io import read_table
from falseclaims.survey.probabilities import (PROB_COLUMNS, PROB_TABLE_COLUMNS,
                                              read_probabilities)

pytestmark = pytest.mark.pipeline



def copy_repo(repo_root, tmp_path):
    return repo_copy.copy_repo(tmp_path / "repo", repo_root)


def small_config(work, venues: dict) -> dict:
    """The shipped config with the given venues and a light sensitivity analysis."""
    cfg = yaml.safe_load((work / "config" / "config.yaml").read_text(encoding="utf-8"))
    cfg["venues"] = venues
    cfg["congruence"]["use"] = ["paper"]
    cfg["sd_model"]["use"] = ["msd_reference"]
    est = cfg["estimation"]
    est["congruence_sources"] = {"msd": est["congruence_sources"]["msd"]}
    est["sd_sources"] = {"msd": est["sd_sources"]["msd"]}
    cfg["calibration"].update(chunks=1, comparisons_per_cell=50)
    cfg["multiplicity"]["dependent"]["reps"] = 500
    return cfg


def write_config(work, cfg):
    (work / "config" / "config.yaml").write_text(yaml.safe_dump(cfg, sort_keys=False),
                                                  encoding="utf-8")


def snakemake(work, *args, timeout=900):
    """Run Snakemake in ``work``; targets go first (``--quiet`` takes an optional value).
    A dry run gets ``--quiet host``, replacing the default profile's quiet list, so that it
    lists the planned jobs and why."""
    if "-n" in args and "--quiet" not in args:
        args = (*args, "--quiet", "host")
    return subprocess.run([sys.executable, "-m", "snakemake", *args], cwd=work,
                          capture_output=True, text=True, timeout=timeout)


def planned_jobs(out: str) -> dict[str, int]:
    """Rule -> count from the 'Job stats' table of a dry run ({} if nothing to do)."""
    if "Job stats:" not in out:
        return {}
    jobs = {}
    for line in out.split("Job stats:", 1)[1].splitlines():
        m = re.match(r"^(\w+)\s+(\d+)$", line.strip())
        if m and m.group(1) == "total":
            break
        if m:
            jobs[m.group(1)] = int(m.group(2))
    return jobs


# ------------------------------------------------------------------ one task / nobody eligible

ODD_VENUES = ("seg_only", "NA", "none_eligible")


@pytest.fixture(scope="module")
def odd_run(repo_root, tmp_path_factory):
    work = copy_repo(repo_root, tmp_path_factory.mktemp("odd"))
    venues = {"seg_only": vf.segmentation_only(work),
              "NA": vf.classification_only(work, name="cls_only"),
              "none_eligible": vf.all_cv_only(work)}
    write_config(work, small_config(work, venues))
    # --keep-going: the tables below are checked even if some other job fails
    proc = snakemake(work, "--cores", "2", "--quiet", "--keep-going")
    return work, proc


@pytest.mark.parametrize("venue", ODD_VENUES)
def test_odd_venue_tables_have_their_headers(odd_run, venue):
    work, _ = odd_run
    res = work / "results" / venue
    for name in ("exclusions", "flow", "top2", "probabilities", "summary", "exceedance"):
        assert (res / f"{name}.csv").is_file(), f"{venue}: {name}.csv was not made"
    assert list(read_table(res / "probabilities.csv").columns) == PROB_TABLE_COLUMNS
    probs = read_probabilities(res / "probabilities.csv", res / "top2.csv",
                               res / "congruence.csv", res / "sd_imputed.csv")
    assert list(probs.columns) == PROB_COLUMNS
    assert list(read_table(res / "top2.csv").columns) == TOP2_COLUMNS
    papers = read_table(res / "validated" / "papers.csv")
    eligible = read_table(res / "eligible.csv")
    excl = read_table(res / "exclusions.csv")
    assert sorted([*eligible["paper_id"], *excl["paper_id"]]) == sorted(papers["paper_id"])
    tasks = {"seg_only": {"segmentation"}, "NA": {"classification"},
             "none_eligible": set()}[venue]
    assert set(probs["task"]) == tasks
    assert set(read_table(res / "summary.csv")["task"]) == tasks
    if venue == "seg_only":
        assert sorted(set(probs["paper_id"])) == ["0001", "003"]
    if venue == "NA":
        assert (probs["venue"] == "NA").all()


def test_odd_venues_run_end_to_end(odd_run):
    """The whole default target, figures included, succeeds."""
    work, proc = odd_run
    assert proc.returncode == 0, proc.stderr[-6000:]
    for venue in ODD_VENUES:
        assert (work / "figures" / venue / "fig5_exceedance.png").is_file()
    assert (work / "figures" / "comparison" / "venue_comparison.csv").is_file()


# ------------------------------------------------------------------ config edits rerun jobs

SUMMARY = "results/miccai2023_synthetic/summary.csv"


@pytest.fixture(scope="module")
def built(repo_root, tmp_path_factory):
    work = copy_repo(repo_root, tmp_path_factory.mktemp("rerun"))
    cfg = small_config(work, {"miccai2023_synthetic": yaml.safe_load(
        (work / "config" / "config.yaml").read_text())["venues"]["miccai2023_synthetic"]})
    write_config(work, cfg)
    target = "results/miccai2023_synthetic/probabilities.csv"
    proc = snakemake(work, target, SUMMARY, "--cores", "2", "--quiet")
    assert proc.returncode == 0, proc.stderr[-4000:]
    return work, cfg, target


def _dry_run(work, target):
    proc = snakemake(work, target, SUMMARY, "-n", "--cores", "1")
    assert proc.returncode == 0, proc.stderr[-4000:]
    return proc.stdout + proc.stderr


def test_unchanged_config_plans_nothing(built):
    work, cfg, target = built
    write_config(work, cfg)
    assert planned_jobs(_dry_run(work, target)) == {}


@pytest.mark.parametrize("edit, rerun, kept", [
    (("congruence", "paper", "classification", "median"), {"assign_congruence", "probabilities"},
     {"validate_sheets", "eligibility", "impute_sd"}),
    (("sd_model", "msd_reference", "b1"), {"impute_sd", "probabilities"},
     {"validate_sheets", "eligibility", "assign_congruence"}),
    # the exceedance grid is read by the exceedance rule only: the selection and probabilities stay
    (("analysis", "exceedance_grid", "start"), {"exceedance"},
     {"validate_sheets", "eligibility", "impute_sd", "assign_congruence", "probabilities"}),
])
def test_config_edit_plans_the_dependent_jobs(built, edit, rerun, kept):
    work, cfg, target = built
    changed = copy.deepcopy(cfg)
    block = changed
    for key in edit[:-1]:
        block = block[key]
    block[edit[-1]] = round(block[edit[-1]] + 0.01, 6)
    write_config(work, changed)
    try:
        out = _dry_run(work, target)
    finally:
        write_config(work, cfg)
    jobs = set(planned_jobs(out))
    assert rerun <= jobs, out[-3000:]
    assert not kept & jobs, out[-6000:]
    # the default --rerun-triggers include params: this is why the job reruns
    assert "Params have changed since last execution" in out


def test_edited_congruence_changes_the_probabilities(built, tmp_path):
    """Not only planned: the rerun gives the new numbers (no stale results)."""
    work, cfg, target = built

    def read_full(path):  # probabilities.csv joined with its inputs (congruence_assumed)
        res = path.parent
        return read_probabilities(path, res / "top2.csv", res / "congruence.csv",
                                  res / "sd_imputed.csv")

    before = read_full(work / target)
    changed = copy.deepcopy(cfg)
    changed["congruence"]["paper"]["classification"]["median"] = 0.5
    write_config(work, changed)
    try:
        proc = snakemake(work, target, "--cores", "2", "--quiet")
        assert proc.returncode == 0, proc.stderr[-4000:]
        after = read_full(work / target)
    finally:
        write_config(work, cfg)
    sel = (after["task"] == "classification") & (after["congruence_level"] == "median")
    assert (after.loc[sel, "congruence_assumed"] == 0.5).all()
    assert (before.loc[sel, "congruence_assumed"] == 0.67).all()
    assert not np.allclose(after.loc[sel, "probability"], before.loc[sel, "probability"])
    seg = after["task"] == "segmentation"
    pd.testing.assert_frame_equal(after[seg].reset_index(drop=True),
                                  before[seg.to_numpy()].reset_index(drop=True))


# ------------------------------------------------------------------ unsafe keys, bad sheets

def test_venue_key_dotdot_is_refused_before_anything_runs(repo_root, tmp_path):
    work = copy_repo(repo_root, tmp_path)
    entry = vf.classification_only(work)
    write_config(work, small_config(work, {"..": entry}))
    proc = snakemake(work, "-n", "--cores", "1")
    assert proc.returncode != 0
    out = proc.stdout + proc.stderr
    assert "venues: key '..': expected a name of letters" in out
    assert not (work / "validated").exists() and not (work / "results").exists()


def test_bad_sheet_fails_with_one_error_block_and_no_traceback(repo_root, tmp_path):
    work = copy_repo(repo_root, tmp_path)
    entry = vf.classification_only(work, name="bad")
    path = work / entry["results"]
    path.write_text(path.read_text().replace("c2,Ours,acc,0.85", "c2,Ours,acc,O.85"))
    write_config(work, small_config(work, {"bad": entry}))
    proc = snakemake(work, "results/bad/top2.csv", "--cores", "1")
    assert proc.returncode != 0
    err = proc.stderr + proc.stdout
    assert "Traceback" not in err
    assert "ERROR in rule validate_sheets (venue=bad):" in err
    assert "data/venues/bad_results.csv, row 4, column 'value': got 'O.85'" in err
    assert "(log: logs/bad/validate_sheets.log)" in err
    assert not (work / "results" / "bad" / "top2.csv").exists()


def test_numeric_venue_key_is_a_name(repo_root, tmp_path):
    """YAML reads `2023:` as a number; the venue is still called "2023"."""
    work = copy_repo(repo_root, tmp_path)
    cfg = small_config(work, {})
    cfg["venues"] = {2023: vf.classification_only(work)}
    write_config(work, cfg)
    assert "2023:" in (work / "config" / "config.yaml").read_text()
    proc = snakemake(work, "results/2023/probabilities.csv", "-n", "--cores", "1")
    assert proc.returncode == 0, proc.stderr[-3000:] + proc.stdout[-3000:]
    assert planned_jobs(proc.stdout)["validate_sheets"] == 1


def test_missing_sheet_file_is_named_before_anything_runs(repo_root, tmp_path):
    work = copy_repo(repo_root, tmp_path)
    entry = vf.classification_only(work)
    entry["papers"] = "data/venues/no_such_papers.csv"
    write_config(work, small_config(work, {"v": entry}))
    proc = snakemake(work, "results/v/probabilities.csv", "-n", "--cores", "1")
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0
    assert "config venues.v.papers: no such file data/venues/no_such_papers.csv" in out
    assert "Traceback" not in out
