"""A SYNTHETIC MICCAI-2023-like survey (both tasks), generated from published marginals.

Nothing here is real data: every paper, method and value is drawn at random. The marginals
come from [Christodoulou2025] (Methods, Figs 3, S7-S9; see `docs/method.md`, "Eligibility"):

* counts found / in scope / eligible: classification 133 / 126 / 43, segmentation
  252 / 221 / 131; values only in figures or supplements: 7% / 5% of in-scope papers;
* papers with a distinct test set: 65% (classification) / 76% (segmentation);
* test-set size median (Q1-Q3): 500 (98-4970) / 62 (25-223), matched by log-linear
  interpolation between these quartiles;
* top-2 delta: median 0.01, mean 0.02 (log-normal, sigma = sqrt(2 ln 2));
* claims of outperformance and bold-face best > 80%; statistical testing 13% / 10%;
* uncertainty reporting (Suppl. Fig. S7 text): over half report none (we use 55%); among the
  papers reporting uncertainty, SD by 51% / 47% and CIs by 12% / 1%, the rest another kind
  (``other``); SD on the test set by exactly five segmentation papers and no classification
  paper; the other SDs over CV folds (papers with folds only), training runs or unclear;
* metric use (Tables S1/S2): Accuracy 72%, AUC 54.5%, F1 41.5%, ... / DSC 95%, IoU 35.8%,
  HD 29.2%, ...

TUNED TO THE HEADLINE (so agreement there is not evidence of reproduction): test-set size
and delta are coupled by a Gaussian copula whose correlation is chosen on a grid, and the
eligible papers are the best of ``N_CANDIDATE_DRAWS`` random draws, so that the shares of
eligible papers with a false-claim probability above 5% and 30% (median congruence, the
default SD model at its mean) are nearest to the published 86% / 53% and 58% / 25%. The
ranges and Beta shapes of the top-2 values (``value_range``, ``value_beta``) are our choices.
The SD model used for tuning is the config's headline model (``sd_model.use[0]``, the gamma
GLM), so the sheet must be regenerated when that default changes. Every eligibility branch
is present (out of scope, values only in figures, CV only, unclear split, fewer than two
methods with the primary metric, missing test size), with ties in the top 2, per-method
test sizes, and SDs over the test set, CV folds and runs.

Usage: ``python -m falseclaims.examples.survey_sheet --out data/example/miccai2023_synthetic_sheet.xlsx
--seed 20230708`` (also writes ``..._papers.csv`` and ``..._results.csv`` next to it).
``--wide-out data/example/venue_b_synthetic_wide.csv`` writes a second, wide top-2 venue
with invented marginals (falseclaims.examples.venue_b).
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from falseclaims.examples.sampling import quantile_sizes, stratified
from falseclaims.examples.survey_papers import (
    DELTA_MEAN,
    DELTA_MEDIAN,
    PAPER_COLUMNS,
    TaskDraws,
    TaskSpec,
    paper_results,
    paper_row,
)
from falseclaims.sd_model import SDModel
from falseclaims.examples.venue_b import VENUE_B_SEED, write_venue_b
from falseclaims.examples.workbook import save_reproducible
from falseclaims.engine import probability

__all__ = ["TASK_SPECS", "generate_survey", "write_survey", "main"]

# [Christodoulou2025] marginals; the eligible-branch split of the non-eligible papers is our choice
# (the paper gives only the totals), made so that the test-set shares come out at 65%/76%.
TASK_SPECS = {
    "classification": TaskSpec(
        prefix="cls", found=133, in_scope=126, figures_only=9,  # 7% of 126
        eligible=43, cv_only=34, unclear=10, few_methods=18, no_n_test=12,
        n_quartiles=(98, 500, 4970), n_range=(20, 60000),
        primary="accuracy", primary_alias="acc", primary_share=0.724,
        statistical_test=0.13, sd_share=0.51, ci_share=0.12, sd_test_papers=0,
        target_above_5pct=0.86, target_above_30pct=0.58, value_range=(0.70, 0.97),
        value_beta=(2.2, 1.6), ties=2,
        # Table S1 (share of papers reporting each metric)
        other_metrics={"auc": 0.545, "f1": 0.415, "sensitivity": 0.35, "ppv": 0.195,
                       "specificity": 0.163, "balanced accuracy": 0.089, "ece": 0.033,
                       "kappa": 0.024, "ap": 0.016},
        methods=["ResNet-50", "DenseNet-121", "ViT-B/16", "Swin-T", "EfficientNet-B0",
                 "ConvNeXt-T", "MedViT", "CLIP linear probe", "BYOL", "SimCLR"],
    ),
    "segmentation": TaskSpec(
        prefix="seg", found=252, in_scope=221, figures_only=11,  # 5% of 221
        eligible=131, cv_only=36, unclear=14, few_methods=13, no_n_test=16,
        n_quartiles=(25, 62, 223), n_range=(5, 3000),
        primary="dsc", primary_alias="dice", primary_share=0.948,
        statistical_test=0.10, sd_share=0.47, ci_share=0.01, sd_test_papers=5,
        target_above_5pct=0.53, target_above_30pct=0.25, value_range=(0.65, 0.95),
        value_beta=(4.0, 1.2), ties=3,
        # Table S2
        other_metrics={"iou": 0.358, "hd": 0.292, "asd": 0.104, "hd95": 0.033,
                       "nsd": 0.019, "mssd": 0.005},
        methods=["nnU-Net", "U-Net", "TransUNet", "Swin-UNETR", "UNETR", "Attention U-Net",
                 "MedNeXt", "SegFormer", "UNet++", "CoTr"],
    ),
}
CLAIMS_SHARE, BOLD_SHARE = 0.85, 0.83  # "> 80%" ([Christodoulou2025], Fig 3)
NONE_SHARE = 0.55  # "over half of the papers did not report any uncertainty" (Suppl. A)
MEDIAN_CONGRUENCE = 0.67  # [Christodoulou2025], Methods (both tasks)
N_CANDIDATE_DRAWS = 8  # independent draws of the eligible papers; the best-matching is kept
RHO_GRID = np.round(np.linspace(-0.95, 0.95, 39), 3)
RESULT_COLUMNS = ["paper_id", "method", "metric", "value", "sd", "sd_over", "n_test"]


@dataclass
class _Draws:
    """Common random numbers of the eligible papers of one task (shared across rho)."""
    z_n: np.ndarray
    z_d: np.ndarray
    top: np.ndarray


def _couple(d: _Draws, rho: float, spec: TaskSpec):
    """Sizes and top-2 values; the marginals are fixed quantile sets, rho only pairs them."""
    from scipy import stats

    k = d.z_n.size
    z_delta = rho * d.z_n + np.sqrt(1.0 - rho**2) * d.z_d
    n = quantile_sizes(stats.norm.cdf(d.z_n), spec.n_quartiles, spec.n_range)
    sigma = np.sqrt(2.0 * np.log(DELTA_MEAN / DELTA_MEDIAN))
    levels = np.clip(DELTA_MEDIAN * np.exp(sigma * stats.norm.ppf((np.arange(k) + 0.5) / k)),
                     0.0, 0.25)
    delta = np.empty(k)
    delta[np.argsort(z_delta, kind="stable")] = levels
    a = np.round(d.top, 3)
    b = np.round(np.maximum(a - delta, 0.3), 3)
    b[: spec.ties] = a[: spec.ties]  # deliberate ties in the top 2
    return n, a, b


def _probabilities(task: str, n, a, b, sd_model: SDModel, sd_a=None, sd_b=None):
    return np.asarray(probability(task, n, a, b, congruence=MEDIAN_CONGRUENCE,
                                  sd_model=sd_model, sd_level="mean", sd_a=sd_a,
                                  sd_b=sd_b).probability)


def _choose_coupling(task, spec: TaskSpec, draws: list[_Draws], sd_model) -> tuple[float, int]:
    """(rho, draw index) whose shares above 5% and 30% are nearest the published ones."""
    best = None
    for j, d in enumerate(draws):
        for rho in RHO_GRID:
            n, a, b = _couple(d, rho, spec)
            prob = _probabilities(task, n, a, b, sd_model)
            score = (abs(float(np.mean(prob > 0.05)) - spec.target_above_5pct)
                     + 0.5 * abs(float(np.mean(prob > 0.30)) - spec.target_above_30pct),
                     abs(rho), j)
            if best is None or score < best[0]:
                best = (score, float(rho), j)
    return best[1], best[2]


def _task_papers(task: str, spec: TaskSpec, rng: np.random.Generator, sd_model: SDModel):
    """Papers and results rows of one task.

    The draws are made in a fixed order (categories, eligible values, papers without the
    primary metric, practices, uncertainty, sizes, then paper by paper), so a seed gives
    byte-identical example files."""
    cats = _categories(task, spec, rng)
    ids = [f"{spec.prefix}-{i + 1:03d}" for i in range(len(cats))]
    n_el, a_el, b_el, rho = _eligible_values(task, spec, rng, sd_model)
    no_primary = _without_primary(cats, spec, rng)
    claims, bold, stat = _practices(cats, spec, rng)
    uncertainty = _uncertainty(cats, spec, rng)
    eligible_idx = [i for i, c in enumerate(cats) if c == "eligible"]
    eligible = {i: (n_el[j], a_el[j], b_el[j]) for j, i in enumerate(eligible_idx)}
    t = TaskDraws(task, spec, sd_model, eligible, no_primary, claims, bold, stat, uncertainty,
              sizes_u=stratified(rng, len(cats)))
    papers, results = [], []
    for i, (pid, cat) in enumerate(zip(ids, cats)):
        row, primary_name, metrics = paper_row(t, i, pid, cat, rng)
        papers.append(row)
        if cat not in ("out_of_scope", "figures_only"):
            results += paper_results(t, i, row, cat, primary_name, metrics, rng)
    return papers, results, rho


def _categories(task: str, spec: TaskSpec, rng) -> list[str]:
    """Category of every paper of the task (exact counts), in a random order."""
    in_scope = spec.in_scope
    n_out = spec.found - in_scope
    cats = (["eligible"] * spec.eligible + ["figures_only"] * spec.figures_only
            + ["cv_only"] * spec.cv_only + ["unclear"] * spec.unclear
            + ["few_methods"] * spec.few_methods + ["no_n_test"] * spec.no_n_test)
    if len(cats) != in_scope:
        raise AssertionError(f"{task}: categories add up to {len(cats)}, not {in_scope}")
    cats = ["out_of_scope"] * n_out + cats
    order = rng.permutation(len(cats))
    return [cats[i] for i in order]


def _eligible_values(task: str, spec: TaskSpec, rng, sd_model: SDModel):
    """(n, a, b, rho) of the eligible papers: coupled (n, delta), rho matched to the
    published shares."""
    from scipy import stats

    k = spec.eligible
    lo, hi = spec.value_range
    draws = [_Draws(stats.norm.ppf(stratified(rng, k)), rng.standard_normal(k),
                    lo + (hi - lo) * rng.beta(*spec.value_beta, size=k))
             for _ in range(N_CANDIDATE_DRAWS)]
    rho, pick_draw = _choose_coupling(task, spec, draws, sd_model)
    n_el, a_el, b_el = _couple(draws[pick_draw], rho, spec)
    return n_el, a_el, b_el, rho


def _without_primary(cats: list[str], spec: TaskSpec, rng) -> set[int]:
    """In-scope papers without the primary metric: the 1 - primary_share quota, first from
    the few-methods branch (half of it), then from CV-only / unclear / figures-only papers."""
    n_no_primary = int(round(spec.in_scope * (1 - spec.primary_share)))
    few = [i for i, c in enumerate(cats) if c == "few_methods"]
    no_primary = set(few[: len(few) // 2 + 1])
    pool = [i for i, c in enumerate(cats) if c in ("cv_only", "unclear", "figures_only")]
    pool = list(rng.permutation(pool))
    while len(no_primary) < n_no_primary and pool:
        no_primary.add(int(pool.pop()))
    return no_primary


def _practices(cats: list[str], spec: TaskSpec, rng) -> tuple[set, set, set]:
    """Papers that claim outperformance, bold the best, run a test (exact in-scope counts)."""
    scoped = [i for i, c in enumerate(cats) if c != "out_of_scope"]

    def pick(share):
        size = int(round(share * spec.in_scope))
        return set(rng.choice(scoped, size=size, replace=False).tolist())
    return pick(CLAIMS_SHARE), pick(BOLD_SHARE), pick(spec.statistical_test)


def _uncertainty(cats: list[str], spec: TaskSpec, rng) -> dict[int, str]:
    """Uncertainty kind of the reporting papers (index -> kind; the others report none).

    [Christodoulou2025], Suppl. Fig S7 text: over half report none (NONE_SHARE); among the
    reporters SD by ``sd_share``, CI by ``ci_share``, the rest another kind; SD on the test
    set by exactly ``sd_test_papers`` eligible papers. ``sd_other`` is resolved per paper
    (CV folds only where the paper has folds). Counts are rounded half up."""
    scoped = [i for i, c in enumerate(cats) if c != "out_of_scope"]
    eligible = [i for i, c in enumerate(cats) if c == "eligible"]
    n_rep = int(np.floor((1 - NONE_SHARE) * len(scoped) + 0.5))
    n_sd = int(np.floor(spec.sd_share * n_rep + 0.5))
    n_ci = int(np.floor(spec.ci_share * n_rep + 0.5))
    sd_test = [int(x) for x in rng.choice(eligible, size=spec.sd_test_papers,
                                          replace=False)]
    rest = [int(x) for x in rng.permutation(sorted(set(scoped) - set(sd_test)))]
    kinds = (["sd_other"] * (n_sd - len(sd_test)) + ["ci"] * n_ci
             + ["other"] * (n_rep - n_sd - n_ci))
    out = dict.fromkeys(sd_test, "sd_test")
    out.update(zip(rest, kinds))
    return out


def generate_survey(seed: int = 20230708, sd_model: SDModel | None = None):
    """(papers, results, info) DataFrames of the synthetic survey, in sheet format."""
    if sd_model is None:
        from falseclaims.config import load_config, sd_model_from_config
        sd_model = sd_model_from_config(load_config())
    rng = np.random.default_rng(seed)
    papers, results, info = [], [], {}
    for task, spec in TASK_SPECS.items():
        p, r, rho = _task_papers(task, spec, rng, sd_model)
        papers += p
        results += r
        info[task] = {"rho": rho}
    pdf = pd.DataFrame(papers, columns=PAPER_COLUMNS)
    for c in ("cv_folds", "n_train", "n_val", "n_test"):
        pdf[c] = pdf[c].astype("Int64")
    rdf = pd.DataFrame(results, columns=RESULT_COLUMNS)
    rdf["n_test"] = rdf["n_test"].astype("Int64")
    return pdf, rdf, info


def _about_rows(seed: int, info: dict) -> list[list[str]]:
    return [
        ["SYNTHETIC DATA - not a real survey"],
        ["Generated by: python -m falseclaims.examples.survey_sheet --seed " + str(seed)],
        ["Every paper, method and value is random; only the marginals follow the survey of "
         "MICCAI 2023 papers by Christodoulou et al., False Promises in Medical Imaging AI? "
         "Assessing Validity of Outperformance Claims, arXiv:2505.04720 (2025) "
         "[Christodoulou2025]."],
        ["Copula correlation of log test size and log delta: "
         + ", ".join(f"{t} {v['rho']:+.2f}" for t, v in info.items())],
        ["TUNED: that correlation and the choice among seeded draws were picked so that the "
         "shares of papers above 5% and 30% (median congruence, default SD model) land on the "
         "paper's headline; agreement there is not evidence of reproduction."],
        ["Format: data/README.md"],
    ]


def _write_xlsx(path: Path, papers: pd.DataFrame, results: pd.DataFrame, about) -> None:
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "papers"
    for name, df in (("papers", papers), ("results", results)):
        ws = wb[name] if name in wb.sheetnames else wb.create_sheet(name)
        ws.append(list(df.columns))
        for rec in df.astype(object).itertuples(index=False):
            ws.append([None if (v is None or v is pd.NA or (isinstance(v, float) and np.isnan(v)))
                       else (v.item() if isinstance(v, np.generic) else v) for v in rec])
        ws.freeze_panes = "A2"
    ws = wb.create_sheet("about")
    for row in about:
        ws.append(row)
    save_reproducible(wb, path, "falseclaims.examples.survey_sheet")


def csv_paths(out: Path) -> tuple[Path, Path]:
    stem = out.stem.removesuffix("_sheet")
    return out.with_name(f"{stem}_papers.csv"), out.with_name(f"{stem}_results.csv")


def write_survey(out: str | Path, seed: int = 20230708, sd_model: SDModel | None = None):
    """Write the XLSX workbook (sheets papers, results, about) and the two CSV copies."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    papers, results, info = generate_survey(seed, sd_model)
    _write_xlsx(out, papers, results, _about_rows(seed, info))
    p_csv, r_csv = csv_paths(out)
    papers.to_csv(p_csv, index=False, lineterminator="\n")
    results.to_csv(r_csv, index=False, lineterminator="\n")
    return out, p_csv, r_csv, info


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m falseclaims.examples.survey_sheet",
        description="Write the SYNTHETIC example surveys: the MICCAI-2023-like workbook "
                    "(--out) and/or the wide top-2 'synthetic venue B' CSV (--wide-out). "
                    "Without either option, writes the workbook to its default path.")
    ap.add_argument("--out", default=None,
                    help="workbook path (default data/example/miccai2023_synthetic_sheet.xlsx "
                         "when --wide-out is not given)")
    ap.add_argument("--seed", type=int, default=20230708)
    ap.add_argument("--wide-out", default=None,
                    help="write synthetic venue B (wide top-2 layout) to this CSV, e.g. "
                         "data/example/venue_b_synthetic_wide.csv")
    ap.add_argument("--wide-seed", type=int, default=VENUE_B_SEED)
    args = ap.parse_args(argv)
    if args.out is None and args.wide_out is None:
        args.out = "data/example/miccai2023_synthetic_sheet.xlsx"
    if args.out is not None:
        out, p_csv, r_csv, info = write_survey(args.out, args.seed)
        print(f"wrote {out}, {p_csv}, {r_csv} (synthetic; copula rho: "
              + ", ".join(f"{t} {v['rho']:+.2f}" for t, v in info.items()) + ")")
    if args.wide_out is not None:
        print(f"wrote {write_venue_b(args.wide_out, args.wide_seed)} "
              "(synthetic venue B, wide top-2, invented marginals)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
