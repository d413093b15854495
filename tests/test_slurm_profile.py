"""The SLURM profile plans the right jobs: dry run with snakemake-executor-plugin-slurm.

No cluster is needed: ``snakemake -n`` with the profile loads the plugin and plans every
job with its resources. A dry run never says which jobs would run locally, so locality
comes from the workflow's ``localrules`` via the Snakemake API.
"""

import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from repo_copy import copy_repo

pytest.importorskip("snakemake_executor_plugin_slurm")

from falseclaims.calibration.grid import resolve_grid  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
PROFILE = REPO / "profiles" / "slurm" / "config.yaml"

# simulation- and model-heavy rules: submitted as SLURM jobs with their own resources
HEAVY = {"calibration_simulate", "estimation_congruence", "estimation_sd",
         "multiplicity_simulate_dependent"}
# light rules (reading small tables, plotting): run where Snakemake runs
LIGHT = {
    "all", "validate_sheets", "eligibility", "impute_sd", "assign_congruence",
    "probabilities", "exceedance", "calibration_figures",
    "estimation_figures", "venue_figures_reporting", "venue_figures_deltas",
    "venue_figures_exceedance", "venue_figures_lookup", "venue_comparison",
    "multiplicity_figures", "numbers", "front_page", "table_agreement", "table_ties",
    "plausibility",
}


@pytest.fixture(scope="module")
def repo_copy(tmp_path_factory):
    dest = tmp_path_factory.mktemp("slurm") / "repo"
    return copy_repo(dest)


@pytest.fixture(scope="module")
def profile():
    return yaml.safe_load(PROFILE.read_text())


@pytest.fixture(scope="module")
def dry_run(repo_copy):
    cmd = [sys.executable, "-m", "snakemake", "-n", "--profile", "profiles/slurm",
           "--workflow-profile", "none"]
    proc = subprocess.run(cmd, cwd=repo_copy, capture_output=True, text=True, timeout=300,
                          check=False)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-4000:]
    return out


def planned_jobs(out: str) -> list[tuple[str, dict]]:
    """(rule, resources) per planned job, from the dry-run job blocks."""
    jobs = []
    for block in re.split(r"\n(?=(?:local)?(?:rule|checkpoint) \w+:)", out):
        head = re.match(r"(?:local)?(?:rule|checkpoint) (\w+):", block)
        if not head:
            continue
        res = re.search(r"^\s+resources: (.*)$", block, re.MULTILINE)
        pairs = dict(kv.split("=", 1) for kv in res.group(1).split(", ")) if res else {}
        jobs.append((head.group(1), pairs))
    return jobs


def job_table(out: str) -> dict[str, int]:
    table = out.split("Job stats:", 1)[1]
    return {m.group(1): int(m.group(2))
            for m in re.finditer(r"^(\w+)\s+(\d+)$", table, re.MULTILINE) if m.group(1) != "total"}


def test_profile_follows_plugin_conventions(profile):
    assert profile["executor"] == "slurm"
    assert {"mem_mb", "runtime"} <= set(profile["default-resources"])
    assert isinstance(profile["jobs"], int) and profile["jobs"] > 1
    assert profile["latency-wait"] >= 5
    for rule in HEAVY:
        assert {"mem_mb", "runtime"} <= set(profile["set-resources"][rule]), rule
    # sacct hangs forever on clusters without job accounting (docs/cluster.md, "Job status")
    assert profile["slurm-status-command"] == "squeue"


def test_rules_carry_no_cluster_values():
    pattern = re.compile(r"slurm|partition|account|sbatch|qos")
    for smk in [REPO / "Snakefile", *(REPO / "workflow" / "rules").glob("*.smk")]:
        code = "\n".join(line.split("#", 1)[0] for line in smk.read_text().splitlines())
        assert not pattern.search(code), f"{smk.name} sets cluster values; use the profile"


def test_dry_run_plans_jobs_with_profile_resources(dry_run, profile):
    assert "Using profile profiles/slurm" in dry_run
    table = job_table(dry_run)
    cfg = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    chunks = resolve_grid(cfg["calibration"])["chunks"]  # of the grid in use (quick|full)
    assert table.get("calibration_simulate") == 2 * chunks
    jobs = planned_jobs(dry_run)
    assert sum(table.values()) == len(jobs)
    default = profile["default-resources"]
    for rule, res in jobs:
        want = {**default, **profile["set-resources"].get(rule, {})}
        assert int(res["mem_mb"]) == want["mem_mb"], rule
        assert int(res["runtime"]) == want["runtime"], rule


def test_heavy_rules_are_remote_and_light_rules_local(repo_copy, dry_run):
    from snakemake.api import SnakemakeApi
    from snakemake.settings.types import OutputSettings, ResourceSettings

    planned = {rule for rule, _ in planned_jobs(dry_run)}
    assert HEAVY <= planned, f"heavy rules not planned: {HEAVY - planned}"
    with SnakemakeApi(OutputSettings(quiet=True)) as api:
        wf = api.workflow(resource_settings=ResourceSettings(),
                          snakefile=repo_copy / "Snakefile", workdir=repo_copy)._workflow
        local = {r.name for r in wf.rules if r.name in wf._localrules or r.norun}
    assert not HEAVY & local, f"heavy rules marked local: {HEAVY & local}"
    missing = (LIGHT & planned) - local
    assert not missing, f"light rules not in `localrules:`: {sorted(missing)}"
    unknown = planned - HEAVY - LIGHT
    assert not unknown, f"new rules {sorted(unknown)}: classify them as HEAVY or LIGHT here"
