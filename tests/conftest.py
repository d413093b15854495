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
