"""Counts the survey figures print agree with each other and with the flow diagram; figure
sizes and legends that the figure review found wrong (Fig 3 denominators, populations vs the
flow's "in scope" box, Fig S8 footnote, venue facets width, per-case legends)."""

import figure_fixtures as fx
import matplotlib
import matplotlib.collections
import numpy as np
import pandas as pd
import pytest

from falseclaims import figures, style
from falseclaims.figures import percase
from falseclaims.figures.practices import practices_data
from falseclaims.figures.sizes import split_sizes
from falseclaims.config import Eligibility
from falseclaims.survey.eligibility import select_papers
from falseclaims.survey.headline import Headline
from falseclaims.survey.populations import metric_frequency, population

matplotlib.use("Agg")
HEAD = Headline("paper", "median", "msd_reference", "mean")
ANALYSIS = Eligibility.from_block({
    "metrics": {"classification": ["accuracy"], "segmentation": ["dsc"]},
    "test_set_splits": ["train_test", "train_val_test", "cv_plus_test"]})


def _papers(rows):
    base = {"venue": "v", "title": "", "in_scope": True, "claims_outperformance": pd.NA,
            "bold_best": pd.NA, "statistical_test": pd.NA, "values_only_in_figures": False,
            "split": "train_test", "cv_folds": pd.NA, "n_train": 10, "n_val": pd.NA,
            "n_test": 5, "uncertainty": "none", "metrics_reported": "accuracy"}
    df = pd.DataFrame([base | r for r in rows])
    for c in ("claims_outperformance", "bold_best", "statistical_test"):
        df[c] = df[c].astype("boolean")
    for c in ("cv_folds", "n_train", "n_val", "n_test"):
        df[c] = df[c].astype("Int64")
    return df


def _texts(fig):
    return [t.get_text() for ax in fig.axes for t in ax.texts]


def test_fig3_share_is_over_recorded_papers_and_unrecorded_practices_have_no_percent():
    # 2 yes, 6 no, 5 not recorded: 2 of 8 = 25%, not 2 of 13 = 15%; no column for the
    # other two practices (all missing): "not recorded", never "0%"
    tests = [True] * 2 + [False] * 6 + [pd.NA] * 5
    papers = _papers([{"paper_id": str(i), "task": "classification", "statistical_test": t}
                      for i, t in enumerate(tests)])
    fig, data = figures.fig3_reporting_practices(papers)
    d = data.set_index("practice")
    row = d.loc["statistical_test"]
    assert (row.n_papers, row.n_yes, row.n_no, row.n_not_recorded, row.n_recorded) == \
        (13, 2, 6, 5, 8)
    assert row.share_yes == pytest.approx(2 / 8)
    for practice in ("claims_outperformance", "bold_best"):
        assert d.loc[practice, "n_recorded"] == 0 and np.isnan(d.loc[practice, "share_yes"])
    texts = _texts(fig)
    assert "25% (2 of 8 recorded)" in texts
    assert texts.count("not recorded") == 2
    assert "0%" not in texts and "15%" not in texts
    assert fig.axes[0].get_xlabel() == "% of papers where recorded"


def test_fig3_fully_recorded_keeps_plain_percent_labels():
    papers = _papers([{"paper_id": str(i), "task": "segmentation", "claims_outperformance": True,
                       "bold_best": i < 3, "statistical_test": False} for i in range(4)])
    fig, data = figures.fig3_reporting_practices(papers)
    assert (data.n_recorded == data.n_papers).all()
    assert data.set_index("practice").share_yes.to_dict() == \
        {"claims_outperformance": 1.0, "bold_best": 0.75, "statistical_test": 0.0}
    texts = _texts(fig)
    assert {"100%", "75%", "0%"} <= set(texts)  # a recorded "no" for everyone is 0%
    assert not any("recorded" in t for t in texts)
    assert fig.axes[1].get_xlabel() == "% of papers"


def test_fig3_label_moves_out_of_a_bar_too_short_for_it():
    # 78% bar: wide enough for "78% (7 of 9 recorded)"; 22%: the text goes after the bar
    rows = [{"paper_id": f"c{i}", "task": "classification", "statistical_test": t}
            for i, t in enumerate([True] * 7 + [False] * 2 + [pd.NA])]
    rows += [{"paper_id": f"s{i}", "task": "segmentation", "statistical_test": t}
             for i, t in enumerate([True] * 2 + [False] * 7 + [pd.NA])]
    fig, _ = figures.fig3_reporting_practices(_papers(rows))
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    for ax, label, inside in ((fig.axes[0], "78% (7 of 9 recorded)", True),
                              (fig.axes[1], "22% (2 of 9 recorded)", False)):
        text = next(t for t in ax.texts if t.get_text() == label)
        box = text.get_window_extent(renderer)
        bar_end = ax.transData.transform((100 * (7 if inside else 2) / 9, 0))[0]
        if inside:
            assert box.x1 < bar_end and box.x0 > ax.transData.transform((0, 0))[0]
        else:
            assert box.x0 > bar_end and box.x1 < ax.get_window_extent(renderer).x1


def test_populations_match_the_flow_diagram_boxes():
    # venue read with on_bad_cell: exclude -> an invalid_cell column; "u*" are unreadable
    rows = [{"paper_id": f"ok{i}", "task": "classification", "statistical_test": i % 2 == 0}
            for i in range(5)]
    rows += [{"paper_id": "u1", "task": "classification", "invalid_cell": "Ours: 'n/a%'",
              "statistical_test": True},
             {"paper_id": "u2", "task": "segmentation", "invalid_cell": "Test set: 'many'"},
             {"paper_id": "out", "task": "classification", "in_scope": False},
             {"paper_id": "figs", "task": "segmentation", "values_only_in_figures": True},
             {"paper_id": "seg", "task": "segmentation"}]
    papers = _papers(rows)
    papers["invalid_cell"] = papers["invalid_cell"].where(papers["invalid_cell"].notna(), "")
    results = pd.DataFrame(columns=["venue", "paper_id", "method", "metric", "value", "sd",
                                    "sd_over", "n_test"])
    flow = select_papers(papers, results, ANALYSIS, "v").flow.set_index(["task", "step"])
    box = flow["n_papers"]
    assert box[("classification", "in_scope")] == 5 and box[("segmentation", "in_scope")] == 2

    counts = {
        "fig3": practices_data(papers, "in_scope").groupby("task").n_papers.first(),
        "figS7": figures.figS7_uncertainty(papers, "in_scope")[1]
        .groupby("task").n_papers.first(),
        "figS8": split_sizes(papers, "in_scope").groupby("task").paper_id.nunique(),
        "tables": metric_frequency(papers, "in_scope").groupby("task").n_papers.first(),
    }
    for name, by_task in counts.items():
        for task in ("classification", "segmentation"):
            assert by_task[task] == box[(task, "in_scope")], (name, task)
    quantitative = metric_frequency(papers, "quantitative").groupby("task").n_papers
    assert quantitative.first()["segmentation"] == box[("segmentation", "values_in_text")] == 1
    # `all` is the "papers found" box: unreadable papers included
    found = practices_data(papers, "all").groupby("task").n_papers.first()
    assert found["classification"] == box[("classification", "found")] == 7
    # the unreadable paper's "yes" is not counted in Fig 3
    test = practices_data(papers, "in_scope").set_index(["task", "practice"])
    assert test.loc[("classification", "statistical_test"), "n_yes"] == 3


def test_population_without_invalid_cell_column_is_unchanged():
    papers = _papers([{"paper_id": "a", "task": "classification"},
                      {"paper_id": "b", "task": "classification", "in_scope": False}])
    assert list(population(papers, "in_scope").paper_id) == ["a"]


def test_figS8_note_counts_only_papers_without_any_plotted_size():
    papers = _papers([
        # cv_plus_test without k: test size plotted, train/validation not -> plotted, partial
        {"paper_id": "p", "task": "classification", "split": "cv_plus_test", "n_train": 90,
         "n_test": 40},
        # cv_only without k: nothing plotted
        {"paper_id": "q", "task": "classification", "split": "cv_only", "n_train": 90,
         "n_test": pd.NA},
        {"paper_id": "r", "task": "classification", "n_train": pd.NA, "n_test": pd.NA},
        {"paper_id": "s", "task": "classification"},
        {"paper_id": "z", "task": "classification", "n_train": 0, "n_test": 0},  # log: unplottable
    ])
    fig, data = figures.figS8_split_sizes(papers)
    ax = fig.axes[0]
    assert ax.get_title().startswith("Classification (n = 2 papers)")  # p and s
    note = next(t.get_text() for t in ax.texts if "without usable sizes" in t.get_text())
    assert note.startswith("3 paper(s) without usable sizes")  # q, r, z
    assert "1 plotted paper(s) with some sizes missing" in note
    plotted, without = 2, 3
    assert plotted + without == data.paper_id.nunique() == len(papers)


def test_figS8_no_note_when_every_paper_is_plotted():
    fig, _ = figures.figS8_split_sizes(_papers([{"paper_id": "a", "task": "segmentation"}]))
    assert not any("usable" in t.get_text() or "missing" in t.get_text()
                   for ax in fig.axes for t in ax.texts)


def test_fig5_venue_facets_is_double_width_with_fig5_axis_labels():
    style.configure(None)
    prob = fx.probabilities(fx.top2(n=(6, 8)), sources=("paper", "msd"),
                            sd_sources=("msd_reference",))
    curves = fx.curves(prob, np.linspace(0, 0.5, 11))
    fig, _ = figures.fig5_venue_facets({"v1": curves, "v2": curves, "v3": curves}, HEAD,
                                       {"v1": "Venue one with a long name", "v2": "Two",
                                        "v3": "Three"})
    width_mm = fig.get_size_inches()[0] * 25.4
    assert width_mm == pytest.approx(style.settings()["double_width_mm"])
    texts = [t.get_text() for t in fig.texts]
    assert "Cutoff of the probability of a false claim" in texts
    assert "% of papers with P > cutoff" in texts
    # the legend (right) and the panels stay inside the figure
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    right = fig.bbox.x1
    assert fig.legends[0].get_window_extent(renderer).x1 <= right + 1
    assert max(ax.get_window_extent(renderer).x1 for ax in fig.axes) < \
        fig.legends[0].get_window_extent(renderer).x0


@pytest.mark.parametrize("delta", [-0.004, 0.0, 0.003, 0.02])
def test_posterior_legend_does_not_cross_the_zero_line(delta):
    curves = [{"label": lvl, "n": 60, "delta": delta, "sd_diff": s, "probability": 0.3}
              for lvl, s in (("q1", 0.12), ("median", 0.09), ("q3", 0.06))]
    fig = percase.posterior_segmentation(curves)
    _legend_clear_of_zero(fig)
    fig = percase.posterior_classification([{"label": "median", "n": 200, "x1": 14, "x2": 9,
                                             "probability": 0.2}])
    _legend_clear_of_zero(fig)
    fig = percase.differences_histogram(np.linspace(-0.1, 0.1, 41) + delta, "A", "B")
    _legend_clear_of_zero(fig)


def _legend_clear_of_zero(fig):
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    ax = fig.axes[0]
    legend = (fig.legends or [ax.get_legend()])[0].get_window_extent(renderer)
    zero = next(line for line in ax.lines if list(line.get_xdata()) == [0, 0])
    line_box = zero.get_window_extent(renderer)
    overlaps_x = legend.x0 <= line_box.x1 and line_box.x0 <= legend.x1
    overlaps_y = legend.y0 <= line_box.y1 and line_box.y0 <= legend.y1
    assert not (overlaps_x and overlaps_y)


def _figS7_texts(fig, task_index):
    return [t.get_text() for t in fig.axes[task_index].texts]


def test_figS7_unrecorded_uncertainty_says_not_recorded_instead_of_zero_percent():
    # the sheet records no uncertainty type: no "0% (0 of 0)" rows that read as "nobody"
    papers = _papers([{"paper_id": str(i), "task": "classification", "uncertainty": pd.NA}
                      for i in range(3)])
    fig, data = figures.figS7_uncertainty(papers)
    d = data.set_index("uncertainty")
    assert (d["n_papers"] == 3).all() and (d["n_recorded"] == 0).all()
    assert d.loc["not_recorded", "n"] == 3 and d.loc["not_recorded", "share"] == 1.0
    assert d.drop(index="not_recorded")["share"].isna().all()
    texts = _figS7_texts(fig, 0)
    assert texts.count("not recorded") == 8  # none, the four SDs, their sum, CI, other
    assert "3 of 3 papers" in texts
    assert not any(t.startswith("0%") for t in texts)


def test_figS7_uses_the_papers_populations_hand_counted():
    """[Christodoulou2025], Suppl. A: "none" over the papers (where recorded), the SDs and CIs
    over the papers reporting uncertainty. 10 papers: 1 missing, 4 none, 5 reporting
    (sd_test, sd_runs, sd_runs, ci, other): none 4/9, SD 3/5, CI 1/5, other 1/5."""
    kinds = [pd.NA, "none", "none", "none", "none", "sd_test", "sd_runs", "sd_runs", "ci",
             "other"]
    papers = _papers([{"paper_id": str(i), "task": "classification", "uncertainty": u}
                      for i, u in enumerate(kinds)])
    fig, data = figures.figS7_uncertainty(papers)
    d = data.set_index("uncertainty")
    assert (d["n_recorded"] == 9).all() and (d["n_reporting"] == 5).all()
    expect = {"none": (4, 9), "not_recorded": (1, 10), "sd_any": (3, 5), "sd_test": (1, 5),
              "sd_cv": (0, 5), "sd_runs": (2, 5), "sd_unclear": (0, 5), "ci": (1, 5),
              "other": (1, 5)}
    for key, (k, m) in expect.items():
        assert (d.loc[key, "n"], d.loc[key, "n_denominator"]) == (k, m), key
        assert d.loc[key, "share"] == pytest.approx(k / m), key
    texts = _figS7_texts(fig, 0)
    for t in ("44% (4 of 9)", "60% (3 of 5)", "20% (1 of 5)", "40% (2 of 5)",
              "1 of 10 papers"):
        assert t in texts, (t, texts)
    assert "10% (1 of 10)" not in texts  # CI is not a share of all papers


def test_figS7_refuses_an_unknown_uncertainty_value():
    papers = _papers([{"paper_id": "1", "task": "classification", "uncertainty": "se"}])
    with pytest.raises(ValueError, match="'se'.*other"):
        figures.figS7_uncertainty(papers)


def test_figS7_fully_recorded_keeps_percent_labels_clear_of_the_axis():
    papers = _papers([{"paper_id": str(i), "task": "segmentation", "uncertainty": "none"}
                      for i in range(3)] + [{"paper_id": "ci", "task": "segmentation",
                                             "uncertainty": "ci"}])
    fig, data = figures.figS7_uncertainty(papers)
    assert "not_recorded" not in set(data["uncertainty"])
    ax = fig.axes[1]
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    zero = [t for t in ax.texts if t.get_text() == "0% (0 of 1)"]
    assert len(zero) == 6  # four SDs, their sum, other
    # a visible gap (>= 3 px at 100 dpi) between the y-axis and a label of an empty bar
    gaps = [t.get_window_extent(renderer).x0 - ax.bbox.x0 for t in zero]
    assert min(gaps) >= 3


def test_figS9_dots_at_zero_unclipped_median_label_orange_and_size_steps_distinct():
    top2 = fx.top2(n=(6, 8)).copy()
    top2.loc[top2.index[0], "delta"] = 0.0  # a tie: its dot sits on the axis bottom
    fig, _ = figures.figS9_delta_distribution(top2, (50, 100, 500, 1000))
    for ax in fig.axes[:2]:
        dots = [c for c in ax.collections if isinstance(c, matplotlib.collections.PathCollection)]
        assert dots and not any(c.get_clip_on() for c in dots)
        median = [t for t in ax.texts if t.get_text().startswith("median")]
        assert matplotlib.colors.to_hex(median[0].get_color()) == \
            style.PALETTE["orange"].lower()
    handles = fig.legends[0].legend_handles
    sizes = [h.get_markersize() for h in handles if h.get_marker() == "o"]
    assert len(sizes) >= 2
    # every size category visibly larger than the previous one: >= 1.5 pt in diameter
    assert min(b - a for a, b in zip(sizes, sizes[1:])) >= 1.5


def _legend_entry_positions(fig):
    """(label, x, y) of every legend text, in pixels."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    legend = fig.legends[0]
    return legend, [(t.get_text(), round(t.get_window_extent(renderer).x0),
                     round(t.get_window_extent(renderer).y0)) for t in legend.get_texts()]


@pytest.fixture(scope="module")
def curves_two_sources():
    prob = fx.probabilities(fx.top2(n=(6, 8)), sources=("paper", "msd"),
                            sd_sources=("msd_reference", "other"))
    return fx.curves(prob, np.linspace(0, 0.5, 11))


def test_fig5_legend_is_one_row_of_the_papers_congruence_levels(curves_two_sources):
    fig, _ = figures.fig5_exceedance(curves_two_sources, HEAD)
    legend, entries = _legend_entry_positions(fig)
    texts = [e for e in entries if e[0]]
    assert [t for t, _, _ in texts] == ["congruence (paper):", "Q1", "median", "Q3"]
    assert len({y for _, _, y in texts}) == 1
    assert texts[0][1] < min(x for _, x, _ in texts[1:])


def test_curve_legend_has_one_row_of_colours_and_one_row_of_line_styles(curves_two_sources):
    from falseclaims.figures.exceedance import _curve_panels, _n_title
    data = curves_two_sources[curves_two_sources.sd_source.isin(["none", "msd_reference"])
                              & curves_two_sources.sd_level.isin(["none", "mean"])]
    fig = _curve_panels(data, "congruence_source", "congruence_level",
                        ["classification", "segmentation"], _n_title, 0.05, "congruence",
                        "congruence source")
    legend, entries = _legend_entry_positions(fig)
    assert legend.get_title().get_text() == ""  # no title spanning both rows
    texts = [e for e in entries if e[0]]
    colour_row = [e for e in texts if e[0] in ("congruence source:", "paper", "msd")]
    style_row = [e for e in texts if e[0] in ("congruence:", "Q1", "median", "Q3")]
    assert len(colour_row) == 3 and len(style_row) == 4 and len(texts) == 7
    assert len({y for _, _, y in colour_row}) == 1 and len({y for _, _, y in style_row}) == 1
    assert colour_row[0][2] > style_row[0][2]  # colours above line styles
    # each row starts with its name, left of its entries
    assert colour_row[0][0] == "congruence source:" and style_row[0][0] == "congruence:"
    assert colour_row[0][1] < min(x for _, x, _ in colour_row[1:])
    assert style_row[0][1] < min(x for _, x, _ in style_row[1:])


def test_figS10_legend_groups_sd_models_and_levels_and_stays_in_the_figure(curves_two_sources):
    """Fig S10 (the paper's): the imputed-SD levels in one row led by its name; its
    companion: the SD models, led by theirs, the headline first."""
    fig, _ = figures.figS10_sd_sensitivity(curves_two_sources, HEAD)
    legend, entries = _legend_entry_positions(fig)
    texts = {t: (x, y) for t, x, y in entries if t}
    assert set(texts) == {"imputed SD:", "Q1", "mean", "Q3"}
    assert len({texts[t][1] for t in texts}) == 1
    assert texts["imputed SD:"][0] < texts["Q1"][0] < texts["mean"][0] < texts["Q3"][0]
    comp, _ = figures.figS10_sd_models(curves_two_sources, HEAD)
    legend2, entries2 = _legend_entry_positions(comp)
    names = [t for t, _, _ in entries2 if t]
    # sources in words, as Fig 4 names them (config.source_label), never the config key
    assert set(names) == {"SD model:", "MSD reference", "other"}
    for f, lg in ((fig, legend), (comp, legend2)):
        box = lg.get_window_extent(f.canvas.get_renderer())
        assert box.x0 >= f.bbox.x0 and box.x1 <= f.bbox.x1


def test_fig4_legend_covers_no_point_and_a_decade_tick_precedes_the_smallest_size():
    prob = fx.probabilities(fx.top2(n=(30, 60)), sources=("paper",))
    for task in ("classification", "segmentation"):
        rows = prob["task"] == task
        # the largest test set has the largest delta: a point in the legend's corner
        biggest = prob.loc[rows, "n_test"].max()
        top = rows & (prob["n_test"] == biggest)
        prob.loc[top, "delta"] = prob.loc[rows, "delta"].max() * 1.3
        # smallest test set just above a decade (150): the axis must still reach 10^2
        prob.loc[rows & (prob["n_test"] == prob.loc[rows, "n_test"].min()), "n_test"] = 150
    fig, _ = figures.fig4_delta_vs_size(prob, HEAD)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    for ax in fig.axes[:2]:
        box = ax.get_legend().get_window_extent(renderer)
        dots = [c for c in ax.collections if isinstance(c, matplotlib.collections.PathCollection)]
        xy = ax.transData.transform(np.concatenate([c.get_offsets() for c in dots]))
        inside = ((xy[:, 0] >= box.x0) & (xy[:, 0] <= box.x1)
                  & (xy[:, 1] >= box.y0) & (xy[:, 1] <= box.y1))
        assert not inside.any()
        assert ax.get_legend()._loc == 1  # upper right in every panel
        labelled = [t.get_position()[0] for t in ax.get_xticklabels() if t.get_text()]
        lo = ax.get_xlim()[0]
        smallest = min(xy_[0] for c in dots for xy_ in c.get_offsets())
        assert any(lo <= v < smallest for v in labelled)


def _fig6_footnote(fig):
    return fig.axes[1].texts[0].get_text().replace("\u00a0", " ")


@pytest.mark.parametrize("observed, shown", [((1481.5, 0.011), "median n = 1,481.5"),
                                             ((2076.0, 0.0147), "median n = 2,076"),
                                             ((294.5, 0.01), "median n = 294.5")])
def test_fig6_footnote_prints_the_median_size_as_a_whole_number_or_one_decimal(observed,
                                                                               shown):
    fig, _ = figures.fig6_lookup("classification", [100, 1000], [0.01, 0.02], 0.85,
                                 fx.CONGRUENCE["paper"]["classification"], observed=observed,
                                 venue_label="V")
    note = _fig6_footnote(fig).replace("\n", " ")
    assert shown in note
    assert "2076.0" not in note and "n = 2076" not in note


def test_fig6_footnote_never_wraps_inside_n_star_or_the_median_size():
    import re
    for k in range(0, 48, 3):  # venue names of many lengths move the line breaks around
        fig, _ = figures.fig6_lookup("classification", [100, 1000], [0.01, 0.02], 0.85,
                                     fx.CONGRUENCE["paper"]["classification"],
                                     observed=(1481.5, 0.011), venue_label="V" + "x" * k)
        note = _fig6_footnote(fig)
        assert re.search(r"column n\* = [\d,]+:", note), note
        assert re.search(r"median n = [\d,.]+,", note), note
        assert re.search(r"P ≤ [\d.]+%", note), note
        matplotlib.pyplot.close(fig)


def test_fig5_venue_facets_has_panel_letters_row_by_row(curves_two_sources):
    fig, _ = figures.fig5_venue_facets({"v1": curves_two_sources, "v2": curves_two_sources},
                                       HEAD)
    axes = sorted(fig.axes, key=lambda ax: (-round(ax.get_position().y0, 3),
                                            ax.get_position().x0))
    letters = [[t.get_text() for t in ax.texts if t.get_fontweight() == "bold"]
               for ax in axes]
    assert letters == [["a"], ["b"], ["c"], ["d"]]


def _lowest_dot_inside(fig, axes):
    """Every dot (its centre minus its radius) lies above the bottom of its axes."""
    fig.canvas.draw()
    for ax in axes:
        for c in ax.collections:
            if not isinstance(c, matplotlib.collections.PathCollection):
                continue
            y = ax.transData.transform(c.get_offsets())[:, 1]
            r = np.sqrt(np.broadcast_to(c.get_sizes(), y.shape)) / 2 * fig.dpi / 72
            assert (y - r).min() >= ax.bbox.y0 - 1e-6, ax.get_title()


def test_zero_delta_dots_are_whole_in_fig4_and_figS9():
    prob = fx.probabilities(fx.top2(n=(12, 20)), sources=("paper",))
    prob.loc[prob.paper_id.isin(["cla000", "seg000"]), "delta"] = 0.0  # ties on the axis
    fig, _ = figures.fig4_delta_vs_size(prob, HEAD)
    _lowest_dot_inside(fig, fig.axes[:2])
    for ax in fig.axes[:2]:  # no negative delta tick in view: the axis still reads from 0
        lo, hi = ax.get_ylim()
        assert lo < 0 and min(v for v in ax.get_yticks() if lo <= v <= hi) == 0
    top2 = fx.top2(n=(12, 20)).copy()
    top2.loc[top2.index[[0, -1]], "delta"] = 0.0
    fig, _ = figures.figS9_delta_distribution(top2, (50, 100, 500, 1000))
    _lowest_dot_inside(fig, fig.axes[:2])


def test_fig5_venue_facets_titles_keep_clear_of_the_panel_letters(curves_two_sources):
    # four columns with labels as long as the example's: a title wider than its panel ran
    # into the panel letter below it
    labels = {"v1": "MICCAI 2023 (synthetic example)", "v2": "Venue B (synthetic, wide top-2)",
              "v3": "Venue C (synthetic, messy sheet)",
              "v4": "DL-EEG review (Roy et al. 2019), real sheet"}
    fig, _ = figures.fig5_venue_facets({v: curves_two_sources for v in labels}, HEAD, labels)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    letters = [t for ax in fig.axes for t in ax.texts if t.get_fontweight() == "bold"]
    titles = [ax.title for ax in fig.axes if ax.get_title()]
    assert len(titles) == 4 and len(letters) == 8
    for title in titles:
        box = title.get_window_extent(renderer)
        for letter in letters:
            assert not box.overlaps(letter.get_window_extent(renderer)), \
                (title.get_text(), letter.get_text())


def test_posterior_of_identical_methods_is_a_point_mass_without_warnings():
    # two methods with the same per-case values: no spread in the paired differences (the
    # t density divided by 0 and the y range 0-0 warned on stderr under `percase --report`)
    import warnings
    curves = [{"label": lvl, "n": 30, "delta": 0.0, "sd_diff": 0.0, "probability": 0.5}
              for lvl in ("q1", "median", "q3")]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fig = percase.posterior_segmentation(curves)
        fig.canvas.draw()
    ax = fig.axes[0]
    assert ax.get_ylim() == (0.0, 1.0)
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert "median: P(B ≥ A) = 0.500" in labels
    assert [t.get_text() for t in ax.texts] == ["no spread: every paired difference is +0"]
    matplotlib.pyplot.close(fig)
