"""2x2 counts of a diagnostic-accuracy sheet read as accuracy and test-set size.

A row giving a test's true and false positives and negatives (columns mapped to ``tp``,
``fp``, ``fn``, ``tn``; or ``tp`` and ``tn`` with the numbers of positives and negatives,
``n_positive`` = TP + FN and ``n_negative`` = TN + FP, as sheets of "cases" and
"controls" write them) gives

    accuracy = (TP + TN) / N,   n_test = N = TP + FP + FN + TN

(the definitions of accuracy and of the 2x2 table: Rainio et al. 2024, "Evaluation
metrics and statistical tests for machine learning", Scientific Reports 14:6086). The
accuracy fills the row's value cell (``value_proposed`` in the wide layout, ``value`` in
a long results table), N its ``n_test`` cell and ``accuracy`` its metric cell, each only
where the sheet leaves it empty; every derived row is noted, every unreadable count is a
problem naming its cell. The count columns are then done with: no record carries them.
"""

from __future__ import annotations

from falseclaims.io.raw_table import clean_text, is_missing
from falseclaims.io.raw_reader import RawTable
from falseclaims.sheets.read.prepare import add_column

__all__ = ["COUNTS", "derive_counts"]

COUNTS = ("tp", "fp", "fn", "tn", "n_positive", "n_negative")
# what each count column must be given with: (count, its alternative)
_NEEDED = (("tp", None), ("tn", None), ("fn", "n_positive"), ("fp", "n_negative"))


def _count(raw) -> int | None:
    """A whole number >= 0, or None."""
    text = clean_text(str(raw)).replace(",", "")
    try:
        x = float(text)
    except ValueError:
        return None
    return int(x) if x >= 0 and x == int(x) else None


def _missing(have: set[str]) -> list[str]:
    return [c if alt is None else f"{c} (or {alt})" for c, alt in _NEEDED
            if c not in have and (alt is None or alt not in have)]


def derive_counts(t: RawTable, idx: dict, their: dict, layout: str) -> None:
    """Fill value, n_test and metric cells from the mapped 2x2 count columns (in place)."""
    have = [c for c in COUNTS if c in idx]
    if not have:
        return
    cols = {c: (idx.pop(c), their.pop(c)) for c in have}
    missing = _missing(set(have))
    if missing:
        t.problem(None, None, ", ".join(f"{n}: {c}" for c, (_, n) in cols.items()),
                  "2x2 counts that give accuracy and the test-set size: columns for "
                  + ", ".join(missing) + " too (accuracy = (TP + TN) / N)")
        return
    value = "value_proposed" if layout == "wide_top2" else "value"
    for ours, name in ((value, "(accuracy from 2x2 counts)"), ("n_test", "(N of 2x2 counts)"),
                       ("metric", "(metric of 2x2 counts)")):
        if ours not in idx:
            idx[ours] = len(t.header)
            their[ours] = add_column(t, name, [None] * len(t.rows))
    for rownum, cells in t.rows:
        _derive_row(t, rownum, cells, cols, [idx[value], idx["n_test"], idx["metric"]])


def _derive_row(t: RawTable, rownum: int, cells: list, cols: dict, out: list[int]) -> None:
    raw = {c: cells[j] for c, (j, _) in cols.items()}
    if all(is_missing(v) for v in raw.values()):
        return
    n = {}
    for c, v in raw.items():
        n[c] = None if is_missing(v) else _count(v)
        if n[c] is None:
            t.problem(rownum, cols[c][1], None if is_missing(v) else v,
                      "a whole number >= 0 (a 2x2 count)", cell=True)
            return
    fn = n["fn"] if "fn" in n else n["n_positive"] - n["tp"]
    fp = n["fp"] if "fp" in n else n["n_negative"] - n["tn"]
    if fn < 0 or fp < 0:
        c = "n_positive" if fn < 0 else "n_negative"
        t.problem(rownum, cols[c][1], raw[c], f"at least {'TP' if fn < 0 else 'TN'} "
                  f"({n['tp'] if fn < 0 else n['tn']}): the {c[2:]}s include them", cell=True)
        return
    total = n["tp"] + fp + fn + n["tn"]
    if total == 0:
        t.problem(rownum, cols["tp"][1], raw["tp"], "2x2 counts summing to more than 0",
                  cell=True)
        return
    acc = (n["tp"] + n["tn"]) / total
    for j, x in zip(out, (acc, total, "accuracy")):
        if is_missing(cells[j]):
            cells[j] = x
    t.note(rownum, t.header[out[0]], f"{acc:.6g}",
           f"accuracy {acc:.6g} = (TP {n['tp']} + TN {n['tn']}) / N {total}, n_test {total} "
           f"(FN {fn}, FP {fp}; 2x2 counts)")
