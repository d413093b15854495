"""Determinism: the same config gives byte-identical result tables and figures.

The pipeline test builds the survey targets and every venue's figures again in a fresh copy
of the repository and compares every ``results/**/*.csv`` and every file under ``figures/``
(PDF, PNG, CSV, LaTeX) byte for byte with the session's run of the example.
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
def test_pipeline_survey_tables_are_byte_identical(example_run, tmp_path):
    """The survey tables and every venue figure family, built again from clean in another
    copy on one core (only these targets), are byte-identical to the session's full run of
    the example on two cores."""
    if shutil.which("snakemake") is None:
        pytest.skip("snakemake not on PATH")
    cfg = load_config(REPO / "config" / "config.yaml")
    targets = survey_targets(cfg) + figure_targets(cfg)
    again = copy_repo(tmp_path / "again")
    cmd = [sys.executable, "-m", "snakemake", "--cores", "1", *targets]
    proc = subprocess.run(cmd, cwd=again, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, timeout=900, check=False)
    assert proc.returncode == 0, f"snakemake failed in {again}:\n{proc.stdout[-4000:]}"
    files = sorted(p.relative_to(again) for p in (again / "results").rglob("*.csv"))
    assert files, "the pipeline wrote no result tables"
    missing = [str(f) for f in files if not (example_run / f).is_file()]
    assert not missing, f"written by the targets but not by the full run: {missing}"
    differ = [str(f) for f in files
              if not filecmp.cmp(again / f, example_run / f, shallow=False)]
    assert not differ, f"tables differ between two identical runs: {differ}"
    figs = sorted(p.relative_to(again) for p in (again / "figures").rglob("*") if p.is_file())
    assert len(figs) >= 30 * len(cfg["venues"]), "the figure jobs wrote too few files"
    differ = [str(f) for f in figs
              if not filecmp.cmp(again / f, example_run / f, shallow=False)]
    assert not differ, f"figures differ between two identical runs: {differ}"


_CD_SCRIPT = """
import sys
import numpy as np, pandas as pd
from falseclaims.figures.percase import critical_difference
from falseclaims.percase.omnibus import friedman_omnibus
from falseclaims.report import figure_png
names = [f"method_{c}" for c in "abcde"]
rng = np.random.default_rng(0)
v = pd.DataFrame({n: rng.normal(0.8 + 0.002 * i, 0.05, 400) for i, n in enumerate(names)})
sys.stdout.write(figure_png(critical_difference(friedman_omnibus(v))))
"""


def test_critical_difference_diagram_is_the_same_image_under_any_string_hash():
    """The percase report's critical-difference diagram is the same bytes in every process:
    scikit-posthocs draws a crossbar through a Python set of method names, whose order
    follows the per-process string hash (PYTHONHASHSEED)."""
    images = []
    for seed in ("1", "2", "3"):
        env = {**__import__("os").environ, "PYTHONHASHSEED": seed}
        res = subprocess.run([sys.executable, "-c", _CD_SCRIPT], capture_output=True,
                             text=True, env=env, timeout=300, check=True)
        images.append(res.stdout)
    assert images[0] and images[0] == images[1] == images[2]
