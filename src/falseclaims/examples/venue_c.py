"""A SYNTHETIC third venue ("synthetic venue C"): a messy hand-filled survey sheet.

Nothing here is real data; the marginals are invented. The point of this example is the
sheet, not the numbers: it contains every kind of mess that a real survey spreadsheet holds
and that the venue's config can describe, so that the file runs untouched through the whole
pipeline (``VENUE_C_CONFIG`` is its entry under ``venues:`` in config/config.yaml; the worked
example of data/README.md, "Swapping in a real sheet"):

* no id column: ids come from the short reference in "Papers" (``id: "{Papers}"``), two
  papers share one reference and get " (2)";
* rows holding only a year (section titles), a second block pasted below the first with its
  header row repeated, and a formula row under the data (``=MAX(E2:E60)``);
* a column without a header (J) holding the best prior method's name (``"@J"``);
* value cells with an SD written "70.49 -1.25", "70.49 (1.25)" or "70.49±1.25"
  (``cell_pattern: value_sd``) and liver/tumour pairs "78.50/66.45" (``split: "/"``);
* every compared method in one cell, "U-Net 78.2; nnU-Net 80.1" (``values_compared``);
* free text for categories: "5-folds", "train/val/test 70/10/20", "hold-out", "p-values",
  "yes (Wilcoxon)" (``values:`` maps of regular expressions);
* three cells the reader must refuse: a fraction in the percent column ("0.931"), a test
  size written as "70/10/20 of 300 cases" and a metric value "n.r."; with
  ``on_bad_cell: exclude`` their papers are excluded with reason ``invalid_cell``.

Usage: ``python -m falseclaims.examples.venue_c --out data/example/venue_c_synthetic_messy.xlsx``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

__all__ = ["VENUE_C_CONFIG", "VENUE_C_SEED", "HEADER", "generate_venue_c", "write_venue_c",
           "main"]

VENUE_C_SEED = 271828
N_PAPERS = {"segmentation": 30, "classification": 14}
AUTHORS = ["Li", "Wang", "Smith", "Garcia", "Müller", "Kim", "Rossi", "Nguyen", "Okafor",
           "Silva", "Tanaka", "Novak", "Haddad", "Johansson", "Patel", "Chen", "Ivanova",
           "Dubois", "Kowalski", "Fischer", "Santos", "Yilmaz", "Murphy", "Andersen", "Ali",
           "Sato", "Costa", "Lindqvist", "Weber", "Popescu", "Berg", "Lund", "Park", "Moreau",
           "Hansen", "Ortiz", "Khan", "Russo", "Vogel", "Lopez", "Ahmed", "Novikov", "Baker", "Ito"]
METHODS = {"segmentation": ["U-Net", "nnU-Net", "TransUNet", "Swin UNETR", "UNETR",
                            "Attention U-Net", "MedNeXt"],
           "classification": ["ResNet-50", "DenseNet-121", "ViT-B/16", "EfficientNet-B0",
                              "ConvNeXt-T", "Swin-T"]}
HEADER = ["Papers", "Year", "Task", "Metric", "Ours", "SOTA", "Other methods", "Split",
          "Test set", None, "Stat. test", "Notes"]  # column J has no header

VENUE_C_CONFIG = {
    "label": "Venue C (synthetic, messy sheet)",
    "papers": "data/example/venue_c_synthetic_messy.xlsx",
    "papers_sheet": "survey",
    "layout": "wide_top2",
    "units": "percent",
    "id": "{Papers}",
    "on_bad_cell": "exclude",
    "skip_rows_where": {"Papers": r"^\d{4}$"},
    "columns": {"wide": {
        "Task": "task", "Metric": "metric", "Ours": "value_proposed",
        "SOTA": "value_best_prior", "@J": "name_best_prior",
        "Other methods": "values_compared", "Split": "split", "Test set": "n_test",
        "Stat. test": "statistical_test"}},
    "values": {
        "split": {r"(?i)fold.*test|cv.*test": "cv_plus_test",
                  r"(?i)\d+\s*-?\s*folds?|cross": "cv_only",
                  r"(?i)train\s*/\s*val\s*/\s*test": "train_val_test",
                  r"(?i)hold-?out|train\s*/\s*test": "train_test"},
        "statistical_test": {r"(?i)p-?val|wilcoxon|t-?test": "yes", r"(?i)^no": "no"},
    },
    "cells": {
        "value_proposed": {"cell_pattern": "value_sd", "split": "/", "parts": ["", "tumour"]},
        "value_best_prior": {"cell_pattern": "value_sd", "split": "/", "parts": ["", "tumour"]},
    },
    # a top-2 sheet lists only in-scope papers whose values are in text or tables
    "constants": {"in_scope": True, "values_only_in_figures": False},
}

_SPLIT_TEXT = {
    "train_test": ["hold-out", "train/test", "Hold-out test set"],
    "train_val_test": ["train/val/test 70/10/20", "train / val / test", "Train/Val/Test 60/20/20"],
    "cv_plus_test": ["5-fold CV + test set", "10 folds, then test"],
    "cv_only": ["5-folds", "10-fold", "cross-validation"],
}
_STAT_TEXT = ["p-values", "yes (Wilcoxon)", "no", "No", "t-test", "", "no test"]


def _value_text(v: float, sd: float | None, style: int) -> str:
    if sd is None:
        return f"{100 * v:.2f}"
    return [f"{100 * v:.2f} -{100 * sd:.2f}", f"{100 * v:.2f} ({100 * sd:.2f})",
            f"{100 * v:.2f}±{100 * sd:.2f}"][style % 3]


def _paper(task: str, k: int, rng: np.random.Generator, authors: list[str]) -> dict:
    lo, hi = (0.70, 0.93) if task == "segmentation" else (0.75, 0.97)
    top = lo + (hi - lo) * rng.beta(3.0, 1.5)
    delta = float(np.clip(0.012 * np.exp(0.9 * rng.standard_normal()), 0.001, 0.08))
    methods = list(rng.choice(METHODS[task], size=4, replace=False))
    prior = top - delta
    with_sd = task == "segmentation" and rng.uniform() < 0.5
    sd_a = float(0.04 + 0.08 * rng.uniform()) if with_sd else None
    sd_b = float(0.04 + 0.08 * rng.uniform()) if with_sd else None
    ours = _value_text(top, sd_a, k)
    sota = _value_text(prior, sd_b, k + 1)
    liver = task == "segmentation" and k % 7 == 3
    if liver:  # "liver/tumour" DSC pair in one cell
        t_top = top - 0.12 - 0.05 * rng.uniform()
        ours = f"{100 * top:.2f}/{100 * t_top:.2f}"
        sota = f"{100 * prior:.2f}/{100 * (t_top - delta):.2f}"
    others = [f"{m} {100 * (prior - 0.01 - 0.03 * rng.uniform()):.1f}" for m in methods[1:3]]
    split = str(rng.choice(list(_SPLIT_TEXT), p=[0.35, 0.3, 0.15, 0.2]))
    n = int(np.exp(rng.uniform(np.log(30), np.log(3000)) if task == "segmentation"
                   else rng.uniform(np.log(100), np.log(20000))))
    n_text = f"{n:,}" if n >= 1000 else str(n)
    return {
        "Papers": f"{authors[k]} {2021 + k % 3}",
        "Year": 2021 + k % 3,
        "Task": str(rng.choice({"segmentation": ["Segmentation", "segmentation", "seg"],
                                "classification": ["Classification", "classification",
                                                   "cls"]}[task])),
        "Metric": str(rng.choice(["DSC", "Dice"] if task == "segmentation"
                                 else ["Accuracy", "ACC"])),
        "Ours": ours, "SOTA": sota,
        "Other methods": "; ".join(others) if rng.uniform() < 0.6 else None,
        "Split": str(rng.choice(_SPLIT_TEXT[split])),
        "Test set": n_text if rng.uniform() < 0.92 else None,
        None: str(methods[0]),
        "Stat. test": str(rng.choice(_STAT_TEXT)) or None,
        "Notes": "liver / tumour DSC" if liver else str(rng.choice(["Table 2", "Table 3",
                                                                    "see suppl.", ""])) or None,
    }


def generate_venue_c(seed: int = VENUE_C_SEED) -> list[list]:
    """The sheet's rows (row 1 = header) exactly as written to the workbook."""
    rng = np.random.default_rng(seed)
    authors = [str(a) for a in rng.permutation(AUTHORS)]
    authors[5] = authors[2]  # two papers share a short reference -> id suffix " (2)"
    papers = []
    k = 0
    for task, count in N_PAPERS.items():
        for _ in range(count):
            papers.append(_paper(task, k, rng, authors))
            k += 1
    order = sorted(range(len(papers)), key=lambda i: (papers[i]["Year"], i))
    papers = [papers[i] for i in order]
    # three cells that must be refused (their papers are excluded under on_bad_cell: exclude)
    papers[4]["Ours"] = f"{float(papers[4]['Ours'].split()[0].split('/')[0]) / 100:.3f}"
    papers[9]["Test set"] = "70/10/20 of 300 cases"
    papers[13]["SOTA"] = "n.r."
    rows: list[list] = [list(HEADER)]
    half = len(papers) // 2
    year = None
    for i, p in enumerate(papers):
        if i == half:  # a second block pasted below the first, header included
            rows.append([None] * len(HEADER))
            rows.append(list(HEADER))
        if p["Year"] != year:
            year = p["Year"]
            rows.append([str(year)] + [None] * (len(HEADER) - 1))
        rows.append([p[h] for h in HEADER])
    rows.append([None] * len(HEADER))
    last = len(rows)
    rows.append([None, None, None, None, f"=MAX(E2:E{last})", f"=MAX(F2:F{last})"]
                + [None] * (len(HEADER) - 6))
    return rows


def write_venue_c(out: str | Path, seed: int = VENUE_C_SEED) -> Path:
    import openpyxl

    from falseclaims.examples.workbook import save_reproducible

    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "survey"
    for row in generate_venue_c(seed):
        ws.append(row)
    about = wb.create_sheet("about")
    about.append(["SYNTHETIC example (falseclaims.examples.venue_c): not real papers"])
    about.append([f"seed {seed}; read with config venues.venue_c_synthetic; "
                  "see data/README.md"])
    save_reproducible(wb, out, "falseclaims.examples.venue_c")
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Write the synthetic messy survey sheet "
                                             "(venue C) used as the worked example of "
                                             "swapping in a real sheet.")
    ap.add_argument("--out", default="data/example/venue_c_synthetic_messy.xlsx")
    ap.add_argument("--seed", type=int, default=VENUE_C_SEED)
    args = ap.parse_args(argv)
    print(f"wrote {write_venue_c(args.out, args.seed)} (synthetic venue C, messy sheet)")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
