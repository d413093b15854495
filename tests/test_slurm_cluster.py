"""The example through profiles/slurm on a real single-node SLURM equals a local run.

Starts munge, slurmctld and slurmd on this machine with ``tools/slurm_single_node.sh`` (root
and Debian's slurmctld, slurmd, slurm-client and munge; `.ci/run` installs them), runs the
whole example through the shipped SLURM profile and compares every result table and every
figure's data byte for byte with the session's local run of the example (conftest.py:
``example_run``). The cluster has no accounting database,
as in many small labs: the profile must neither hang nor need ``sacct``.
"""

import filecmp
import getpass
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from repo_copy import copy_repo

pytest.importorskip("snakemake_executor_plugin_slurm")

pytestmark = [pytest.mark.cluster, pytest.mark.pipeline]

REPO = Path(__file__).resolve().parents[1]
START = REPO / "tools" / "slurm_single_node.sh"
# a hanging status query fails the test instead of blocking CI; generous, since the example
# takes ~30 s locally and ~50 s through SLURM on an idle 2-core machine but several times
# that on a loaded one
RUN_TIMEOUT = 600


def _missing_prerequisite() -> str | None:
    if os.geteuid() != 0:
        return "needs root to start munge, slurmctld and slurmd"
    missing = [exe for exe in ("munged", "slurmctld", "slurmd", "sinfo", "squeue", "sbatch")
               if shutil.which(exe) is None]
    if missing:
        return f"SLURM not installed ({', '.join(missing)} missing): " \
               "apt-get install slurmctld slurmd slurm-client munge"
    conf = Path("/etc/slurm/slurm.conf")
    if conf.exists() and "ClusterName=falseclaims-test" not in conf.read_text():
        return f"{conf} belongs to another cluster; this test writes its own single-node config"
    return None


@pytest.fixture(scope="module")
def slurm():
    reason = _missing_prerequisite()
    if reason:
        pytest.skip(reason)
    proc = subprocess.run(["bash", str(START), "start"], capture_output=True, text=True,
                          timeout=120, check=False)
    if proc.returncode != 0:
        # stop also removes the slurm.conf start wrote (left behind, it slows every later
        # Snakemake start by 10 s)
        subprocess.run(["bash", str(START), "stop"], capture_output=True, timeout=60,
                       check=False)
        pytest.skip(f"single-node SLURM did not start: {(proc.stdout + proc.stderr)[-800:]}")
    yield
    subprocess.run(["bash", str(START), "stop"], capture_output=True, timeout=60, check=False)


def _snakemake(work: Path, *args: str) -> subprocess.CompletedProcess:
    proc = subprocess.Popen([sys.executable, "-m", "snakemake", *args], cwd=work, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=RUN_TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # snakemake and its jobs
        out, _ = proc.communicate()
        subprocess.run(["scancel", "--user", getpass.getuser()], capture_output=True, check=False)
        pytest.fail(f"snakemake {' '.join(args)} did not finish in {RUN_TIMEOUT} s "
                    f"(hanging job-status query?):\n{out[-3000:]}")
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, "")


def _outputs(root: Path) -> list[str]:
    tables = [p for p in (root / "results").rglob("*") if p.is_file()]
    tables += [p for p in (root / "figures").rglob("*.csv")]
    return sorted(p.relative_to(root).as_posix() for p in tables)


def test_slurm_run_equals_local_run(slurm, example_run, tmp_path):
    local = example_run  # the session's local run of the example (conftest.py)
    cluster = copy_repo(tmp_path / "cluster")
    proc = _snakemake(cluster, "--workflow-profile", "profiles/slurm",
                      "--slurm-init-seconds-before-status-checks", "2")
    log = proc.stdout + proc.stderr
    assert proc.returncode == 0, log[-3000:]
    assert "Submitted job" in log or "Job " in log and "submitted" in log, \
        "no job went to SLURM:\n" + log[-2000:]
    assert (cluster / ".snakemake" / "slurm_logs").is_dir(), "no SLURM job logs"

    want = _outputs(local)
    assert want and _outputs(cluster) == want
    _, mismatch, errors = filecmp.cmpfiles(local, cluster, want, shallow=False)
    assert not mismatch and not errors, f"differ from the local run: {mismatch + errors}"


def test_stop_removes_the_test_clusters_config(slurm):
    """A slurm.conf left without its controller makes every later Snakemake start wait
    10 s (the SLURM executor plugin's `scontrol show config`); `stop` must remove ours."""
    conf = Path("/etc/slurm/slurm.conf")
    assert conf.exists() and "ClusterName=falseclaims-test" in conf.read_text()
    subprocess.run(["bash", str(START), "stop"], capture_output=True, timeout=60, check=True)
    assert not conf.exists(), f"{conf} left behind by tools/slurm_single_node.sh stop"
