"""Which papers enter the probability analysis.

[Christodoulou2025], Methods, "Data analysis subset". Criteria, applied in this order
(`docs/method.md`, "Eligibility"); the first one a paper fails is its exclusion reason:

0. ``invalid_cell``: only for venues read with ``on_bad_cell: exclude`` (the papers table
   then has an ``invalid_cell`` column): a cell of the paper could not be read; the flow
   table then has the extra step ``valid_cells``;
1. ``out_of_scope``: classification/segmentation is not the main task (``in_scope`` false
   or missing);
2. ``values_only_in_figures``: metric values only in figures or supplements;
3. ``no_distinct_test_set``: the split is not one of ``analysis.test_set_splits``
   (cv_only, unclear or missing);
4. ``fewer_than_two_methods``: fewer than two methods report the task's primary metric
   (Accuracy or DSC);
5. ``missing_test_size``: no test-set size for the two top-ranked methods;
   ``top2_test_sizes_differ`` when their per-method sizes disagree (not a paired
   comparison).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from falseclaims.tasks import TASKS

STEPS = (
    ("found", "papers found"),
    ("in_scope", "in scope"),
    ("values_in_text", "values reported in text or tables"),
    ("distinct_test_set", "distinct test set"),
    ("two_methods", "primary metric for at least two methods"),
    ("test_size", "test-set size known (analysed)"),
)
VALID_CELLS_STEP = ("valid_cells", "all cells readable")  # only with on_bad_cell: exclude
# exclusion reason -> the flow step the paper fails to reach
REASON_STEP = {
    "invalid_cell": "valid_cells",
    "out_of_scope": "in_scope",
    "values_only_in_figures": "values_in_text",
    "no_distinct_test_set": "distinct_test_set",
    "fewer_than_two_methods": "two_methods",
    "missing_test_size": "test_size",
    "top2_test_sizes_differ": "test_size",
}
EXCLUSION_COLUMNS = ["venue", "paper_id", "task", "step", "reason", "detail"]
TOP2_COLUMNS = [
    "venue", "paper_id", "task", "metric", "method_a", "method_b", "value_a", "value_b",
    "delta", "tie", "n_test", "sd_a_reported", "sd_b_reported", "sd_a_over", "sd_b_over",
]


@dataclass(frozen=True)
class Selection:
    eligible: pd.DataFrame
    exclusions: pd.DataFrame
    flow: pd.DataFrame
    top2: pd.DataFrame


def unreadable(papers: pd.DataFrame) -> pd.Series:
    """Papers with an unreadable cell (criterion 0; all False without an ``invalid_cell``
    column). The figures' populations leave them out too (``figures.common.population``)."""
    if "invalid_cell" not in papers.columns:
        return pd.Series(False, index=papers.index)
    # re-read tables may hold "" for missing (dtype=str, keep_default_na=False)
    text = papers["invalid_cell"].astype("string").str.strip().replace("", pd.NA)
    return text.notna().astype(bool)


def primary_metric_rows(papers: pd.DataFrame, results: pd.DataFrame,
                        metrics: dict[str, list[str]]) -> pd.DataFrame:
    """Result rows carrying each paper's primary metric (by task), sorted best first."""
    aliases = {t: {a.strip().lower() for a in names} for t, names in metrics.items()}
    task_of = papers.set_index("paper_id")["task"]
    res = results.copy()
    res["task"] = res["paper_id"].map(task_of)
    metric = res["metric"].astype("string").str.strip().str.lower()
    keep = np.zeros(len(res), dtype=bool)
    for task, names in aliases.items():
        keep |= ((res["task"] == task) & metric.isin(names)).fillna(False).to_numpy(bool)
    res = res[keep & res["value"].notna().to_numpy()]
    # stable sort: ties keep sheet order, so the choice of A among equals is reproducible
    return res.sort_values(["paper_id", "value"], ascending=[True, False], kind="mergesort")


def _top2_table(rows: pd.DataFrame, papers: pd.DataFrame) -> pd.DataFrame:
    first = rows.groupby("paper_id", sort=True).nth(0).set_index("paper_id")
    second = rows.groupby("paper_id", sort=True).nth(1).set_index("paper_id")
    ids = second.index
    first = first.loc[ids]
    p = papers.set_index("paper_id").loc[ids]
    n_a = pd.to_numeric(first["n_test"], errors="coerce") if "n_test" in first else np.nan
    n_b = pd.to_numeric(second["n_test"], errors="coerce") if "n_test" in second else np.nan
    out = pd.DataFrame(
        {
            "venue": p["venue"].to_numpy() if "venue" in p else "",
            "paper_id": ids,
            "task": p["task"].to_numpy(),
            "metric": first["metric"].to_numpy(),
            "method_a": first["method"].to_numpy(),
            "method_b": second["method"].to_numpy(),
            "value_a": first["value"].to_numpy(dtype=float),
            "value_b": second["value"].to_numpy(dtype=float),
            "n_a": np.asarray(n_a, dtype=float),
            "n_b": np.asarray(n_b, dtype=float),
            "n_paper": pd.to_numeric(p["n_test"], errors="coerce").to_numpy(dtype=float),
            "sd_a_reported": pd.to_numeric(first.get("sd"), errors="coerce"),
            "sd_b_reported": pd.to_numeric(second.get("sd"), errors="coerce"),
            "sd_a_over": first.get("sd_over"),
            "sd_b_over": second.get("sd_over"),
        }
    )
    out["delta"] = out["value_a"] - out["value_b"]
    out["tie"] = out["delta"] == 0
    return out.reset_index(drop=True)


def _resolve_n(top2: pd.DataFrame) -> tuple[pd.Series, pd.Series, pd.Series]:
    """Test size per paper: per-method sizes of A and B when given, else the paper's."""
    n_a, n_b, n_paper = top2["n_a"], top2["n_b"], top2["n_paper"]
    differ = n_a.notna() & n_b.notna() & (n_a != n_b)
    n = n_a.fillna(n_b).fillna(n_paper)
    detail = np.where(differ, "per-method n_test: A " + n_a.astype(str) + ", B " +
                      n_b.astype(str), "")
    return n, differ, pd.Series(detail, index=top2.index)


def select_papers(papers: pd.DataFrame, results: pd.DataFrame, analysis: dict,
                  venue: str = "") -> Selection:
    """Apply the eligibility criteria and pick the top-2 methods of every eligible paper."""
    papers = papers.copy()
    if "venue" not in papers:
        papers["venue"] = venue
    reason = pd.Series(pd.NA, index=papers.index, dtype="object")
    detail = pd.Series("", index=papers.index, dtype="object")

    def mark(mask, why, text=""):
        mask = pd.Series(mask, index=papers.index).fillna(False).astype(bool) & reason.isna()
        reason[mask] = why
        if isinstance(text, pd.Series):
            detail[mask] = text[mask]
        else:
            detail[mask] = text

    lenient = "invalid_cell" in papers.columns
    if lenient:
        mark(unreadable(papers), "invalid_cell", papers["invalid_cell"].astype("string")
             .str.strip().fillna(""))
    in_scope = papers["in_scope"].astype("boolean")
    mark(~in_scope.fillna(False), "out_of_scope",
         np.where(in_scope.isna(), "in_scope not recorded", "main task is not "
                  "classification/segmentation"))
    mark(papers["values_only_in_figures"].astype("boolean").fillna(False),
         "values_only_in_figures", "metric values only in figures or supplements")
    ok_splits = set(analysis["test_set_splits"])
    split = papers["split"].astype("object")
    mark(~split.isin(ok_splits), "no_distinct_test_set",
         "split = " + split.fillna("missing").astype(str))

    rows = primary_metric_rows(papers, results, analysis["metrics"])
    counts = rows.groupby("paper_id").size()
    n_methods = papers["paper_id"].map(counts).fillna(0).astype(int)
    mark(n_methods < 2, "fewer_than_two_methods",
         n_methods.astype(str) + " method(s) with the primary metric")

    candidates = papers.loc[reason.isna(), "paper_id"]
    top2 = _top2_table(rows[rows["paper_id"].isin(candidates)], papers)
    n, differ, n_detail = _resolve_n(top2)
    top2["n_test"] = n
    by_id = papers.set_index("paper_id").index
    missing_n = pd.Series(by_id.isin(top2.loc[n.isna(), "paper_id"]), index=papers.index)
    mark(missing_n, "missing_test_size", "no n_test for the paper or its top-2 methods")
    differ_ids = top2.loc[differ & n.notna(), "paper_id"]
    mark(pd.Series(by_id.isin(differ_ids), index=papers.index), "top2_test_sizes_differ",
         papers["paper_id"].map(dict(zip(top2["paper_id"], n_detail))))

    keep = reason.isna()
    eligible = papers[keep].reset_index(drop=True)
    top2 = top2[top2["paper_id"].isin(eligible["paper_id"])].copy()
    top2["n_test"] = top2["n_test"].round().astype("Int64")
    top2 = top2[TOP2_COLUMNS].sort_values("paper_id", kind="mergesort").reset_index(drop=True)

    excl = papers.loc[~keep, ["venue", "paper_id", "task"]].copy()
    excl["reason"] = reason[~keep].to_numpy()
    excl["step"] = excl["reason"].map(REASON_STEP)
    excl["detail"] = detail[~keep].to_numpy()
    excl = excl[EXCLUSION_COLUMNS].sort_values("paper_id", kind="mergesort")
    return Selection(eligible, excl.reset_index(drop=True),
                     _flow(papers, reason, venue, lenient), top2)


def _flow(papers: pd.DataFrame, reason: pd.Series, venue: str = "",
          lenient: bool = False) -> pd.DataFrame:
    failed_at = reason.map(REASON_STEP)
    steps = (STEPS[0], VALID_CELLS_STEP, *STEPS[1:]) if lenient else STEPS
    order = [s for s, _ in steps]
    rows = []
    venue = papers["venue"].iloc[0] if len(papers) else venue
    for task in TASKS:
        in_task = (papers["task"] == task).fillna(False).to_numpy(dtype=bool)
        for i, (step, label) in enumerate(steps):
            # a paper reaches step i unless it failed at a step <= i
            failed_by_here = failed_at.isin(order[1 : i + 1]).to_numpy()
            rows.append({"venue": venue, "task": task, "step": step, "label": label,
                         "n_papers": int((in_task & ~failed_by_here).sum())})
    return pd.DataFrame(rows)
