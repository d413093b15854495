"""Table mode over one file or a folder (``falseclaims table FILE | --dir DIR``).

Exit codes (docs/table.md): 0 every table read; 1 some tables or files could not be read
(each listed with the reason); 2 bad usage or, for one FILE, nothing readable.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from falseclaims.table.analysis import analyse_table
from falseclaims.table.model import interpret_table
from falseclaims.table.readers import FORMATS, TableReadError, read_tables

__all__ = ["Options", "analyse_dir", "analyse_file", "exit_code"]


@dataclass
class Options:
    n: int | None = None
    task: str | None = None
    units: str = "auto"
    metrics: list[str] | None = None
    table: str | None = None
    cutoff: float | None = None
    pm_over: str = "unclear"
    n_fallback: bool = False   # --dir: --n only for tables without an n column


def _reason(exc: Exception, prefix: str) -> str:
    text = str(exc)
    return text[len(prefix) + 2:] if text.startswith(prefix + ", ") or text.startswith(
        prefix + ": ") else text


def _select(tables, wanted: str | None, path):
    if wanted is None:
        return tables
    if wanted.isdigit() and 1 <= int(wanted) <= len(tables):
        return [tables[int(wanted) - 1]]
    hit = [t for t in tables if wanted.lower() in t.name.lower()]
    if not hit:
        raise TableReadError(f"{path}: --table {wanted!r} matches none of "
                             f"{[t.name for t in tables]} (give a name or a number 1-"
                             f"{len(tables)})")
    return hit


def _analyse(raw, cfg, opt: Options) -> dict:
    table = interpret_table(raw, cfg, n=opt.n, task=opt.task, units=opt.units,
                            metrics=opt.metrics, n_fallback=opt.n_fallback)
    return analyse_table(table, cfg, opt.cutoff, opt.pm_over)


def analyse_file(path, cfg: dict, opt: Options, strict: bool = True) -> dict:
    """``{"tables": [...], "unreadable": [...]}`` for one file. ``strict``: when no table
    can be read, raise the first problem instead of listing it."""
    path = str(path)
    tables, unreadable = [], []
    try:
        raws = _select(read_tables(path), opt.table, path)
    except (TableReadError, ValueError) as exc:
        if strict:
            raise
        return {"tables": [], "unreadable": [{"file": path, "table": "",
                                              "reason": _reason(exc, path)}]}
    first = None
    for raw in raws:
        try:
            tables.append(_analyse(raw, cfg, opt))
        except ValueError as exc:  # TableReadError and check's refusals
            first = first or exc
            unreadable.append({"file": path, "table": raw.name,
                               "reason": _reason(exc, f"{path}, {raw.name}")})
    if strict and not tables and first is not None:
        raise first
    return {"tables": tables, "unreadable": unreadable}


def analyse_dir(folder, cfg: dict, opt: Options) -> dict:
    """Every table file under ``folder`` (recursively, sorted; hidden files skipped)."""
    root = Path(folder)
    if not root.is_dir():
        raise ValueError(f"--dir {folder}: not a directory")
    files = sorted(p for p in root.rglob("*") if p.is_file()
                   and not any(part.startswith(".") for part in p.relative_to(root).parts))
    known = [p for p in files if FORMATS.get(p.suffix.lower())]
    skipped = [str(p) for p in files if p not in known]
    if not known:
        raise ValueError(f"--dir {folder}: no table files (extensions "
                         + ", ".join(k for k, v in FORMATS.items() if v) + ")")
    out = {"tables": [], "unreadable": [], "skipped": skipped}
    opt = Options(**{**vars(opt), "n_fallback": True})
    for p in known:
        res = analyse_file(p, cfg, opt, strict=False)
        out["tables"] += res["tables"]
        out["unreadable"] += res["unreadable"]
    return out


def exit_code(result: dict) -> int:
    return 1 if result["unreadable"] else 0
