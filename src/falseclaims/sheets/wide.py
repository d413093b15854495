"""Wide "top-2" sheets: one row per paper with the proposed method's value, the best prior
value and the test-set size in separate columns. They become the same papers and
results tables as the long layout, with methods named "proposed" and "best_prior" (or the
names in optional ``name_proposed`` / ``name_best_prior`` columns). Papers-table fields the
wide sheet lacks stay missing. A ``values_compared`` column may list every compared method
in one cell ("UNet 78.2; nnU-Net 80.1"), one results row each, instead of or next to
``value_best_prior``. Split cells (config ``cells: {col: {split: ...}}``) give one results
row per part (``expand_parts``). A sheet of study design only (no value column at all)
gives its papers and an empty results table: the flow, reporting-practice, uncertainty and
split-size outputs apply to it; probabilities need results (noted once).
"""

from __future__ import annotations

from falseclaims.sheets.columns import PAPERS, WIDE_METHODS
from falseclaims.sheets.io import RawTable

__all__ = ["wide_to_long", "check_wide_columns", "expand_parts", "NO_RESULTS"]


NO_RESULTS = ("no result columns (no value_proposed, value_best_prior or values_compared): "
              "the flow, reporting-practice, uncertainty and split-size outputs are made; "
              "probabilities need results")


def check_wide_columns(table: RawTable, idx: dict, constants: dict, where: str) -> bool:
    """Problems for missing metric/value columns; False for a sheet of study design only
    (no value column at all: its papers run without results, noted once)."""
    values = ("value_proposed", "value_best_prior", "values_compared")
    if not any(c in idx or c in (constants or {}) for c in values):
        table.note(None, None, None, NO_RESULTS)  # in the venue's digest (reader.py)
        return False
    for col in ("metric", *(f"value_{m}" for m in WIDE_METHODS)):
        if col == "value_best_prior" and "values_compared" in idx:
            continue
        if col not in idx and col not in (constants or {}):
            table.problem(table.header_row, col, None,
                          f"a column {col!r} (wide_top2 layout; map yours in {where} "
                          f"columns: wide: {{their name: {col}}}"
                          + (" or set constants: {metric: ...}" if col == "metric" else "")
                          + ")")
    return True


def wide_to_long(records: list[dict], table: RawTable,
                 has_results: bool = True) -> tuple[list[dict], list[dict]]:
    papers, results = [], []
    for rec in records:
        their = rec["_their"]
        p = {c: rec.get(c) for c in PAPERS}
        p["_row"], p["_their"] = rec["_row"], their
        p["_bad"] = {c for c in rec.get("_bad", ()) if c in PAPERS}
        papers.append(p)
        if not has_results:
            continue
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
                "_parts_value": rec.get(f"_parts_{vcol}"),
                "_bad": {c for c in ("paper_id", "metric", "sd_over") if c in bad}
                | ({"value"} if vcol in bad else set()) | ({"sd"} if scol in bad else set())
                | ({"n_test"} if ncol in bad else set()),
            })
        for name, m in rec.get("values_compared") or ():
            if rec.get("metric") is None:
                break
            results.append({
                "paper_id": rec.get("paper_id"), "method": name, "metric": rec["metric"],
                "value": m.value, "sd": None, "sd_over": rec.get("sd_over"),
                "n_test": None, "_row": rec["_row"], "_m_value": m,
                "_bad": {c for c in ("paper_id", "metric", "sd_over") if c in bad},
                "_their": {"paper_id": their.get("paper_id", "paper_id"),
                           "method": their.get("values_compared", "values_compared"),
                           "metric": their.get("metric", "metric"),
                           "value": their.get("values_compared", "values_compared"),
                           "sd": their.get("values_compared", "values_compared"),
                           "sd_over": their.get("sd_over", "sd_over"),
                           "n_test": their.get("n_test", "n_test")},
            })
    return papers, results


def expand_parts(records: list[dict], table: RawTable) -> list[dict]:
    """One record per part of a split value cell, " [part]" appended to the metric or the
    method name (noted); an SD cell split the same way pairs up part by part."""
    out = []
    for rec in records:
        rule = rec.get("_parts_value")
        if rule is None or not isinstance(rec.get("value"), list):
            if isinstance(rec.get("sd"), list):
                table.problem(rec["_row"], rec["_their"].get("sd", "sd"), rec["sd"],
                              "one SD (the value cell of this row holds one value)", cell=True)
                rec["sd"] = None
                rec.setdefault("_bad", set()).add("sd")
            out.append(rec)
            continue
        sds = rec.get("sd")
        for k, part in enumerate(rule.parts):
            new = dict(rec)
            new["value"], new["_m_value"] = rec["value"][k], rec["_m_value"][k]
            new["sd"] = sds[k] if isinstance(sds, list) else sds
            if part:
                target = rule.suffix_on
                if new.get(target) is not None:
                    new[target] = f"{new[target]} [{part}]"
                table.note(rec["_row"], rec["_their"].get("value", "value"),
                           rec["value"][k], f"part {k + 1} of a {rule.split!r}-separated cell: "
                           f"{target} {new.get(target)!r}")
            out.append(new)
    return out
