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
def example_run(repo_root, tmp_path_factory) -> Path:
    """The shipped example run once from clean, as a user runs it (``snakemake --cores 2``;
    the default profile decides what the console shows, kept in ``console.txt``), in a
    temporary copy of the repository. Shared by the end-to-end tests that only read its
    outputs (or dry-run against them), so the suite pays for one full run."""
    from repo_copy import copy_repo

    work = tmp_path_factory.mktemp("example") / "repo"
    copy_repo(work, repo_root)
    proc = subprocess.run([sys.executable, "-m", "snakemake", "--cores", "2"],
                          cwd=work, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr[-4000:]
    (work / "console.txt").write_text(proc.stdout + proc.stderr)
    return work


def pytest_collection_modifyitems(items):
    """Under pytest-xdist (``-n``, pyproject addopts) a session or module fixture is made
    once per worker that runs a test using it. With ``--dist loadgroup`` each group runs on
    one worker: a test module is one group (its module fixtures are made once), and every
    module with a test reading ``example_run`` joins one group, so the suite runs the example
    once."""
    shared = {item.module.__name__ for item in items
              if "example_run" in getattr(item, "fixturenames", ())}
    for item in items:
        module = item.module.__name__
        item.add_marker(pytest.mark.xdist_group("example_run" if module in shared else module))


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
