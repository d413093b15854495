"""Which papers enter the probability analysis.

[Christodoulou2025], Methods, "Data analysis subset". Criteria, applied in this order
(`docs/method.md`, "Eligibility"); the first one a paper fails is its exclusion reason:

0. ``invalid_cell``: only for venues read with ``on_bad_cell: exclude`` (the papers table
   then has an ``invalid_cell`` column): a cell of the paper could not be read; the flow
   table then has the extra step ``valid_cells``;
1. ``out_of_scope``: classification/segmentation is not the main task (``in_scope`` false
   or missing);
2. ``values_only_in_figures``: metric values only in figures or supplements;
2b. ``no_results_recorded``: only for a venue without any results row (a study-design
   sheet): the flow table then has the extra step ``results_recorded`` after
   ``values_in_text``, so the boxes before it (in scope, values in text or tables: the
   populations the practice figures count) keep their counts and the papers leave with the
   reason they have, not "no distinct test set";
3. ``no_distinct_test_set``: the split is not one of ``analysis.test_set_splits``
   (cv_only, unclear or missing);
4. ``fewer_than_two_methods``: fewer than two methods report the task's primary metric
   (Accuracy or DSC);
5. ``missing_test_size``: no test-set size for the two top-ranked methods;
   ``top2_test_sizes_differ`` when their per-method sizes disagree (not a paired
   comparison). This one is our addition, not a criterion of the paper (which asks only
   for a test-set size per method); `docs/method.md`, "Eligibility", gives its effect.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from falseclaims.config import Eligibility, from_params
from falseclaims.survey.top2 import select_top2, top2_table
from falseclaims.tasks import filled_tasks, task_panels

STEPS = (
    ("found", "papers found"),
    ("in_scope", "in scope"),
    ("values_in_text", "values reported in text or tables"),
    ("distinct_test_set", "distinct test set"),
    ("two_methods", "primary metric for at least two methods"),
    ("test_size", "test-set size known (analysed)"),
)
VALID_CELLS_STEP = ("valid_cells", "all cells readable")  # only with on_bad_cell: exclude
RESULTS_STEP = ("results_recorded", "results recorded")  # only for a study-design sheet
DESIGN_ONLY_NOTE = "design-only: no results recorded"
DESIGN_ONLY_DETAIL = f"{DESIGN_ONLY_NOTE} (a study-design sheet)"
# exclusion reason -> the flow step the paper fails to reach
REASON_STEP = {
    "invalid_cell": "valid_cells",
    "out_of_scope": "in_scope",
    "values_only_in_figures": "values_in_text",
    "no_results_recorded": "results_recorded",
    "no_distinct_test_set": "distinct_test_set",
    "fewer_than_two_methods": "two_methods",
    "missing_test_size": "test_size",
    "top2_test_sizes_differ": "test_size",
}


def step_label(reason: str) -> str:
    """The words of the flow step an exclusion ``reason`` fails to pass ("distinct test
    set" for ``no_distinct_test_set``): what a user reads, the reason staying the table key."""
    labels = dict((*STEPS, VALID_CELLS_STEP, RESULTS_STEP))
    return labels.get(REASON_STEP.get(reason, ""), reason.replace("_", " "))


EXCLUSION_COLUMNS = ["venue", "paper_id", "task", "step", "reason", "detail"]


@dataclass(frozen=True)
class Selection:
    eligible: pd.DataFrame
    exclusions: pd.DataFrame
    flow: pd.DataFrame
    top2: pd.DataFrame


def unreadable(papers: pd.DataFrame) -> pd.Series:
    """Papers with an unreadable cell (criterion 0; all False without an ``invalid_cell``
    column). The figures' populations leave them out too (``survey.populations.population``)."""
    if "invalid_cell" not in papers.columns:
        return pd.Series(False, index=papers.index)
    # re-read tables may hold "" for missing (dtype=str, keep_default_na=False)
    text = papers["invalid_cell"].astype("string").str.strip().replace("", pd.NA)
    return text.notna().astype(bool)


def primary_metric_rows(papers: pd.DataFrame, results: pd.DataFrame,
                        metrics: Mapping[str, Sequence[str]]) -> pd.DataFrame:
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


def select_papers(papers: pd.DataFrame, results: pd.DataFrame,
                  criteria: Eligibility | Mapping, venue: str = "") -> Selection:
    """Apply the eligibility criteria; the top-2 methods of every eligible paper come from
    ``survey.top2`` (the last criteria are read from the selected pair). ``criteria``:
    ``Analysis.from_config(cfg).eligibility``; a mapping (the eligibility rule's
    ``params.analysis``) is read by :func:`falseclaims.config.from_params`."""
    criteria = from_params(criteria, Eligibility)
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
    design_only = results.empty and not papers.empty  # papers, none with a result
    if design_only:
        mark(True, "no_results_recorded", DESIGN_ONLY_DETAIL)
    ok_splits = set(criteria.test_set_splits)
    split = papers["split"].astype("object")
    mark(~split.isin(ok_splits), "no_distinct_test_set",
         "split = " + split.fillna("missing").astype(str))

    rows = primary_metric_rows(papers, results, criteria.metrics)
    counts = rows.groupby("paper_id").size()
    n_methods = papers["paper_id"].map(counts).fillna(0).astype(int)
    mark(n_methods < 2, "fewer_than_two_methods",
         n_methods.astype(str) + " method(s) with the primary metric")

    candidates = papers.loc[reason.isna(), "paper_id"]
    top2 = select_top2(rows[rows["paper_id"].isin(candidates)], papers)
    n, differ = top2["n_test"], top2["n_test_differs"]
    by_id = papers.set_index("paper_id").index
    missing_n = pd.Series(by_id.isin(top2.loc[n.isna(), "paper_id"]), index=papers.index)
    mark(missing_n, "missing_test_size", "no n_test for the paper or its top-2 methods")
    differ_ids = top2.loc[differ & n.notna(), "paper_id"]
    mark(pd.Series(by_id.isin(differ_ids), index=papers.index), "top2_test_sizes_differ",
         papers["paper_id"].map(dict(zip(top2["paper_id"], top2["n_test_detail"]))))

    keep = reason.isna()
    eligible = papers[keep].reset_index(drop=True)
    top2 = top2_table(top2, eligible["paper_id"])

    excl = papers.loc[~keep, ["venue", "paper_id", "task"]].copy()
    excl["reason"] = reason[~keep].to_numpy()
    excl["step"] = excl["reason"].map(REASON_STEP)
    excl["detail"] = detail[~keep].to_numpy()
    excl = excl[EXCLUSION_COLUMNS].sort_values("paper_id", kind="mergesort")
    return Selection(eligible, excl.reset_index(drop=True),
                     _flow(papers, reason, venue, lenient, design_only), top2)


def flow_steps(lenient: bool = False, design_only: bool = False) -> list[tuple[str, str]]:
    """The flow table's steps: :data:`STEPS` with ``valid_cells`` after ``found``
    (``lenient``) and ``results_recorded`` after ``values_in_text`` (``design_only``)."""
    steps = list(STEPS)
    if design_only:
        steps.insert(3, RESULTS_STEP)
    if lenient:
        steps.insert(1, VALID_CELLS_STEP)
    return steps


def _flow(papers: pd.DataFrame, reason: pd.Series, venue: str = "",
          lenient: bool = False, design_only: bool = False) -> pd.DataFrame:
    failed_at = reason.map(REASON_STEP)
    steps = flow_steps(lenient, design_only)
    order = [s for s, _ in steps]
    rows = []
    venue = papers["venue"].iloc[0] if len(papers) else venue
    tasks = filled_tasks(papers["task"])
    for task in task_panels(tasks):
        in_task = (tasks == task).to_numpy(dtype=bool)
        for i, (step, label) in enumerate(steps):
            # a paper reaches step i unless it failed at a step <= i
            failed_by_here = failed_at.isin(order[1 : i + 1]).to_numpy()
            rows.append({"venue": venue, "task": task, "step": step, "label": label,
                         "n_papers": int((in_task & ~failed_by_here).sum())})
    return pd.DataFrame(rows)
