"""numbers.csv (every number the paper's text states), Tables S1/S2 after aliasing and the
report's HTML tables, checked against hand counts on a small sheet and against direct
formulas (scipy), not against the code's own output."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from scipy import stats as ss

from falseclaims import figures
from falseclaims.config import Analysis, ConfigParam, ReportText, report_category
from falseclaims.figures.tables import NOT_IN_PAPER, NOT_IN_VENUE
from falseclaims.survey.eligibility import select_papers
from falseclaims.survey.front_page import front_page_html, metric_tables_html, numbers_html
from falseclaims.survey.numbers import MATCHED_NOTE, SENSITIVITY_RANGES, venue_numbers
from falseclaims.survey.populations import metric_frequency

HOSTILE = "</script><img src=x onerror=alert(1)>"
CFG = {
    "analysis": {"metrics": {"classification": ["accuracy", "acc"], "segmentation": ["dsc"]},
                 "test_set_splits": ["train_test", "train_val_test", "cv_plus_test"],
                 "use_reported_sd_over": ["test"], "cutoffs": [0.05, 0.1],
                 "exceedance_grid": {"start": 0.0, "stop": 0.5, "num": 11},
                 "headline_congruence": "median", "headline_sd": "mean"},
    "congruence": {"use": ["paper"], "paper": {
        "classification": {"q1": 0.47, "median": 0.67, "q3": 0.83},
        "segmentation": {"q1": 0.44, "median": 0.67, "q3": 0.82}}},
    # a linear SD model (b2 = 0) keeps the hand computation below one line
    "sd_model": {"use": ["m"], "m": {"form": "anchored", "b0": 0.3, "b1": -0.3, "b2": 0.0,
                                     "pi_ratio_q1": 0.5, "pi_ratio_q3": 1.5, "floor": 0.005}},
    "figures": {"populations": {"practices": "in_scope", "uncertainty": "in_scope",
                                "split_sizes": "in_scope", "metrics": "quantitative"},
                "metric_labels": {"accuracy": "Accuracy", "acc": "Accuracy",
                                  "dsc": "Dice (DSC)", "dice": "Dice (DSC)"}},
    "lookup_grid": {"congruence_source": "paper", "sd_level": "mean", "multiplier_delta": 0.01,
                    "bands": [0.05, 0.1],
                    "classification": {"level": 0.85, "n": [100], "delta": [0.01]},
                    "segmentation": {"level": 0.80, "n": [100], "delta": [0.01]}},
    "planner": {"target": 0.05, "n_max": 10**6, "sd_level": "mean"},
    "numbers": {"citation": "paper", "compare_venues": ["v"],
                "paper": {"papers_found": {"classification": 133},
                          "share_sd": {"segmentation": 0.47},
                          "share_above_0.05": {"classification": 0.86}}},
}


def _papers():
    """8 classification papers (1 out of scope, 1 values only in figures) and 3
    segmentation papers; hand counts are in the test below."""
    base = {"venue": "v", "title": "", "in_scope": True, "claims_outperformance": True,
            "bold_best": True, "statistical_test": False, "values_only_in_figures": False,
            "split": "train_test", "cv_folds": pd.NA, "n_train": 10, "n_val": pd.NA,
            "n_test": 100, "uncertainty": "none", "metrics_reported": "accuracy"}
    c = [{"statistical_test": True, "metrics_reported": "Accuracy;acc;AUC"},
         {"statistical_test": pd.NA, "uncertainty": "sd_runs", "metrics_reported": "acc"},
         {"uncertainty": "ci", "split": "cv_only", "n_test": pd.NA},
         {"uncertainty": "sd_cv", "split": pd.NA, "metrics_reported": pd.NA},
         {"uncertainty": pd.NA, "claims_outperformance": False},
         {"bold_best": False, "split": "cv_plus_test"},
         {"in_scope": False, "statistical_test": True},
         {"values_only_in_figures": True, "metrics_reported": "auc"}]
    s = [{"metrics_reported": "dsc;dice", "uncertainty": "sd_test"},
         {"metrics_reported": "hd", "uncertainty": "other"},
         {"metrics_reported": "DSC;iou", "uncertainty": "none"}]
    # test-set sizes: c2 (cv_only) and c3 (no split) have no distinct test set
    for r, n in zip(c, (40, 100, pd.NA, 70, 250, 900, 5, 3000)):
        r.setdefault("n_test", n)
    for r, n in zip(s, (20, 60, 80)):
        r.setdefault("n_test", n)
    rows = [base | r | {"paper_id": f"c{i}", "task": "classification"} for i, r in enumerate(c)]
    rows += [base | r | {"paper_id": f"s{i}", "task": "segmentation"} for i, r in enumerate(s)]
    df = pd.DataFrame(rows)
    for col in ("in_scope", "claims_outperformance", "bold_best", "statistical_test",
                "values_only_in_figures"):
        df[col] = df[col].astype("boolean")
    for col in ("cv_folds", "n_train", "n_val", "n_test"):
        df[col] = df[col].astype("Int64")
    return df


def _top2():
    rows = [("c0", "classification", 0.02, 50, 0.90), ("c1", "classification", 0.01, 200, 0.80),
            ("c5", "classification", 0.03, 1000, 0.86), ("s0", "segmentation", 0.004, 30, 0.70),
            ("s2", "segmentation", 0.01, 60, 0.76)]
    return pd.DataFrame([{"venue": "v", "paper_id": p, "task": t, "delta": d, "n_test": n,
                          "value_a": a} for p, t, d, n, a in rows])


def _summary():
    """Headline share above 5%: classification 2 of 3 (Q1 1 of 3, Q3 3 of 3); segmentation
    of 4 papers (congruence Q1 / median / Q3 adds 2 / 1 / 0, SD Q1 / mean / Q3 adds 0 / 1 /
    2): 2 at the headline, 1-3 one factor at a time, 0-4 over all 9 combinations."""
    rows = []
    for level, k in (("q1", 1), ("median", 2), ("q3", 3)):
        rows.append(("classification", "paper", level, "none", "none", 0.05, 3, k))
        rows.append(("classification", "other", level, "none", "none", 0.05, 3, 0))
        for sd, j in (("q1", 0), ("mean", 1), ("q3", 2)):
            c = {"q1": 2, "median": 1, "q3": 0}[level]
            rows.append(("segmentation", "paper", level, "m", sd, 0.05, 4, c + j))
            rows.append(("segmentation", "other", level, "m", sd, 0.05, 4, 4))
    cols = ["task", "congruence_source", "congruence_level", "sd_source", "sd_level",
            "cutoff", "n_papers", "n_above"]
    d = pd.DataFrame(rows, columns=cols)
    return d.assign(venue="v", share_above=d.n_above / d.n_papers)


@pytest.fixture(scope="module")
def numbers():
    papers = _papers()
    results = pd.DataFrame(columns=["venue", "paper_id", "method", "metric", "value", "sd",
                                    "sd_over", "n_test"])
    flow = select_papers(papers, results, Analysis.from_config(CFG).eligibility, "v").flow
    tables = {"papers": papers, "flow": flow, "top2": _top2(), "summary": _summary()}
    return venue_numbers(tables, CFG, "v").set_index(["task", "name"])


def test_counts_and_shares_match_hand_counts(numbers):
    v = numbers["value"]
    c, s = "classification", "segmentation"
    assert (v[(c, "papers_found")], v[(c, "papers_out_of_scope")], v[(c, "papers_in_scope")]) \
        == (8, 1, 7)
    assert v[(c, "share_values_only_in_figures")] == pytest.approx(1 / 7)
    # statistical test: c0 yes; c1 not recorded -> 1 of 6 recorded in scope
    assert v[(c, "share_statistical_test")] == pytest.approx(1 / 6)
    assert numbers.loc[(c, "share_statistical_test"), "n_population"] == 6
    assert v[(c, "share_claims_outperformance")] == pytest.approx(6 / 7)
    # test split: c3 unrecorded; c2 cv_only -> 5 of 6
    assert v[(c, "share_test_split")] == pytest.approx(5 / 6)
    # Accuracy (any spelling) among the 5 quantitative papers listing metrics (c3 lists
    # none): c0, c1, c2, c4, c5 = 5 of 5
    assert v[(c, "share_primary_metric")] == pytest.approx(5 / 5)
    assert numbers.loc[(c, "share_primary_metric"), "n_population"] == 5
    # uncertainty (in scope: c0-c5, c7): c4 missing; none: c0, c5, c7 -> 3 of 6;
    # reporting: c1 sd_runs, c2 ci, c3 sd_cv
    assert v[(c, "share_no_uncertainty")] == pytest.approx(3 / 6)
    assert v[(c, "share_sd")] == pytest.approx(2 / 3)
    assert v[(c, "share_ci")] == pytest.approx(1 / 3)
    assert numbers.loc[(c, "share_ci"), "n_population"] == 3
    assert v[(s, "n_sd_test")] == 1 and v[(s, "share_sd")] == pytest.approx(1 / 2)
    # test-set sizes: hand count of the papers in scope with a distinct test set and a
    # size: c0 40, c1 100, c4 250, c5 900 (cv_plus_test), c7 3000 (values only in figures
    # but in scope); not c2 (cv_only), c3 (no split), c6 (out of scope)
    assert (v[(c, "test_size_q1")], v[(c, "test_size_median")], v[(c, "test_size_q3")]) \
        == (100, 250, 900)
    assert numbers.loc[(c, "test_size_median"), "n_population"] == 5
    assert numbers.loc[(c, "test_size_median"), ["low", "high"]].tolist() == [40, 3000]
    assert "distinct test set" in numbers.loc[(c, "test_size_median"), "population"]
    assert (v[(s, "test_size_q1")], v[(s, "test_size_median")], v[(s, "test_size_q3")]) \
        == (40, 60, 70)
    # deltas of the analysed papers (top2)
    assert v[(c, "delta_mean")] == pytest.approx(0.02)
    assert v[(s, "delta_median")] == pytest.approx(0.007)


def test_headline_share_and_its_sensitivity_range(numbers):
    row = numbers.loc[("classification", "share_above_0.05")]
    assert row["value"] == pytest.approx(2 / 3)
    assert (row["low"], row["high"]) == (pytest.approx(1 / 3), pytest.approx(1.0))
    seg = numbers.loc[("segmentation", "share_above_0.05")]  # median congruence, mean SD
    assert seg["value"] == pytest.approx(0.5) and (seg["low"], seg["high"]) == (0.25, 0.75)
    assert seg["range"].startswith("one factor at a time")


def _one_at_a_time(summary, task, cutoff):
    """Independently: the headline source's shares at (congruence Q1/median/Q3, headline
    SD) and (median congruence, SD Q1/Q3)."""
    s = summary[(summary.task == task) & (summary.cutoff == cutoff)
                & (summary.congruence_source == "paper")]
    if task == "segmentation":
        s = s[s.sd_source == "m"]
        s = s[(s.sd_level == "mean") | (s.congruence_level == "median")]
    return s.share_above.min(), s.share_above.max()


@pytest.mark.parametrize("how", ["one_at_a_time", "full_grid"])
def test_sensitivity_range_recomputed_from_summary(how):
    papers, summary = _papers(), _summary()
    results = pd.DataFrame(columns=["venue", "paper_id", "method", "metric", "value", "sd",
                                    "sd_over", "n_test"])
    tables = {"papers": papers, "flow": select_papers(papers, results, Analysis.from_config(CFG).eligibility).flow,
              "top2": _top2(), "summary": summary}
    cfg = CFG | {"numbers": CFG["numbers"] | {"sensitivity_range": how}}
    d = venue_numbers(tables, cfg, "v").set_index(["task", "name"])
    for task in ("classification", "segmentation"):
        row = d.loc[(task, "share_above_0.05")]
        if how == "one_at_a_time":
            expected = _one_at_a_time(summary, task, 0.05)
        else:
            s = summary[(summary.task == task) & (summary.congruence_source == "paper")]
            expected = s.share_above.min(), s.share_above.max()
        assert (row["low"], row["high"]) == pytest.approx(expected), (task, how)
        assert row["range"] == SENSITIVITY_RANGES[how]
    seg = d.loc[("segmentation", "share_above_0.05")]
    assert (seg["low"], seg["high"]) == ((0.25, 0.75) if how == "one_at_a_time" else (0, 1))


def _p_cls(n, a, b, c):
    """[Christodoulou2025], Suppl. C.2: p1 / (p1 + p2) ~ Beta(x1 + 1, x2 + 1), congruence
    clamped into [a + b - 1, min(a, b)]."""
    c = min(max(c, a + b - 1), min(a, b))
    return ss.beta.cdf(0.5, n * (a - c) + 1, n * (b - c) + 1)


def _p_seg(n, a, b, r):
    sa, sb = 0.3 - 0.3 * a, 0.3 - 0.3 * b  # the linear SD model of CFG
    return ss.t.cdf(np.sqrt(n) * (b - a) / np.sqrt(sa**2 + sb**2 - 2 * sa * sb * r), n - 1)


@pytest.mark.parametrize("task,level,median,p", [("classification", 0.85, 250, _p_cls),
                                                 ("segmentation", 0.80, 60, _p_seg)])
def test_multiplier_is_the_smallest_sufficient_size_over_the_median(numbers, task, level,
                                                                    median, p):
    n = int(numbers.loc[(task, "n_needed"), "value"])
    a, b = level, level - 0.01
    assert p(n, a, b, 0.67) <= 0.05 < p(n - 1, a, b, 0.67)
    assert numbers.loc[(task, "test_size_multiplier"), "value"] == pytest.approx(n / median)


def test_multiplier_at_the_median_winner_and_the_inferred_level():
    """``median_winner``: A = the median winner value of the analysed papers (0.86 of 0.80,
    0.86, 0.90; 0.73 of 0.70, 0.76); a venue in ``inferred_levels.venues`` gets a second,
    labelled row at the inferred level, from the same computation as fig6_multipliers."""
    grid = CFG["lookup_grid"] | {
        t: CFG["lookup_grid"][t] | {"level": "median_winner"}
        for t in ("classification", "segmentation")} | {
        "inferred_levels": {"venues": ["v"], "classification": 0.75, "segmentation": 0.68}}
    papers = _papers()
    results = pd.DataFrame(columns=["venue", "paper_id", "method", "metric", "value", "sd",
                                    "sd_over", "n_test"])
    tables = {"papers": papers, "flow": select_papers(papers, results, Analysis.from_config(CFG).eligibility).flow,
              "top2": _top2(), "summary": _summary()}
    d = venue_numbers(tables, CFG | {"lookup_grid": grid}, "v").set_index(["task", "name"])
    for task, level, inferred, median, p in (("classification", 0.86, 0.75, 250, _p_cls),
                                             ("segmentation", 0.73, 0.68, 60, _p_seg)):
        for name, a in (("n_needed", level), ("n_needed_inferred_level", inferred)):
            n = int(d.loc[(task, name), "value"])
            assert p(n, a, a - 0.01, 0.67) <= 0.05 < p(n - 1, a, a - 0.01, 0.67), (task, name)
        assert "median winner value of the" in d.loc[(task, "n_needed"), "population"]
        assert "not stated in the paper" in d.loc[(task, "n_needed_inferred_level"),
                                                  "description"]
        assert d.loc[(task, "test_size_multiplier_inferred_level"), "value"] == pytest.approx(
            d.loc[(task, "n_needed_inferred_level"), "value"] / median)
    # not listed: no inferred row
    other = venue_numbers(tables, CFG | {"lookup_grid": grid}, "w")
    assert not other["name"].str.contains("inferred").any()


def test_paper_values_only_where_configured(numbers):
    pv = numbers["paper_value"]
    assert pv[("classification", "papers_found")] == "133"
    assert pv[("segmentation", "share_sd")] == "0.47"
    assert pv[("classification", "share_above_0.05")] == "0.86"
    assert (pv.drop([("classification", "papers_found"), ("segmentation", "share_sd"),
                     ("classification", "share_above_0.05")]) == "").all()


def test_a_paper_value_for_an_unknown_number_is_refused():
    cfg = CFG | {"numbers": CFG["numbers"] | {"paper": {"share_typo": {"classification": 1}}}}
    papers = _papers()
    results = pd.DataFrame(columns=["venue", "paper_id", "method", "metric", "value", "sd",
                                    "sd_over", "n_test"])
    tables = {"papers": papers, "flow": select_papers(papers, results, Analysis.from_config(CFG).eligibility).flow,
              "top2": _top2(), "summary": _summary()}
    with pytest.raises(ValueError, match="numbers.paper.share_typo.classification"):
        venue_numbers(tables, cfg, "v")


def test_metric_table_counts_a_paper_once_per_metric_after_aliasing():
    freq = metric_frequency(_papers(), "quantitative", CFG["figures"]["metric_labels"])
    c = freq[freq.task == "classification"].set_index("label")
    # c0 lists Accuracy twice (two spellings): 5 papers, not 6; n = 6 quantitative papers
    assert c.loc["Accuracy", "n_papers_reporting"] == 5 and c.loc["Accuracy", "n_papers"] == 6
    assert c.loc["Accuracy", "metric"] == "acc;accuracy"
    assert c.loc["Accuracy", "percent"] == pytest.approx(83.3)
    assert c.loc["(none recorded)", "n_papers_reporting"] == 1  # c3
    assert list(c.index).count("Accuracy") == 1
    s = freq[freq.task == "segmentation"].set_index("label")
    assert s.loc["Dice (DSC)", "n_papers_reporting"] == 2 and s.loc["hd", "percent"] == 33.3
    tex = figures.metric_table_latex(freq, "classification", "V")
    assert "n = 6 papers in scope reporting values in text or tables" in tex


def test_every_metric_of_the_example_sheets_has_a_plain_name(repo_root):
    import yaml

    from falseclaims.sheets import read_venue
    cfg = yaml.safe_load((repo_root / "config" / "config.yaml").read_text(encoding="utf-8"))
    labels = {k.lower() for k in cfg["figures"]["metric_labels"]}
    for venue, vcfg in cfg["venues"].items():
        if not str(vcfg["papers"]).startswith("data/example/"):
            continue  # a real sheet's metric cells are its authors' free text (data/real/)
        papers = read_venue(vcfg, base_dir=repo_root).papers
        found = {m.strip() for v in papers["metrics_reported"].dropna()
                 for m in str(v).split(";") if m.strip()}
        assert found <= labels, (venue, sorted(found - labels))


def test_html_tables_escape_a_hostile_venue_label(numbers):
    table = numbers.reset_index()
    pages = [numbers_html(table, HOSTILE, True),
             front_page_html({"v": table}, {"v": HOSTILE}, ["v"], "median congruence"),
             metric_tables_html(metric_frequency(_papers(), "quantitative"), HOSTILE)]
    for html in pages:
        assert "<img" not in html and "</script>" not in html
        assert "&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;" in html
    assert "67% (2)" in pages[1] and "33%–100%" in pages[1]  # share (count), range
    assert "paper 86%" in pages[1]  # the paper's value in the headline table
    assert "<" not in report_category(HOSTILE) and ">" not in report_category(HOSTILE)
    # a label in a rule's params: the script gets it as is, the report's panel (f-string of
    # Snakemake's format_dict) without angle brackets
    text = ReportText(HOSTILE)
    assert text == HOSTILE and repr(text) == repr(HOSTILE)
    assert "<" not in f"label={text}" and "</script>" not in f"{text}"
    block = ConfigParam({"v": HOSTILE}, "venue labels")
    assert f"{block}" == "config venue labels {v}" and repr(block) == repr({"v": HOSTILE})


def test_report_captions_keep_a_hostile_label_as_text(repo_root):
    """Every caption is rendered as Snakemake renders it (jinja2, then docutils): a label
    with HTML or reStructuredText markup stays literal text."""
    import yaml
    from docutils.core import publish_parts
    from jinja2 import Environment

    cfg = yaml.safe_load((repo_root / "config" / "config.yaml").read_text(encoding="utf-8"))
    for v in cfg["venues"].values():
        v["label"] = HOSTILE + " x** `y <javascript:alert(2)>`_ **z"

    class Smk:
        config = cfg
        wildcards = type("W", (), {"venue": next(iter(cfg["venues"]))})()

    env = Environment(trim_blocks=True, lstrip_blocks=True)
    for path in sorted((repo_root / "workflow" / "report").glob("*.rst")):
        text = env.from_string(path.read_text(encoding="utf-8")).render(
            snakemake=Smk, categories={}, files=[])
        html = publish_parts(text, writer="html",
                             settings_overrides={"report_level": 5})["body"]
        assert "<img" not in html and "javascript:" not in html.replace(
            "javascript:alert(2)&gt;", ""), path.name
        if "rst(" in path.read_text(encoding="utf-8"):
            assert re.search(r"&lt;/script&gt;&lt;img src=x onerror=alert\(1\)&gt;", html), \
                path.name


def test_one_task_venue_without_analysed_papers():
    """A venue with classification papers only and none analysed: counts stay, deltas are
    empty, the test-set sizes and the multiplier still come from the papers with a distinct
    test set, the paper's values of absent numbers are skipped and the front page still
    renders."""
    papers = _papers()
    papers = papers[papers.task == "classification"]
    results = pd.DataFrame(columns=["venue", "paper_id", "method", "metric", "value", "sd",
                                    "sd_over", "n_test"])
    tables = {"papers": papers, "flow": select_papers(papers, results, Analysis.from_config(CFG).eligibility).flow,
              "top2": _top2().iloc[0:0], "summary": _summary().iloc[0:0]}
    d = venue_numbers(tables, CFG, "v").set_index(["task", "name"])
    assert d.loc[("classification", "papers_in_scope"), "value"] == 7
    assert d.loc[("segmentation", "papers_found"), "value"] == 0
    assert d.loc[("classification", "n_sd_test"), "value"] == 0  # recorded: none
    assert np.isnan(d.loc[("classification", "delta_median"), "value"])
    assert d.loc[("classification", "test_size_multiplier"), "value"] == pytest.approx(
        d.loc[("classification", "n_needed"), "value"] / 250)
    assert np.isnan(d.loc[("segmentation", "test_size_multiplier"), "value"])
    assert not d.index.get_level_values("name").str.startswith("share_above").any()
    html = front_page_html({"v": d.reset_index()}, {"v": "V"}, ["v"], "median")
    assert "Classification" in html and "133" in html


def test_a_sheet_without_metrics_or_uncertainty_gives_no_share(numbers):
    """A wide top-2 sheet records neither: its shares are empty, not 0%."""
    papers = _papers().assign(metrics_reported=pd.NA, uncertainty=pd.NA)
    results = pd.DataFrame(columns=["venue", "paper_id", "method", "metric", "value", "sd",
                                    "sd_over", "n_test"])
    tables = {"papers": papers, "flow": select_papers(papers, results, Analysis.from_config(CFG).eligibility).flow,
              "top2": _top2(), "summary": _summary()}
    d = venue_numbers(tables, CFG, "v").set_index(["task", "name"])["value"]
    for name in ("share_primary_metric", "n_sd_test", "share_sd", "share_no_uncertainty"):
        assert np.isnan(d[("classification", name)]), name


def test_the_matched_example_says_agreement_is_not_evidence():
    """Config-driven (``numbers.matched_to_paper``), not tied to a venue name: the caveat
    stands wherever the paper's value is beside the venue's, and nowhere for others."""
    papers = _papers()
    results = pd.DataFrame(columns=["venue", "paper_id", "method", "metric", "value", "sd",
                                    "sd_over", "n_test"])
    tables = {"papers": papers, "flow": select_papers(papers, results, Analysis.from_config(CFG).eligibility).flow,
              "top2": _top2(), "summary": _summary()}
    cfg = CFG | {"numbers": CFG["numbers"] | {"matched_to_paper": ["v"]}}
    d = venue_numbers(tables, cfg, "v")
    with_paper = d["paper_value"] != ""
    assert d.loc[with_paper, "paper_source"].str.contains(MATCHED_NOTE, regex=False).all()
    assert (d.loc[~with_paper, "paper_source"] == "").all()
    for html in (numbers_html(d, "V", True), front_page_html({"v": d}, {"v": "V"}, ["v"], "m")):
        # once: the front page had it under the headline and again a line below
        assert html.count(MATCHED_NOTE.replace("'", "&#39;")) == 1
    plain = venue_numbers(tables, CFG, "v")
    assert not plain["paper_source"].str.contains(MATCHED_NOTE, regex=False).any()
    for html in (numbers_html(plain, "V", True),
                 front_page_html({"v": plain}, {"v": "V"}, ["v"], "m")):
        assert "generated to match" not in html
    # the front page names what the range spans
    assert "one factor at a time" in front_page_html({"v": plain}, {"v": "V"}, ["v"], "m")


def test_tables_S1_S2_list_every_row_of_the_paper_in_its_order():
    """The paper's rows first, in its order, with its percentage; a row the venue lacks has
    0 papers and a note; the venue's other metrics after, "(none recorded)" last."""
    paper = {"classification": [{"metric": "Accuracy", "percent": 72.4},
                                {"metric": "AUC", "percent": 54.5},
                                {"metric": "Mean Absolute Error (MAE)", "percent": 0.8}],
             "segmentation": [{"metric": "Dice (DSC)", "percent": 94.8},
                              {"metric": "Fβ score", "percent": 0.5}]}
    labels = CFG["figures"]["metric_labels"] | {"auc": "AUC"}
    table = figures.metric_table(metric_frequency(_papers(), "quantitative", labels),
                                 paper)
    c = table[table.task == "classification"]
    assert c["label"].tolist() == ["Accuracy", "AUC", "Mean Absolute Error (MAE)",
                                   "(none recorded)"]
    assert c["paper_percent"].tolist()[:3] == [72.4, 54.5, 0.8]
    assert np.isnan(c["paper_percent"].iloc[3])
    mae = c.set_index("label").loc["Mean Absolute Error (MAE)"]
    assert mae["n_papers_reporting"] == 0 and mae["note"] == NOT_IN_VENUE
    # "AUC" is listed once by c0 ("AUC"); c7 lists "auc" but reports values only in figures
    assert c.set_index("label").loc["AUC", "n_papers_reporting"] == 1
    s = table[table.task == "segmentation"]
    assert s["label"].tolist() == ["Dice (DSC)", "Fβ score", "hd", "iou"]
    assert s.set_index("label").loc["hd", "note"] == NOT_IN_PAPER
    tex = figures.metric_table_latex(table, "segmentation", "V", "An example.")
    assert r"Fβ score & 0 & 0.0 & 0.5 & no paper of this venue lists it \\" in tex
    assert "An example." in tex
    html = metric_tables_html(table, "V", "An example.")
    assert "Paper (%)" in html and "0.5" in html and "An example." in html
