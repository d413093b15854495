"""Wide "top-2" sheets: one row per paper with the proposed method's value, the best prior
value and the test-set size in separate columns. They become the same papers and
results tables as the long layout, with methods named "proposed" and "best_prior" (or the
names in optional ``name_proposed`` / ``name_best_prior`` columns). Papers-table fields the
wide sheet lacks stay missing.
"""

from __future__ import annotations

from falseclaims.sheets.columns import PAPERS, WIDE_METHODS
from falseclaims.sheets.io import RawTable

__all__ = ["wide_to_long", "check_wide_columns"]


def check_wide_columns(table: RawTable, idx: dict, constants: dict, where: str) -> None:
    for col in ("metric", *(f"value_{m}" for m in WIDE_METHODS)):
        if col not in idx and col not in (constants or {}):
            table.problem(table.header_row, col, None,
                          f"a column {col!r} (wide_top2 layout; map yours in {where} "
                          f"columns: wide: {{their name: {col}}}"
                          + (" or set constants: {metric: ...}" if col == "metric" else "")
                          + ")")


def wide_to_long(records: list[dict], table: RawTable) -> tuple[list[dict], list[dict]]:
    papers, results = [], []
    for rec in records:
        their = rec["_their"]
        p = {c: rec.get(c) for c in PAPERS}
        p["_row"], p["_their"] = rec["_row"], their
        papers.append(p)
        bad = rec.get("_bad", set())
        for method in WIDE_METHODS:
            vcol, scol, ncol = f"value_{method}", f"sd_{method}", f"n_test_{method}"
            if rec.get(vcol) is None:
                if vcol not in bad:
                    table.note(rec["_row"], their.get(vcol, vcol), None,
                               f"no {method} value; no results row for it")
                continue
            if rec.get("metric") is None:
                if "metric" not in bad:
                    table.problem(rec["_row"], their.get("metric", "metric"), None,
                                  "a metric name (the row has values)")
                continue
            results.append({
                "paper_id": rec.get("paper_id"),
                "method": rec.get(f"name_{method}") or method,
                "metric": rec["metric"],
                "value": rec[vcol],
                "sd": rec.get(scol),
                "sd_over": rec.get("sd_over"),
                "n_test": rec.get(ncol),
                "_row": rec["_row"],
                "_their": {"paper_id": their.get("paper_id", "paper_id"),
                           "method": their.get(f"name_{method}", f"name_{method}"),
                           "metric": their.get("metric", "metric"),
                           "value": their.get(vcol, vcol), "sd": their.get(scol, scol),
                           "sd_over": their.get("sd_over", "sd_over"),
                           "n_test": their.get(ncol, ncol)},
                "_m_value": rec.get(f"_m_{vcol}"),
                "_pct_sd": rec.get(f"_pct_{scol}", False),
                "_xlpct_value": rec.get(f"_xlpct_{vcol}", False),
                "_xlpct_sd": rec.get(f"_xlpct_{scol}", False),
            })
    return papers, results
