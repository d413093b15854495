"""One copy of the repository for tests that run Snakemake in a temporary directory.

Skips version control, virtual environments (any folder holding a ``pyvenv.cfg``: a copy of
``.venv`` alone is ~900 MB), generated outputs and caches.
"""

from __future__ import annotations

import shutil
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SKIP = {".git", "results", "figures", "logs", ".snakemake", ".pytest_cache", "__pycache__",
        ".hypothesis", "build", "dist"}


def _ignore(directory: str, names: list[str]) -> list[str]:
    here = Path(directory)
    return [n for n in names
            if n in SKIP or n.endswith(".egg-info") or (here / n / "pyvenv.cfg").exists()]


def copy_repo(dest: Path, repo: Path = REPO) -> Path:
    """Copy the repository's sources, data and config to ``dest``; return ``dest``."""
    shutil.copytree(repo, dest, ignore=_ignore)
    return dest
