"""Table mode checked against per-case truth (pipeline target ``table_agreement``).

From open per-case results (Touchstone: per-case DSC of 19 models, one table per organ;
ISIC 2018: per-image predictions of dermatology classifiers) build the table a paper would
print (mean per method, rounded; n), run table mode on it (assumed congruence, imputed SDs)
and compare, for the winner against every other method, with the probability computed
from the per-case data (empirical congruence and SDs: the pair comparison of
``falseclaims percase --all-pairs``, :func:`falseclaims.percase.compare.compare_pair`).
A third probability, table mode with the empirical congruence given to ``check``
(``--congruence``), separates the congruence assumption from the SD imputation.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from falseclaims.claims.check import check_claims
from falseclaims.config import Headline, configured_congruence
from falseclaims.percase import readers
from falseclaims.percase.compare import compare_pair
from falseclaims.table.analysis import analyse_column, default_cutoff
from falseclaims.table.model import MetricColumn

__all__ = ["agreement_study", "agreement_summary", "printed_table", "study_tables"]

BOOTSTRAP = 100  # compare_pair always draws a bootstrap interval; unused here, keep it small


def study_tables(touchstone_dir, isic_dir) -> list[tuple[str, str, str, pd.DataFrame]]:
    """(dataset, table, task, cases x methods) per Touchstone organ and for ISIC; only the
    cases every method has (as ``percase`` compares them)."""
    out = []
    files = sorted(str(p) for p in Path(touchstone_dir).glob("*.csv"))
    pc = readers.read_wide_per_method(files, case_mismatch="intersect")
    for organ in pc.tasks:
        values = pc.matrix(organ, "dsc").dropna(axis=0, how="any")
        values.columns = [str(c) for c in values.columns]
        out.append(("touchstone", organ, "segmentation", values))
    isic = Path(isic_dir)
    groups: dict[str, list[str]] = {}
    for p in sorted(isic.glob("predictions_*.csv")):  # one test set per experiment prefix
        groups.setdefault(p.name.split("_")[1][:2], []).append(str(p))
    for key, pred in groups.items():
        pc = readers.read_predictions_with_labels(pred, str(isic / "metadata.csv"))
        values = pc.correctness(pc.tasks[0]).dropna(axis=0, how="any").astype(float)
        values.columns = [str(c) for c in values.columns]
        out.append(("isic2018", f"experiment {key}", "classification", values))
    return out


def printed_table(values: pd.DataFrame, decimals: int) -> pd.DataFrame:
    """What a paper prints: method, mean rounded to ``decimals`` (fraction), n."""
    means = values.mean(axis=0)
    return pd.DataFrame({"method": list(values.columns),
                         "value": [round(float(v), decimals) for v in means],
                         "n": len(values)})


def _column(table: pd.DataFrame, name: str, task: str, decimals: int) -> MetricColumn:
    k = len(table)
    return MetricColumn(name, 1, task, "study", "fraction", "study", list(table["method"]),
                        list(table["value"]), [None] * k, [decimals] * k,
                        [f"{v:.{decimals}f}" for v in table["value"]], [False] * k,
                        [False] * k, [f"row {i + 1}" for i in range(k)])


def _pairs(dataset, name, task, values, cfg, decimals, cutoff) -> tuple[pd.DataFrame, pd.DataFrame]:
    table = printed_table(values, decimals)
    n = int(table["n"].iloc[0])
    res = analyse_column(_column(table, name, task, decimals), n, cfg, cutoff)
    win = next(x["method"] for x in res["methods"] if x["winner"])  # a tie's reference
    others = [x for x in res["methods"] if not x["winner"]]
    cmps = [compare_pair(task, values, win, x["method"], resamples=BOOTSTRAP, seed=0,
                         run_tests=False) for x in others]
    top = res["methods"][0]["value"]
    a = [max(top, x["value"]) for x in others]
    b = [min(top, x["value"]) for x in others]
    emp = [float(c.congruence_used) for c in cmps]
    # table mode with the empirical congruence, then (segmentation) with the per-case SDs
    # at the assumed congruence: each one engine call over the pairs
    given = [r["results"][0]["probability"] for r in check_claims(
        task, n, a, b, cfg, congruence=[float(np.clip(
            e, 0.0 if task == "classification" else -1.0, 1.0)) for e in emp])]
    known_sd = [x["p_false_claim"] for x in others]
    if task == "segmentation":
        sds = [(c.inputs["sd_a"], c.inputs["sd_b"]) if a_i == top else
               (c.inputs["sd_b"], c.inputs["sd_a"]) for c, a_i in zip(cmps, a)]
        known_sd = [_median_p(r, cfg) for r in check_claims(
            task, n, a, b, cfg, sd_a=[s[0] for s in sds], sd_b=[s[1] for s in sds])]
    rows = []
    for x, cmp_, e, g, k in zip(others, cmps, emp, given, known_sd):
        rows.append({
            "dataset": dataset, "table": name, "task": task, "n": n, "m": res["m"],
            "winner": win, "method": x["method"], "value_winner": top,
            "value": x["value"], "mean_winner_percase": cmp_.inputs["mean_a"],
            "mean_percase": cmp_.inputs["mean_b"], "p_table": x["p_false_claim"],
            "p_table_low": x["p_band"][0], "p_table_high": x["p_band"][1],
            "p_table_known_congruence": g, "p_table_known_sd": k,
            "p_percase": float(cmp_.probability),
            "congruence_assumed": configured_congruence(cfg, "paper")[task][
                Headline.from_config(cfg).congruence_level],
            "congruence_empirical": e, "sd_winner_imputed": x["sd_winner"],
            "sd_imputed": x["sd_other"],
            "sd_winner_percase": cmp_.inputs.get("sd_a"), "sd_percase": cmp_.inputs.get("sd_b"),
            "tied_table": x["tied"], "tied_in_band": x["tied_in_band"],
            "tied_percase": float(cmp_.probability) >= cutoff})
    pairs = pd.DataFrame(rows)
    pairs["agree"] = pairs["tied_table"] == pairs["tied_percase"]
    table.insert(0, "table", name)
    table.insert(0, "dataset", dataset)
    return pairs, table


def _median_p(result: dict, cfg: dict) -> float:
    level = Headline.from_config(cfg).congruence_level
    return next(r["probability"] for r in result["results"] if r["assumption"] == level)


def _agreement(g: pd.DataFrame, column: str) -> float:
    """Share of pairs where ``column`` >= cutoff agrees with the per-case verdict."""
    return float(((g[column] >= g["cutoff"]) == g["tied_percase"]).mean())


def agreement_summary(pairs: pd.DataFrame) -> pd.DataFrame:
    """Agreement on "tied with the winner" per dataset and overall."""
    out = []
    groups = [(d, g) for d, g in pairs.groupby("dataset", sort=True)] + [("all", pairs)]
    for name, g in groups:
        tt, tp = g["tied_table"], g["tied_percase"]
        out.append({
            "dataset": name, "tables": g["table"].nunique(), "pairs": len(g),
            "tied_both": int((tt & tp).sum()), "tied_table_only": int((tt & ~tp).sum()),
            "tied_percase_only": int((~tt & tp).sum()), "tied_neither": int((~tt & ~tp).sum()),
            "agreement": float(g["agree"].mean()),
            "agreement_in_band": float((g["tied_in_band"] == tp).mean()),
            "tier1_equal_tables": int(g.groupby("table").apply(
                lambda t: bool((t["tied_table"] == t["tied_percase"]).all()),
                include_groups=False).sum()),
            "median_congruence_empirical": float(g["congruence_empirical"].median()),
            "congruence_assumed": float(g["congruence_assumed"].iloc[0])
            if g["task"].nunique() == 1 else float("nan"),
            "share_p_table_above_percase": float((g["p_table"] > g["p_percase"]).mean()),
            "agreement_known_congruence": _agreement(g, "p_table_known_congruence"),
            "agreement_known_sd": _agreement(g, "p_table_known_sd")})
    return pd.DataFrame(out)


def agreement_study(touchstone_dir, isic_dir, cfg: dict, decimals: int,
                    cutoff: float | None = None) -> dict[str, pd.DataFrame]:
    """``pairs`` (one row per winner x other method), ``tables`` (the printed tables) and
    ``summary`` (agreement per dataset)."""
    cutoff = default_cutoff(cfg) if cutoff is None else float(cutoff)
    pairs, tables = [], []
    for dataset, name, task, values in study_tables(touchstone_dir, isic_dir):
        p, t = _pairs(dataset, name, task, values, cfg, decimals, cutoff)
        pairs.append(p)
        tables.append(t)
    pairs = pd.concat(pairs, ignore_index=True)
    pairs["cutoff"] = cutoff
    return {"pairs": pairs, "tables": pd.concat(tables, ignore_index=True),
            "summary": agreement_summary(pairs)}
