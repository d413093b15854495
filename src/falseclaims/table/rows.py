"""The rows of a results table before its columns are read: which column names the
methods, which rows are no methods (section and note rows, settings named by numbers, folds
or runs of one method, data sets, difference rows), composite names and modifier rows
(``+ X`` after a method), and cells that hold two values, a unit or an SD on their own.
Every refusal names the file, table, row and column. :mod:`falseclaims.table.model` reads
the columns of the rows kept here.
"""

from __future__ import annotations

import re
from collections import Counter

from falseclaims.metrics import names_a_metric
from falseclaims.table.cells import (MISSING, clean, incomparable_note, parse_printed_cell,
                                     plain_text)
from falseclaims.io.textio import decimal_note
from falseclaims.table.kinds import column_cells, column_name
from falseclaims.table.readers import (METHOD_HEADER, ROWS_HEADER, VALUE_LIST, RawTable,
                                      TableReadError)

__all__ = ["LONE_MACRO", "cell_shapes", "composite_names", "data_rows", "decimal_commas",
           "flag_columns",
           "is_note_row", "is_section_row",
           "method_column", "method_names", "modifier_names", "name_columns", "refuse_data_set_labels",
           "refuse_non_methods", "refuse_rows_not_results", "refuse_split_rows", "table_error",
           "text_columns", "units_in_cells"]


def table_error(raw: RawTable, text: str) -> TableReadError:
    return TableReadError(f"{raw.source}, {raw.name}: {text}")


def method_column(raw: RawTable) -> int:
    """The column of names: among the leading text columns the one with the most distinct
    names (``Op`` × / + beside ``Model`` names the group, not the method)."""
    text = name_columns(raw) or text_columns(raw)
    if not text and not raw.rows:  # a header alone: no column can hold names
        raise table_error(raw, f"a header and no rows under it (columns {raw.header})")
    if not text:
        raise table_error(raw, f"no method column (a column of names); columns are {raw.header}")
    names = {j: {plain_text(str(r[j])) for r in raw.rows} - {""} for j in text}
    filled = {j: sum(bool(plain_text(str(r[j]))) for r in raw.rows) for j in text}
    best = max(text, key=lambda j: (len(names[j]), filled[j], -j))
    return _named_methods_beside_conditions(raw, text, names, best)


_ARMS_HEADER = re.compile(r"(?i)^(?:experiments?|exp\.?)$")


def _named_methods_beside_conditions(raw: RawTable, text: list[int], names: dict,
                                     best: int) -> int:
    """``Experiment | Condition``: a column headed as methods (E1, E5, *(ref)*) beside a
    ``Condition`` / ``Setting`` column with one description per row: the conditions are the
    arms compared, described, not test conditions of one model. Only when every row has
    its own condition and the methods column repeats at most a quarter of its rows (the
    same models over data sets or conditions are a long layout, never this)."""
    head = plain_text(str(raw.header[best])).strip()
    if not ROWS_HEADER.match(head) or len(names[best]) < len(raw.rows):
        return best
    for j in text:
        h = plain_text(str(raw.header[j])).strip()
        if j != best and (METHOD_HEADER.match(h) or _ARMS_HEADER.match(h)) and (
                len(names[j]) >= max(2, 0.75 * len(raw.rows))):
            return j
    return best


def name_columns(raw: RawTable) -> list[int]:
    """The text columns that may name methods or groups: not a column of check marks
    (✓ / ✗), which tells options of a method apart and names none."""
    text = text_columns(raw)
    return [j for j in text if j not in flag_columns(raw, text)]


def composite_names(raw: RawTable, method_j: int, notes: list[str]) -> RawTable:
    """Methods named by several label columns (Teacher, Student, Method) whose blanks
    continue the row above: when the method column alone repeats names, the method is
    the labels joined (``R101 / R50 / SimKD``)."""
    labels = [j for j in text_columns(raw) if j != method_j]
    names = [plain_text(str(r[method_j])) for r in raw.rows]
    if not labels or len(set(names)) == len(names):
        return raw
    flags = flag_columns(raw, labels)
    # a flag column checked in every row (or none) tells no two rows apart
    labels = [j for j in labels if j not in flags or len(set(flags[j])) > 1]
    rows, last = [], {j: "" for j in labels}
    for i, r in enumerate(raw.rows):
        r = list(r)
        parts = {method_j: plain_text(str(r[method_j]))}
        for j in labels:
            if j in flags:
                # a check mark names the column (an input or module used); a blank is
                # "not used", never the row above continued
                if flags[j][i]:
                    parts[j] = plain_text(str(raw.header[j]))
                continue
            last[j] = plain_text(str(r[j])) or last[j]
            if last[j] and last[j].lower() not in MISSING:
                parts[j] = last[j]
        r[method_j] = " / ".join(parts[j] for j in sorted(parts))  # in reading order
        rows.append(r)
    marks = (f"; a check mark in {[raw.header[j] for j in labels if j in flags]} names "
             "that column, a blank there does not" if any(j in flags for j in labels) else "")
    notes.append(f"methods named by the columns {[raw.header[j] for j in labels]} and "
                 f"{raw.header[method_j]!r} together (a blank continues the row above{marks})")
    return RawTable(raw.source, raw.name, raw.format, raw.header, rows, raw.where, raw.bold,
                    raw.notes, raw.caption, raw.group)


# a cell that only marks an option as used (✓, ✔, ✅, ☑, √) or not (✗, ✘, ❌, ×, blank)
_CHECK = re.compile(r"\s*[✓✔✅☑√]\s*")
_CROSS = re.compile(r"\s*[✗✘❌×]?\s*")


def flag_columns(raw: RawTable, columns: list[int]) -> dict[int, list[bool]]:
    """The columns among ``columns`` whose cells are only check marks and blanks (or
    crosses), each as its rows' marks: an option of the method in that row, not a label."""
    out = {}
    for j in columns:
        cells = [plain_text(str(r[j])) for r in raw.rows]
        checked = [bool(_CHECK.fullmatch(c)) for c in cells]
        if any(checked) and all(k or _CROSS.fullmatch(c) for k, c in zip(checked, cells)):
            out[j] = checked
    return out


def method_names(raw, method_j) -> list[str]:
    """The method names; a name that only a footnote mark tells apart from another row's
    (``MedSliM`` and ``MedSliM†``, a variant the footnote explains) keeps its mark."""
    cells = [r[method_j] for r in raw.rows]
    plain = [plain_text(c) if isinstance(c, str) else str(c) for c in cells]
    marked = [plain_text(c, marks=True) if isinstance(c, str) else str(c) for c in cells]
    n_plain, n_marked = Counter(plain), Counter(marked)
    return [m if n_plain[p] > 1 and m != p and n_marked[m] == 1 else p
            for p, m in zip(plain, marked)]


def modifier_names(raw: RawTable, method_j: int, notes: list[str]) -> RawTable:
    """A row named only by a modifier that repeats under several rows (``+BED-Loss`` below
    each baseline) is the method above it with that modifier: ``TransUNet +BED-Loss``."""
    names = [plain_text(str(r[method_j])) for r in raw.rows]
    repeated = {n for n in names if n.startswith("+") and names.count(n) > 1}
    if not repeated:
        return raw
    rows, base = [], ""
    for r, name in zip(raw.rows, names):
        if name in repeated and base:
            r = [*r[:method_j], f"{base} {name}", *r[method_j + 1:]]
        elif name and not name.startswith("+"):
            base = name
        rows.append(r)
    notes.append(f"rows named only {sorted(repeated)} are the method above each, with it")
    return RawTable(raw.source, raw.name, raw.format, raw.header, rows, raw.where, raw.bold,
                    raw.notes, raw.caption, raw.group)


def data_rows(raw: RawTable, method_j: int, notes: list[str]) -> RawTable:
    """Drop section rows (no number) and name duplicate methods apart."""
    raw = modifier_names(raw, method_j, notes)
    names = method_names(raw, method_j)
    keep, rows, seen = [], [], {}
    last = max((i for i, r in enumerate(raw.rows)
                if any(parse_printed_cell(c).numeric for c in r)), default=-1)
    footer = []  # (text, row) below every result
    for i, r in enumerate(raw.rows):
        if is_section_row(r, method_j):
            label = " ".join(dict.fromkeys(plain_text(str(c)) for c in r if plain_text(str(c))))
            if i > last and label:
                # a text across the table below every result ("All figures are accuracy (%)
                # on the 217-sample val set"): the table's footnote, read with its caption
                footer.append((label, i))
                notes.append(f"{raw.where[i]}: {label[:60]!r} below the results read as a "
                             "note of the caption")
                continue
            notes.append(f"{raw.where[i]} has no number: skipped as a section row "
                         f"({label[:40]!r})")
            continue
        name = names[i]
        if is_note_row(r, method_j):
            notes.append(f"{raw.where[i]}: row {name!r} holds one text across the value "
                         "columns, no number (a note, e.g. a test statistic): skipped")
            continue
        if _NON_METHOD_ROW.match(name):
            notes.append(f"{raw.where[i]}: row {name!r} is no method (a difference, a "
                         "statistic over the rows or a p-value): skipped")
            continue
        if _OBSERVER_ROW.match(name):
            notes.append(f"{raw.where[i]}: row {name!r} is a human reference (the agreement "
                         "between observers), not a method: not ranked")
            continue
        if not name and not any(parse_printed_cell(c).numeric for c in r):
            notes.append(f"{raw.where[i]} has no method name and no number: skipped")
            continue
        if not name:
            raise table_error(raw, f"{raw.where[i]}: no method name in column "
                            f"{raw.header[method_j]!r}")
        seen[name] = seen.get(name, 0) + 1
        if seen[name] > 1:
            r = list(r)
            r[method_j] = f"{name} ({seen[name]})"
            notes.append(f"{raw.where[i]}: method {name!r} appears again; named "
                         f"{name + ' (' + str(seen[name]) + ')'!r}")
        keep.append(i)
        rows.append(r)
    caption = " ".join([raw.caption or ""] + [t for t, _ in footer]).strip() if footer \
        else raw.caption
    # a footer row that calls marked cells not comparable (an HTML <tfoot>, a CSV's last
    # line) is such a note below the table, as in Markdown and LaTeX
    marks = [n for label, i in footer if (n := incomparable_note(label, raw.where[i]))]
    return RawTable(raw.source, raw.name, raw.format, raw.header, rows,
                    [raw.where[i] for i in keep], [raw.bold[i] for i in keep] if raw.bold
                    else [], raw.notes + marks, caption, raw.group)


LONE_MACRO = re.compile(r"\\[A-Za-z]+\s*(?:\{\})?")
# a row below the methods that is none: Improvement / Δ (vs. ...) / Δ Gain, Mean / Std over
# the rows, a p-value; ranked, a negative difference "wins" a lower-is-better column
_NON_METHOD_ROW = re.compile(
    r"(?i)^(?:(?:Δ|delta|gain|improvement|difference|diff\.?)"
    # two such words (Δ Gain, Delta improvement): the row of signed gains under an ablation
    r"(?:\s+(?:gain|improvement|difference|diff\.?|change))?(?:\s*(?:\(.*|(?:over|vs\.?|"
    r"w\.?r\.?t\.?|relative to|compared to)\b.*))?|std\.?|sd|s\.d\.|stdev|std\.? ?dev\.?|"
    r"standard deviation|variance|mean|average|avg\.?|median|p|p-?values?|p ?\(.*\))$")
# the agreement between two human readers (Interobserver, Inter-rater agreement,
# Intra-observer): the ceiling a model is measured against, best in every column, never a
# competing method (a row per radiologist is one: a model against readers is a comparison)
_OBSERVER_ROW = re.compile(r"(?i)^\W*(?:inter|intra)[- ]?(?:observer|rater|reader|annotator|"
                           r"operator)s?\b")
# a row named only by a number, fraction or percentage (1/16, 10%, 0.5), or by a parameter
# and its value (δ = 0.05, σ=0.1, k = 3: prompt noise levels, a hyper-parameter): a setting
# (a labelled budget too: "4 labeled", "10% labelled scans", one semi-supervised method)
_SETTING_NAME = re.compile(r"(?i)\s*(?:[^\W\d][\w.\- ]{0,20}?\s*=\s*)?"
                           r"[-+]?\d[\d.,]*\s*(?:/\s*\d[\d.,]*)?\s*%?\s*"
                           r"(?:(?:labell?ed|labels?|annotated)(?:\s+(?:scans?|cases?|images?|"
                           r"samples?|volumes?|patients?|data))?\s*)?")
# a row named by a repetition and its number (Fold0, Fold 1, Run 2, Seed 3, Case 12): the
# folds of one cross-validation or the cases of one test set, not methods
_REPEAT_NAME = re.compile(r"(?i)\s*(?:fold|run|seed|split|trial|repeat|repetition|iteration|"
                          r"case|patient|subject|scan|volume|image|sample)s?\s*[-_#]?\s*"
                          r"\d+\s*")
# a row named by a data split or a test set of one model (Train, Validation set, External test,
# "Internal (n=412)", "External, Messidor-2"): the model's results per split, no competitors
_SPLIT_NAME = re.compile(r"(?i)\s*(?P<prefix>(?:internal|external|independent|held[- ]?out|"
                         r"hold[- ]?out|prospective|temporal|local|in[- ]house|"
                         r"fold\s*\d+|cv)\s*)?"
                         r"(?P<word>(?:train(?:ing)?|val(?:idation)?|dev(?:elopment)?|"
                         r"test(?:ing)?)(?:\s+(?:set|split|data|cohort))?)?\s*")
_N_SUFFIX = re.compile(r"\(\s*n\s*=\s*[\d,]+\s*\)\s*$", re.I)


def _is_split_name(name: str) -> bool:
    """A data split's name: a split word (``Test set``, ``External test``), or an
    internal/external prefix that an ``(n=...)`` or a data set after a comma completes
    (``External (n=120)``, ``External, Messidor-2``); never a bare ``External`` nor a
    method named with one (``External attention``)."""
    size = _N_SUFFIX.search(name)
    head, _, rest = (name[:size.start()] if size else name).partition(",")
    m = _SPLIT_NAME.fullmatch(head)
    if not m or not head.strip():
        return False
    return bool(m["word"]) or bool(m["prefix"] and (size or rest.strip()))


_SD_CELL = re.compile(r"^(?:±\s*(?P<a>[-+]?\d*\.?\d+)\s*%?|\(\s*(?P<b>\d*\.?\d+)\s*%?\s*\))$")
_V = r"[-+]?\d*\.?\d+%?(?:\s*±\s*\d*\.?\d+%?)?"
_PAIR = re.compile(rf"^\s*({_V})\s*[/|]\s*({_V})\s*$")
_ALTERNATIVES = re.compile(r"([^\s/()|]+)\s*[/|]\s*([^\s/()|]+)")


# lengths, pixels, times; metres and degrees (trajectory and angle errors: 0.064 m, 0.095 °/m)
_UNITS_IN_CELLS = r"mm|cm|µm|μm|px|ms|s|m|°/m|°"
_UNIT_CELL = re.compile(rf"^[-+]?\d*\.?\d+%?(?:\s*±\s*\d*\.?\d+%?)?\s*({_UNITS_IN_CELLS})$")


def units_in_cells(raw: RawTable, method_j: int, notes: list[str]) -> RawTable:
    """A unit printed in every filled cell of a column (``6.4\\,mm`` under ``HD95``): the
    numbers are read and the unit joins the header (``HD95 (mm)``), noted. Cells with
    different units, or a unit in some cells only, stay as printed (refused, naming one)."""
    rows, header = [list(r) for r in raw.rows], list(raw.header)
    for j in range(len(header)):
        texts = [clean(str(r[j])) for r in rows]
        given = [t for t in texts if t and plain_text(t).lower() not in MISSING]
        units = {m[1] if (m := _UNIT_CELL.match(t)) else None for t in given}
        if j == method_j or not given or len(units) != 1 or None in units:
            continue
        unit = units.pop()
        # the unit before what closes the cell's bold (``**0.12 mm**``, ``\\textbf{0.12 mm}``),
        # which stays: the bold mark is the paper's
        tail = re.compile(rf"(?:\\[,;:! ]|~|\s|\$)*(?:\\(?:text|mathrm)\s*\{{)?{unit}\}}?"
                          r"(?P<close>(?:\*\*|__|</(?:b|strong|u)>|\}|[\s$])*)$")
        cut = [tail.sub(r"\g<close>", str(r[j])) if t else str(r[j])
               for r, t in zip(rows, texts)]
        if not all(parse_printed_cell(c).numeric for c, t in zip(cut, texts) if t in given):
            continue
        for r, c in zip(rows, cut):
            r[j] = c
        if unit not in header[j]:
            header[j] = f"{header[j]} ({unit})"
        notes.append(f"{raw.header[j]!r}: the unit {unit!r} printed in every cell, read as "
                     f"the column's unit ({header[j]!r})")
    return RawTable(raw.source, raw.name, raw.format, header, rows, raw.where, raw.bold,
                    raw.notes, raw.caption, raw.group)


# a number with a comma inside (0,89; 1 234,5 is not read); a thousands grouping (1,234)
_COMMA_NUMBER = re.compile(r"\d+,\d+")
_THOUSANDS = re.compile(r"[1-9]\d{0,2}(?:,\d{3})+")
_POINT_NUMBER = re.compile(r"\d\.\d")
# the comma between two digits, also as LaTeX prints it without a space after it (0{,}89)
_DECIMAL_COMMA = re.compile(r"(?<=\d)(?:,|\{,\})(?=\d)")


def decimal_commas(raw: RawTable) -> RawTable:
    """A column printed with decimal commas (``0,89``, ``**1,00**``, ``0,91 ± 0,03``: a
    French, German or Portuguese README; ``0{,}89`` in LaTeX) read with decimal points, one note per column, when
    no comma of the column can be a thousands separator (``1,234`` can: such a column is
    left as it is, and refused as before) and no cell of it has a decimal point; every
    other cell of the column must then be a number or a missing mark."""
    rows = [list(r) for r in raw.rows]
    notes = []
    for j, h in enumerate(raw.header):
        texts = [plain_text(str(r[j])) if isinstance(r[j], str) else "" for r in rows]
        commas = [t for t in texts if _COMMA_NUMBER.search(t)]
        if not commas or any(_POINT_NUMBER.search(t) for t in texts) or any(
                _THOUSANDS.fullmatch(m) for t in commas for m in _COMMA_NUMBER.findall(t)):
            continue
        fixed = [_DECIMAL_COMMA.sub(".", r[j]) if isinstance(r[j], str) else r[j] for r in rows]
        if not all(parse_printed_cell(c).numeric or plain_text(str(c)).lower() in MISSING
                   for c in fixed):
            continue  # names or text with commas ("Model 1,2"): not a column of numbers
        for r, c in zip(rows, fixed):
            r[j] = c
        notes.append(decimal_note(len(commas), column_name(h)))
    if not notes:
        return raw
    return RawTable(raw.source, raw.name, raw.format, raw.header, rows, raw.where, raw.bold,
                    raw.notes + notes, raw.caption, raw.group, raw.cited_header, raw.rows_are)


def cell_shapes(raw: RawTable, method_j: int, notes: list[str]) -> RawTable:
    """Cells as some papers print them: the SD in a cell of its own (``0.91 & $\\pm$
    0.03``) is joined to the value on its left; two values in one cell (``0.91/12.3`` under
    ``Dice/HD95``) become two columns; other two-value cells are refused, naming the cell."""
    rows = [list(r) for r in raw.rows]
    header = list(raw.header)
    bold = [list(b) for b in raw.bold] if raw.bold else []
    for j in range(len(header) - 1, 0, -1):
        if j == method_j:
            continue
        texts = [clean(str(r[j])) for r in rows]
        filled = [t for t in texts if t]
        if filled and all(_SD_CELL.match(t) for t in filled) and j - 1 != method_j:
            for r, t in zip(rows, texts):
                if t:
                    m = _SD_CELL.match(t)
                    r[j - 1] = f"{clean(str(r[j - 1]))} ± {m['a'] or m['b']}"
            notes.append(f"column {j + 1}: SDs in cells of their own, joined to "
                         f"{header[j - 1]!r}")
            for r in rows:
                del r[j]
            for b in bold:
                b[j - 1] = b[j - 1] or b[j]
                del b[j]
            del header[j]
            continue
        given = [t for t in filled if plain_text(t).lower() not in MISSING]
        lists = [t.split(";") for t in given if VALUE_LIST.match(t)]
        if given and len(lists) == len(given) and len({len(v) for v in lists}) == 1:
            k = len(lists[0])  # "0.97; 0.98; 0.99": k results per cell, k columns
            for r, t in zip(rows, texts):
                r[j:j + 1] = ([v.strip() for v in t.split(";")] if VALUE_LIST.match(t)
                              else [t] * k)
            for b in bold:
                b[j:j + 1] = [b[j]] * k
            notes.append(f"{header[j]!r}: {k} values per cell separated by ';', read as "
                         f"{k} columns (the header does not say what each measures)")
            header[j:j + 1] = [f"{header[j]} (value {i} of {k})" for i in range(1, k + 1)]
            continue
        pairs = [_PAIR.match(t) for t in filled]
        if filled and all(pairs):
            alt = list(_ALTERNATIVES.finditer(header[j]))
            parts = ([header[j][:alt[0].start()] + alt[0][k] + header[j][alt[0].end():]
                      for k in (1, 2)] if len(alt) == 1 else [])
            parts = [" ".join(p.split()) for p in parts]
            named = _caption_pair(raw.caption) if len(parts) != 2 or not all(parts) else None
            if named:
                parts = [f"{plain_text(header[j])} {m}" for m in named]
            if len(parts) != 2 or not all(parts):
                i = next(i for i, t in enumerate(texts) if t)
                raise table_error(raw, f"column {header[j]!r}, {raw.where[i]}: {texts[i]!r} holds two "
                                "values and the header does not name both (e.g. 'Dice/HD95'); "
                                "split the column in two")
            for r, t in zip(rows, texts):
                m = _PAIR.match(t)
                r[j:j + 1] = [m[1], m[2]] if m else ["", ""]
            for b in bold:
                b[j:j + 1] = [b[j], b[j]]
            notes.append(f"{header[j]!r}: two values per cell, read as two columns "
                         f"{parts[0]!r} and {parts[1]!r}"
                         + (f" (the caption names the pair: {' / '.join(named)})"
                            if named else ""))
            header[j:j + 1] = parts
    return RawTable(raw.source, raw.name, raw.format, header, rows, raw.where, bold,
                    raw.notes, raw.caption, raw.group)


def _caption_pair(caption: str | None) -> tuple[str, str] | None:
    """The one pair of metric names in the caption (``Per-modality performance (SSIM /
    PSNR)``) that names a table's two-value cells when their headers (modalities, data sets)
    do not; None without exactly one such pair."""
    pairs = [(m[1], m[2]) for m in _ALTERNATIVES.finditer(plain_text(caption or ""))
             if names_a_metric(m[1]) and names_a_metric(m[2])]
    return pairs[0] if len(pairs) == 1 else None


def is_section_row(r, method_j) -> bool:
    """A heading across the row (``\\multicolumn{5}{l}{BTCV}``): no number, one text."""
    name0 = str(r[method_j]).strip()
    rest = [str(c).strip() for k, c in enumerate(r) if k != method_j]
    numbers = any(parse_printed_cell(c).numeric for k, c in enumerate(r) if k != method_j)
    return not numbers and all(t in ("", name0) or not plain_text(t) and not
                               LONE_MACRO.fullmatch(t) for t in rest)


def is_note_row(r, method_j) -> bool:
    """A named row whose value cells are one text spanning them (``Statistical test &
    \\multicolumn{4}{l}{$t=22.14$, $p<0.001$}``): a remark, not a method's results."""
    rest = [str(c).strip() for k, c in enumerate(r) if k != method_j]
    text = plain_text(rest[0]).strip() if rest else ""
    return (len(rest) >= 2 and len(set(rest)) == 1 and bool(text) and text.lower() not in
            MISSING and not parse_printed_cell(rest[0]).numeric)


def text_columns(raw: RawTable) -> list[int]:
    """The leading label columns: text, or numbers printed once per group (``3`` folds
    in the middle row of three)."""
    out = []
    for j in range(len(raw.header)):
        cells = [c for c in column_cells(raw, j) if c.raw.strip()]
        text = [c for c in cells if not c.numeric and plain_text(c.raw)]  # "×", "-" too
        if cells and len(text) * 2 > len(cells):
            out.append(j)
        elif cells and out and len(cells) * 2 <= len(raw.rows):
            out.append(j)
        elif cells and out:
            break  # the label columns end at the first column of values
    return out


# a heading or caption that calls the numbers placeholders (a thesis draft's planned values, a
# template's dummy rows): nothing in the numbers tells them from results, and ranked, the
# planned "Ours" row is named the winner
_PLACEHOLDER = re.compile(r"(?i)\bplaceholders?\b|\b(?:dummy|made[- ]up|fake)\s+(?:values?|"
                          r"numbers?|results?|data)\b")


def refuse_rows_not_results(raw: RawTable) -> None:
    """As printed (not pivoted or transposed), the method column's header names data sets
    (``Data``, ``Task``, ``Organ``): its rows are no methods; or the heading calls the
    numbers placeholders: they are no results."""
    if raw.rows_are.startswith("metrics: "):
        raise table_error(raw, f"the rows name metrics ({raw.rows_are[9:]}) and so does a "
                          "column header: one model's results with metrics as rows, not "
                          "methods to rank; with methods as columns give --transpose")
    if raw.rows_are:
        raise table_error(raw, f"the rows of {raw.rows_are!r} are data sets, organs, regions, "
                        "test conditions or test cases, not "
                        "methods to rank; with methods as columns give --transpose and the "
                        "metric (--metric COLUMN=KIND)")
    heading = raw.caption or raw.name
    if hit := _PLACEHOLDER.search(heading):
        raise table_error(raw, f"the heading calls its numbers {hit[0].lower()!r} "
                          f"({plain_text(heading)[:70]!r}): planned values, not results to rank")


def refuse_data_set_labels(raw: RawTable, method_j: int) -> None:
    """A label column beside the methods whose header names data sets, printed on a group's
    first row only (``Dataset``: BraTS 2021, blank, BraTS 2024, blank), left in one table:
    ranking its rows together compares results on different test sets; so do rows citing
    their papers and rows with their own counts (below). (The same methods
    under each label are split into one table per data set before this; a label in every
    row, ``Data``: ``+ wrist`` for training data added, is a description of the row.)"""
    for j in text_columns(raw):
        printed = [plain_text(str(r[j])) for r in raw.rows]
        if (j != method_j and ROWS_HEADER.match(plain_text(raw.header[j]))
                and len(set(printed) - {""}) > 1 and "" in printed):
            raise table_error(raw, f"column {raw.header[j]!r} names data sets "
                            f"({sorted(set(printed) - {''})[:3]}): "
                            "rows of different data sets are not one comparison; give each "
                            "data set's rows as their own table")
    refuse_literature_rows(raw)
    refuse_own_data_rows(raw, method_j)


# a column citing the paper each row was taken from (``文献``: ``Kassem et al. [2]``, ``Jost
# [4]``) beside a column of publication years: a literature review's table, each row a result
# its paper reported under its own data split and protocol
_REFERENCE_HEADER = re.compile(r"(?i)^(?:refs?\.?|references?|citations?|stud(?:y|ies)|papers?|"
                               r"publications?|literature|authors?|文献|参考文献|出处)$")
_YEAR_HEADER = re.compile(r"(?i)^(?:years?|publication year|pub\.? year|年份|发表年份|年)$")
_CITATION = re.compile(r"\bet al\b|\[\d+(?:\s*[,–-]\s*\d+)*\]")


def refuse_literature_rows(raw: RawTable) -> None:
    """Refuse a table whose rows cite the papers they come from, with their years: results
    collected from the literature are no comparison on one test set (ranked, the paper
    with the easiest custom split was named the winner). A method's citation mark in its
    name (``UNet [27]``) alone is not this: most comparison tables cite their baselines."""
    if not any(_YEAR_HEADER.match(plain_text(str(h)).strip()) for h in raw.header):
        return
    for j in text_columns(raw):
        cited = [c for r in raw.rows if (c := plain_text(str(r[j])).strip())]
        if (_REFERENCE_HEADER.match(plain_text(str(raw.header[j])).strip()) and cited
                and 2 * sum(bool(_CITATION.search(c)) for c in cited) > len(cited)):
            raise table_error(raw, f"column {raw.header[j]!r} cites the paper of each row "
                            f"({'; '.join(cited[:2])}; ...) beside a year column: results "
                            "collected from different papers, each under its own data split "
                            "and protocol, are not one comparison; give a table of methods "
                            "tested on one test set")


# a header of two groups split by a slash (PD/HC, AD/CN, Cases/Controls) over cells of two
# counts (19739/14900): the numbers of cases and controls of the row's own data; not the
# counts of a confusion matrix (TP/FP), which differ between methods on one test set
_GROUPS_HEADER = re.compile(r"^([^\W\d_][\w-]{0,19})\s*/\s*([^\W\d_][\w-]{0,19})$")
_COUNT_PAIR = re.compile(r"^(\d{1,3}(?:,\d{3})+|\d+)\s*/\s*(\d{1,3}(?:,\d{3})+|\d+)$")
_CONFUSION = {"tp", "fp", "tn", "fn"}


def refuse_own_data_rows(raw: RawTable, method_j: int) -> None:
    """Refuse rows that each carry their own case and control counts (``PD/HC``: 19739/14900,
    511/1860): each row is its own data (a data selection, a cohort), not a method tested on
    one test set. Counts equal in every row are one test set's (216/87 under every target);
    a count above 100 tells counts from percentages (``Sens/Spec``: 85/90)."""
    for j, h in enumerate(raw.header):
        groups = _GROUPS_HEADER.match(plain_text(str(h)).strip())
        if j == method_j or not groups or {g.lower() for g in groups.groups()} & _CONFUSION:
            continue
        cells = [plain_text(str(r[j])).strip() for r in raw.rows]
        pairs = [_COUNT_PAIR.match(c) for c in cells if c]
        if not pairs or not all(pairs):
            continue
        counts = [int(x.replace(",", "")) for p in pairs for x in p.groups()]
        if max(counts) > 100 and len({p[0].replace(" ", "") for p in pairs}) > 1:
            raise table_error(raw, f"column {raw.header[j]!r} gives each row its own counts "
                            f"({', '.join(c for c in cells if c)[:60]}): the rows are "
                            "different data (selections, cohorts), not methods tested on one "
                            "test set")


def refuse_split_rows(raw: RawTable, method_j: int) -> None:
    """Refuse rows that are one model's data splits or test sets (``Train / Validation /
    Test``, ``Internal test (n=631)`` and ``External, Messidor-2 (n=1,744)``): ranked, the
    easiest split was named the winner (before the n row is looked for: a row ``Test`` is
    no test-set size)."""
    names = method_names(raw, method_j)
    if len(names) > 1 and all(_is_split_name(x) for x in names):
        raise table_error(raw, f"the rows of {raw.header[method_j]!r} are data splits or test "
                        f"sets ({', '.join(names[:4])}): one model's results per split, not "
                        "methods to rank")


def refuse_non_methods(raw: RawTable, method_j: int) -> None:
    """Refuse rows that are no methods: settings named by numbers (1/16, 10%) or numbered
    folds, runs or cases of one method (Fold0 .. Fold4)."""
    names = method_names(raw, method_j)
    if all(_SETTING_NAME.fullmatch(x) for x in names):
        raise table_error(raw, f"the rows of {raw.header[method_j]!r} are named only by numbers "
                        f"or a parameter's values ({', '.join(names[:4])}): settings of one "
                        "method (a labelled fraction, a size, a noise level), not methods to "
                        "rank")
    if all(_REPEAT_NAME.fullmatch(x) for x in names):
        raise table_error(raw, f"the rows of {raw.header[method_j]!r} are numbered folds, runs or "
                        f"cases ({', '.join(names[:4])}): repetitions of one method, not "
                        "methods to rank")
