"""Table mode in the survey: how many of a paper's reported methods are statistically tied
with its winner (``results/<venue>/ties.csv``; rule ``table_ties``).

For every eligible paper whose results sheet holds more than two methods on its primary
metric, the methods' values form one metric column; the winner is the survey's method A
(best value) and the analysis is :func:`falseclaims.table.analysis.analyse_column`, with the
paper's n and reported SDs used where the survey uses them (``analysis.use_reported_sd_over``).
"""

from __future__ import annotations

import pandas as pd

from falseclaims.config import Analysis
from falseclaims.survey.eligibility import primary_metric_rows
from falseclaims.table.analysis import analyse_column, default_cutoff
from falseclaims.table.model import MetricColumn

__all__ = ["TIES_COLUMNS", "paper_ties"]

TIES_COLUMNS = ["venue", "paper_id", "task", "metric", "n_test", "n_methods", "winner",
                "runner_up", "p_runner_up", "tier1_size", "n_tied", "share_tied", "n_tiers",
                "cutoff"]


def _column(rows: pd.DataFrame, task: str, use_over: list[str]) -> MetricColumn:
    k = len(rows)
    sd = pd.to_numeric(rows.get("sd", pd.Series([None] * k)), errors="coerce")
    over = rows.get("sd_over", pd.Series([None] * k)).astype("string")
    sds = [float(s) if pd.notna(s) and o in use_over else None
           for s, o in zip(sd, over.fillna(""))]
    values = [float(v) for v in rows["value"]]
    return MetricColumn(str(rows["metric"].iloc[0]), 1, task, "sheet", "fraction", "sheet",
                        [str(m) for m in rows["method"]], values, sds, [8] * k,
                        [f"{v:g}" for v in values], [False] * k, [False] * k,
                        [f"row {r}" for r in rows.get("source_row", range(1, k + 1))])


def paper_ties(eligible: pd.DataFrame, results: pd.DataFrame, top2: pd.DataFrame,
               cfg: dict) -> pd.DataFrame:
    """One row per eligible paper with more than two methods on its primary metric."""
    cutoff = default_cutoff(cfg)
    analysis = Analysis.from_config(cfg)
    use_over = list(analysis.use_reported_sd_over)
    rows = primary_metric_rows(eligible, results, analysis.eligibility.metrics)
    n_of = top2.set_index("paper_id")["n_test"]
    out = []
    for pid, g in rows.groupby("paper_id", sort=True):
        if len(g) < 3 or pid not in n_of.index or pd.isna(n_of[pid]):
            continue
        task = str(eligible.set_index("paper_id").loc[pid, "task"])
        res = analyse_column(_column(g, task, use_over), int(n_of[pid]), cfg, cutoff,
                             pm_over=use_over[0] if use_over else "unclear", rounding=False)
        m = res["m"]
        winner, runner, p_runner = _top_two(res)
        out.append({"venue": g["venue"].iloc[0] if "venue" in g else "", "paper_id": pid,
                    "task": task, "metric": res["column"], "n_test": int(n_of[pid]),
                    "n_methods": m, "winner": winner, "runner_up": runner,
                    "p_runner_up": p_runner, "tier1_size": len(res["tier1"]),
                    "n_tied": len(res["tier1"]) - 1,
                    "share_tied": (len(res["tier1"]) - 1) / (m - 1),
                    "n_tiers": len(res["tiers"]), "cutoff": cutoff})
    return pd.DataFrame(out, columns=TIES_COLUMNS)


def _top_two(res: dict) -> tuple[str, str, float]:
    """(winner, runner-up, P) as the survey compares them: its method A and B, the two best
    values. Table mode reports a tie at the top as "A = B" and compares the best method
    outside it; the survey's P of such a paper is that of B against A (0.5 for equal
    values), and this table says the same (one voice with results/<venue>/probabilities)."""
    tied = res.get("tied_at_top") or []
    if len(tied) < 2:
        return res["winner"], res["runner_up"], res["p_runner_up"]
    second = next(m for m in res["methods"] if m["method"] == tied[1])
    return tied[0], tied[1], second["p_false_claim"]
