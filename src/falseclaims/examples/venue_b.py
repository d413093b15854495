"""A SYNTHETIC second venue ("synthetic venue B") in the wide top-2 layout.

Nothing here is real data, and unlike the MICCAI-2023-like example
(falseclaims.examples.survey_sheet) **its marginals are invented for illustration, not
taken from any paper**. They differ from the first example on purpose, mainly by larger
test sets, so that a venue comparison shows a visible difference:

* 36 classification and 64 segmentation papers, all in scope with values in text or tables
  (a top-2 sheet only records such papers; the venue config says so by ``constants``);
* test-set size median (Q1-Q3): classification 1500 (400-8000), segmentation 400 (150-1500),
  log-linear between the quartiles (and 60-100000 / 20-10000 at the extremes);
* top-2 delta log-normal with median 0.012 and mean 0.024, independent of the test size;
* top value: accuracy 0.72-0.97, DSC 0.70-0.94 (scaled Beta);
* per task, a few papers for each exclusion branch a wide sheet can express: CV-only or
  unclear split, no best-prior value, missing test size; one tie, and two papers whose
  best prior beats the proposed method.

The sheet uses a survey team's own column names and writes values in percent with one
decimal ("Proposed (%)", "Best prior (%)", "Test images", ...), so reading it exercises the
``columns: {wide: ...}`` mapping and ``units: percent``. A few cells are messy in ways the
reader accepts with a note: a decimal comma ("85,3"), a "%" sign, a thousands separator in
a size ("12,500"), doubled and non-breaking spaces, spelling variants of task, metric and
split, and a free-text column that is ignored. ``VENUE_B_CONFIG`` is the venue entry
(config/config.yaml ``venues:``) that reads it.

Usage: ``python -m falseclaims.examples.survey_sheet --wide-out
data/example/venue_b_synthetic_wide.csv``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from falseclaims.examples.sampling import quantile_sizes, stratified

__all__ = [
    "VENUE_B_COLUMNS",
    "VENUE_B_CONFIG",
    "VENUE_B_SEED",
    "VENUE_B_SPECS",
    "generate_venue_b",
    "write_venue_b",
]

VENUE_B_SEED = 31415


@dataclass(frozen=True)
class VenueBTaskSpec:
    """The invented marginals of one task of venue B (counts per exclusion branch, test-size
    quartiles, value range and Beta shape, metric spellings, prior-method names)."""
    prefix: str
    papers: int
    cv_only: int
    unclear: int
    no_prior: int
    no_n_test: int
    ties: int
    prior_better: int
    n_quartiles: tuple[int, int, int]
    n_range: tuple[int, int]
    value_range: tuple[float, float]
    value_beta: tuple[float, float]
    metric: list[str]  # spellings, drawn with probabilities 0.7 / 0.2 / 0.1
    methods: list[str]


# Invented marginals (see the module docstring); the branch counts are per task.
VENUE_B_SPECS = {
    "classification": VenueBTaskSpec(
        prefix="B-cls", papers=36, cv_only=3, unclear=2, no_prior=2,
        no_n_test=1, ties=1, prior_better=2,
        n_quartiles=(400, 1500, 8000), n_range=(60, 100000),
        value_range=(0.72, 0.97), value_beta=(2.2, 1.6),
        metric=["Accuracy", "accuracy", "ACC"],
        methods=["ResNet-50", "DenseNet-121", "ViT-B/16", "Swin-T", "EfficientNet-B0",
                 "ConvNeXt-T"],
    ),
    "segmentation": VenueBTaskSpec(
        prefix="B-seg", papers=64, cv_only=5, unclear=3, no_prior=3,
        no_n_test=2, ties=1, prior_better=2,
        n_quartiles=(150, 400, 1500), n_range=(20, 10000),
        value_range=(0.70, 0.94), value_beta=(4.0, 1.2),
        metric=["DSC", "Dice", "dsc"],
        methods=["nnU-Net", "U-Net", "TransUNet", "Swin UNETR", "UNETR", "MedNeXt"],
    ),
}
DELTA_MEDIAN_B, DELTA_MEAN_B = 0.012, 0.024
TEST_SPLITS = ["train_test", "train/val/test", "Train/Val/Test", "CV + test"]
SPLIT_P = [0.35, 0.25, 0.2, 0.2]

# the survey team's headers -> our wide-layout columns ("Comment" is deliberately unmapped)
VENUE_B_COLUMNS = {
    "Paper": "paper_id", "Title": "title", "Task": "task", "Metric": "metric",
    "Proposed method": "name_proposed", "Proposed (%)": "value_proposed",
    "Best prior method": "name_best_prior", "Best prior (%)": "value_best_prior",
    "Split": "split", "Test images": "n_test",
}
VENUE_B_CONFIG = {
    "label": "Venue B (synthetic, wide top-2)",
    "papers": "data/example/venue_b_synthetic_wide.csv",
    "layout": "wide_top2",
    "units": "percent",
    "columns": {"wide": dict(VENUE_B_COLUMNS)},
    # a top-2 sheet lists only in-scope papers whose values are in text or tables
    "constants": {"in_scope": True, "values_only_in_figures": False},
}
HEADER = [*VENUE_B_COLUMNS, "Comment"]


def _pct(x: float) -> str:
    return f"{100 * x:.1f}"


def _task_rows(task: str, spec: VenueBTaskSpec, rng: np.random.Generator) -> list[dict]:
    from scipy import stats

    k = spec.papers
    branches = ["cv_only", "unclear", "no_prior", "no_n_test"]
    cats = [b for b in branches for _ in range(getattr(spec, b))]
    cats = cats + ["eligible"] * (k - len(cats))
    cats = [cats[i] for i in rng.permutation(k)]
    n = quantile_sizes(stratified(rng, k), spec.n_quartiles, spec.n_range)
    lo, hi = spec.value_range
    top = lo + (hi - lo) * rng.beta(*spec.value_beta, size=k)
    sigma = np.sqrt(2.0 * np.log(DELTA_MEAN_B / DELTA_MEDIAN_B))
    delta = np.clip(DELTA_MEDIAN_B * np.exp(sigma * stats.norm.ppf(stratified(rng, k))),
                    0.001, 0.15)
    eligible = [i for i, c in enumerate(cats) if c == "eligible"]
    special = rng.choice(eligible, size=spec.ties + spec.prior_better, replace=False)
    ties, prior_better = set(special[: spec.ties]), set(special[spec.ties:])
    rows = []
    for i, cat in enumerate(cats):
        pid = f"{spec.prefix}-{i + 1:03d}"
        a = round(float(top[i]), 3)
        b = a if i in ties else round(max(a - float(delta[i]), 0.3), 3)
        if i in prior_better:
            a, b = b, a
        split = {"cv_only": str(rng.choice(["cv_only", "cross-validation", "CV"])),
                 "unclear": "unclear"}.get(cat) or str(rng.choice(TEST_SPLITS, p=SPLIT_P))
        prior_name = str(rng.choice(spec.methods))
        comment = {"cv_only": "5-fold CV, no held-out test set",
                   "unclear": "split not described",
                   "no_prior": "no baseline with the primary metric",
                   "no_n_test": "test-set size not reported"}.get(cat, "Table 2")
        rows.append({
            "Paper": pid,
            "Title": f"Synthetic venue B {task} paper {pid} (not a real publication)",
            "Task": task if rng.uniform() < 0.8 else task.capitalize(),
            "Metric": str(rng.choice(spec.metric, p=[0.7, 0.2, 0.1])),
            "Proposed method": "Ours",
            "Proposed (%)": _pct(a),
            "Best prior method": "" if cat == "no_prior" else prior_name,
            "Best prior (%)": "" if cat == "no_prior" else _pct(b),
            "Split": split,
            "Test images": "" if cat == "no_n_test" else str(int(n[i])),
            "Comment": comment,
        })
    return rows


def _make_messy(rows: list[dict], rng: np.random.Generator) -> None:
    """Messy but acceptable cells at seeded positions (each becomes a row of notes)."""
    ok = [i for i, r in enumerate(rows) if r["Best prior (%)"] and r["Test images"]]
    comma, pct, nbsp = (int(i) for i in rng.choice(ok, size=3, replace=False))
    rows[comma]["Proposed (%)"] = rows[comma]["Proposed (%)"].replace(".", ",")  # "85,3"
    rows[pct]["Best prior (%)"] += "\u00a0%"                                     # "84.1 %"
    rows[nbsp]["Proposed (%)"] = "\u00a0" + rows[nbsp]["Proposed (%)"] + " \u00a0"
    rows[nbsp]["Paper"] += "  "                                                  # stray spaces
    rows[nbsp]["Proposed method"] = "Ours  (v2)"                      # doubled inner space
    big = [i for i in ok if len(rows[i]["Test images"]) >= 4]
    if big:  # thousands separator in a size, e.g. "12,500"
        j = big[int(rng.integers(len(big)))]
        rows[j]["Test images"] = f"{int(rows[j]['Test images']):,}"


def generate_venue_b(seed: int = VENUE_B_SEED) -> pd.DataFrame:
    """The wide top-2 sheet as strings, exactly as written to CSV."""
    rng = np.random.default_rng(seed)
    rows = []
    for task, spec in VENUE_B_SPECS.items():
        rows += _task_rows(task, spec, rng)
    _make_messy(rows, rng)
    return pd.DataFrame(rows, columns=HEADER, dtype=object)


def write_venue_b(out: str | Path, seed: int = VENUE_B_SEED) -> Path:
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    generate_venue_b(seed).to_csv(out, index=False, lineterminator="\n", encoding="utf-8")
    return out
