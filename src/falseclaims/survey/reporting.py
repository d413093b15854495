"""Reporting practices of a venue's papers as tidy counts: the data of Fig 3 (claims, bold,
statistical test) and Fig S7 (uncertainty), and of the shares ``numbers.csv`` states; free of
matplotlib so the ``numbers`` job does not load it."""

from __future__ import annotations

import numpy as np
import pandas as pd

from falseclaims.survey.populations import population
from falseclaims.io.table_io import require_columns
from falseclaims.tasks import TASKS

PRACTICES = {
    "claims_outperformance": "Claims outperformance",
    "bold_best": "Best value in bold",
    "statistical_test": "Statistical test",
}
# Fig S7's categories ([Christodoulou2025], Suppl. A); "sd_any" is their SD sum, the share
# the paper's text states (51% / 47% of the papers reporting uncertainty)
UNCERTAINTY = {
    "none": "None reported",
    "not_recorded": "Not recorded in sheet",
    "sd_any": "SD, any basis (sum)",
    "sd_test": "SD on test set",
    "sd_cv": "SD over CV folds",
    "sd_runs": "SD over training runs",
    "sd_unclear": "SD, unclear basis",
    "ci": "Confidence interval",
    "other": "Other",
}
SD_KINDS = ("sd_test", "sd_cv", "sd_runs", "sd_unclear")
# the denominator of each row: "none" over the papers whose sheet records the type, the
# ways of reporting over the papers reporting uncertainty, "not recorded" over all papers
DENOMINATORS = {"none": "recorded", "not_recorded": "all"}
PRACTICE_COLUMNS = ["venue", "task", "practice", "label", "population", "n_papers", "n_yes",
                    "n_no", "n_not_recorded", "n_recorded", "share_yes"]
UNCERTAINTY_COLUMNS = ["venue", "task", "uncertainty", "label", "population", "n_papers",
                       "n_recorded", "n_reporting", "n", "denominator", "n_denominator",
                       "share"]


def practices_data(papers: pd.DataFrame, which: str = "in_scope") -> pd.DataFrame:
    """Per task and practice: yes / no / not-recorded counts over the population.

    ``share_yes`` = yes / (yes + no): the share among papers where the sheet records the
    practice (NaN when it records it for none; a missing answer is not a "no").
    """
    require_columns(papers, ["venue", "task", *PRACTICES], "papers")
    pop = population(papers, which)
    rows = []
    for task in TASKS:
        sub = pop[pop["task"] == task]
        n = len(sub)
        if not n:
            continue
        for col, label in PRACTICES.items():
            v = sub[col].astype("boolean")
            yes, no = int(v.eq(True).sum()), int(v.eq(False).sum())
            rows.append({
                "venue": sub["venue"].iloc[0], "task": task, "practice": col, "label": label,
                "population": which, "n_papers": n, "n_yes": yes, "n_no": no,
                "n_not_recorded": n - yes - no, "n_recorded": yes + no,
                "share_yes": yes / (yes + no) if yes + no else np.nan,
            })
    return pd.DataFrame(rows, columns=PRACTICE_COLUMNS)


def uncertainty_data(papers: pd.DataFrame, which: str = "in_scope") -> pd.DataFrame:
    """Per task and way of reporting uncertainty: paper counts and the paper's populations.

    ``share`` = n / n_denominator: "none" over ``n_recorded`` (papers whose sheet records the
    uncertainty type; a missing answer is not "none reported"), every way of reporting
    (the SDs, their sum ``sd_any``, CI, other) over ``n_reporting`` (the recorded papers that
    report some uncertainty), as in [Christodoulou2025], Suppl. A ("SD ... reported by 51% of
    classification papers", "CIs in ... 12% ... of papers that reported performance
    uncertainty"); the ``not_recorded`` row over all papers. NaN when the denominator is 0.
    """
    require_columns(papers, ["venue", "task", "uncertainty"], "papers")
    pop = population(papers, which)
    allowed = set(UNCERTAINTY) - {"sd_any", "not_recorded"}
    unknown = set(pop["uncertainty"].dropna().astype(str)) - allowed
    if unknown:
        raise ValueError(f"papers: uncertainty values {sorted(unknown)} are not among "
                         f"{[k for k in UNCERTAINTY if k in allowed]}")
    rows = []
    for task in TASKS:
        sub = pop[pop["task"] == task]
        if not len(sub):
            continue
        cat = sub["uncertainty"].astype("string").fillna("not_recorded")
        counts = {key: int((cat == key).sum()) for key in UNCERTAINTY}
        counts["sd_any"] = sum(counts[k] for k in SD_KINDS)
        n = len(sub)
        recorded = n - counts["not_recorded"]
        sizes = {"recorded": recorded, "reporting": recorded - counts["none"], "all": n}
        for key, label in UNCERTAINTY.items():
            if key == "not_recorded" and counts[key] == 0:
                continue
            den = DENOMINATORS.get(key, "reporting")
            rows.append({"venue": sub["venue"].iloc[0], "task": task, "uncertainty": key,
                         "label": label, "population": which, "n_papers": n,
                         "n_recorded": recorded, "n_reporting": sizes["reporting"],
                         "n": counts[key], "denominator": den, "n_denominator": sizes[den],
                         "share": counts[key] / sizes[den] if sizes[den] else np.nan})
    return pd.DataFrame(rows, columns=UNCERTAINTY_COLUMNS)
