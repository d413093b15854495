"""The comparisons a raw table holds, before its columns are read (:mod:`.model`): row groups
(section rows, a group or label column, n columns that change down the table, val/test rows),
a methods x metrics header, a long table (one row per method and metric), a transposed table,
and rows that are no method (differences, deltas). ``table.run`` applies them in order and
interprets each table they give.
"""

from __future__ import annotations

import re

from falseclaims.metrics import Spellings, classify
from falseclaims.table.cells import parse_printed_cell, plain_text
from falseclaims.table.sizes import cell_size, n_group
from falseclaims.table.rows import is_section_row, method_column, name_columns, text_columns
from falseclaims.table.readers import (CASES_HEADER, METHOD_HEADER, ROWS_HEADER, RawTable,
                                      TableReadError)

__all__ = ["drop_non_methods", "drop_row_numbers", "long_format_pivot", "looks_transposed",
           "method_metric_pivot", "metric_per_row", "row_groups", "side_by_side"]

def _group_column_blocks(raw: RawTable) -> list[RawTable] | None:
    """Leading text columns where one names the methods and another the data set, printed
    once per group (``Validation`` in the middle row, ``\\multirow{-3}{*}{+}`` in the last):
    the method names repeat, a new block starts where one repeats, and each block's other
    text column holds one label. None when the table has no such shape."""
    text = name_columns(raw)  # never a check-mark column: options, not names nor groups
    if len(text) < 2:
        return None
    names = {j: [plain_text(str(r[j])) for r in raw.rows] for j in text}
    numeric = {j for j in text if any(parse_printed_cell(r[j]).numeric for r in raw.rows)}
    def changes(j):  # how often the label changes from one row to the next
        return sum(a != b for a, b in zip(names[j], names[j][1:]))

    filled = [j for j in text if j not in numeric and all(names[j])]
    if len(filled) >= 2:
        # every label printed in every row (Subgroup, Category, Model): the methods are the
        # label that changes from row to row, the groups those constant over runs of rows
        method_j = max(filled, key=lambda j: (changes(j), len(set(names[j])), -j))
    else:
        method_j = max((j for j in text if j not in numeric),
                       key=lambda j: _names_rank(raw, names, j), default=None)
    if method_j is None:
        return None
    others = [j for j in text if j != method_j]
    full = [j for j in others if all(names[j])]
    blocks, cur = [], []
    for i, name in enumerate(names[method_j]):
        if not name:
            continue
        if full and cur and any(names[j][i] != names[j][cur[-1]] for j in full):
            new = True  # a label in every row (a filled \multirow): runs of one label
        else:
            new = not full and any(names[method_j][k] == name for k in cur)
        if new:
            blocks.append(cur)
            cur = []
        cur.append(i)
    blocks.append(cur)
    labels = _block_labels(blocks, names, method_j, others)
    sparse = [j for j in others if j not in numeric and not all(names[j]) and names[j][0]]
    if labels is None and sparse:
        # a label on each group's first row, blanks below (Student "ViT-S", then empty
        # cells): a group starts at each label, never one comparison across the groups
        last = {j: None for j in sparse}
        starts = []
        for i in range(len(raw.rows)):
            if any(names[j][i] and names[j][i] != last[j] for j in sparse):
                starts.append(i)  # a new label (the same one on the next rows continues it)
            last.update({j: names[j][i] for j in sparse if names[j][i]})
        blocks = [[i for i in range(a, b) if names[method_j][i]]
                  for a, b in zip(starts, starts[1:] + [len(raw.rows)])]
        blocks = [b for b in blocks if b]
        labels = _block_labels(blocks, names, method_j, others, any_shared=True)
        ident = [j for j in text if j not in sparse and j not in numeric]
        if labels is None and len(ident) > 1:
            # the method is several filled text columns (Expl. "IG" + Win. "time"), the
            # groups only the sparse ones (Domain "ECG" on a group's first row)
            names[-1] = [" ".join(names[j][i] for j in ident) for i in range(len(raw.rows))]
            labels = _block_labels(blocks, names, -1, sparse, any_shared=True)
            others = sparse if labels else others
        if labels is None and len(blocks) >= 2:
            raw.notes.append(
                f"column {raw.header[sparse[0]]!r} labels groups of rows (a name on each "
                "group's first row) but no method is in two groups: read as one comparison "
                "of method families; if the groups are data sets or settings, give each "
                "group as its own table")
    if labels is None:
        return None
    keep = [j for j in range(len(raw.header)) if j not in others]
    out = []
    for lab, b in zip(labels, blocks):
        out.append(RawTable(
            raw.source, f"{raw.name} [{lab}]", raw.format, [raw.header[j] for j in keep],
            [[raw.rows[i][j] for j in keep] for i in b], [raw.where[i] for i in b],
            [[raw.bold[i][j] for j in keep] for i in b] if raw.bold else [],
            raw.notes + [f"rows with {lab!r} in column {raw.header[others[0]]!r} (a group "
                         "column: the same methods in each group)"], raw.caption,
            f"{raw.header[others[0]]} {lab}" if others[0] in numeric else lab))
    return out


def _names_rank(raw: RawTable, names: dict, j: int) -> tuple:
    """The method column has the most distinct names; on a tie, not a data-set column
    (``Dataset``: BraTS 2021, blank, BraTS 2024, blank beside two models), then the first."""
    return (len({x for x in names[j] if x}), not ROWS_HEADER.match(plain_text(raw.header[j])),
            -j)


def _block_labels(blocks, names, method_j, others, any_shared=False) -> list[str] | None:
    """Each block's group label, or None when the blocks are not groups of the same methods
    (no method repeats across blocks, a block with two labels or none, a label twice).
    ``any_shared``: any method in two blocks will do (not only a block's first)."""
    def elsewhere(b):
        return {names[method_j][i] for bb in blocks if bb is not b for i in bb}

    def shared(b):
        if any_shared:  # groups by a label on their first row: a method in another group
            return any(names[method_j][i] in elsewhere(b) for i in b)
        return (len(set(names[method_j][i] for i in b)) < len(b) or
                names[method_j][b[0]] in elsewhere(b))

    if len(blocks) < 2 or not any(shared(b) for b in blocks):
        return None  # the methods do not repeat across groups: not a group column
    labels = []
    for b in blocks:
        per = [{names[j][i] for i in b if names[j][i]} for j in others]
        if any(len(v) > 1 for v in per) or not any(per):
            return None
        labels.append(" / ".join(v.pop() for v in per if v))
    return labels if len(set(labels)) == len(labels) else None


def _n_blocks(raw: RawTable) -> list[RawTable] | None:
    """An n column whose sizes change in runs of rows (270, 270, 153, 153): one table per
    test set, never one comparison across two test sets."""
    for j, h in enumerate(raw.header):
        if n_group(h) != "":
            continue
        try:
            sizes = [cell_size(raw, r[j], raw.where[i], h) for i, r in enumerate(raw.rows)]
        except TableReadError:
            return None
        runs = [k for k in range(len(sizes)) if k == 0 or sizes[k] != sizes[k - 1]]
        if None in sizes or len(set(sizes)) < 2 or len(runs) != len(set(sizes)) or \
                len(runs) == len(sizes):
            # every row its own size (1453, 1448): no test set two rows share, so no groups
            # of rows; the differing n is refused when the columns are read, naming it
            return None
        out = []
        for a, b in zip(runs, runs[1:] + [len(sizes)]):
            lab = f"n = {sizes[a]}"
            out.append(RawTable(raw.source, f"{raw.name} [{lab}]", raw.format, raw.header,
                                raw.rows[a:b], raw.where[a:b], raw.bold[a:b] if raw.bold
                                else [], raw.notes + [f"rows with {h!r} = {sizes[a]} (the "
                                                      "test set differs between row groups)"],
                                raw.caption, raw.group))
        return out
    return None


# the labelled data a row's method was trained with (semi-supervised tables: "Scans used
# Labeled | Unlabeled", "Labeled ratio", "% labels"); not "Unlabeled"
_BUDGET = re.compile(r"(?i)(?<![a-z])(?<!un)(?:labell?ed|labels?|annotated)(?![a-z])")


def _budget_blocks(raw: RawTable) -> list[RawTable] | None:
    """A column of label budgets (``Labeled``: 80, 8, 8, 16, 16): methods trained on
    different amounts of labelled data are different settings, one table per budget, never
    the fully supervised upper bound or a larger budget ranked against the rest. Section rows
    are left out (they hold no budget); None unless every other row has a number there."""
    try:
        method_j = method_column(raw)
    except TableReadError:
        return None
    rows = [i for i, r in enumerate(raw.rows) if not is_section_row(r, method_j)]
    for j, h in enumerate(raw.header):
        if j == method_j or not _BUDGET.search(plain_text(h)):
            continue
        values = [parse_printed_cell(raw.rows[i][j]).value for i in rows]
        # budgets repeat (several methods per budget); a score under a header that says
        # "labeled" (Dice on labelled data) differs from row to row
        if None in values or not 2 <= len(set(values)) <= len(values) / 2:
            continue
        out = []
        for v in dict.fromkeys(values):
            keep = [i for i, x in zip(rows, values) if x == v]
            lab = f"{plain_text(h)} = {plain_text(str(raw.rows[keep[0]][j]))}"
            out.append(RawTable(raw.source, f"{raw.name} [{lab}]", raw.format, raw.header,
                                [raw.rows[i] for i in keep], [raw.where[i] for i in keep],
                                [raw.bold[i] for i in keep] if raw.bold else [],
                                raw.notes + [f"rows with {lab!r} (a label budget: methods "
                                             "trained on other amounts of labelled data are "
                                             "not compared with them)"], raw.caption,
                                raw.group))
        return out
    return None


_SPLIT = re.compile(r"(?i)\s*[(\[]\s*(val|valid|validation|dev|test|testing|train|"
                    r"training)\s*[)\]]\s*$")


# a label budget after a method's name: "UA-MT (10%)", "Ours (1/8)", "U-Net (8 labeled)";
# never a signed change ("(+2.3%)")
_BUDGET_MARK = re.compile(r"(?i)\s*[(\[]\s*(\d+(?:\.\d+)?\s*%(?:\s*labell?ed)?|\d+\s*/\s*\d+|"
                          r"\d+\s*(?:labell?ed|labels|scans|cases|images|volumes|patients)"
                          r")\s*[)\]]\s*$")


def _split_blocks(raw: RawTable) -> list[RawTable] | None:
    """Methods marked with their split (``NAL (val)``, ``NAL (test)``) or their label budget
    (``UA-MT (10%)``, ``Ours (5%)``, ``U-Net (100%)``): one table per mark, never a test row
    compared with validation rows, nor a method trained on all labels with one trained on
    10%."""
    try:
        method_j = method_column(raw)
    except TableReadError:
        return None
    for pattern, what in ((_SPLIT, "split"), (_BUDGET_MARK, "label budget")):
        marks = [pattern.search(plain_text(str(r[method_j]))) for r in raw.rows]
        kinds = list(dict.fromkeys(" ".join(m[1].lower().split()) for m in marks if m))
        marked = sum(m is not None for m in marks)
        if len(kinds) < 2 or marked * 2 < len(marks) or (
                what == "label budget" and len(kinds) * 2 > marked):
            continue  # a budget marks several methods; one mark per row is no budget
        out = []
        for sp in kinds:
            keep = [i for i, m in enumerate(marks) if m and " ".join(m[1].lower().split()) == sp]
            out.append(RawTable(raw.source, f"{raw.name} [{sp}]", raw.format, raw.header,
                                [raw.rows[i] for i in keep], [raw.where[i] for i in keep],
                                [raw.bold[i] for i in keep] if raw.bold else [],
                                raw.notes + [f"rows marked ({sp}): one {what} per table"],
                                raw.caption, sp if what == "split" else raw.group))
        unmarked = [raw.where[i] for i, m in enumerate(marks) if m is None]
        if unmarked:
            out[0].notes.append(f"rows without a {what} mark left out: {unmarked}")
        return out
    return None


# a method name has a letter; counts, ranges and sizes (42,656,757  0.72-0.79  107G) are no names
_NAME = re.compile(r"[^\W\d_]")
_NUMBER_LIKE = re.compile(r"[-+−]?[\d.,\s±%()–-]+[^\W\d_]{0,2}")


def side_by_side(raw: RawTable, spellings: Spellings) -> list[RawTable] | None:
    """Two tables printed side by side in one tabular (``Segmentation & Dice & HD95 &
    Classification & AUROC & AUPRC``): a column of distinct names in every row, after
    columns of numbers and before more, starts a table whose methods are those names, when
    each part has a column naming a metric (``Year & Venue & Dice`` is one table). One
    table per block, named by its name column's header; None for any other shape."""
    lead = text_columns(raw)
    if not lead or not raw.rows:
        return None
    starts, numbers = [lead[0]], False
    for j in range(lead[-1] + 1, len(raw.header)):
        cells = [parse_printed_cell(r[j]) for r in raw.rows]
        names = [plain_text(c.raw) for c in cells if not c.numeric]
        if (numbers and len(names) == len(cells) >= 2 and len(set(names)) == len(names)
                and all(_NAME.search(n) and not _NUMBER_LIKE.fullmatch(n) for n in names)):
            starts.append(j)
            numbers = False
        elif any(c.numeric for c in cells):
            numbers = True
    bounds = list(zip(starts, [*starts[1:], len(raw.header)]))
    if len(starts) < 2 or not numbers or not all(
            any(classify(h, spellings).known for h in raw.header[a + 1:b]) for a, b in bounds):
        return None
    out = []
    for a, b in bounds:
        label = plain_text(raw.header[a]) or f"column {a + 1}"
        out.append(RawTable(raw.source, f"{raw.name} [{label}]", raw.format, raw.header[a:b],
                            [r[a:b] for r in raw.rows], raw.where,
                            [x[a:b] for x in raw.bold] if raw.bold else [],
                            raw.notes + [f"columns {a + 1}-{b} are a table of their own (two "
                                         f"tables side by side): methods from {label!r}"],
                            raw.caption, raw.group))
    return out


def rows_named(raw: RawTable) -> str:
    """The method column's header when it says the rows are data sets (``Data``, ``Task``,
    ``Organ``) in a table read as printed (not pivoted or transposed), else ""."""
    try:
        head = plain_text(str(raw.header[method_column(raw)])).strip()
    except TableReadError:
        return ""
    return head if ROWS_HEADER.match(head) or CASES_HEADER.match(head) else ""


def row_groups(raw: RawTable) -> list[RawTable]:
    """A table whose body is split by section rows into data sets or metrics (the same
    methods again under each heading) -> one table per section; else ``[raw]`` (section
    rows such as "Transformer-based" that group different methods stay one table)."""
    by_column = (_group_column_blocks(raw) or _n_blocks(raw) or _budget_blocks(raw)
                 or _split_blocks(raw))
    if by_column:
        return by_column
    try:
        method_j = method_column(raw)
    except TableReadError:
        return [raw]
    blocks, label, cur = [], None, []
    for i, r in enumerate(raw.rows):
        if is_section_row(r, method_j):
            if cur:
                blocks.append((label, cur))
            label = " ".join(dict.fromkeys(plain_text(str(c)) for c in r
                                           if plain_text(str(c))))[:60]
            cur = []
        else:
            cur.append(i)
    if cur:
        blocks.append((label, cur))
    names = [{plain_text(str(raw.rows[i][method_j])) for i in rows} for _, rows in blocks]
    if len(blocks) < 2 or any(lab is None for lab, _ in blocks):
        return [raw]
    regimes = all(_SUPERVISION.match(lab) for lab, _ in blocks)
    if not regimes and not all(len(a & names[0]) * 2 >= len(a) for a in names[1:]):
        return [raw]
    why = ("a supervision regime: methods trained with other labels are not compared with "
           "them" if regimes else "a row group: the same methods under each heading")
    out = []
    for lab, rows in blocks:
        out.append(RawTable(raw.source, f"{raw.name} [{lab}]", raw.format, raw.header,
                            [raw.rows[i] for i in rows], [raw.where[i] for i in rows],
                            [raw.bold[i] for i in rows] if raw.bold else [],
                            raw.notes + [f"rows under the heading {lab!r} ({why})"],
                            raw.caption, lab))
    return out


# a heading naming how the methods under it were trained (Fully supervised, Semi-supervised,
# Weakly-supervised, Unsupervised, Self-supervised; the upper / lower bound): the fully
# supervised upper bound is a reference, never the winner over the semi-supervised methods
_SUPERVISION = re.compile(r"(?i)^\W*(?:(?:fully|semi|weakly|self|un)[- ]?)?supervised\b|"
                          r"^\W*(?:upper|lower)[- ]bounds?\b")


_NOT_A_METHOD = re.compile(r"(?i)^(?:Δ|delta|diff\.?|difference|change|gain|improvement|"
                           r"p|p-?value|.*\bp|ci|95% ci|.*confidence interval)$")


def drop_non_methods(raw: RawTable, spellings: Spellings) -> RawTable:
    """After transposing: rows that were columns of differences, intervals or p-values."""
    keep = [i for i, r in enumerate(raw.rows)
            if plain_text(str(r[0])) and not _NOT_A_METHOD.match(plain_text(str(r[0])))
            and not classify(plain_text(str(r[0])), spellings).ignore]
    gone = [plain_text(str(raw.rows[i][0])) or "(no name)" for i in range(len(raw.rows))
            if i not in keep]
    if not gone:
        return raw
    return RawTable(raw.source, raw.name, raw.format, raw.header, [raw.rows[i] for i in keep],
                    [raw.where[i] for i in keep], [raw.bold[i] for i in keep] if raw.bold
                    else [], raw.notes + [f"not methods (differences, intervals, p-values): "
                                          f"{gone}"], raw.caption, raw.group)


# a header prefix that names a test set or split (Test AUROC, External Dice), not a method
_SPLIT_WORD = re.compile(r"(?i)^(?:test|testing|val|valid|validation|dev|train|training|"
                         r"external|internal|held-?out|hold-?out|in-?domain|out-?of-?domain|"
                         r"ood|id|overall|mean|average|avg\.?)$")


def _method_metric(h: str, spellings: Spellings) -> tuple[str, str] | None:
    words = h.split()
    for k in range(1, len(words)):
        prefix, metric = " ".join(words[:k]), " ".join(words[k:])
        if classify(metric, spellings).known and not classify(prefix, spellings).known:
            return prefix, metric
    return None


def method_metric_pivot(raw: RawTable, spellings: Spellings) -> list[RawTable] | None:
    """A header that pairs methods with metrics (``PCE Dice | ZScribbleSeg Dice | PCE HD |
    ZScribbleSeg HD``) over rows of data sets: one table per row, methods as rows. None
    when the header is not such a grid (never read data sets as methods)."""
    first = plain_text(str(raw.header[0])).strip()
    if METHOD_HEADER.match(first) or not first:
        return None  # the rows are methods (Method, Model, blank): the prefixes structures
    pairs = [_method_metric(h, spellings) for h in raw.header[1:]]
    if not pairs or any(p is None for p in pairs):
        return None
    if len({p[1] for p in pairs}) < 2 and not ROWS_HEADER.match(first):
        return None  # Position error | Rotation error: two metrics, not two methods
    if any(_SPLIT_WORD.match(p[0]) for p in pairs):
        return None  # Test AUROC | External AUROC: test sets, never methods
    methods = list(dict.fromkeys(p[0] for p in pairs))
    metrics = list(dict.fromkeys(p[1] for p in pairs))
    if len(methods) < 2 or len(set(pairs)) != len(pairs) or any(
            sum(p[1] == m for p in pairs) < 2 for m in metrics):
        return None
    runs = [p[0] for k, p in enumerate(pairs) if k == 0 or pairs[k - 1][0] != p[0]]
    if len(runs) == len(methods) and len(runs) < len(pairs):
        return None  # prefixes in blocks (BTCV Dice, BTCV HD95, ACDC ...): data-set groups
    at = {p: j + 1 for j, p in enumerate(pairs)}
    out = []
    for i, r in enumerate(raw.rows):
        label = plain_text(str(r[0])) or f"row {i + 1}"
        rows = [[m] + [r[at[(m, x)]] if (m, x) in at else "" for x in metrics]
                for m in methods]
        out.append(RawTable(raw.source, f"{raw.name} [{label}]", raw.format,
                            [raw.header[0] or "Method"] + metrics, rows,
                            [raw.where[i]] * len(rows), [], raw.notes + [
                                f"the header pairs methods ({', '.join(methods)}) with metrics "
                                f"({', '.join(metrics)}); each row ({label}) is one table"],
                            raw.caption, label))
    return out


def long_format_pivot(raw: RawTable, spellings: Spellings) -> list[RawTable] | None:
    """A long (tidy) table, one row per method and metric (``Model & Endpoint & Mean &
    Median``, the endpoint column naming a metric in every row) -> methods x metrics, one
    table per value column (the first is the one read first). An n column becomes the n
    row of each metric where all methods share one size. None when the table has no such
    shape: a second label column that names data sets is a group column, not this."""
    text = text_columns(raw)
    if len(text) != 2:
        return None
    labels = {j: [plain_text(str(r[j])) for r in raw.rows] for j in text}
    if not all(all(labels[j]) for j in text):
        return None
    endpoint_j = next((j for j in text if len(set(labels[j])) >= 2 and all(
        classify(x, spellings).known for x in set(labels[j]))), None)
    if endpoint_j is None:
        return None
    method_j = next(j for j in text if j != endpoint_j)
    methods = list(dict.fromkeys(labels[method_j]))
    endpoints = list(dict.fromkeys(labels[endpoint_j]))
    cell = {(labels[method_j][i], labels[endpoint_j][i]): i for i in range(len(raw.rows))}
    if len(methods) < 2 or len(cell) != len(raw.rows) or any(
            classify(m, spellings).known for m in methods):
        return None  # a method twice for one metric, or the "methods" are metrics too
    if len(methods) == len(raw.rows):
        return None  # no "method" has two metrics: one row per data set (metric_per_row)
    value_js = [j for j in range(len(raw.header)) if j not in text]
    n_js = [j for j in value_js if n_group(raw.header[j]) is not None]
    n_j = next((j for j in n_js if n_group(raw.header[j]) == ""), n_js[0] if n_js else None)
    note = (f"long format: one row per method ({raw.header[method_j]!r}) and metric "
            f"({raw.header[endpoint_j]!r}) -> metrics as columns")
    n_row, n_notes = [], []
    if n_j is not None:
        for e in endpoints:
            sizes = {str(raw.rows[cell[(m, e)]][n_j]).strip() for m in methods
                     if (m, e) in cell}
            n_row.append(sizes.pop() if len(sizes) == 1 else "")
            if len(sizes) > 0:
                n_notes.append(f"{e}: column {raw.header[n_j]!r} differs between methods "
                               "(no n from the table for it)")
    out = []
    for j in value_js:
        if j in n_js:
            continue
        rows, where, bold = [], [], []
        for m in methods:
            idx = [cell.get((m, e)) for e in endpoints]
            rows.append([m] + [raw.rows[i][j] if i is not None else "" for i in idx])
            first = next(i for i in idx if i is not None)
            where.append(raw.where[first])
            bold.append([False] + [bool(raw.bold and i is not None and raw.bold[i][j])
                                   for i in idx])
        if n_row:
            rows.append(["n"] + n_row)
            where.append(f"column {raw.header[n_j]!r}")
            bold.append([False] * (len(endpoints) + 1))
        out.append(RawTable(
            raw.source, f"{raw.name} [{plain_text(raw.header[j])}]", raw.format,
            [raw.header[method_j]] + endpoints, rows, where, bold if raw.bold else [],
            raw.notes + [f"{note}, values from column {raw.header[j]!r}"] + n_notes,
            raw.caption, raw.group))
    return out or None


# a value column headed by a statistic (Mean, Median) is no method: the table is long format
_STATISTIC = re.compile(r"(?i)^(?:mean|median|average|avg\.?|min|max|value|values|result|"
                        r"results|estimate|score)$")


def metric_per_row(raw: RawTable, spellings: Spellings) -> list[RawTable] | None:
    """Methods as columns over rows that each pair a data set with its own metric
    (``Dataset | Metric | U-Net | UNet++``: Liver, Dice; Lung nodule, Sensitivity): one
    table per row, the value columns its methods. None for any other shape (data sets are
    never ranked as methods)."""
    text = text_columns(raw)
    value_js = [j for j in range(len(raw.header)) if j not in text]
    if len(text) != 2 or len(value_js) < 2 or any(
            _STATISTIC.match(plain_text(str(raw.header[j])).strip()) or
            classify(plain_text(str(raw.header[j])), spellings).known for j in value_js):
        return None
    labels = {j: [plain_text(str(r[j])) for r in raw.rows] for j in text}
    metric_j = next((j for j in text if all(x and classify(x, spellings).known for x in labels[j])),
                    None)
    if metric_j is None:
        return None
    label_j = next(j for j in text if j != metric_j)
    names = labels[label_j]
    if not all(names) or len(set(names)) != len(names) or any(
            classify(x, spellings).known for x in names):
        return None
    out = []
    for i, (name, metric) in enumerate(zip(names, labels[metric_j])):
        rows = [[plain_text(str(raw.header[j])), raw.rows[i][j]] for j in value_js]
        bold = [[False, bool(raw.bold[i][j])] for j in value_js] if raw.bold else []
        part = RawTable(raw.source, f"{raw.name} [{name}]", raw.format,
                        [raw.header[label_j] or "Method", metric], rows,
                        [raw.where[i]] * len(rows), bold, raw.notes + [
                            f"each row pairs a {plain_text(str(raw.header[label_j])) or 'label'}"
                            f" with its own metric ({plain_text(str(raw.header[metric_j]))!r}):"
                            " the columns are the methods, one table per row"],
                        raw.caption, name)
        out.append(drop_non_methods(part, spellings))
    return out


# the header of a column that only numbers the rows (#, No., Idx)
_ROW_NUMBER_HEADER = re.compile(r"(?i)^(?:#|no\.?|nr\.?|idx|index|)$")


def drop_row_numbers(raw: RawTable) -> RawTable:
    """A first column that only numbers the rows (``#``: 1, 2, 3, ... or 0, 1, 2, ...)
    before a column of names is no data: kept, it hides a table of metrics as rows."""
    if len(raw.header) < 3 or not raw.rows or not _ROW_NUMBER_HEADER.match(
            plain_text(str(raw.header[0])).strip()):
        return raw
    firsts = [plain_text(str(r[0])).strip() for r in raw.rows]
    if not all(x.isdigit() for x in firsts) or [int(x) for x in firsts] != list(
            range(int(firsts[0]), int(firsts[0]) + len(firsts))) or int(firsts[0]) > 1:
        return raw
    if not all(re.search(r"[^\W\d_]", plain_text(str(r[1]))) for r in raw.rows):
        return raw  # the next column holds numbers too: the first may be data
    return RawTable(raw.source, raw.name, raw.format, raw.header[1:], [r[1:] for r in raw.rows],
                    raw.where, [b[1:] for b in raw.bold] if raw.bold else [],
                    raw.notes + [f"column {plain_text(str(raw.header[0])) or '(no header)'!r} "
                                 f"only numbers the rows {firsts[0]}..{firsts[-1]}: not read"],
                    raw.caption, raw.group, raw.cited_header)


# the method column's header saying its rows are metrics
_METRICS_HEADER = re.compile(r"(?i)^(?:(?:evaluation |performance )?metrics?|measures?|"
                             r"indicators?|statistics?|métricas?|métriques?)$")


def metric_rows(raw: RawTable, spellings: Spellings) -> str:
    """``"metrics: ..."`` when the method column is headed ``Metric`` and most of its names
    are metrics (C-index, AUC, Brier Score) in a table not transposed because a header names
    a metric too (``Bias-Corrected``): one model's results with metrics as rows, whose
    ranking would name a metric the winner; else ""."""
    try:
        method_j = method_column(raw)
    except TableReadError:
        return ""
    if not _METRICS_HEADER.match(plain_text(str(raw.header[method_j])).strip()):
        return ""
    names = [t for r in raw.rows if (t := plain_text(str(r[method_j])).strip())]
    known = [t for t in names if classify(t, spellings).known]
    if len(known) < 2 or len(known) * 2 <= len(names):
        return ""
    return "metrics: " + ", ".join(known[:4]) + (", ..." if len(known) > 4 else "")


def looks_transposed(raw: RawTable, spellings: Spellings) -> bool:
    """Metrics as rows: most names of the first column are metrics, or most header cells
    cite a paper; and no header cell is a metric."""
    if not raw.rows or not raw.header:
        return False
    if raw.cited_header and not any(classify(h, spellings).known for h in raw.header[1:] if h):
        return True  # "rollout~\cite{..}" over the columns: the columns are methods
    firsts = [plain_text(str(r[0])) for r in raw.rows if plain_text(str(r[0]))]
    rows_metric = sum(classify(t, spellings).known for t in firsts)
    cols_metric = sum(classify(h, spellings).known for h in raw.header[1:] if h)
    return bool(firsts) and rows_metric * 2 > len(firsts) and cols_metric == 0
