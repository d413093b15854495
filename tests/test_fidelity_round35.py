"""Fidelity to [Christodoulou2025] (round 35 audit): every number the paper states is a
row of numbers.csv, what the paper leaves unstated about a number is said beside it, and
Fig S10 is drawn as the paper draws it. The paper's own statements are the independent
check (its 347 = 126 + 221; its Tables S1/S2 percentages and the populations they fit)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
import yaml

from falseclaims import figures
from falseclaims.config import Analysis
from falseclaims.figures.registry import FIGURES
from falseclaims.survey.eligibility import select_papers
from falseclaims.survey.front_page import numbers_html
from falseclaims.survey.numbers import venue_numbers

from test_numbers import CFG, _papers, _summary, _top2

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = yaml.safe_load((ROOT / "config" / "config.yaml").read_text(encoding="utf-8"))


def _numbers(cfg):
    papers = _papers()
    results = pd.DataFrame(columns=["venue", "paper_id", "method", "metric", "value", "sd",
                                    "sd_over", "n_test"])
    flow = select_papers(papers, results, Analysis.from_config(cfg).eligibility, "v").flow
    tables = {"papers": papers, "flow": flow, "top2": _top2(), "summary": _summary()}
    return venue_numbers(tables, cfg, "v")


def test_the_cohort_of_347_papers_is_a_row_with_the_papers_value():
    """Main text: "a representative cohort of 347 medical imaging AI publications": the
    in-scope papers of both tasks (Methods: 126 + 221)."""
    paper = SHIPPED["numbers"]["paper"]
    assert paper["papers_in_scope_total"] == {"all": 347}
    assert sum(paper["papers_in_scope"].values()) == 347  # the paper's own 126 + 221
    cfg = CFG | {"numbers": CFG["numbers"] | {
        "paper": CFG["numbers"]["paper"] | {"papers_in_scope_total": {"all": 347}}}}
    d = _numbers(cfg).set_index(["task", "name"])
    row = d.loc[("all", "papers_in_scope_total")]
    # hand count of the small sheet: 7 classification + 3 segmentation papers in scope, of
    # 8 + 3 found
    assert (row["value"], row["n_population"], row["paper_value"]) == (10, 11, "347")
    assert row["value"] == d.loc[("classification", "papers_in_scope"), "value"] \
        + d.loc[("segmentation", "papers_in_scope"), "value"]
    html = numbers_html(d.reset_index(), "V", True)
    assert "papers in scope, both tasks" in html and "10 (both tasks)" in html
    # shown under the per-task count it sums, not after the multipliers
    assert html.index("papers in scope<") < html.index("both tasks") \
        < html.index("values only in figures")


def _fits(percents, n):
    """Whether every percentage (one decimal) is k/n of some whole k."""
    return all(any(round(100 * k / n, 1) == p for k in range(n + 1)) for p in percents)


def test_the_papers_unstated_population_of_tables_S1_S2_is_said_beside_its_value():
    """Tables S1/S2 give percentages without their denominator: they fit 123 / 212 papers,
    neither the 126 / 221 in scope nor the 117 / 210 with values in text or tables; the note
    on the share_primary_metric row says so (checked here against the paper's percentages)."""
    tables = SHIPPED["figures"]["paper_metric_tables"]
    cls = [r["percent"] for r in tables["classification"]]
    seg = [r["percent"] for r in tables["segmentation"]]
    assert _fits(cls, 123) and not _fits(cls, 126) and not _fits(cls, 117)
    assert _fits(seg, 212) and not _fits(seg, 221) and not _fits(seg, 210)
    note = SHIPPED["numbers"]["paper_notes"]["share_primary_metric"]
    assert "123" in note and "212" in note and "does not name" in note
    cfg = CFG | {"numbers": CFG["numbers"] | {"paper_notes": SHIPPED["numbers"]["paper_notes"]}}
    d = _numbers(cfg)
    got = d.set_index(["task", "name"])["paper_note"]
    for task in ("classification", "segmentation"):
        assert got[(task, "share_primary_metric")] == note
        assert "does not state the metric level" in got[(task, "test_size_multiplier")]
    assert (d.loc[~d["name"].isin(SHIPPED["numbers"]["paper_notes"]), "paper_note"] == "").all()
    assert "fit 123 classification" in numbers_html(d, "V", True)
    # a venue the paper is not compared with gets no note
    assert (_numbers(cfg | {"numbers": cfg["numbers"] | {"compare_venues": []}})["paper_note"]
            == "").all()


def test_a_note_for_an_unknown_number_is_refused():
    cfg = CFG | {"numbers": CFG["numbers"] | {"paper_notes": {"share_typo": "x"}}}
    with pytest.raises(ValueError, match="paper_notes.share_typo"):
        _numbers(cfg)


def test_figS10_is_the_papers_one_panel_and_the_other_sd_models_its_companion(tmp_path):
    """[Christodoulou2025], Fig S10: one set of curves, the imputed SD at mean, Q1 or Q3; the
    other SD models (our addition) in a companion figure of their own."""
    from figure_fixtures import curves, probabilities, top2
    from falseclaims.survey.headline import Headline

    head = Headline("paper", "median", "msd_reference", "mean")
    prob = probabilities(top2(n=(20, 40)), sources=("paper",), sd_sources=("msd_reference",
                                                                           "other"))
    e = curves(prob, [0.0, 0.05, 0.1, 0.3, 0.5])
    fig, data = figures.figS10_sd_sensitivity(e, head)
    assert len(fig.axes) == 1
    assert set(data["sd_source"]) == {"msd_reference"}
    assert set(data["sd_level"]) == {"q1", "mean", "q3"}
    assert len(fig.axes[0].lines) == 3 + 1  # three levels and the cutoff line
    comp, cdata = figures.figS10_sd_models(e, head)
    assert set(cdata["sd_source"]) == {"msd_reference", "other"}
    assert set(cdata["sd_level"]) == {"mean"}
    names = {f.name for f in FIGURES}
    assert {"figS10_sd_sensitivity", "figS10_sd_models"} <= names


def test_fig6_says_the_paper_does_not_state_its_level():
    """[Christodoulou2025] does not state the metric level of Fig 6: the figure says so
    beside the level it uses (the venue's median winner value by default)."""
    import matplotlib.pyplot as plt

    import figure_fixtures as fx
    from falseclaims.config import load_config
    from falseclaims.figures.lookup import fig6_of_venue

    cfg = load_config(ROOT / "config" / "config.yaml")
    small = {t: {**cfg["lookup_grid"][t], "n": [50, 500], "delta": [0.01, 0.05]}
             for t in ("classification", "segmentation")}
    block = {**cfg["lookup_grid"], **small}
    for task in ("classification", "segmentation"):
        fig, _ = fig6_of_venue(task, fx.papers(), fx.top2(), block, fx.CONGRUENCE["paper"],
                               fx.SD_MODEL, cfg["planner"],
                               ("train_test", "train_val_test", "cv_plus_test"))
        title = fig.axes[0].get_title(loc="left")
        plt.close(fig)
        assert "median winner value" in title
        assert "the paper does not state its level" in title, title


def test_every_survey_caption_names_its_source_and_population():
    """A venue figure's caption cites [Christodoulou2025] (or says it is our addition) and a
    probability figure names its population, the analysed papers; the estimation captions
    cite the data of each source; the supplement's double numbering (main text S1-S4,
    supplement S7-S10) is in the report's titles."""
    from test_report_captions import _render

    for fig in FIGURES:
        if fig.scope not in ("venue", "comparison"):
            continue
        text = _render(ROOT / "workflow" / "report" / f"{fig.caption}.rst", SHIPPED)
        assert "[Christodoulou2025]" in text or "our addition" in text, fig.name
        if fig.of_results or fig.scope == "comparison":
            assert "analysed" in text, fig.name
    for name in ("estimation_congruence_ecdf", "estimation_congruence_by_task",
                 "estimation_congruence_summary", "estimation_sd_models"):
        text = _render(ROOT / "workflow" / "report" / f"{name}.rst", SHIPPED)
        assert "[Antonelli2022]" in text and "[Bassi2024]" in text, name
    titles = {f.name: f.title for f in FIGURES}
    assert titles["figS7_uncertainty"].startswith("Fig S1/S7")
    assert titles["figS8_split_sizes"].startswith("Fig S2/S8")
    assert titles["figS9_delta_distribution"].startswith("Fig S3/S9")
    assert titles["figS10_sd_sensitivity"].startswith("Fig S4/S10")


def test_the_multiplier_note_states_what_our_formulas_give_at_the_inferred_levels():
    """The note beside the paper's 8× / 10× names the sizes our formulas need at the inferred
    levels; recomputed here by a brute-force scan of n with the closed forms (not the
    planner), so the note cannot go stale when the SD model or a level changes."""
    from falseclaims.config import sd_model_from_config
    from test_fig6_levels import _first_n_by_scan

    note = SHIPPED["numbers"]["paper_notes"]["test_size_multiplier"]
    inferred = SHIPPED["lookup_grid"]["inferred_levels"]
    cong = SHIPPED["congruence"][SHIPPED["lookup_grid"]["congruence_source"]]
    sd_model = sd_model_from_config(SHIPPED, SHIPPED["sd_model"]["use"][0])
    for task, median in (("classification", 500), ("segmentation", 62)):
        n = _first_n_by_scan(task, inferred[task], SHIPPED["lookup_grid"]["multiplier_delta"],
                             cong[task]["median"], sd_model)
        assert f"{n:,}" in note and f"{n / median:.1f}×" in note, (task, n)
        assert f"{inferred[task]:g}" in note
