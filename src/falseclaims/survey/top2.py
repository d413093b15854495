"""Top-2 selection: the best and the runner-up method of every paper by the task's primary
metric ([Christodoulou2025], Methods, "Data analysis subset"), ties flagged, and the test
size of the comparison (per-method sizes of A and B when given, else the paper's).

Eligibility (``survey/eligibility.py``) calls :func:`select_top2` for the papers that pass
its first criteria, because its last ones (test size known, the same for A and B) are read
from the selected pair; :func:`top2_table` then keeps the eligible papers' rows.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

TOP2_COLUMNS = [
    "venue", "paper_id", "task", "metric", "method_a", "method_b", "value_a", "value_b",
    "delta", "tie", "n_test", "sd_a_reported", "sd_b_reported", "sd_a_over", "sd_b_over",
]


def select_top2(rows: pd.DataFrame, papers: pd.DataFrame) -> pd.DataFrame:
    """Best (A) and runner-up (B) of every paper with at least two rows in ``rows``.

    ``rows`` are primary-metric result rows sorted best first within each paper
    (``eligibility.primary_metric_rows``). Besides :data:`TOP2_COLUMNS` (``n_test`` float,
    missing when no size is known) the table has ``n_test_differs`` (A and B report
    different sizes) and ``n_test_detail`` (those sizes, as text).
    """
    top2 = _pairs(rows, papers)
    n_a, n_b, n_paper = top2["n_a"], top2["n_b"], top2["n_paper"]
    top2["n_test"] = n_a.fillna(n_b).fillna(n_paper)
    top2["n_test_differs"] = n_a.notna() & n_b.notna() & (n_a != n_b)
    top2["n_test_detail"] = np.where(top2["n_test_differs"], "per-method n_test: A "
                                     + n_a.astype(str) + ", B " + n_b.astype(str), "")
    return top2


def top2_table(top2: pd.DataFrame, eligible_ids) -> pd.DataFrame:
    """The published top-2 table (``top2.csv``): eligible papers only, sorted by id."""
    top2 = top2[top2["paper_id"].isin(eligible_ids)].copy()
    top2["n_test"] = top2["n_test"].round().astype("Int64")
    return top2[TOP2_COLUMNS].sort_values("paper_id", kind="mergesort").reset_index(drop=True)


def _pairs(rows: pd.DataFrame, papers: pd.DataFrame) -> pd.DataFrame:
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
