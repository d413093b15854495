"""Every test named in docs/robustness.md exists (the table must not point at nothing)."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_robustness_table_names_existing_tests():
    text = (ROOT / "docs" / "robustness.md").read_text(encoding="utf-8")
    refs = re.findall(r"`(tests/[\w/]+\.py)?::(\w+)`|`(tests/[\w/]+\.py)`", text)
    assert len(refs) > 30
    missing, file = [], None
    for with_name, name, alone in refs:
        file = with_name or alone or file  # "`::name`" continues the file named before it
        if name and not re.search(rf"^\s*def {name}\b",
                                  (ROOT / file).read_text(encoding="utf-8"), re.M):
            missing.append(f"{file}::{name}")
    assert not missing, missing
