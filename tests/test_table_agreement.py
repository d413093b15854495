"""Table mode against per-case truth (pipeline target table_agreement) and the survey's
per-paper ties (rule table_ties): numbers checked against independent computations."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from falseclaims.claims.check import check_claim
from falseclaims.config import load_config
from falseclaims.table.agreement import agreement_study
from falseclaims.table.survey import paper_ties

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def cfg():
    return load_config()


def _median(res):
    return next(r for r in res["results"] if r["assumption"] == "median")["probability"]


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory):
    """Three Touchstone-like per-case DSC files (one organ) and two ISIC-like predictors."""
    d = tmp_path_factory.mktemp("percase")
    ts, isic = d / "ts", d / "isic"
    ts.mkdir()
    isic.mkdir()
    rng = np.random.default_rng(7)
    case = rng.normal(size=60)
    for name, mu in (("m_a", 1.6), ("m_b", 1.5), ("m_c", 1.0)):
        dsc = 1 / (1 + np.exp(-(mu + case + 0.4 * rng.normal(size=60))))
        pd.DataFrame({"name": [f"s{i:03d}" for i in range(60)], "liver": dsc}).to_csv(
            ts / f"{name}.csv", index=False)
    truth = rng.choice(["MEL", "NV"], size=200)
    pd.DataFrame({"image": [f"i{i}" for i in range(200)], "lesion": truth}).to_csv(
        isic / "metadata.csv", index=False)
    for k, acc in (("01A", 0.8), ("01B", 0.7)):
        pred = np.where(rng.random(200) < acc, truth, np.where(truth == "MEL", "NV", "MEL"))
        pd.DataFrame({"image": [f"i{i}" for i in range(200)], "predicted_lesion": pred}).to_csv(
            isic / f"predictions_{k}.csv", index=False)
    return ts, isic


def test_study_numbers_are_check_and_the_percase_formula(cfg, synthetic):
    ts, isic = synthetic
    out = agreement_study(ts, isic, cfg, decimals=3)
    pairs = out["pairs"]
    assert list(pairs["dataset"]) == ["touchstone", "touchstone", "isic2018"]
    values = {p.stem: pd.read_csv(p)["liver"].to_numpy() for p in ts.glob("*.csv")}
    for _, r in pairs[pairs["dataset"] == "touchstone"].iterrows():
        # table mode: `check` on the printed (rounded) means
        ref = check_claim("segmentation", 60, r["value_winner"], r["value"], cfg)
        assert r["p_table"] == _median(ref)
        # per-case: the t formula of [Christodoulou2025] with numpy's r and SDs
        x, y = values[r["winner"]], values[r["method"]]
        rr = np.corrcoef(x, y)[0, 1]
        sa, sb = x.std(ddof=1), y.std(ddof=1)
        t = np.sqrt(60) * (y.mean() - x.mean()) / np.sqrt(sa**2 + sb**2 - 2 * sa * sb * rr)
        assert r["p_percase"] == pytest.approx(stats.t.cdf(t, 59), rel=1e-9)
        assert r["congruence_empirical"] == pytest.approx(rr, rel=1e-12)
        # `check` given the per-case SDs (assumed congruence)
        known = check_claim("segmentation", 60, r["value_winner"], r["value"], cfg,
                            sd_a=sa, sd_b=sb)
        assert r["p_table_known_sd"] == pytest.approx(_median(known), rel=1e-12)
    tab = out["tables"]
    assert tab.loc[tab["table"] == "liver", "n"].iloc[0] == 60
    s = out["summary"].set_index("dataset")
    assert s.loc["all", "pairs"] == 3
    assert s.loc["all", "agreement"] == pytest.approx(pairs["agree"].mean())
    assert (s.loc["all", ["tied_both", "tied_table_only", "tied_percase_only",
                          "tied_neither"]].sum() == 3)


def test_study_on_the_shipped_data_matches_docs(cfg):
    """The numbers quoted in docs/table.md ("Checked against per-case truth")."""
    out = agreement_study(ROOT / "data/external/touchstone-totalsegmentator-dsc",
                          ROOT / "data/external/isic2018-skin-tone-predictions", cfg, 3)
    s = out["summary"].set_index("dataset")
    assert s.loc["touchstone", "tables"] == 9 and s.loc["isic2018", "tables"] == 2
    assert s.loc["all", "pairs"] == 166
    assert int(out["pairs"]["agree"].sum()) == 158
    assert (s.loc["all", "tied_both"], s.loc["all", "tied_table_only"],
            s.loc["all", "tied_percase_only"]) == (14, 1, 7)
    assert s.loc["all", "tier1_equal_tables"] == 5
    assert round(s.loc["all", "agreement_known_congruence"], 3) == 0.922
    assert round(s.loc["all", "agreement_known_sd"], 3) == 0.940


def test_paper_ties_hand_case(cfg):
    eligible = pd.DataFrame({"paper_id": ["p1", "p2"], "task": ["classification"] * 2,
                             "venue": ["v", "v"]})
    results = pd.DataFrame({
        "venue": "v", "paper_id": ["p1"] * 3 + ["p2"] * 2,
        "method": ["Ours", "B", "C", "Ours", "B"], "metric": "accuracy",
        "value": [0.90, 0.895, 0.85, 0.9, 0.8], "sd": np.nan, "sd_over": pd.NA,
        "n_test": np.nan})
    top2 = pd.DataFrame({"paper_id": ["p1", "p2"], "n_test": [400, 400]})
    ties = paper_ties(eligible, results, top2, cfg)
    assert list(ties["paper_id"]) == ["p1"]  # p2 has only two methods
    r = ties.iloc[0]
    pb = _median(check_claim("classification", 400, 0.90, 0.895, cfg))
    pc = _median(check_claim("classification", 400, 0.90, 0.85, cfg))
    assert r["p_runner_up"] == pb
    assert r["n_tied"] == int(pb >= 0.05) + int(pc >= 0.05) == 1
    assert r["share_tied"] == 0.5 and r["winner"] == "Ours"


def test_paper_ties_with_a_tie_at_the_top_keep_the_surveys_top_two(cfg):
    # table mode says "Ours = B" (no single winner) and compares C; the survey's P of this
    # paper is B against Ours (0.5 for equal values), and its ties table says the same
    eligible = pd.DataFrame({"paper_id": ["p1"], "task": ["classification"], "venue": ["v"]})
    results = pd.DataFrame({
        "venue": "v", "paper_id": ["p1"] * 3, "method": ["Ours", "B", "C"],
        "metric": "accuracy", "value": [0.90, 0.90, 0.85], "sd": np.nan, "sd_over": pd.NA,
        "n_test": np.nan})
    top2 = pd.DataFrame({"paper_id": ["p1"], "n_test": [400]})
    r = paper_ties(eligible, results, top2, cfg).iloc[0]
    assert (r["winner"], r["runner_up"]) == ("Ours", "B")
    assert r["p_runner_up"] == _median(check_claim("classification", 400, 0.90, 0.90, cfg)) \
        == 0.5
    assert r["n_tied"] == 1
