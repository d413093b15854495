"""A job's script must not import heavy modules the job never uses (scipy.special alone costs
~0.15 s, jsonschema ~0.07 s, per process). Locally, jobs are forked from a server that imports
what every script imports (falseclaims.pipeline.run_script), once per run; where that server
is not used (a cluster job is a new Snakemake on its node; platforms without forkserver), each
job is a new Python process that pays for its script's imports.

For every workflow/scripts/*.py, the script's top-level import statements run in a fresh
interpreter and the modules of FORBIDDEN[script] must be absent from sys.modules afterwards.
FORBIDDEN lists only modules the job does not need when it runs either (e.g. the probability
jobs need scipy.special, validate_sheets needs jsonschema, the seaborn figures need
scipy.stats), so a failure here is start-up time wasted in every run of that job.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parents[1] / "workflow" / "scripts"

SCIPY = ("scipy.special", "scipy.stats", "scipy.optimize")
PLOTS = ("matplotlib", "seaborn")
NEVER = ("jsonschema", "referencing", "sklearn")  # no job validates at import or trains models
READER = ("falseclaims.sheets.read.reader",)  # the sheet reader: validate_sheets only

FORBIDDEN = {
    "assign_congruence": SCIPY + PLOTS + NEVER + READER,
    "impute_sd": SCIPY + PLOTS + NEVER + READER,
    "eligibility": SCIPY + PLOTS + NEVER + READER,
    "exceedance": SCIPY + PLOTS + NEVER + READER,
    "estimation_congruence": SCIPY + PLOTS + NEVER + READER,
    "estimation_sd": SCIPY + PLOTS + NEVER + READER,
    "probabilities": ("scipy.stats", "scipy.optimize") + PLOTS + NEVER + READER,
    "calibration_simulate": ("scipy.stats", "scipy.optimize") + PLOTS + NEVER + READER,
    "multiplicity_simulate_dependent": PLOTS + NEVER + READER,
    "validate_sheets": SCIPY + PLOTS + ("sklearn",),
    "calibration_figures": ("scipy.stats", "scipy.optimize", "seaborn") + NEVER + READER,
    "multiplicity_figures": ("seaborn",) + NEVER + READER,
    "estimation_figures": NEVER + READER,
    "venue_comparison": NEVER + READER,
    "venue_figures": NEVER + READER,
    "numbers": PLOTS + NEVER + READER,
    "front_page": SCIPY + PLOTS + NEVER + READER,
    "plausibility": SCIPY + PLOTS + NEVER + READER,
    "table_agreement": ("seaborn",) + NEVER + READER,
    "table_ties": ("seaborn",) + NEVER + READER,
}


def import_lines(script: Path) -> str:
    """The script's top-level ``import``/``from`` statements, one per line."""
    tree = ast.parse(script.read_text(encoding="utf-8"))
    return "\n".join(ast.unparse(node) for node in tree.body
                     if isinstance(node, (ast.Import, ast.ImportFrom)))


def loaded_after(code: str, modules) -> list[str]:
    probe = f"{code}\nimport json, sys\nprint(json.dumps([m for m in {list(modules)!r} " \
            "if m in sys.modules]))"
    res = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         timeout=120)
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout.strip().splitlines()[-1])


def test_every_script_has_an_entry():
    assert sorted(p.stem for p in SCRIPTS.glob("*.py")) == sorted(FORBIDDEN)


@pytest.mark.parametrize("name", sorted(FORBIDDEN))
def test_job_imports_no_unused_heavy_modules(name):
    code = import_lines(SCRIPTS / f"{name}.py")
    assert "falseclaims" in code, f"{name}.py imports nothing from falseclaims?"
    assert loaded_after(code, FORBIDDEN[name]) == []


def test_probe_sees_a_loaded_module():
    """The check itself can fail: a module that is imported is reported."""
    assert loaded_after("from scipy import special", SCIPY) == ["scipy.special"]
