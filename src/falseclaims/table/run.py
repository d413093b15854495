"""Table mode over one file or a folder (``falseclaims table FILE | --dir DIR``).

Exit codes (docs/table.md): 0 every table read; 1 some tables or files could not be read
(each listed with the reason); 2 bad usage or, for one FILE, nothing readable.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path

from falseclaims.config import Analysis
from falseclaims.metrics import Spellings
from falseclaims.table.analysis import analyse_table
from falseclaims.table.model import interpret_table
from falseclaims.table.shapes import (drop_non_methods, drop_row_numbers, long_format_pivot,
                                      looks_transposed, method_metric_pivot, metric_per_row,
                                      metric_rows, row_groups, rows_named, side_by_side)
from falseclaims.table.readers import FORMATS, TableReadError, read_tables, transpose
from falseclaims.table.rows import decimal_commas

__all__ = ["Options", "analyse_dir", "analyse_file", "exit_code", "own_report"]


@dataclass
class Options:
    n: int | dict | None = None     # one size, or {data-set group: size}
    task: str | None = None
    units: str = "auto"
    metrics: list[str] | None = None
    table: str | None = None
    cutoff: float | None = None
    pm_over: str = "unclear"
    n_fallback: bool = False   # --dir: --n only for tables without an n column
    lower_better: list[str] | None = None
    ignore: list[str] | None = None
    transpose: bool = False
    macros: list[str] | None = None

# what one bad file may raise besides our refusals: damaged bytes, permissions, a structure
# nested deeper than Python's recursion limit
FILE_ERRORS = (TableReadError, ValueError, OSError, RecursionError, UnicodeError)


def _reason(exc: Exception, prefix: str) -> str:
    text = str(exc)
    return text[len(prefix) + 2:] if text.startswith(prefix + ", ") or text.startswith(
        prefix + ": ") else text


def _select(tables, wanted: str | None, path):
    if wanted is None:
        return tables
    if wanted.strip().isdigit():  # a number is a position, never text in a caption
        k = int(wanted)
        if not 1 <= k <= len(tables):
            raise TableReadError(f"{path}: --table {k}: the file holds {len(tables)} "
                                 f"table(s) ({[t.name for t in tables]})")
        return [tables[k - 1]]
    hit = [t for t in tables if wanted.lower() in t.name.lower()]
    if not hit:
        raise TableReadError(f"{path}: --table {wanted!r} matches none of "
                             f"{[t.name for t in tables]} (give a name or a number 1-"
                             f"{len(tables)})")
    return hit


def _shapes(raw, spellings: Spellings, opt: Options) -> list:
    """The table as methods x metrics: transposed on request or when its rows are metrics,
    split into its row groups (data sets under section rows). ``spellings``: the primary
    metrics' names (``config.Eligibility.metrics``), which tell a metric from a method."""
    raw = drop_row_numbers(decimal_commas(raw))
    if not opt.transpose and (parts := side_by_side(raw, spellings)) is not None:
        return [t for part in parts for t in _shapes(part, spellings, opt)]
    if opt.transpose:
        raw = drop_non_methods(transpose(raw), spellings)
        raw.notes.append("transposed (--transpose): methods as rows")
    elif (pivot := method_metric_pivot(raw, spellings)) is not None:
        return pivot
    elif (long := long_format_pivot(raw, spellings)) is not None:
        return [t for part in long for t in row_groups(part)]
    elif (per_row := metric_per_row(raw, spellings)) is not None:
        return per_row
    elif looks_transposed(raw, spellings):
        raw = drop_non_methods(transpose(raw), spellings)
        raw.notes.append("transposed: the first column names metrics and no header does "
                         "(methods as columns); give the table as methods x metrics to "
                         "avoid this")
    else:
        raw.rows_are = rows_named(raw) or metric_rows(raw, spellings)
    return row_groups(raw)


def _analyse(raw, cfg, opt: Options) -> dict:
    table = interpret_table(raw, cfg, n=opt.n, task=opt.task, units=opt.units,
                            metrics=opt.metrics, n_fallback=opt.n_fallback,
                            lower_better=opt.lower_better, ignore=opt.ignore,
                            sds_used=opt.pm_over in Analysis.from_config(cfg).use_reported_sd_over)
    return analyse_table(table, cfg, opt.cutoff, opt.pm_over)


def analyse_file(path, cfg: dict, opt: Options, strict: bool = True) -> dict:
    """``{"tables": [...], "unreadable": [...]}`` for one file. ``strict``: when no table
    can be read, raise the first problem instead of listing it."""
    path = str(path)
    tables, unreadable = [], []
    spellings = Analysis.from_config(cfg).eligibility.metrics
    try:
        if own_report(Path(path)):
            raise TableReadError(f"{path}: {REPORT_FILE} (read the tables it was written from)")
        raws = _select(read_tables(path, opt.macros), opt.table, path)
        raws = [sub for raw in raws for sub in _shapes(raw, spellings, opt)]
    except FILE_ERRORS as exc:
        if strict:
            raise _plain(exc, path) from None
        return {"tables": [], "unreadable": [{"file": path, "table": "",
                                              "reason": _reason(_plain(exc, path), path)}]}
    first = None
    for raw in raws:
        try:
            tables.append(_analyse(raw, cfg, opt))
        except (ValueError, RecursionError) as exc:  # TableReadError and check's refusals
            first = first or _plain(exc, f"{path}, {raw.name}")
            unreadable.append({"file": path, "table": raw.name,
                               "reason": _reason(first if first is exc else
                                                 _plain(exc, f"{path}, {raw.name}"),
                                                 f"{path}, {raw.name}")})
    if strict and not tables and first is not None:
        raise first
    return {"tables": tables, "unreadable": unreadable}


def _plain(exc: Exception, where: str) -> Exception:
    """A refusal as one line that names the file (OS and recursion errors do not)."""
    if isinstance(exc, ValueError) and str(exc).startswith(where.split(",")[0]):
        return exc
    if isinstance(exc, RecursionError):
        return TableReadError(f"{where}: nested too deeply to read")
    if isinstance(exc, OSError):
        return TableReadError(f"{where}: {exc.strerror or exc}")
    return TableReadError(f"{where}: {exc}")


def _kind(p: Path) -> str | None:
    """What a path that is no regular file is (None for a regular file or a folder)."""
    try:
        mode = p.stat().st_mode
    except OSError as exc:
        return ("broken symbolic link (its target does not exist)" if p.is_symlink()
                else f"not readable ({exc.strerror})")
    for test, what in ((stat.S_ISFIFO, "a named pipe"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device")):
        if test(mode):
            return f"not a regular file ({what})"
    return None


def _own_folders(root: Path) -> dict[str, Path]:
    """The folders under ``root`` reached without a symbolic link (hidden ones pruned), by
    real path: a link to one of them is read there, never twice."""
    own = {os.path.realpath(root): root}
    for here, dirs, _ in os.walk(root, onerror=lambda exc: None):  # _walk names them
        dirs[:] = [d for d in dirs if not d.startswith(".")
                   and not os.path.islink(os.path.join(here, d))]
        own.update((os.path.realpath(Path(here, d)), Path(here, d)) for d in dirs)
    return own


def _once(paths: list[Path], seen: dict[str, Path]) -> tuple[list[Path], list[str]]:
    """``paths`` without a second path to one real file (a link beside its target), each
    such link named with the path its file is read under (the link's target first)."""
    keep, twice = [], []
    for p in sorted(paths, key=lambda q: (q.is_symlink(), q)):
        real = os.path.realpath(p)
        if real in seen:
            twice.append(f"{p} (link to a file read as {seen[real]})")
        else:
            seen[real] = p
            keep.append(p)
    return sorted(keep), twice


LOCK_FILE = "lock file of a workbook open in Excel or LibreOffice: not a table"


def _lock_file(name: str) -> bool:
    """Excel's owner file ``~$name.xlsx`` and LibreOffice's ``.~lock.name.xlsx#`` exist
    while the workbook is open: not tables, so a sweep names and skips them."""
    return name.startswith("~$") or (name.startswith(".~lock.") and name.endswith("#"))


REPORT_FILE = "a report falseclaims wrote, not a source table"
_REPORT_MARK = b"<title>falseclaims table:"
# every page falseclaims writes (check/percase --report, the web page a browser saves)
# carries this in its head, in either attribute order
_GENERATOR_MARK = re.compile(
    rb"<meta\s+(?:name=[\"']?generator[\"']?\s+content=[\"']?falseclaims[\"'\s/>]"
    rb"|content=[\"']?falseclaims[\"']?\s+name=[\"']?generator[\"'\s/>])", re.IGNORECASE)


def own_report(p: Path) -> bool:
    """An HTML page falseclaims wrote: ``table --report`` (its title) or any other report
    or saved web page (its generator meta tag); their results tables would be read as
    claims of their own on the next sweep of the folder."""
    if p.suffix.lower() not in (".html", ".htm"):
        return False
    try:
        with open(p, "rb") as f:
            head = f.read(16384)
    except OSError:
        return False
    return _REPORT_MARK in head or _GENERATOR_MARK.search(head) is not None


def _walk(root: Path) -> tuple[list[Path], list[dict], list[str]]:
    """Every file under ``root`` (sorted, hidden skipped), the entries that could not be
    read (folders not listable, broken links, pipes and devices: named, since a silent gap
    in a sweep would look like a clean one) and the links skipped with their reason. A
    symbolic link to a folder is walked once: skipped when its folder is read at its own
    place or through another link (a loop back to a parent, too), listed so; a link to a
    file read under another path is listed too."""
    files, bad, links = [], [], []
    own = _own_folders(root)
    top = os.path.realpath(root)
    walked: dict[str, Path] = {top: root}

    def onerror(exc: OSError):
        bad.append({"file": str(exc.filename), "table": "",
                    "reason": f"folder not readable ({exc.strerror})"})

    for here, dirs, names in os.walk(root, onerror=onerror, followlinks=True):
        keep = []
        for d in sorted(d for d in dirs if not d.startswith(".")):
            p = Path(here) / d
            real = os.path.realpath(p)
            if p.is_symlink() and (real in own or real in walked):
                links.append(f"{p} (linked folder: its files are read as "
                             f"{own.get(real) or walked[real]})")
            elif p.is_symlink() and top.startswith(real.rstrip(os.sep) + os.sep):
                # a link to /, or to a parent: the sweep itself and all around it
                links.append(f"{p} (linked folder {real} holds the swept folder: not walked)")
            elif real not in walked:
                walked[real] = p
                keep.append(d)
        dirs[:] = keep
        links += [f"{Path(here) / f} ({LOCK_FILE})" for f in sorted(names) if _lock_file(f)]
        files += [Path(here) / f for f in names if not f.startswith(".") and not _lock_file(f)]
    regular = []
    for p in sorted(files):
        if (why := _kind(p)) is not None:
            bad.append({"file": str(p), "table": "", "reason": why})
        elif p.is_file():
            regular.append(p)
    regular, twice = _once(regular, {})
    return regular, bad, links + twice


def analyse_dir(folder, cfg: dict, opt: Options) -> dict:
    """Every table file under ``folder`` (recursively, sorted; hidden files skipped)."""
    root = Path(folder)
    if not root.is_dir():
        raise ValueError(f"--dir {folder}: not a directory")
    files, bad, links = _walk(root)
    known = [p for p in files if FORMATS.get(p.suffix.lower())]
    # every entry carries its reason, as the links' entries do
    skipped = [f"{p} (not a table file)" for p in files if p not in known] + links
    reports = [p for p in known if own_report(p)]
    skipped += [f"{p} ({REPORT_FILE})" for p in reports]
    known = [p for p in known if p not in reports]
    if not known and not bad:
        raise ValueError(f"--dir {folder}: no table files (extensions "
                         + ", ".join(k for k, v in FORMATS.items() if v) + ")")
    out = {"tables": [], "unreadable": list(bad), "skipped": skipped}
    opt = Options(**{**vars(opt), "n_fallback": True})
    for p in known:
        res = analyse_file(p, cfg, opt, strict=False)
        out["tables"] += res["tables"]
        out["unreadable"] += res["unreadable"]
    return out


def exit_code(result: dict) -> int:
    return 1 if result["unreadable"] else 0
