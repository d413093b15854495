"""Conventions of docs/architecture.md ("Conventions checked by tools").

Most are ruff rules in pyproject.toml, run by .ci/run over the tree; here planted code shows
that the configuration really refuses what it should (and lets the exceptions through).
Function length has no ruff rule, so it is measured here: functions under 80 lines. Modules
have no line limit: a module is as large as its one concern needs, and none is split only
to satisfy a count.
"""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TREES = ("src", "workflow", "tests", "benchmarks", "tools")
# a module is as long as its one concern needs (no line count: the XLSX reader is one
# concern in 509 lines); a function longer than this does more than one thing
MAX_FUNCTION_LINES = 80


def _ruff() -> str:
    exe = shutil.which("ruff") or str(Path(sys.executable).with_name("ruff"))
    if not Path(exe).exists():
        pytest.skip("ruff not installed (pip install -e '.[test]')")
    return exe


def ruff_codes(code: str, path: str) -> list[str]:
    """The rule codes ruff reports for ``code`` as if it were the file ``path``."""
    res = subprocess.run([_ruff(), "check", "--no-cache", "--output-format", "json",
                          "--stdin-filename", path, "-"], input=code, cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert res.returncode in (0, 1), res.stderr
    return sorted(d["code"] for d in json.loads(res.stdout))


CLOSED_FORM = ("from falseclaims.stats import prob_false_claim_classification\n"
               "from falseclaims import stats\n\n"
               "a = prob_false_claim_classification(10, 0.9, 0.8, 0.7)\n"
               "b = stats.prob_false_claim_segmentation(10, 0.9, 0.8, 0.1, 0.1, 0.5)\n")


def test_only_the_engine_calls_the_closed_forms():
    assert ruff_codes(CLOSED_FORM, "src/falseclaims/survey/planted.py") == ["TID251"] * 2
    assert ruff_codes(CLOSED_FORM, "src/falseclaims/engine.py") == []
    assert ruff_codes(CLOSED_FORM, "tests/test_planted.py") == []


def test_the_library_does_not_import_the_command_line():
    code = "from falseclaims.cli import CONFIG_HELP\n\nHELP = CONFIG_HELP\n"
    assert ruff_codes(code, "src/falseclaims/examples/planted.py") == ["TID251"]
    assert ruff_codes(code, "src/falseclaims/cli/planted.py") == []


def test_no_private_attribute_of_another_object():
    code = ("class Reader:\n    def __init__(self, wb):\n        self._wb = wb\n\n"
            "    def path(self):\n        return self._wb._archive\n")
    assert ruff_codes(code, "src/falseclaims/sheets/planted.py") == ["SLF001"]
    assert ruff_codes(code.replace("._archive", ".archive"),
                      "src/falseclaims/sheets/planted.py") == []


def test_unused_import_and_complexity_are_refused():
    assert ruff_codes("import numpy as np\n", "src/falseclaims/planted.py") == ["F401"]
    branches = "".join(f"    if x == {i}:\n        return {i}\n" for i in range(20))
    code = f"def f(x):\n{branches}    return -1\n"
    assert ruff_codes(code, "src/falseclaims/planted.py") == ["C901"]  # complexity 21
    assert ruff_codes(code.replace("    if x == 19:\n        return 19\n", ""),
                      "src/falseclaims/planted.py") == []


def test_figure_labels_keep_their_capitals_other_names_do_not():
    assert ruff_codes("def figS7_uncertainty():\n    pass\n", "src/falseclaims/x.py") == []
    assert ruff_codes("def drawFigure():\n    pass\n", "src/falseclaims/x.py") == ["N802"]


def oversized(paths, root: Path = ROOT) -> list[str]:
    """Functions of more than MAX_FUNCTION_LINES lines."""
    out = []
    for path in paths:
        text = path.read_text(encoding="utf-8")
        name = path.relative_to(root).as_posix()
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                length = node.end_lineno - first + 1
                if length > MAX_FUNCTION_LINES:
                    out.append(f"{name}:{node.lineno} {node.name}: {length} lines")
    return out


def test_functions_are_short():
    paths = sorted(p for tree in TREES for p in (ROOT / tree).rglob("*.py")
                   if not {".venv", "__pycache__"} & set(p.parts))
    assert len(paths) > 100
    assert oversized(paths) == []


def test_size_check_finds_a_long_function(tmp_path):
    long_function = "def f():\n" + "    x = 1\n" * MAX_FUNCTION_LINES
    (tmp_path / "a.py").write_text(long_function)
    (tmp_path / "c.py").write_text("def f():\n" + "    x = 1\n" * (MAX_FUNCTION_LINES - 1))
    found = oversized(sorted(tmp_path.glob("*.py")), tmp_path)
    assert found == ["a.py:1 f: 81 lines"]


def _import_graph() -> dict[str, set[str]]:
    """Module -> the src modules it imports, at module level or inside a function (package
    ``__init__`` files left out: they re-export names lazily)."""
    root = ROOT / "src"
    mods = {}
    for f in root.rglob("*.py"):
        name = ".".join(f.relative_to(root).with_suffix("").parts)
        if f.name != "__init__.py":
            mods[name] = f
    graph = {m: set() for m in mods}
    for m, f in mods.items():
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                targets = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                continue
            graph[m].update(t for t in targets if t in mods and t != m)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def test_cycle_finder_sees_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle():
    """No two modules import each other, directly or through others, not even inside a
    function (docs/architecture.md, "Import structure")."""
    graph = _import_graph()
    assert len(graph) > 100
    assert _cycles(graph) == []
