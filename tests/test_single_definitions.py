"""Definitions that must exist once: the task list, the venue-label rule, the headline
assumption. A second copy drifts; these scans fail when one reappears."""

import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "falseclaims"
WORKFLOW = Path(__file__).resolve().parents[1] / "workflow"

TASK_LIST = re.compile(r"""[\(\[]\s*["']classification["']\s*,\s*["']segmentation["']\s*,?\s*[\)\]]""")


def _python_files():
    yield from SRC.rglob("*.py")
    yield from WORKFLOW.rglob("*.py")
    yield from WORKFLOW.rglob("*.smk")


def _hits(pattern):
    return sorted(str(p.relative_to(SRC.parents[1])) for p in _python_files()
                  for line in p.read_text(encoding="utf-8").splitlines()
                  if pattern.search(line))


def test_task_list_is_defined_once():
    assert _hits(TASK_LIST) == ["src/falseclaims/tasks.py"]


def test_venue_label_rule_is_defined_once():
    assert _hits(re.compile(r"""\.get\(\s*["']label["']""")) == ["src/falseclaims/config.py"]


def test_headline_levels_are_read_in_one_place():
    assert _hits(re.compile(r"""\[["']headline_(congruence|sd)["']\]""")) == [
        "src/falseclaims/config.py"] * 2


def test_metric_scale_ranges_are_defined_once():
    # which metrics are converted from percent, and each scale's range: sheets/read/columns.py
    assert _hits(re.compile(r"""["']signed["']\s*:\s*\(""")) == [
        "src/falseclaims/sheets/read/columns.py"]
    assert _hits(re.compile(r"""re\.compile\(r?["'].*(kappa|mcc)""", re.I)) == [
        "src/falseclaims/sheets/read/columns.py"]
