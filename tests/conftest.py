import fcntl
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def config(repo_root):
    from falseclaims.config import load_config

    return load_config(repo_root / "config" / "config.yaml")


@pytest.fixture(scope="session")
def spellings(config):
    """What ``falseclaims.metrics`` reads of the config: the primary metrics' names per task
    (``analysis.metrics``), as its callers hand them in."""
    from falseclaims.config import Analysis

    return Analysis.from_config(config).eligibility.metrics


@pytest.fixture(scope="session")
def example_run(repo_root, tmp_path_factory, worker_id) -> Path:
    """The shipped example run once from clean, as a user runs it (``snakemake --cores 2``;
    the default profile decides what the console shows, kept in ``console.txt``), in a
    temporary copy of the repository. Shared by the end-to-end tests that only read its
    outputs (or dry-run against them), so the suite pays for one full run: under
    pytest-xdist the first worker to need it makes it in the session's shared temporary
    folder, holding a lock, and the others wait for it and read it."""
    if worker_id == "master":  # no workers
        return _run_example(tmp_path_factory.mktemp("example"), repo_root)
    shared = tmp_path_factory.getbasetemp().parent  # this session's, shared by its workers
    with open(shared / "example.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        work = shared / "example" / "repo"
        if not (shared / "example" / "status").exists():
            _run_example(shared / "example", repo_root)
    status = (shared / "example" / "status").read_text()
    assert status == "0", f"the example run failed: {work / 'console.txt'}"
    return work


def _run_example(folder: Path, repo_root: Path) -> Path:
    from repo_copy import copy_repo

    work = folder / "repo"
    copy_repo(work, repo_root)
    proc = subprocess.run([sys.executable, "-m", "snakemake", "--cores", "2"],
                          cwd=work, capture_output=True, text=True, check=False)
    (work / "console.txt").write_text(proc.stdout + proc.stderr)
    (folder / "status").write_text(str(proc.returncode))
    assert proc.returncode == 0, proc.stderr[-4000:]
    return work


# CI runs property tests derandomized (reproducible); local runs explore new examples
from hypothesis import settings as _hyp_settings  # noqa: E402

_hyp_settings.register_profile("ci", derandomize=True, print_blob=True)
if __import__("os").environ.get("CI"):
    _hyp_settings.load_profile("ci")


@pytest.fixture(autouse=True)
def _close_figures():
    """Tests that draw without the writer leave figures open; close them after each test."""
    yield
    import matplotlib.pyplot as plt
    plt.close("all")
