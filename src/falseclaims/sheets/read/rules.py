"""Per-column reading rules of a venue (config ``values:`` and ``cells:``).

* ``values: {our column: {regex: value}}`` maps free text to a category before the cell is
  read: the first regular expression that matches the cleaned cell (``re.search``) gives
  the value ("5-folds" -> cv_only, "yes (Wilcoxon)" -> yes); a value may quote groups of
  the match ("\\1": ``{"^(\\d+) images$": "\\1"}``). Unmatched cells are read as usual,
  so a typo is still refused. Numeric cells are matched as written (``{"^5$": cv_only}``).
* ``cells: {our column: {cell_pattern, split, parts, suffix_on}}`` says how to read a metric
  cell holding two numbers. ``cell_pattern: value_sd`` reads a mean and an SD written
  "70.49 -1.25", "70.49 (1.25)" or "70.49±1.25"; any other pattern is a regular expression
  with the named groups ``value`` and optionally ``sd``. ``split: "/"`` cuts "78.50/66.45"
  into one results row per part (a cell without the separator is one value, unsuffixed);
  ``parts`` names them and ``suffix_on`` (metric or method)
  says which name gets " [part]" appended (an empty part name keeps the name unchanged,
  e.g. so that the first structure keeps the metric name the analysis looks for).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from falseclaims.sheets.read import cells
from falseclaims.io.raw_table import clean_text, is_missing
from falseclaims.sheets.read.cells import Measure
from falseclaims.sheets.read.errors import CellError

__all__ = ["CellRule", "compile_rules", "map_value", "read_ruled_measure", "parse_compared",
           "NAMED_PATTERNS"]

_N = r"[+-]?(?:\d+(?:[.,]\d*)?|[.,]\d+)"
NAMED_PATTERNS = {
    # mean and SD: "70.49 -1.25" (a dash read as ±), "70.49 (1.25)", "70.49 ± 1.25"
    "value_sd": rf"^(?P<value>{_N})\s*(?:%\s*)?(?:±|\+/-|\+-|\s-|\()\s*(?P<sd>\d+(?:[.,]\d*)?)"
                r"\s*%?\s*\)?$",
}


@dataclass(frozen=True)
class CellRule:
    pattern: re.Pattern | None = None
    pattern_text: str = ""
    split: str | None = None
    parts: tuple[str, ...] = ()
    suffix_on: str = "metric"


def compile_rules(values_cfg: dict | None, cells_cfg: dict | None, table, where: str):
    """({column: [(regex, compiled, value)]}, {column: CellRule}); bad regexes are
    problems of ``table``."""
    values = {}
    for col, mapping in (values_cfg or {}).items():
        items = []
        for pattern, value in (mapping or {}).items():
            try:
                items.append((pattern, re.compile(str(pattern)), value))
            except re.error as exc:
                table.problem(None, col, pattern,
                              f"a valid regular expression in {where} values.{col} ({exc})")
        values[col] = items
    rules = {}
    for col, rc in (cells_cfg or {}).items():
        text = rc.get("cell_pattern") or ""
        compiled = None
        if text:
            try:
                compiled = re.compile(NAMED_PATTERNS.get(text, text))
            except re.error as exc:
                table.problem(None, col, text, f"a valid regular expression or one of "
                              f"{', '.join(NAMED_PATTERNS)} in {where} cells.{col} ({exc})")
            if compiled is not None and "value" not in compiled.groupindex:
                table.problem(None, col, text, f"a cell_pattern with a named group (?P<value>...)"
                                               f" in {where} cells.{col}")
                compiled = None
        rules[col] = CellRule(compiled, text, rc.get("split"), tuple(rc.get("parts") or ()),
                              rc.get("suffix_on", "metric"))
    return values, rules


def map_value(items, raw):
    """(raw or its mapped value, note or None). Numeric cells are matched as written
    (5 as "5", 0.5 as "0.5"), so a rule can read a size or a code column too."""
    if not items or is_missing(raw) or isinstance(raw, bool):
        return raw, None
    if isinstance(raw, (int, float)):
        s = str(int(raw)) if float(raw).is_integer() else repr(float(raw))
    elif isinstance(raw, str):
        s = clean_text(raw)
    else:
        return raw, None
    for pattern, rx, value in items:
        if m := rx.search(s):
            if isinstance(value, str) and "\\" in value:  # "\\1": a group of the match
                value = m.expand(value)
            return value, f"{s!r} read as {value!r} (values: {pattern!r})"
    return raw, None


def _measure(rule: CellRule, raw) -> Measure | None:
    if rule.pattern is None or not isinstance(raw, str):
        return cells.parse_measure(raw)
    s = clean_text(raw)
    m = rule.pattern.search(s)
    if m is None:
        try:
            return cells.parse_measure(raw)
        except CellError:
            raise CellError(f"a cell matching cell_pattern {rule.pattern_text!r}, or a "
                            "single number") from None
    pct = "%" in s
    value = float(m["value"].replace(",", "."))
    sd = m.groupdict().get("sd")
    sd = None if sd is None else float(sd.replace(",", "."))
    note = f"{s!r} read as value {value:g}" + ("" if sd is None else f", SD {sd:g}") + \
        f" (cell_pattern {rule.pattern_text!r})"
    return Measure(value, sd, pct, (note,))


def read_ruled_measure(rule: CellRule, raw):
    """A Measure, or a list of Measures (one per part) when the rule splits the cell."""
    if is_missing(raw):
        return None
    if rule.split is None:
        return _measure(rule, raw)
    text = clean_text(raw) if isinstance(raw, str) else str(raw)
    if rule.split not in text:  # one value: the paper reports one structure/class
        return _measure(rule, raw)
    pieces = [p.strip() for p in text.split(rule.split)]
    want = len(rule.parts)
    if len(pieces) != want:
        names = ", ".join(p or "(unnamed)" for p in rule.parts)
        raise CellError(f"{want} values separated by {rule.split!r} (parts: {names}); "
                        f"this cell has {len(pieces)}")
    return [_measure(rule, p) for p in pieces]


_ITEM = re.compile(r"^(?P<name>.*?)[\s:=]+(?P<value>[+-]?[\d.,]+\s*%?(?:\s*(?:±|\+/-|\().*)?)$")


def parse_compared(raw, rule: CellRule | None):
    """"UNet 78.2; nnU-Net 80.1 ± 1.2" -> [(name, Measure), ...] (names default to
    'compared 1', 'compared 2', ... for bare numbers)."""
    if is_missing(raw):
        return None, ()
    if not isinstance(raw, str):
        raise CellError("methods and values separated by ';', e.g. 'UNet 78.2; nnU-Net 80.1'")
    out, notes = [], ()
    for k, item in enumerate(p.strip() for p in clean_text(raw).split(";")):
        if not item:
            notes = (f"empty item in {raw!r} skipped",)
            continue
        m = _ITEM.match(item)
        name, value = (m["name"].strip(" :="), m["value"]) if m else (f"compared {k + 1}", item)
        try:
            measure = _measure(rule or CellRule(), value)
        except CellError:
            raise CellError(f"methods and values separated by ';', e.g. 'UNet 78.2; "
                            f"nnU-Net 80.1' (could not read {item!r} in {raw!r})") from None
        out.append((name or f"compared {k + 1}", measure))
    names = [n for n, _ in out]
    if len(set(names)) != len(names):
        raise CellError(f"each compared method once per cell (a method name repeats in "
                        f"{raw!r})")
    return out, notes
