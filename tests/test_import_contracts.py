"""The import contracts of pyproject.toml ([tool.importlinter], run by .ci/run as
`lint-imports`) hold, and each one can fail: an import that breaks it, planted in a copy of
the package, makes `lint-imports` exit non-zero naming that contract."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _lint_imports() -> str:
    exe = shutil.which("lint-imports") or str(Path(sys.executable).with_name("lint-imports"))
    if not Path(exe).exists():
        pytest.skip("import-linter not installed (pip install -e '.[test]')")
    return exe


def lint_imports(root: Path) -> subprocess.CompletedProcess:
    """`lint-imports` on the package under ``root``/src with ``root``/pyproject.toml."""
    env = {**os.environ, "PYTHONPATH": str(root / "src")}
    return subprocess.run([_lint_imports(), "--no-cache"], cwd=root, env=env,
                          capture_output=True, text=True, timeout=300)


def test_contracts_are_kept():
    res = lint_imports(ROOT)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "0 broken" in res.stdout


# (module, code appended to it, the contract it breaks)
PLANTED = {
    "survey_draws": ("survey/reporting.py",
                     "def _planted():\n    from falseclaims.figures import common\n"
                     "    return common\n", "Layers:"),
    "library_uses_cli": ("examples/sampling.py", "from falseclaims.cli import main\n",
                         "Layers:"),
    "io_knows_tasks": ("io/textio.py", "from falseclaims.tasks import TASKS\n",
                       "io: file formats know no domain"),
    "reader_uses_draft": ("sheets/read/reader.py",
                          "from falseclaims.sheets.draft import roles\n",
                          "sheets: the drafting assistant"),
    "cycle_in_survey": ("survey/eligibility.py",
                        "def _planted():\n    from falseclaims.survey import numbers\n"
                        "    return numbers\n", "No import cycle"),
}


@pytest.mark.parametrize("name", sorted(PLANTED))
def test_a_planted_import_breaks_its_contract(tmp_path, name):
    module, code, contract = PLANTED[name]
    shutil.copytree(ROOT / "src" / "falseclaims", tmp_path / "src" / "falseclaims",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    target = tmp_path / "src" / "falseclaims" / module
    target.write_text(target.read_text(encoding="utf-8") + "\n\n" + code, encoding="utf-8")
    res = lint_imports(tmp_path)
    assert res.returncode != 0, res.stdout
    broken = res.stdout.split("Broken contracts", 1)[-1]
    assert contract in broken, res.stdout
