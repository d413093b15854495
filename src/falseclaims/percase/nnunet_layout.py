"""nnU-Net's evaluation summaries (``summary.json``), one file per method.

nnU-Net ([Isensee2021]) writes, after validation or ``nnUNetv2_evaluate_folder``, a
``summary.json`` with every case's metrics per label or region:

- version 2: ``{"metric_per_case": [{"reference_file": ..., "prediction_file": ...,
  "metrics": {"1": {"Dice": ..., "IoU": ..., "TP": ...}, ...}}, ...], "mean": ...}``;
- version 1: ``{"results": {"all": [{"reference": ..., "test": ..., "1": {"Dice": ...,
  "Jaccard": ...}}, ...], "mean": ...}}``.

Each label or region (its key as written, ``"1"`` or ``"(1, 2, 3)"``) is a structure
(``--subtask``); the compared metric is the Dice score unless ``metric`` names another one
the file holds (``IoU``/``Jaccard``). nnU-Net writes NaN (or null) where the reference and
the prediction are both empty; such a value is left out with a note, as an empty cell of
the wide per-method layout is. The case id is the reference file's name without its image
extension. The method is named by the part of its path that differs between the files
(``.../Trainer_A/fold_0/validation/summary.json`` and ``.../Trainer_B/fold_0/...`` give
``Trainer_A`` and ``Trainer_B``). When the names differ in a cross-validation fold folder
(``fold_0`` ... ``fold_4``) as well, each method's folds are pooled into one method: in
nnU-Net's cross-validation every training case is in exactly one fold's validation set, so
the folds together are the method's out-of-fold results (a case in two folds is refused as
a duplicate, methods with different folds as differing case sets).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import pandas as pd

from falseclaims.percase.checks import (
    _finish,
    as_count,
    check_same_references,
    reference_count_key,
)
from falseclaims.percase.errors import PerCaseValidationError, Problem
from falseclaims.percase.model import PerCase

PathLike = str | os.PathLike

# a summary this large is no evaluation summary (nnU-Net's are kilobytes to a few MB):
# refused before json reads it into memory
MAX_SUMMARY_BYTES = 200 * 2**20
IMAGE_SUFFIXES = (".nii.gz", ".nii", ".nrrd", ".seg.nrrd", ".mha", ".mhd", ".png", ".tif",
                  ".tiff", ".bmp", ".jpg", ".npz", ".npy", ".gz")
NAN_TEXT = {"nan", "-nan", "inf", "-inf", "infinity", "-infinity", "none", "null", ""}
# the same overlap under the names nnU-Net's two versions give it
METRIC_SPELLINGS = {"dice": "Dice", "dsc": "Dice", "iou": "IoU", "jaccard": "Jaccard"}
# nnU-Net's cross-validation folder names (fold_0 ... fold_4; fold_all is training on all)
FOLD_PART = re.compile(r"fold_?\d+", re.IGNORECASE)


def _load(path: Path) -> object:
    if path.stat().st_size > MAX_SUMMARY_BYTES:
        raise PerCaseValidationError(f"{path}: {path.stat().st_size / 2**20:.0f} MB is too large "
                                     "for an nnU-Net summary.json")
    raw = path.read_bytes()
    if not raw.strip():
        raise PerCaseValidationError(f"{path}: empty file; expected an nnU-Net summary.json")
    # a UTF-16 file (Windows editors, PowerShell's Out-File) starts with its byte order mark
    encoding = "utf-16" if raw[:2] in (b"\xff\xfe", b"\xfe\xff") else "utf-8-sig"
    try:
        return json.loads(raw.decode(encoding))
    except UnicodeDecodeError:
        raise PerCaseValidationError(f"{path}: not UTF-8 text; expected an nnU-Net "
                                     "summary.json") from None
    except json.JSONDecodeError as exc:
        raise PerCaseValidationError(f"{path}: not valid JSON (line {exc.lineno}, column "
                                     f"{exc.colno}: {exc.msg}); expected an nnU-Net "
                                     "summary.json") from None
    except RecursionError:
        raise PerCaseValidationError(f"{path}: JSON nested too deeply to read; expected an "
                                     "nnU-Net summary.json (a few levels deep)") from None
    except ValueError:  # an integer of more digits than Python converts (4,300)
        raise PerCaseValidationError(f"{path}: holds a number of thousands of digits; "
                                     "expected an nnU-Net summary.json") from None


def _cases(doc: object) -> tuple[str, list] | None:
    """(the cases' JSON key, the per-case entries) of an nnU-Net summary; None otherwise."""
    if not isinstance(doc, dict):
        return None
    if isinstance(doc.get("metric_per_case"), list):
        return "metric_per_case", doc["metric_per_case"]
    results = doc.get("results")
    if isinstance(results, dict) and isinstance(results.get("all"), list):
        return "results.all", results["all"]
    return None


def is_nnunet_summary(path: PathLike) -> bool:
    """True for a ``.json`` file: the only JSON the per-case readers take is an nnU-Net
    summary, and its reader says what is wrong with one that is not."""
    return Path(path).suffix.lower() == ".json"


def case_name(reference: str) -> str:
    """The case id: the reference file's name without its image extension."""
    name = Path(str(reference).replace("\\", "/")).name
    lower = name.lower()
    for suffix in sorted(IMAGE_SUFFIXES, key=len, reverse=True):
        if lower.endswith(suffix) and len(name) > len(suffix):
            return name[: -len(suffix)]
    return name


def method_names(paths: Sequence[PathLike]) -> list[str]:
    """Each file's name for its method: the path parts that differ between the files (their
    common leading and trailing parts dropped); one file: its folder's name."""
    parts = [list(Path(p).parent.resolve().parts) + [Path(p).stem] for p in paths]
    if not parts:
        return []  # (the loops below would never end: all() of nothing is true)
    if len(parts) == 1:
        return [parts[0][-2] if len(parts[0]) > 1 else parts[0][-1]]
    lead = 0
    while all(len(q) > lead + 1 and q[lead] == parts[0][lead] for q in parts):
        lead += 1
    tail = 0
    while all(len(q) > lead + tail + 1 and q[-1 - tail] == parts[0][-1 - tail] for q in parts):
        tail += 1
    return ["/".join(q[lead:len(q) - tail]) for q in parts]


def pool_folds(names: Sequence[str]) -> tuple[list[str], str | None]:
    """Each file's method once its cross-validation fold folder is dropped, and a note; the
    names unchanged (and None) unless some names have one fold part each (none more), every
    method so named has two or more folds, and at least two methods remain. A name without
    a fold part (nnU-Net's ``crossval_results_folds_0_1_2_3_4``, all folds in one summary)
    stays a method of its own."""
    split = [name.split("/") for name in names]
    folds = [[i for i, part in enumerate(parts) if FOLD_PART.fullmatch(part)] for parts in split]
    if not split or any(len(f) > 1 for f in folds) or not any(folds):
        return list(names), None
    fold = [parts[f[0]] if f else None for parts, f in zip(split, folds, strict=True)]
    methods = ["/".join(p for i, p in enumerate(parts) if i not in f) or "?"
               for parts, f in zip(split, folds, strict=True)]
    groups = {m: sorted(fd for mm, fd in zip(methods, fold, strict=True) if mm == m and fd)
              for m, fd in zip(methods, fold, strict=True) if fd}
    if (len(set(methods)) < 2 or any(len(v) < 2 for v in groups.values())
            or any(m in groups for m, fd in zip(methods, fold, strict=True) if not fd)):
        return list(names), None
    said = "; ".join(f"{m}: {', '.join(v)}" for m, v in groups.items())
    return methods, (f"cross-validation folds pooled per method ({said}): each case is "
                     "compared once, from the fold that validated it")


def _refuse_identical(paths: Sequence[str], names: Sequence[str]) -> None:
    """Two methods' summaries with the very same bytes are one result copied, not two (two
    folds of one method are left to the case checks, which name the case)."""
    seen: dict[bytes, tuple[str, str]] = {}
    for path, name in zip(paths, names, strict=True):
        try:
            digest = hashlib.sha256(Path(path).read_bytes()).digest()
        except OSError:
            continue  # (an unreadable file is named by the reader)
        if digest in seen and seen[digest][1] != name:
            raise PerCaseValidationError(f"{path}: the same content as {seen[digest][0]}; "
                                         "expected one summary.json per method (two methods' "
                                         "results are never byte-identical: one file copied?)")
        seen.setdefault(digest, (path, name))


def _metric_keys(entry: dict, metric: str) -> list[str]:
    """The entry's keys that name the metric, in any letter case (more than one: which to
    compare is not ours to guess)."""
    want = METRIC_SPELLINGS.get(metric.lower(), metric).lower()
    return [key for key in entry if str(key).lower() == want]


def _rows(file: str, method: str, where: str, entries: list, metric: str,
          problems: list[Problem], undefined: list[tuple]) -> list[tuple]:
    """The file's defined values as rows; (case, label, method) of each NaN/null value is
    appended to ``undefined`` (so that a case one method has no value for is not said to be
    missing from its file)."""
    rows, missing, before = [], [], len(undefined)
    for i, case in enumerate(entries):
        at = f"{where}[{i}]"
        if not isinstance(case, dict):
            problems.append(Problem(file, column=at, value=case, expected="a case's entry"))
            continue
        reference = case.get("reference_file", case.get("reference"))
        if not isinstance(reference, str) or not reference.strip():
            problems.append(Problem(file, column=at, value=reference,
                                    expected="the case's reference file (reference_file)"))
            continue
        labels = case.get("metrics", {k: v for k, v in case.items() if isinstance(v, dict)})
        if not isinstance(labels, dict) or not labels:
            problems.append(Problem(file, column=at, expected="metrics per label or region"))
            continue
        for label, values in labels.items():
            got = _label_value(file, f"{at}.{label}", values, metric, problems)
            if got is MISSING:
                missing.append((f"{at}.{label}", values))
            elif got is UNDEFINED:
                undefined.append((case_name(reference), str(label), method))
            elif got is not None:
                key, value = got
                count_key = reference_count_key(values)
                rows.append((case_name(reference), str(label), method, key.lower(), value,
                             file, f"{at}.{label}.{key}",
                             None if count_key is None else as_count(values[count_key])))
    nan = len(undefined) - before
    problems += _missing_metric(file, metric, missing, found_any=bool(rows) or nan > 0)
    if nan and not rows and not missing:
        problems.append(Problem(file, column=where, value=f"every {metric} value NaN or null "
                                f"({nan})", expected=f"a defined {metric} for some cases "
                                "(NaN: reference and prediction both empty)"))
    return rows


MISSING, UNDEFINED = object(), object()


def _label_value(file: str, at: str, values, metric: str, problems: list[Problem]):
    """(key, value) of one label's metric; MISSING (no such key), UNDEFINED (NaN, null), or
    None after adding the problem."""
    keys = _metric_keys(values, metric) if isinstance(values, dict) else []
    if not keys:
        return MISSING
    if len(keys) > 1:
        problems.append(Problem(file, column=at, value=", ".join(keys), expected=f"one "
                                f"{metric} value (keys differing only in letter case)"))
        return None
    value = values[keys[0]]
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return UNDEFINED
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        text = isinstance(value, str) and value.strip().lower() in NAN_TEXT
        problems.append(Problem(file, column=f"{at}.{keys[0]}", value=value,
                                expected="a number" + (" (JSON's NaN or null for an "
                                "undefined value, not text)" if text else "")))
        return None
    return keys[0], float(value)


def _missing_metric(file: str, metric: str, missing: list[tuple], found_any: bool
                    ) -> list[Problem]:
    """Each label entry without the metric; one problem for the file when none has it (a
    regression model's summary, or a metric the file was not evaluated with) rather than
    one per case and label."""
    if found_any or not missing:
        return [Problem(file, column=at, value=values, expected=f"a {metric} value")
                for at, values in missing]
    held = sorted({str(k) for _, values in missing if isinstance(values, dict) for k in values})
    return [Problem(file, column=missing[0][0], value=f"no {metric} value in any of its "
                    f"{len(missing)} label entries (metrics held: {', '.join(held[:12]) or 'none'})",
                    expected=f"{metric} values per case and label (a segmentation summary; "
                    "--metric names the overlap metric: Dice, IoU or Jaccard)")]


def _undefined(undefined: list[tuple], metric: str, compared: Sequence[str] | None,
               notes: list[str]) -> dict[tuple[str, str], set[str]]:
    """{(label, method): cases whose value is undefined (NaN)}, and a note per method counting
    them within the compared labels only (the others are read but not compared)."""
    wanted = None if not compared else {str(t) for t in compared}
    got: dict[tuple[str, str], set[str]] = {}
    for case, label, method in undefined:
        if wanted is None or label in wanted:
            got.setdefault((label, method), set()).add(case)
    for method in dict.fromkeys(m for _, m, in got):
        n = sum(len(c) for (_, m), c in got.items() if m == method)
        notes.append(f"{method}: {n} {metric} value(s) undefined (NaN: reference and "
                     "prediction both empty) left out")
    return got


def _check_label_sets(rows: list[tuple], undefined: list[tuple], compared: Sequence[str] | None,
                      notes: list[str]) -> list[tuple]:
    """The rows of the labels/regions every summary lists. Different lists mean different
    label maps, where one number may name two structures: none in common is refused; some in
    common must be chosen with a subtask (then the others are dropped with a note)."""
    keys: dict[str, set[str]] = {}
    for row in rows:
        keys.setdefault(row[2], set()).add(row[1])
    for _, label, method in undefined:
        keys.setdefault(method, set()).add(label)
    if len(keys) < 2 or len({frozenset(k) for k in keys.values()}) == 1:
        return rows
    said = "; ".join(f"{m}: {', '.join(sorted(k))}" for m, k in keys.items())
    common = set.intersection(*keys.values())
    if not common:
        raise PerCaseValidationError(f"the summaries have no label or region in common ({said})"
                                     "; expected the same labels in every summary (results "
                                     "of one label map)")
    if not compared:
        raise PerCaseValidationError(f"the summaries list different labels or regions ({said})"
                                     ": different label maps? choose one every summary has "
                                     f"with --subtask ({', '.join(sorted(common))}), after "
                                     "checking it names the same structure in every map")
    notes.append(f"the summaries list different labels or regions ({said}): only labels every "
                 "summary has are read; the label compared must name the same structure in "
                 "every map (a number alone cannot tell)")
    return [r for r in rows if r[1] in common]


def read_nnunet_summaries(paths: Mapping[str, PathLike] | Iterable[PathLike],
                          metric: str | None = None, case_mismatch: str = "error",
                          min_methods: int = 2, compared_tasks: Sequence[str] | None = None,
                          units: str = "fraction") -> PerCase:
    """Segmentation results from nnU-Net ``summary.json`` files, one per method.

    ``paths`` maps method -> file, or is a list of files (methods named by
    :func:`method_names`). ``metric``: ``Dice`` (default), or ``IoU``/``Jaccard``.
    ``units``: ``fraction`` (nnU-Net's) or ``percent`` (a summary rescaled to 0-100).
    """
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]  # one file, not its name's characters
    pooled = None
    if isinstance(paths, Mapping):
        files = {str(k): [str(v)] if isinstance(v, (str, os.PathLike)) else [str(x) for x in v]
                 for k, v in paths.items()}
    else:
        paths = [str(p) for p in paths]
        real = [os.path.realpath(p) for p in paths]
        twice = next((p for p, r in zip(paths, real, strict=True) if real.count(r) > 1), None)
        if twice is not None:
            raise PerCaseValidationError(f"{twice}: given twice; expected one summary.json "
                                         "per method (each file once)")
        names, pooled = pool_folds(method_names(paths))
        _refuse_identical(paths, names)
        dup = sorted({n for n in names if names.count(n) > 1})
        if dup and pooled is None:
            raise PerCaseValidationError(f"two files give the method name {dup[0]!r}: name "
                                         "each file's method (method=path)")
        files = {n: [p for p, m in zip(paths, names, strict=True) if m == n] for n in names}
    if not files:
        raise ValueError("no nnU-Net summary files given")
    if len(files) < min_methods:
        raise PerCaseValidationError(f"{', '.join(f for fs in files.values() for f in fs)}: "
                                     f"{len(files)} summary.json "
                                     f"given; expected one per method, at least {min_methods} "
                                     "(a summary holds one method's results)")
    metric = metric or "Dice"
    problems: list[Problem] = []
    notes: list[str] = [pooled] if pooled else []
    rows, undefined = [], []
    for method, file in ((m, f) for m, fs in files.items() for f in fs):
        doc = _load(Path(file))
        found = _cases(doc)
        if found is None:
            raise PerCaseValidationError(f"{file}: not an nnU-Net summary; expected a JSON "
                                         "object with 'metric_per_case' (nnU-Net v2) or "
                                         "'results': {'all': ...} (v1)")
        if not found[1]:
            problems.append(Problem(file, column=found[0], value="[]",
                                    expected="at least one case"))
            continue
        rows += _rows(file, method, *found, metric, problems, undefined)
    if problems:
        raise PerCaseValidationError(problems)
    rows = _check_label_sets(rows, undefined, compared_tasks, notes)
    undefined_cases = _undefined(undefined, metric, compared_tasks, notes)
    cols = ["case_id", "task", "method", "metric", "value", "file", "column", "count"]
    df = pd.DataFrame(rows, columns=cols)
    table = df[cols[:5]].copy()
    origin = pd.DataFrame({"file": df["file"], "row": None, "column": df["column"]})
    counts = df.loc[df["count"].notna(), ["case_id", "task", "method", "count", "file"]]
    table, origin = check_same_references(table, origin, counts.astype({"count": float}),
                                          case_mismatch, notes)
    named = {m: fs[0] if len(fs) == 1 else f"{fs[0]} (and {len(fs) - 1} more folds)"
             for m, fs in files.items()}
    return _finish("segmentation", table, origin, named, problems, notes,
                   case_mismatch=case_mismatch, min_methods=min_methods, units=units,
                   compared_tasks=compared_tasks, undefined=undefined_cases)
