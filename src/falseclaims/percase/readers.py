"""Readers for per-case results, normalised to one long table (architecture: ``percase/``).

Every reader returns a :class:`PerCase`:

- ``table``: one row per case x task x method x metric with columns
  ``case_id, task, method, metric, value`` (+ ``ground_truth`` for classification).
  Segmentation: ``value`` is a float (e.g. DSC in [0, 1]). Classification: ``value`` is the
  predicted label (string), ``metric`` is ``"label"`` and ``ground_truth`` the true label.
- ``scores`` (classification, optional): ``case_id, task, method, label, score`` with one
  row per class score, e.g. softmax outputs.
- ``classes``: the class set (classification), ``notes``: everything accepted but changed
  or left out (e.g. empty cells read as "structure absent"), one line each.

Supported layouts (`docs/percase.md`):

- long table ``case_id, task, method, metric, value[, ground_truth]`` (:func:`read_long`);
  a file that names these columns differently is read with ``columns={role: its column}``
  (``{"case_id": "ID", "ground_truth": "label", "alg_a": "pred_A"}``), also for the
  Claims Reloaded layout;
- wide per-method files, one file per method with a case column and one column per task,
  as in Touchstone (:func:`read_wide_per_method`);
- Claims Reloaded CSVs ([ClaimsReloaded]): segmentation ``case_id, alg_*``, classification
  ``case_id, ground_truth, alg_*`` (:func:`read_claims_reloaded`);
- per-method prediction files plus one label file, as in the ISIC data
  (:func:`read_predictions_with_labels`);
- nnU-Net's evaluation summaries, one ``summary.json`` per method
  (:func:`read_nnunet_summaries`).

Bad input raises :class:`PerCaseValidationError` (a ``ValueError``) listing every problem with
file, row (the line number in the file, header = line 1), column, value and what was
expected.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from falseclaims.percase.checks import CASE_SET_EXPECTED
from falseclaims.percase.claims_reloaded_layout import read_claims_reloaded
from falseclaims.percase.errors import PerCaseValidationError, Problem
from falseclaims.percase.long_layout import has_metric_columns, read_long
from falseclaims.percase.model import DSC_METRICS, LABEL_METRIC, PerCase, Wide
from falseclaims.percase.nnunet_layout import is_nnunet_summary, read_nnunet_summaries
from falseclaims.percase.predictions_layout import (read_finding_scores,
                                                   read_predictions_with_labels,
                                                   score_files_option)
from falseclaims.percase.text_table import (CASE_HEADER, ROLES, column_mapping,
                                             header_looks_like_data, no_header_problem,
                                             numeric_columns, read_text_table, require_file)
from falseclaims.percase.wide_layout import (CASE_COLUMNS, STRUCTURE_COLUMNS, is_mixed,
                                             read_csv_beside_summaries, read_wide_per_method)

__all__ = [
    "PerCase",
    "Wide",
    "PerCaseValidationError",
    "Problem",
    "read_long",
    "read_wide_per_method",
    "read_claims_reloaded",
    "read_predictions_with_labels",
    "read_finding_scores",
    "score_files_option",
    "read_nnunet_summaries",
    "read_csv_beside_summaries",
    "is_mixed",
    "is_nnunet_summary",
    "no_json_among_tables",
    "read_percase",
    "detect_layout",
    "DSC_METRICS",
    "LABEL_METRIC",
    "CASE_SET_EXPECTED",
    "ROLES",
    "column_mapping",
    "require_file",
]

PathLike = str | os.PathLike


def detect_layout(path: PathLike, columns: dict[str, str] | None = None) -> str:
    """``long`` or ``claims_reloaded`` from a single file's header (after the column
    mapping ``columns``, {role: column in the file}, when given); ``nnunet`` for an nnU-Net
    summary.json."""
    p = require_file(path)
    if is_nnunet_summary(p):
        return "nnunet"
    header = read_text_table(p, nrows=0, columns=columns).columns
    if {"case_id", "method", "value"} <= set(header) or has_metric_columns(header):
        return "long"
    if "case_id" in header and any(c.startswith("alg_") for c in header):
        return "claims_reloaded"
    methods = _method_column_hint(p, columns)
    hint = (suggested_mapping(list(header), read_text_table(p, nrows=200))
            if columns is None and not methods else "")
    if not hint and not methods:
        _no_header_or_case_id(p, list(header))
    raise PerCaseValidationError(
        f"{p}: cannot tell the layout from its columns {list(header)}; expected a long table "
        "(case_id, task, method, metric, value[, ground_truth]; or case_id, method and one "
        "column per metric) or the Claims Reloaded layout "
        "(case_id[, ground_truth], alg_*); a file naming them otherwise is read with a "
        "column mapping (--columns case_id=ID,... or columns={'case_id': 'ID', ...})"
        + (f"; {hint[1]}: --columns {hint[0]}" if hint
           else methods or _one_method_hint(list(header)) or _looks_like(p, columns))
    )


def _looks_like(p: Path, columns: dict[str, str] | None) -> str:
    """What a file of no known layout looks like, for the refusal: one method's rows per
    case and structure (nnU-Net v1's evaluator, given alone), else its columns of numbers
    and of text (no column names a method: one method's file, or say which does)."""
    head = read_text_table(p, nrows=200, columns=columns)
    names = [str(c) for c in head.columns]
    structure = next((n for n in names if n.strip().lower() in STRUCTURE_COLUMNS), None)
    case = next((n for n in names if n.strip().lower() in CASE_COLUMNS
                 or CASE_HEADER.match(n)), None)
    if structure and case:
        return (f"; the file looks like one method's results, one row per case ({case!r}) "
                f"and structure ({structure!r}), as nnU-Net v1's evaluator writes them: give "
                "one such file per method (falseclaims percase A.csv B.csv)")
    numeric = numeric_columns(head, names)
    text = [n for n in names if n not in numeric]
    return (f"; the file looks like {len(head)}{'+' if len(head) == 200 else ''} rows with "
            f"numbers in {', '.join(numeric[:8]) or 'no column'} and text in "
            f"{', '.join(text[:8]) or 'no column'}; no column names the methods (a file of "
            "one method: give one file per method; of several: name the method column with "
            "--columns method=COLUMN)")


# a column naming each row's method: one file holding several methods' results
_METHOD_HEADER = re.compile(r"(?i)^(?:methods?|models?|algorithms?|networks?|approach(?:es)?|"
                            r"pipelines?|systems?)(?:[ _-]?name)?$")
# a column naming each row's structure or subset
_STRUCTURE_HEADER = re.compile(r"(?i)^(?:task|anatomy|structure|organ|region|roi|segment|"
                               r"class|tissue|label[ _-]?name)$")


def _method_column_hint(p: Path, columns: dict[str, str] | None) -> str:
    """What a file holding several methods looks like (a method column, a case column and
    columns of numbers) and the mapping that reads it; only ever said, never assumed."""
    head = read_text_table(p, nrows=200, columns=columns)
    names = [str(c) for c in head.columns]
    method = next((n for n in names if n == "method" or _METHOD_HEADER.match(n)), None)
    case = next((n for n in names if n == "case_id" or _CASE_HEADER.match(n)), None)
    if method is None:
        return ""
    structure = next((n for n in names if n == "task" or _STRUCTURE_HEADER.match(n)), None)
    rest = [n for n in names if n not in (method, case, structure)]
    numeric = numeric_columns(head, rest)
    shown = sorted(set(head[method]))
    looks = (f"the file looks like one row per case and method: {method!r} names the "
             f"methods ({', '.join(shown[:4])}{' ...' if len(shown) > 4 else ''})"
             + (f", {structure!r} the structures" if structure else "")
             + (f", the columns {', '.join(numeric)} hold numbers (one metric each?)"
                if numeric else ""))
    if case is None:
        return f"; {looks}; no column names the cases: name it with --columns case_id=COLUMN"
    parts = [f"case_id={case}"] + ([f"task={structure}"] if structure else []) + [
        f"method={method}"]
    value = ",".join(parts)
    value = f"'{value}'" if any(ch.isspace() for ch in value) else value
    return (f"; {looks}; if so: --columns {value}"
            + (" (then --metric names the column compared)" if len(numeric) > 1 else ""))


def _one_method_hint(header: list) -> str:
    """A case column beside structure columns named by whole numbers (nnU-Net's labels
    '1', '2'): one method's results per structure, a file of the one-file-per-method
    layout, given alone."""
    names = [str(h).strip() for h in header]
    case = next((n for n in names if _CASE_HEADER.match(n)), None)
    labels = [n for n in names if n != case]
    if case is None or not labels or not all(n.isdigit() for n in labels):
        return ""
    mapping = "" if case in ("name", "case_id") else f" --columns case_id={case}"
    return (f"; if it holds one method's results per structure ({', '.join(labels)}), give "
            f"one such file per method: falseclaims percase A.csv B.csv{mapping}")


def no_json_among_tables(files: list[str], layout: str) -> None:
    """A ``.json`` file given to a table layout would be read as CSV text (its lines split
    at the commas): refused, naming it."""
    json_files = [f for f in files if is_nnunet_summary(f)]
    if layout == "nnunet" or not json_files:
        return
    others = [f for f in files if f not in json_files]
    if not others:
        raise PerCaseValidationError(
            f"{json_files[0]}: a JSON file (an nnU-Net summary.json?) given the table layout "
            f"{layout!r}; expected a table (CSV) for it, or layout 'nnunet' (or 'auto')")
    raise PerCaseValidationError(
        f"{json_files[0]}: a JSON file (an nnU-Net summary.json?) among table files "
        f"({', '.join(others)}); expected every method's results in one kind of file: all "
        "nnU-Net summary.json files, or all tables (CSV); or, if each CSV holds another "
        "method's Dice per case, one column per label as the summaries name them, "
        "--layout nnunet reads them beside the summaries")


def _no_header_or_case_id(p: Path, header: list) -> None:
    """What the general message would not explain: a comment line above the header, a
    first row of numbers (no header line), alg_* columns without a case_id column."""
    if header and str(header[0]).lstrip().startswith("#"):
        raise PerCaseValidationError(
            f"{p}, row 1: got {str(header[0])[:40]!r}; expected the header line (a comment "
            "line? the first line names the columns: remove the lines above it)")
    if header and all(_is_number(c) for c in header):
        raise PerCaseValidationError(
            f"{p}, row 1: got {', '.join(map(str, header))}; expected column names (the "
            "first row holds numbers: the file has no header line; add one such as "
            "case_id,alg_A,alg_B)")
    if header_looks_like_data(header):
        raise PerCaseValidationError([no_header_problem(str(p), header)])
    if "case_id" not in header and sum(str(c).startswith("alg_") for c in header) >= 2:
        raise PerCaseValidationError(
            f"{p}, row 1: no column case_id among {list(header)}; expected a case_id "
            "column naming each case (the methods' results are paired by it)")


def _is_number(text) -> bool:
    try:
        float(str(text).replace("_", "x"))
    except ValueError:
        return False
    return True


# a first column naming the cases, and one naming the reference (classification labels)
_CASE_HEADER = CASE_HEADER
_TRUTH_HEADER = re.compile(r"(?i)^(?:ground_?truth|gt|label|labels|target|truth|y_?true|"
                           r"reference)$")
_NON_WORD = re.compile(r"\W+")


# a column of differences between methods (rankseg's delta_dice), not a method's results
_DIFFERENCE_HEADER = re.compile(r"(?i)^(?:delta|diff|difference|improvement|gain)(?:[ _-]|$)"
                                r"|[ _-](?:delta|diff|difference)$")
# a header <method>_<metric>: one file holding several methods' results in several metrics
_METRIC_SUFFIX = re.compile(r"(?i)^(.*?\w)[ _-](dice|dsc|iou|jaccard|hd95|hd|assd|asd|nsd|"
                            r"precision|recall|sensitivity|specificity|accuracy|acc|f1|auc)$")


def suggested_mapping(header: list[str], head=None) -> tuple[str, str] | None:
    """(the ``--columns`` value, the sentence that says what it assumes) that reads a wide
    file of per-case results, one column per method (``case, methodA, methodB``), as the
    Claims Reloaded layout; None unless the first column names the cases and at least two
    other columns remain. Columns of differences (``delta_dice``) are left out; columns
    named ``<method>_<metric>`` in two or more metrics give the mapping of one metric (the
    DSC's when there is one), methods named by the part before the metric. ``head``: the
    file's first rows (text cells, :func:`read_text_table`); a column of text there (a site,
    a scanner) is left out and said, unless it holds labels of the ground-truth column
    (predicted classes). Only ever suggested in a message: which columns hold results is
    the user's to confirm."""
    names = [str(h).strip() for h in header]
    if len(names) < 3 or not _CASE_HEADER.match(names[0]) or any(
            not n or any(ch in n for ch in ",='\"") for n in names):
        return None
    parts = [f"case_id={names[0]}"]
    rest = [n for n in names[1:] if not _TRUTH_HEADER.match(n)]
    truth = [n for n in names[1:] if _TRUTH_HEADER.match(n)]
    parts += [f"ground_truth={n}" for n in truth]
    differences = [n for n in rest if _DIFFERENCE_HEADER.search(n)]
    text = _text_columns(head, header, [n for n in rest if n not in differences], truth)
    methods = {n: n for n in rest if n not in differences and n not in text}
    said = []
    if text:
        said.append(f"{', '.join(map(repr, text))} left out (text, not per-case numbers)")
    by_metric = [_METRIC_SUFFIX.match(n) for n in methods]
    metrics = list(dict.fromkeys(m.group(2).lower() for m in by_metric if m))
    if all(by_metric) and len(metrics) > 1:
        chosen = next((m for m in metrics if m in DSC_METRICS), metrics[0])
        methods = {m.group(0): m.group(1) for m in by_metric if m.group(2).lower() == chosen}
        methods = _without_common_tail(methods)
        said.append(f"columns named <method>_<metric> in {len(metrics)} metrics "
                    f"({', '.join(metrics)}): those of {chosen!r}")
    if differences:
        said.append(f"{', '.join(map(repr, differences))} left out (differences, not a "
                    "method's results)")
    if len(methods) < 2:
        return None
    # a column already named alg_* keeps its name (was: alg_alg_a=alg_a)
    parts += [f"alg_{_NON_WORD.sub('_', m).strip('_') or 'method'}={n}"
              for n, m in methods.items() if not n.startswith("alg_")]
    value = ",".join(parts)
    lead = (f"if each column after {names[0]!r} holds one method's per-case results"
            + "".join(f" ({x})" for x in said))
    return (f"'{value}'" if any(ch.isspace() for ch in value) else value), lead


def _text_columns(head, header: list, names: list[str], truth: list[str]) -> list[str]:
    """Of ``names`` (stripped header names), those whose cells in ``head`` are not all
    numbers, except columns of predicted labels: every value among a ground-truth
    column's labels."""
    if head is None:
        return []
    column = {str(h).strip(): h for h in header}
    numeric = set(numeric_columns(head, [column[n] for n in names]))
    labels = set().union(*(set(head[column[t]].str.strip()) for t in truth))
    return [n for n in names if column[n] not in numeric
            and not (labels and set(head[column[n]].str.strip()) - {""} <= labels)]


def _without_common_tail(methods: dict[str, str]) -> dict[str, str]:
    """The method names without the words they all end with (``argmax_foreground_mean``,
    ``rankseg_foreground_mean`` give ``argmax``, ``rankseg``)."""
    words = [re.split(r"[ _-]", m) for m in methods.values()]
    tail = 0
    while all(len(w) > tail + 1 and w[-1 - tail] == words[0][-1 - tail] for w in words):
        tail += 1
    return {n: "_".join(w[:len(w) - tail]) for n, w in zip(methods, words, strict=True)}


def read_percase(path: PathLike, layout: str = "auto", **kwargs) -> PerCase:
    """Read a single per-case file (``long`` or ``claims_reloaded``; ``auto`` detects).
    ``columns={role: column in the file}`` maps a file's own column names to the roles."""
    if layout == "auto":
        layout = detect_layout(path, kwargs.get("columns"))
    if layout == "long":
        return read_long(path, **kwargs)
    if layout == "claims_reloaded":
        return read_claims_reloaded(path, **kwargs)
    raise ValueError(f"layout must be 'auto', 'long' or 'claims_reloaded'; got {layout!r} "
                     "(wide per-method and prediction+label layouts need several files: use "
                     "read_wide_per_method / read_predictions_with_labels)")
