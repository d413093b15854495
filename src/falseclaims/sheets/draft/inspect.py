"""Helpers to start and check a venue's mapping (``falseclaims sheet inspect | check``).

``inspect_sheet`` finds the header row, guesses each column's role from its name and its
cells (an id, a test-set size, a metric value, a category, ...) and drafts a venue block
for config/config.yaml. The guesses are a starting point for the user to edit, never used
by the pipeline. ``group_problems`` condenses a validation error into one line per column
and kind of problem with the first examples.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from falseclaims.sheets.read import cells
from falseclaims.io.raw_table import clean_text, is_missing
from falseclaims.sheets.draft import roles as checks
from falseclaims.sheets.draft.draft_rules import read_with
from falseclaims.sheets.draft.locate import first_table, find_header, legend_rows, text_reading
from falseclaims.sheets.draft.table_shape import (POOLED_COUNT, header_as_data, idless_rows,
                                                  ragged_rows, second_table)
from falseclaims.sheets.draft.roles import is_measure as _is_measure
from falseclaims.sheets.read.columns import ENUMS, PAPERS, RESULTS, WIDE
from falseclaims.sheets.read.errors import CellError, Problem, SheetValidationError
from falseclaims.sheets.read.prepare import _ARITH, _FOLDS, _arith
from falseclaims.sheets.read.rows import skip_rows

ALL_COLUMNS = {**WIDE, **RESULTS}
# a header over shares ("Test (%)", "training percent"): never a count of cases
# a size header over cells at least this share of which are one size with its unit word
# ("300 images", "n=120 patients") is the size column; fewer: listed, not mapped
COUNTED_SHARE = 0.8
_SHARE = re.compile(r"%|percent|\bshare\b|\bratio\b", re.I)
# a size word in a header that names the protocol ("Train/Val/Test Split Protocol")
_SPLIT_HEADER = re.compile(r"split|protocol|validation|evaluation|scheme|strategy", re.I)

__all__ = ["ColumnGuess", "SheetGuess", "inspect_sheet", "draft_venue", "group_problems"]

# header words -> our column (checked in order, first match wins); bare and abbreviated
# headers ("test", "soa", "train ") count, and a training or validation size is matched
# before the test size so that it never becomes n_test
_NAME_HINTS = [
    (r"^(notes?|comments?|remarks?|year|link|url|pages?|country|journal|venue)\b|"
     r"\b(notes?|comments?)$", "(ignore)"),
    # counts and descriptions of a paper or its population, never sizes or results:
    # citation counts, class prevalences ("Robust 36.3; Frail 22.3", "fraction_majority_class"),
    # ages, dates, ranks
    (r"^citations\b|\bcited\b|citation count|prevalence|proportion|\bfraction\b|distribution|"
     r"demograph|\bage\b|\bsex\b|gender|ethnic|\bdates?\b|\bdated\b|annotated|"
     r"\brank(ing)?\b", "(ignore)"),  # a rank is a position, not a size or a result
    # "Trial" (1, 2, 3, ...): a diagnostic-accuracy sheet's only key, one row per study
    (r"^(paper|ref|reference|id|paper.?id|papers|citation|study|authors?|first author|"
     r"dois?|pmc?id|pubmed)\b|^(bibtex |cite ?|citation )?key$|"
     r"^trials?( ?(id|no\.?|number|#))?$|"
     # a study's number or name written as one word ("studynr", "studyname")
     r"^(study|trial|paper|record)(nr|no|num|number|name|id|key)$", "paper_id"),
    (r"title", "title"),
    (r"task", "task"),
    (r"metrics\b", "metrics_reported"),
    (r"metric|measure", "metric"),
    (r"fold", "cv_folds"),
    (r"cross.?valid|\bcv\b", "split"),
    # "hypothesis" alone says a hypothesis is stated, not tested; "stat" names statistics,
    # never a status, a state ("State of the art", "prostate") or a station
    (r"stat(?!us|e|ion|ure)|p.?val|signific|hypothes[ie]s.?test", "statistical_test"),
    (r"\btrain(ing)?\b|n.?train|#.?train", "n_train"),
    (r"\bval(id(ation)?)?\b|n.?val\b", "n_val"),
    (r"\btest(ing)?\b|n.?test|#.?test|hold.?out", "n_test"),
    # an ablation's baseline: the value of the method without its new part ("no_target_
    # accuracy", "w/o DA Dice"), before "no" read as "number"
    (r"^(no|without|w/?o)\b.*\b(acc(uracy)?|dice|dsc|auc|auroc|iou|f1)\b", "value_best_prior"),
    # a data set's size is not the test set's: listed, never n_test
    (r"^(number|no\.?|total|size)\b|data.?set.?size|\b(images|samples|subjects|patients|"
     r"scans|volumes)\b|\bsample.?sizes?\b", "(data size)"),
    (r"split|protocol|evaluation|validation scheme", "split"),
    (r"bold", "bold_best"),
    (r"claim", "claims_outperformance"),
    (r"scope|^includ|\binclude", "in_scope"),
    (r"uncertain|\bstd\b|\bsd\b|\bci\b|confidence|error bar", "uncertainty"),
    (r"other|compared|baselines", "values_compared"),
    # "Best baseline" under a group header "Results (%)": the prior, not "best" = ours
    (r"\b(soa|sota|sta)\b|state.of.the.art|best.?prior|prior|runner|second.?best|2nd|"
     r"competitor|comparator|previous|\bbaseline\b", "value_best_prior"),
    (r"^(model|approach|algorithm)s?$", "method"),
    (r"\bours\b|proposed|\bbest\b|\bvalue|result|\b(dsc|dice)\b|\bacc(uracy)?\b|\bnew\b|"
     r"\bmethod\b", "value_proposed"),
]
# headers under which text cells are a method's name (else text under a result header is
# not a value: listed, ignored)
_NAMES_A_METHOD = re.compile(r"\bours\b|proposed|\bnew\b|method|model|\bname\b|\b(soa|sota|sta)\b|"
                             r"state.of.the.art|prior|runner|second.?best|competitor|"
                             r"comparator|previous",
                             re.I)
# a method column that names a kind of method or another step ("feature_selection_method",
# "Method: 1. Classical Machine Learning"), not the compared method
_METHOD_KIND = re.compile(r"feature|selection|validation|imputation|statistic|sampling|"
                          r"evaluation|\btypes?\b|\bclass(es)?\b|categor|famil|\bkinds?\b",
                          re.I)
# a header naming an identifier ("meta_pmid", "record id", "DOI"): its numbers are no size
_ID_HEADER = re.compile(r"pmc?id|pubmed|\bdoi\b|arxiv|\bisbn\b|\bissn\b|(?:\b|_)ids?\b",
                        re.I)
_DATE = re.compile(r"\b(dates?|dated|day|month|time|timestamp)\b|annotated", re.I)  # 20/08/20
# "2/20/2025", "2025/02/20": a date (a four-digit year), never three sizes
_DATE_CELL = re.compile(r"\s*(\d{1,2}\s*/\s*\d{1,2}\s*/\s*(19|20)\d\d|"
                        r"(19|20)\d\d\s*/\s*\d{1,2}\s*/\s*\d{1,2})\s*")
# headers counting something other than the cases of a data set ('# of features')
_NOT_CASES = re.compile(r"\b(features?|parameters?|params|layers?|iterations?|"
                        r"citations?|cited|authors?|pages?|references?|channels?|electrodes?|"
                        r"classes|labels|folds?|runs?|seeds?|rois?|voxels?|genes?|variables?|"
                        r"predictors?|covariates?|trees?|neurons?|filters?|components?|"
                        # a paper's own figures, tables, equations ('Conceptualization
                        # Figures' 0-15 was drafted n_test)
                        r"figures?|figs?|tables?|plots?|graphs?|equations?|proofs?|"
                        r"theorems?|lemmas?)\b",
                        re.I)
_NOT_THE_PAPERS = ("paper_id", "title", "(ignore)", "text", "category")
_OURS = re.compile(r"\bours\b|proposed|\bnew\b", re.I)
_SIZE_ROLES = ("n_train", "n_val", "n_test", "cv_folds")
_TEXT_TWIN = {"value_proposed": "name_proposed", "value_best_prior": "name_best_prior"}


@dataclass
class ColumnGuess:
    letter: str
    name: str
    role: str
    why: str
    examples: list[str] = field(default_factory=list)
    hints: list[str] = field(default_factory=list)
    sure: bool = True
    big: float | None = None  # share of metric values > 1
    kind: str = ""  # the role the cells alone suggest
    split_sizes: bool = False  # cells like "898/500/200"
    unique: bool = False  # no two cells alike
    named: bool = False  # the role comes from a header word
    filled: int = 0  # cells not missing
    values: dict = field(default_factory=dict)  # values: rules the draft should carry
    mapped: dict = field(default_factory=dict)  # each distinct cell -> its category by them
    flags: bool = False  # yes/no cells only
    yes_no: bool = False  # at least half the cells yes/no: no method's names
    low: str = ""  # the lower row's name under a two-row header, else the name
    links: bool = False  # publication links ('https://pubmed.ncbi.nlm.nih.gov/31100830/')
    cells: int = 0  # a digest of all its cells (two columns of one name: copies alike?)
    asked: tuple[str, str] | None = None  # (role, namesake's letter): which copy is it?
    effect_types: bool = False  # a metric column of effect-size types ('d', 'r')
    bibtex: bool = False  # BibTeX entries ('@inproceedings{key, ...'): their keys name papers


@dataclass
class SheetGuess:
    file: str
    sheet: str | None
    header_row: int
    n_rows: int
    columns: list[ColumnGuess]
    units: str
    header_rows: int = 1
    title_rows: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    text_rows: list[tuple[int, str]] = field(default_factory=list)  # free-text rows
    metric: tuple[str, str | None] | None = None  # (metric, task) named by value headers
    idless_rows: list[int] = field(default_factory=list)  # no id, numbers only (totals)
    # no id, numbers and one summary label (row, column, label): totals named "counts"
    summary_rows: list[tuple[int, int, str]] = field(default_factory=list)
    second_table: tuple[int, list[str]] | None = None  # (row, names) of a table below
    # (row, header fields, that row's fields): text rows wider than the header (unquoted commas)
    ragged: tuple[int, int, int] | None = None
    no_header: str | None = None  # why the header row reads as a row of data
    # (row, column, text): a legend under the data, one text cell a row, not in column A
    legend_rows: list[tuple[int, int, str]] = field(default_factory=list)
    read_as: str | None = None  # a text file: separator, encoding, decimal commas


ROLE_SAMPLE = 20_000  # values of a column the role guess looks at


def _role_from_cells(vals: list) -> tuple[str, str, list[str], float | None]:
    """(role, why, hints, share of values > 1 among metric values)."""
    hints = []
    texts = [clean_text(v) for v in vals if isinstance(v, str)]
    if any(re.search(r"\d\s*/\s*\d", t) and not re.search(r"[a-z]", t, re.I) for t in texts):
        hints.append("cells like '78.50/66.45': cells: {<col>: {split: '/', parts: [...]}}")
    if any(re.fullmatch(r"[\d.,]+\s+-\s*[\d.,]+", t) for t in texts):
        hints.append("cells like '70.49 -1.25': cells: {<col>: {cell_pattern: value_sd}}")
    if texts and sum(checks.is_doi(t) for t in texts) >= 0.8 * len(texts):
        return "text", "DOIs (an id)", [], None
    if checks.named_values(texts):
        return "values_compared", "';'-separated names with numbers", hints, None
    sizes = measures = 0
    big = 0
    for v in vals:
        try:
            if cells.parse_size(v)[0] is not None:
                sizes += 1
        except CellError:
            pass
        try:
            m = cells.parse_measure(v)
        except CellError:
            two = re.match(r"^\s*([\d.,]+)\s*(?:/\s*[\d.]|\s-|\()", str(v))
            two = None if checks.is_doi(str(v)) else two
            m = cells.Measure(float(two[1].replace(",", "."))) if two else None
        if m is not None:
            measures += 1
            big += abs(m.value) > 1
    n = len(vals)
    if n and sizes == n:
        return "n_test", "whole numbers", hints, None
    odd = [clean_text(v) for v in vals if not _is_size(v)]
    if n and sizes > n / 2 and not any(_is_measure(v) for v in odd):
        # mostly sizes; the rest is text such as '70/10/20 of 300 cases'
        hints.append(f"cells like {odd[0]!r} are not one whole number: they will be refused "
                     "naming the cell; write the test-set size")
        return "n_test", "whole numbers, some text", hints, None
    if n and measures >= 0.8 * n:
        return "value_proposed", "numbers", hints, big / max(measures, 1)
    distinct = {t.lower() for t in texts}
    if texts and len(distinct) <= max(6, min(20, n // 5)):
        for col, allowed in ENUMS.items():
            try:
                ok = all(cells.parse_enum(t, allowed)[0] is not None for t in texts)
            except CellError:
                ok = False
            if ok:
                return col, f"values of {col}", hints, None
        return "category", f"{len(distinct)} distinct texts (a category? map them with "\
            "values:)", hints, None
    if texts and len(distinct) == len(texts):
        return "text", "distinct texts (an id or a title?)", hints, None
    return "text", "free text", hints, None


def year_row(row: list, k: int) -> str | None:
    """The year when a row holds only a year (1900-2099) in its id column k: a section
    divider ("2022") above that year's papers; None otherwise. A four-digit id in a row
    with other filled cells is a paper's record number (1468, 1030), never a divider."""
    text = clean_text(str(row[k])) if not is_missing(row[k]) else ""
    if not re.fullmatch(r"(?:19|20)\d\d", text):
        return None
    return text if all(is_missing(c) for j, c in enumerate(row) if j != k) else None


_GROUP_HINT = "repeated ids in consecutive rows"


def _id_hints(name: str, texts: list[str], year_rows: list[str]) -> list[str]:
    hints = []
    years = [t for t in texts if t in set(year_rows)]
    if years:
        hints.append(f"rows holding only a year ({years[0]!r}): skip_rows_where: "
                     f"{{{name!r}: '^\\d{{4}}$'}}")
    rest = [t for t in texts if t not in years]
    if len(set(rest)) < len(rest):
        at: dict[str, list[int]] = {}
        for i, t in enumerate(texts):
            at.setdefault(t, []).append(i)
        runs = all(k[-1] - k[0] + 1 == len(k) for t, k in at.items() if t not in years)
        if runs:  # every repeat in consecutive rows: one paper over several rows
            hints.append(_GROUP_HINT + " (one paper per data set?): group_rows_by_id: true")
        else:
            hints.append(f"repeated ids: id: '{{{name}}}' numbers the repeats ' (2)', ...")
    return hints


def _is_size(v) -> bool:
    try:
        return cells.parse_size(v)[0] is not None
    except CellError:
        return False


def inspect_sheet(path: str | Path, sheet: str | None = None, header_row: int | None = None,
                  header_rows: int | None = None) -> SheetGuess:
    path = Path(path)
    t, titles, warns = find_header(path, sheet, header_row, header_rows) if sheet else \
        first_table(path, header_row, header_rows)
    if t.problems and not t.header:
        raise SheetValidationError(t.problems)
    skip_rows(t, None, "")  # repeated headers and formula rows
    guesses = [_guess_column(t, k, name) for k, name in enumerate(t.header)]
    metric = _settle_roles(guesses)
    checks.drop_same_names(t, guesses)
    shares = [g.big for g in guesses if g.big is not None and g.role.startswith("value")]
    units = "auto"
    if shares:
        units = "percent" if min(shares) > 0.5 else "fraction" if max(shares) == 0 else "auto"
    width = len(t.header)
    text_rows = [(r, "; ".join(clean_text(str(c)) for c in row if not is_missing(c)))
                 for r, row in t.rows
                 if width >= 4 and sum(not is_missing(c) for c in row) == 1
                 and not is_missing(row[0]) and isinstance(row[0], str)]
    g = SheetGuess(t.file, t.sheet, t.header_row, len(t.rows), guesses, units,
                   getattr(t, "header_rows", 1), titles, warns, text_rows, metric,
                   *idless_rows(t, guesses))
    if table_kind(g) == "results":  # a row per method: the repeated ids are the layout
        for c in guesses:
            c.hints = [h for h in c.hints if not h.startswith(_GROUP_HINT)]
    g.second_table = second_table(t.rows)
    g.ragged = ragged_rows(t)
    g.no_header = header_as_data(t) if header_row is None else None
    g.legend_rows = legend_rows(t) if width >= 4 else []
    g.read_as = text_reading(path, t, guesses)
    return g


def _small_codes(vals: list) -> int:
    """1 for 0/1 flags, 2 for other whole numbers all below 10 (a code such as 0/1/2 or a
    rating): cells no test set has; 0 otherwise."""
    try:
        nums = {float(str(v).strip()) for v in vals}
    except ValueError:
        return 0
    if not nums or any(x != int(x) or not 0 <= x < 10 for x in nums):
        return 0
    return 1 if nums <= {0.0, 1.0} else 2


def _guess_column(t, k: int, name: str) -> ColumnGuess:
    vals = [row[k] for _, row in t.rows if not is_missing(row[k])]
    index = _row_index(vals)
    if len(vals) > ROLE_SAMPLE:  # evenly spaced: a guess needs no 10^6 parses
        vals = vals[::-(-len(vals) // ROLE_SAMPLE)]
    role, why, hints, big = _role_from_cells(_as_read(vals))
    from_cells, named = role, False
    sure = role not in ("n_test", "text", "category")
    label = name.lower().replace("_", " ").strip()
    key = cells._enum_key(name)
    headerless = name in t.headerless
    if key in ALL_COLUMNS and not headerless:
        role, why, sure = key, f"header {name!r} is our column name", True
    elif not headerless and checks.count_role(label) in ("tp", "fp", "fn", "tn"):
        role, why, sure, named = checks.count_role(label), f"header {name!r}: a 2x2 " \
            "count", True, True
    elif not headerless:
        low = (getattr(t, "low_names", {}).get(t.letters[k]) or "").lower()
        low = low.replace("_", " ").strip()
        # the lower row of a two-row header names the column more precisely
        for text in ([low] if low else []) + [label]:
            hit = next((ours for rx, ours in _NAME_HINTS if re.search(rx, text)), None)
            if hit:
                role, why, sure = _hinted(hit, from_cells, name, why, _numeric_share(vals),
                                          checks.is_flag(vals), _numbered(vals),
                                          _counted_share(vals))
                named = True
                break
    if role in _SIZE_ROLES and not named and (_running(vals) or index):
        role, why, sure = "(ignore)", why + (" (1, 2, 3, ... down the rows: a running "
                                             "number, not a size)" if _running(vals) else
                                             " (0 or 1 ... n in any order: a saved row "
                                             "index, not a size)"), False
    if role in _SIZE_ROLES and not named and _small_codes(vals):
        role, why, sure = "(ignore)", why + (" (0/1 cells only: a flag, not a size)"
                                             if _small_codes(vals) == 1 else
                                             " (all below 10: a code, not a test-set size)"), False
    if role in _SIZE_ROLES and (no := _no_size_header(name, named)):
        role, why, sure = "(ignore)", why + no, False
    if role == "n_test" and from_cells == "n_test" and why.startswith("whole"):
        why += "; no header word says which size (train, val or test)"
        sure = False
    texts = [clean_text(v) if isinstance(v, str) else str(v) for v in vals]
    if role in ("method", "name_proposed", "name_best_prior") and _numbered(vals):
        role, why, sure = "(ignore)", why + " (an enumerated category: a kind of method, " \
            "not the compared method's name)", False
    role, why, sure = _codes_or_flags(role, why, sure, vals, texts)
    if from_cells == "value_proposed" and not checks.whole(vals):
        role, why, sure = _measured(role, named, why, sure)
    if role == "paper_id":
        hints += _id_hints(name, texts, [y for _, row in t.rows if (y := year_row(row, k))])
    role, why, sure, rules = checks.fit_role(role, why, sure, texts)
    role, why, sure, effect_types = checks.effect_types(role, why, sure, texts)
    role, why, sure = checks.measure_without_metric(role, why, sure, label, texts)
    split_sizes = not _DATE.search(label) and any(
        re.fullmatch(r"\s*\d+\s*/\s*\d+\s*/\s*\d+\s*", str(v))
        and not _DATE_CELL.fullmatch(str(v)) for v in vals)
    if split_sizes and role not in _SIZE_ROLES:
        role, why, sure = "n_test", why + "; cells like '898/500/200'", True
    if split_sizes:
        hints = [h for h in hints if "78.50/66.45" not in h and "not one whole" not in h]
        hints.append("cells like '898/500/200': split_cells: {<col>: [n_train, n_val, n_test]}")
    if role in ("(ignore)", "category") and checks.mark_rules(texts):
        hints.append("yes/no check marks: if they say whether the paper claims to beat the "
                     "prior best or ran a statistical test, map the column as "
                     "claims_outperformance or statistical_test (the marks read as yes/no)")
    if headerless:
        hints.append(f"no header: map it by letter, \"@{t.letters[k]}\": <our column>")
    if not vals and not (key in ALL_COLUMNS and not headerless):  # not 'free text'
        why = (f"header {name!r}, " if not headerless else "") + "empty (no cell filled)"
    return ColumnGuess(t.letters[k] or "", name, role, why, _first_distinct(vals), hints, sure, big, from_cells,
                       split_sizes, unique=len(set(texts)) == len(texts), values=rules,
                       named=named or key in ALL_COLUMNS, filled=len(vals),
                       flags=checks.is_flag(vals), yes_no=_mostly_flags(texts),
                       low=low_name(t, k, name),
                       links=_links(texts), effect_types=effect_types,
                       bibtex=bool(texts) and all(checks.BIBTEX.match(x) for x in texts),
                       cells=hash(tuple(clean_text(str(row[k])) for _, row in t.rows)),
                       mapped={t: read_with(rules, t) for t in dict.fromkeys(texts)}
                       if role == "split" and rules else {})


def _codes_or_flags(role: str, why: str, sure: bool, vals: list, texts: list[str]):
    """(role, why, sure): a size header naming a test ('new_test') over codes below 10 with
    zeros is no size (no test set holds 0 cases); a header naming methods over cells mostly
    yes/no ('open materials (analysis code and/or method)': no / No) names no methods."""
    if role in _SIZE_ROLES and _small_codes(vals) and any(str(v).strip() in ("0", "0.0")
                                                         for v in vals):
        return "(ignore)", why + (" (codes below 10 with zeros: no test set holds 0 cases; "
                                  "a code, not a test-set size)"), False
    if role in ("method", "name_proposed", "name_best_prior") and _mostly_flags(texts):
        return "(ignore)", why + (" (mostly yes/no cells: whether the paper has it, not a "
                                  "method's name)"), False
    return role, why, sure


def _mostly_flags(texts: list[str]) -> bool:
    """At least half the cells read as yes/no (no method is named 'no')."""
    flags = sum(t.strip().lower() in ("yes", "no", "y", "n", "true", "false") for t in texts)
    return bool(texts) and 2 * flags >= len(texts)


def _first_distinct(vals: list, k: int = 3) -> list[str]:
    """The column's first ``k`` distinct cells as text (its examples)."""
    ex = []
    for v in vals:
        s = clean_text(v) if isinstance(v, str) else str(v)
        if s not in ex:
            ex.append(s)
        if len(ex) == k:
            break
    return ex


def _measured(role: str, named: bool, why: str, sure: bool) -> tuple[str, str, bool]:
    """Measured values (0.73, 0.705) under an id or a method header: never paper ids, and
    under 'model' the method's value ('model' beside 'comparator'), not its name."""
    if role == "paper_id":
        return "(ignore)", why + " (measured values, not paper ids)", False
    if role == "method" and named:
        return "value_proposed", why + (" (measured values under a method header: the "
                                        "method's value, not its name)"), False
    return role, why, sure


def _links(texts: list[str]) -> bool:
    """At least 90 % of the cells link to a publication (PubMed, DOI, arXiv)."""
    hits = sum(bool(checks.PUBLICATION_LINK.fullmatch(x)) for x in texts)
    return bool(texts) and hits >= 0.9 * len(texts)


def low_name(t, k: int, name: str) -> str:
    """The column's own name: the lower row's under a two-row header ('Error bars or
    statistical significance' under 'Put 1 if the reviewer ...'), else its header."""
    low = getattr(t, "low_names", {}).get(t.letters[k]) if t.letters[k] else None
    return re.sub(r"\s+", " ", str(low or name)).strip().lower()


def _as_read(vals: list) -> list:
    """Cells as the reader's steps leave them: "=9+16" computed, "5-folds" in a size
    column read by ``derive`` (left out here)."""
    out = []
    for v in vals:
        if isinstance(v, str) and _ARITH.match(v.strip()):
            try:
                v = _arith(v.strip())
            except (ValueError, SyntaxError, ZeroDivisionError):
                pass
        if isinstance(v, str) and _FOLDS.match(clean_text(v)):
            continue
        out.append(v)
    return out or vals


def _numbered(vals: list) -> bool:
    """Cells of an enumerated category ("1. Classical Machine Learning")."""
    texts = [clean_text(v) for v in vals if isinstance(v, str)]
    return bool(texts) and all(re.match(r"\d+[.)]\s+\S", t) for t in texts)


def _running(vals: list) -> bool:
    """Whole numbers counting the rows (1, 2, 3, ... or 0, 1, 2, ...; a sample of them
    in steps of k): a row index."""
    try:
        xs = [float(str(v).strip()) for v in vals]
    except ValueError:
        return False
    steps = {b - a for a, b in zip(xs, xs[1:])}
    return len(xs) >= 3 and xs[0] in (0, 1) and len(steps) == 1 and steps.pop() >= 1


def _row_index(vals: list) -> bool:
    """Distinct whole numbers from 0 or 1 filling at least 90 % of 0..max in any order: a
    row index saved with the sheet (pandas' "Unnamed: 0", kept after rows were dropped
    and the rest sorted), no size: no test set has 0 or 1 cases."""
    try:
        xs = [float(str(v).strip()) for v in vals]
    except ValueError:
        return False
    if len(xs) < 3 or len(set(xs)) < len(xs) or any(x != int(x) for x in xs):
        return False
    return min(xs) in (0, 1) and len(xs) >= 0.9 * (max(xs) - min(xs) + 1)


def _numeric_share(vals: list) -> float:
    return sum(_is_measure(v) for v in vals) / len(vals) if vals else 0.0


def _no_size_header(name: str, named: bool) -> str:
    """Why a header names no size (a count of features, an identifier), or ''."""
    if _NOT_CASES.search(name):
        return " (the header counts features, parameters or another thing that is not a " \
            "case: not a size)"
    if POOLED_COUNT.fullmatch(name):
        return " (k: how many studies a meta-analysis pooled, or folds: not a test set's size)"
    if not named and _ID_HEADER.search(name):
        return " (the header names an identifier: not a size)"
    return ""


_ROUGH_SIZE = re.compile(r"(?i)\s*(~|≈|approx\.?|about|ca\.?|circa|[<>≤≥])\s*\d[\d,]*\s*")


def _counted_share(vals: list) -> float:
    """Share of cells read as one size with what it counts ('300 images', 'n=120
    patients', '85'), when at least one names its unit; 0 otherwise."""
    read, unit = 0, False
    for v in vals:
        try:
            _, notes = cells.parse_size(v, counted=True)
        except CellError:
            # '~500', 'approx. 500': a size written loosely, the column's still; the
            # reader refuses the cell (its paper excluded, the cell named), never 500
            read += bool(_ROUGH_SIZE.fullmatch(str(v)))
            continue
        read += 1
        unit = unit or bool(notes)
    return read / len(vals) if vals and unit else 0.0


def _hinted(ours: str, from_cells: str, name: str, why: str, numeric_share: float = 0.0,
            flags: bool = False, numbered: bool = False, counted: float = 0.0):
    """(role, why, sure) for a header word, checked against what the cells hold
    (``counted``: the share of cells that are one size with its unit word)."""
    why = f"header {name!r}" + (f", {why}" if why else "")
    numeric = from_cells in ("value_proposed", "n_test") or numeric_share >= 0.5
    if ours == "(data size)":
        return "(ignore)", why + " (a data set's size: map it to n_test only if it is the " \
            "test set's)", False
    if ours in ("value_proposed", "value_best_prior", "values_compared") and flags:
        # 'cog - new / specific' (0/1: does the model use it?): 'new' names no method
        return "(ignore)", why + " (0/1 or yes/no flags: whether the paper has it, not a " \
            "measured value)", False
    if ours in _TEXT_TWIN and not numeric:
        if flags:
            return "(ignore)", why + " (yes/no flags: not a method's name)", False
        if _METHOD_KIND.search(name) or numbered:
            return "(ignore)", why + " (a kind of method or a step, not the compared " \
                "method's name)", False
        if not _NAMES_A_METHOD.search(name):
            return "(ignore)", why + " (text under a result header: not a value)", False
        return _TEXT_TWIN[ours], why + " (text: the method's name)", from_cells == "text"
    if ours in _SIZE_ROLES and flags:
        return "(ignore)", why + " (0/1 or yes/no flags: whether the paper reports it, " \
            "not a size)", False
    if ours in _SIZE_ROLES and _SHARE.search(name):
        return "(ignore)", why + " (a share in percent, not a size)", False
    if ours in _SIZE_ROLES and from_cells not in ("n_test",):
        if numeric_share < 0.5 and _SPLIT_HEADER.search(name):
            return "split", why + " (text cells under a split or validation header: the " \
                "split protocol, not a size)", False
        # the test set's size only: a training size adds nothing to the analysis, and each
        # cell it cannot read would exclude a paper
        if numeric_share < 0.5 and counted >= COUNTED_SHARE and ours == "n_test":
            return ours, why + " (sizes written with what they count, '300 images' read " \
                "as 300; a cell that is not one number with its unit word is a bad cell, " \
                "its paper excluded with the row named)", False
        if numeric_share < 0.5:
            return "(ignore)", why + " (a size header over text cells)", False
        return ours, why + " (but not all whole numbers)", False
    if ours == "values_compared" and from_cells not in ("values_compared",):
        return "(ignore)", why + " (not 'name value; name value' cells)", False
    return ours, why, True


def _settle_roles(guesses: list[ColumnGuess]):
    """One column per role; a size column without a header word is the test size only
    when it is the sheet's one size column."""
    checks.settle_ids(guesses)
    checks.settle_review_marks(guesses, _NOT_THE_PAPERS)
    checks.settle_methods(guesses)
    checks.settle_counts(guesses)
    checks.settle_in_scope(guesses)
    checks.settle_effect_sizes(guesses)
    checks.settle_group_statistics(guesses)
    checks.settle_before_after(guesses)
    metric = checks.settle_metric_pairs(guesses)
    sizes = [g for g in guesses if g.role in _SIZE_ROLES]
    taken: dict[str, ColumnGuess] = {}
    # a role named by a header word before one guessed from the cells alone
    # and a header naming the proposed method ("Ours") before a generic "Result"
    for g in sorted(guesses, key=lambda g: (not g.named, g.role == "value_proposed"
                                            and not _OURS.search(g.name))):
        if g.role == "n_test" and not g.named and len(sizes) > 1:
            g.role, g.why = "(ignore)", g.why + "; several size columns: which is the test size?"
        if g.role in taken and g.role in WIDE:
            g.why += f"; role already given to column {taken[g.role].letter}"
            g.role, g.sure = "(ignore)", False
        elif g.role in WIDE:
            taken[g.role] = g
    checks.settle_single_value(guesses)
    return metric


def table_kind(g: SheetGuess) -> str:
    """'results' (a method column: one row per paper x method), 'papers' (no metric
    values) or 'wide' (one row per paper with its values)."""
    roles = {c.role for c in g.columns}
    if "method" in roles:
        return "results"
    if not roles & {"value", "value_proposed", "value_best_prior", "values_compared"}:
        return "papers"
    return "wide"


def draft_venue(g: SheetGuess, venue: str = "my_venue") -> str:
    """A venue block for config/config.yaml built from the guesses (to edit)."""
    kind = table_kind(g)
    ours = {"results": RESULTS, "papers": PAPERS, "wide": WIDE}[kind]
    mapping = OrderedDict()
    for c in g.columns:
        role = "value" if kind == "results" and c.role == "value_proposed" else c.role
        if role in ours and role not in mapping.values():
            key = f"@{c.letter}" if c.name in _headerless_names(g) else c.name
            mapping[key] = role
    block = {"label": venue}
    if kind == "wide":
        block["papers"] = str(g.file)
        if g.sheet:
            block["papers_sheet"] = g.sheet
        block["layout"] = "wide_top2"
    else:  # one of the two tables of the long layout: the other is still to be named
        other = "results" if kind == "papers" else "papers"
        block[kind] = str(g.file)
        if g.sheet:
            block[f"{kind}_sheet"] = g.sheet
        block[other] = f"TODO: the {other} table"
        block["layout"] = "long"
    block["units"] = g.units
    if g.header_row != 1:
        block["header_row"] = g.header_row
    if "paper_id" not in mapping.values():
        block["id"] = "row" if kind == "wide" else "TODO: {their id column}"
    block["columns"] = {kind: dict(mapping)}
    if kind == "wide":
        block["constants"] = {"in_scope": True, "values_only_in_figures": False}
    text = yaml.safe_dump({"venues": {venue: block}}, sort_keys=False, allow_unicode=True,
                          width=100)
    return text


def _headerless_names(g: SheetGuess) -> set[str]:
    return {c.name for c in g.columns if c.name == f"column {c.letter}"}


def _kind(expected: str) -> str:
    return re.sub(r"'[^']*'|\"[^\"]*\"|\d+(?:\.\d+)?", "#", expected)


def group_problems(problems: list[Problem], show: int = 3) -> list[str]:
    """Lines grouped by (file, sheet, column) and kind of problem: the first ``show``
    examples of each kind, then "and N more like this"."""
    groups: OrderedDict = OrderedDict()
    for p in problems:
        where = (p.file, p.sheet, p.column)
        groups.setdefault(where, OrderedDict()).setdefault(_kind(p.expected), []).append(p)
    lines = []
    for (file, sheet, column), kinds in groups.items():
        n = sum(len(v) for v in kinds.values())
        head = f"{file}" + (f", sheet '{sheet}'" if sheet else "")
        head += f", column '{column}'" if column else " (whole sheet)"
        lines.append(f"{head}: {n} problem(s)")
        for items in kinds.values():
            lines.append(f"  expected {items[0].expected}")
            for p in items[:show]:
                if p.row is None and p.value is None:
                    continue  # a problem of the whole column: no cell to show
                at = f"row {p.row}" if p.row is not None else "sheet"
                got = "(empty)" if p.value is None else repr(p.value)
                lines.append(f"    {at}: got {got}")
            if len(items) > show:
                lines.append(f"    ... and {len(items) - show} more like this")
    return lines


# how a text sheet was read (separator, encoding, decimal commas), said by inspect and
# its review page: the reader decides these alone (a German Excel file: ';', Windows-1252)