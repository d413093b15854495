"""Checks of ``sheet inspect``'s column roles against the cells and against each other.

A header word proposes a role (``inspect._NAME_HINTS``); these checks keep it only where the
cells agree, so that a real sheet's draft never maps a column to a field it would fill
wrongly: a category column whose cells are not our categories (``Task/Paradigm: Motor
Imagery``), a size header over text cells (``Training procedure: Standard``), the name of a
paper's one method (``method`` in a sheet of one row per paper), a result column without a
second value to compare it with, or a DOI column next to a better id.
"""

from __future__ import annotations

import re

from falseclaims.sheets import cells
from falseclaims.sheets.cells import clean_text
from falseclaims.sheets.columns import ALIASES, ENUMS
from falseclaims.sheets.errors import CellError

__all__ = ["TASK_WORDS", "DOI", "is_doi", "named_values", "fit_categories", "settle_ids",
           "settle_methods", "settle_single_value"]

DOI = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)?10\.\d{4,9}/\S+$", re.I)
# task words of free-text task cells ("seizure detection", "sleep staging"): the rule is
# written into the draft's values: and listed as unsure
TASK_WORDS = {r"(?i)segment": "segmentation",
              r"(?i)classif|detect|recogni|diagnos|staging|grading|predict|identif|"
              r"discriminat": "classification"}
_BOOLS = ("in_scope", "claims_outperformance", "bold_best", "statistical_test",
          "values_only_in_figures")
_VALUES = ("value_proposed", "value_best_prior", "values_compared")
# "U-Net 78.2" / "nnU-Net: 80.1 ± 1.2": a name, then a number at the end
_NAMED_NUMBER = re.compile(r"[A-Za-z].*?[\s:=(]\s*[+-]?\d+(?:[.,]\d+)?\s*%?\s*"
                           r"(?:(?:±|\+/-|\+-)\s*\d+(?:[.,]\d+)?\s*%?)?\)?$")


def is_doi(text: str) -> bool:
    return bool(DOI.match(clean_text(text)))


def named_values(texts: list[str]) -> bool:
    """';'-separated cells where every part is a method name followed by its value (not
    lists of data sets, channel counts or quotations that happen to hold ';')."""
    listed = [t for t in texts if ";" in t]
    if not listed:
        return False
    good = sum(all(_NAMED_NUMBER.search(p.strip()) for p in t.split(";") if p.strip())
               for t in listed)
    return good >= 0.5 * len(listed)


def _reads(text: str, role: str, rules: dict) -> bool:
    if any(re.search(rx, text) for rx in rules):
        return True
    try:
        if role in _BOOLS:
            return cells.parse_bool(text)[0] is not None
        return cells.parse_enum(text, ENUMS[role], ALIASES.get(role))[0] is not None
    except CellError:
        return False


def fit_categories(role: str, texts: list[str], rules: dict) -> tuple[float, str | None]:
    """(share of the distinct texts that ``role`` reads, with ``rules`` as ``values:``;
    the first text it does not read)."""
    distinct = list(dict.fromkeys(t for t in texts if not cells.is_missing(t)))
    if not distinct:
        return 1.0, None
    bad = [t for t in distinct if not _reads(t, role, rules)]
    return 1 - len(bad) / len(distinct), (bad[0] if bad else None)


def settle_ids(guesses: list) -> None:
    """One paper-id column: unique cells before repeated ones, a named id (``Citation``,
    ``Paper``) before authors or a DOI."""
    ids = [g for g in guesses if g.role == "paper_id"]
    if len(ids) < 2:
        return
    weak = re.compile(r"author|doi|url|link", re.I)
    best = max(ids, key=lambda g: (g.unique, not weak.search(g.name), -ids.index(g)))
    for g in ids:
        if g is not best:
            g.role, g.sure = "(ignore)", False
            g.why += f"; column {best.letter} {best.name!r} is the paper id"


def settle_methods(guesses: list) -> None:
    """A ``method`` column is the long layout's only where a paper fills several rows;
    in a sheet of one row per paper it names the paper's method (``name_proposed``)."""
    ids = [g for g in guesses if g.role == "paper_id"]
    for g in guesses:
        if g.role == "method" and (not ids or ids[0].unique):
            g.role = "name_proposed"
            g.why += "; one row per paper: the name of the paper's method"


def settle_single_value(guesses: list) -> None:
    """A result column without a second value per paper (no state-of-the-art, runner-up
    or compared-methods column) gives no comparison: the sheet runs as a study-design
    sheet, and the column is listed with what to map."""
    roles = {g.role for g in guesses}
    if "value_proposed" not in roles or roles & {"value_best_prior", "values_compared",
                                                  "method"}:  # a method column: long layout
        return
    for g in guesses:
        if g.role == "value_proposed":
            g.role, g.sure = "(ignore)", False
            g.why += ("; one value per paper and no state-of-the-art or runner-up column: "
                      "no comparison to assess (map a second value column to "
                      "value_best_prior, or a long results table, to get probabilities)")
