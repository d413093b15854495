"""Determinism: the same config gives byte-identical result tables and figures.

The pipeline test runs the survey targets and every venue's figures in two fresh copies of
the repository at once and compares every ``results/**/*.csv`` and every file under
``figures/`` (PDF, PNG, CSV, LaTeX) byte for byte.
"""

import copy
import filecmp
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from repo_copy import copy_repo

from falseclaims.calibration.simulation import run_chunk
from falseclaims.config import load_config
from falseclaims.figures.registry import VENUE_JOBS, figures_of

REPO = Path(__file__).resolve().parents[1]


def survey_targets(cfg: dict) -> list[str]:
    return [f"results/{venue}/{name}.csv" for venue in cfg["venues"]
            for name in ("probabilities", "summary", "exceedance")]


def figure_targets(cfg: dict) -> list[str]:
    """One file of each of a venue's figure jobs (one per family; a job draws all of its
    family's figures)."""
    return [figures_of(job)[0].paths(venue=venue)["png"]
            for venue in cfg["venues"] for job in VENUE_JOBS.values()]


@pytest.mark.parametrize("task", ["classification", "segmentation"])
def test_calibration_chunk_is_deterministic(task):
    cfg = load_config()
    small = copy.deepcopy(cfg)
    small["calibration"]["comparisons_per_cell"] = 60
    first = run_chunk(small, task, 1)
    second = run_chunk(small, task, 1)
    for a, b in zip(first, second):
        pd.testing.assert_frame_equal(a, b)
    # a chunk does not depend on how many chunks there are, and chunks differ
    more = copy.deepcopy(small)
    more["calibration"]["chunks"] = 7
    pd.testing.assert_frame_equal(run_chunk(more, task, 1)[0], first[0])
    other = run_chunk(small, task, 2)[0]
    assert not other["sum_prob"].equals(first[0]["sum_prob"])


@pytest.mark.pipeline
def test_pipeline_survey_tables_are_byte_identical(tmp_path):
    if shutil.which("snakemake") is None:
        pytest.skip("snakemake not on PATH")
    cfg = load_config(REPO / "config" / "config.yaml")
    targets = survey_targets(cfg) + figure_targets(cfg)
    runs = [copy_repo(tmp_path / name) for name in ("run1", "run2")]
    cmd = [sys.executable, "-m", "snakemake", "--cores", "1", *targets]
    procs = [subprocess.Popen(cmd, cwd=d, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True) for d in runs]
    for d, p in zip(runs, procs):
        out, _ = p.communicate(timeout=900)
        assert p.returncode == 0, f"snakemake failed in {d}:\n{out[-4000:]}"
    files = sorted(p.relative_to(runs[0]) for p in (runs[0] / "results").rglob("*.csv"))
    assert files, "the pipeline wrote no result tables"
    other = sorted(p.relative_to(runs[1]) for p in (runs[1] / "results").rglob("*.csv"))
    assert files == other
    differ = [str(f) for f in files if not filecmp.cmp(runs[0] / f, runs[1] / f, shallow=False)]
    assert not differ, f"tables differ between two identical runs: {differ}"
    figs = sorted(p.relative_to(runs[0]) for p in (runs[0] / "figures").rglob("*") if p.is_file())
    assert len(figs) >= 30 * len(cfg["venues"]), "the figure jobs wrote too few files"
    assert figs == sorted(p.relative_to(runs[1]) for p in (runs[1] / "figures").rglob("*")
                          if p.is_file())
    differ = [str(f) for f in figs if not filecmp.cmp(runs[0] / f, runs[1] / f, shallow=False)]
    assert not differ, f"figures differ between two identical runs: {differ}"
