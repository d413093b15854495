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
