"""One copy of the repository for tests that run Snakemake in a temporary directory.

Skips version control, virtual environments (any folder holding a ``pyvenv.cfg``: a copy of
``.venv`` alone is ~900 MB), generated outputs and caches.
"""

from __future__ import annotations

import shutil
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SKIP = {".git", ".snakemake", ".pytest_cache", "__pycache__", ".hypothesis", "build", "dist"}
# the pipeline's outputs: skipped at the top only (src/falseclaims/figures is the drawing code)
OUTPUTS = {"results", "figures", "logs"}


def copy_repo(dest: Path, repo: Path = REPO) -> Path:
    """Copy the repository's sources, data and config to ``dest``; return ``dest``."""
    top = Path(repo).resolve()

    def ignore(directory: str, names: list[str]) -> list[str]:
        here = Path(directory)
        return [n for n in names
                if n in SKIP or (n in OUTPUTS and here.resolve() == top)
                or n.endswith(".egg-info") or (here / n / "pyvenv.cfg").exists()]

    shutil.copytree(repo, dest, ignore=ignore)
    return dest
