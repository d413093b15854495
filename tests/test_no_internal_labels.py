"""User-facing text cites papers by key ([Key] in docs/references.md), never by labels of
documents users do not have: no "seed 0..", "method-notes" or "issue N" in the package,
workflow, config, docs, example data or any `falseclaims --help`."""

from __future__ import annotations

import contextlib
import importlib
import io
import re
import tomllib
from pathlib import Path

import openpyxl
import pytest

ROOT = Path(__file__).resolve().parents[1]
# whitespace may be a line break: wrapped help texts and comments must not hide a label
LABEL = re.compile(r"seed\s+0|method-notes|issue\s+[0-9]", re.IGNORECASE)
SCANNED = ["src", "workflow", "config", "docs", "data/example", "data/README.md", "profiles",
           "benchmarks", "envs", "README.md", "Snakefile", "CITATION.cff"]
KEY_SCANNED = ["src", "workflow", "config", "docs", "README.md"]
BINARY_SUFFIXES = {".png", ".pdf", ".jpg", ".jpeg", ".gif", ".svgz", ".pyc", ".gz", ".zip"}
SKIP_DIRS = {"__pycache__", ".snakemake", ".pytest_cache"}
# a citation key: author(s) + year, e.g. [Christodoulou2025]; the calculator has no year
KEY = re.compile(r"\[([A-Z][A-Za-z]+[0-9]{4}[a-z]?|ClaimsReloaded)\]")
DEFINED_KEY = re.compile(r"^- \*\*\[([^\]]+)\]\*\*", re.MULTILINE)


def _files(roots: list[str], root: Path = ROOT):
    for name in roots:
        top = root / name
        paths = [top] if top.is_file() else sorted(top.rglob("*")) if top.is_dir() else []
        for p in paths:
            if p.is_file() and not SKIP_DIRS.intersection(p.parts):
                yield p


def _texts(path: Path):
    """(location, text) pairs of one file: its text, or every string cell of a workbook."""
    if path.suffix == ".xlsx":
        wb = openpyxl.load_workbook(path, read_only=True)
        for ws in wb.worksheets:
            for row in ws.iter_rows():
                for cell in row:
                    if isinstance(cell.value, str):
                        yield f"{path}:{ws.title}!{cell.coordinate}", cell.value
        wb.close()
        return
    if path.suffix.lower() in BINARY_SUFFIXES:
        return
    raw = path.read_bytes()
    if b"\0" in raw:
        return
    yield str(path), raw.decode("utf-8")


def label_hits(roots: list[str], root: Path = ROOT) -> list[str]:
    hits = []
    for path in _files(roots, root):
        for where, text in _texts(path):
            for m in LABEL.finditer(text):
                lineno = text.count("\n", 0, m.start()) + 1
                line = text.splitlines()[lineno - 1]
                hits.append(f"{where}:{lineno}: {line.strip()[:120]}")
    return hits


def test_no_internal_labels_in_user_facing_files():
    hits = label_hits(SCANNED)
    assert not hits, "internal labels (cite by [Key] instead):\n" + "\n".join(hits)


def test_checker_finds_planted_labels(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("ok\nsee Seed 003 for this\n")
    (tmp_path / "docs" / "b.py").write_text("# fixed in Issue 12\n# method-notes (seed\n004)\n")
    wb = openpyxl.Workbook()
    wb.active["B2"] = "marginals of seed 001"
    wb.save(tmp_path / "docs" / "c.xlsx")
    (tmp_path / "docs" / "clean.md").write_text("[Christodoulou2025], Methods; rng seed 20230708\n")
    hits = label_hits(["docs"], tmp_path)
    assert len(hits) == 5, hits
    assert any("c.xlsx:Sheet!B2" in h for h in hits)


def _console_main():
    """The `falseclaims` console script, as declared in pyproject.toml."""
    spec = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]["falseclaims"]
    module, func = spec.split(":")
    return getattr(importlib.import_module(module), func)


def _help(argv: list[str]) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as exc:
        _console_main()(argv)
    assert exc.value.code == 0
    return out.getvalue()


def test_cli_help_has_no_internal_labels():
    from falseclaims.cli import VERBS
    top = _help(["--help"])
    verbs = [v for v in VERBS if re.search(rf"^\s+{v}\s", top, re.M)]
    assert verbs == list(VERBS), top  # every command listed in the top help
    subs = [["sheet", v, "--help"] for v in ("inspect", "check")]
    for argv in [["--help"]] + [[v, "--help"] for v in verbs] + subs:
        text = _help(argv)
        bad = [m.group(0) for m in LABEL.finditer(text)]
        assert not bad, f"falseclaims {' '.join(argv)}: {bad}"


def defined_keys() -> set[str]:
    return set(DEFINED_KEY.findall((ROOT / "docs" / "references.md").read_text()))


def test_every_cited_key_is_in_references():
    defined = defined_keys()
    assert {"Christodoulou2025", "ClaimsReloaded", "Mollersen2023", "Rainio2024",
            "Christodoulou2024", "Antonelli2022", "Bassi2024", "Kalb2023"} <= defined
    missing = []
    for path in _files(KEY_SCANNED):
        for where, text in _texts(path):
            missing += [f"{where}: [{k}]" for k in KEY.findall(text) if k not in defined]
    assert not missing, "cited keys missing from docs/references.md:\n" + "\n".join(missing)


def test_every_reference_has_a_year_and_a_link_or_venue():
    text = (ROOT / "docs" / "references.md").read_text()
    entries = re.split(r"^- (?=\*\*\[)", text, flags=re.MULTILINE)[1:]
    assert len(entries) == len(defined_keys())
    for entry in entries:
        key = re.match(r"\*\*\[([^\]]+)\]\*\*", entry).group(1)
        assert re.search(r"\((19|20)[0-9]{2}\)|\b(19|20)[0-9]{2}\b", entry), key
        assert re.search(r"https?://|doi|Biometrika|Journal|Letters", entry), key
