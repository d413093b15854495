"""Figure review (round 35): extreme inputs (one paper, many venues, tiny counts) and one
voice across figures (panel titles, source colours, level names), checked on the drawn
artists with the Agg renderer: text boxes that must not overlap, tick labels, legends."""

import re

import figure_fixtures as fx
import numpy as np
import pandas as pd
import matplotlib.pyplot as plt
import pytest
from matplotlib.colors import to_hex

from falseclaims.figures.exceedance import fig5_venue_facets, fig5_venues
from falseclaims.figures.table import agreement_figure, ties_figure
from falseclaims.figures.venue import venue_figures
from falseclaims.style import SOURCE_COLOURS, TASK_COLOURS
from falseclaims.survey.headline import Headline

HEAD = Headline("paper", "median", "msd_reference", "mean")
GRID = {"congruence_source": "paper", "sd_level": "mean", "bands": [0.05, 0.1],
        "multiplier_delta": 0.01,
        "classification": {"level": 0.85, "n": [50, 500], "delta": [0.01, 0.03]},
        "segmentation": {"level": 0.85, "n": [20, 200], "delta": [0.01, 0.03]}}
POPULATIONS = {"practices": "in_scope", "uncertainty": "in_scope", "split_sizes": "in_scope",
               "metrics": "quantitative"}
# every per-task survey figure titles a panel (or a row) by its task and paper count
PER_TASK = ("fig3_reporting_practices", "figS7_uncertainty", "figS8_split_sizes",
            "figS9_delta_distribution", "fig4_delta_vs_size", "fig5_exceedance",
            "fig5_congruence_sources", "figS10_sd_sensitivity")


def _tables(n):
    t2 = fx.top2(n=n)
    prob = fx.probabilities(t2, sources=("paper", "msd"), sd_sources=("msd_reference",))
    return {"papers": fx.papers(n=n), "flow": fx.flow(), "top2": t2, "probabilities": prob,
            "exceedance": fx.curves(prob, np.linspace(0, 0.5, 11))}


def _render(tables):
    return {name: fig for name, fig, _ in venue_figures(
        tables, headline=HEAD, cutoff=0.05, size_categories=(50, 500), seed=1,
        populations=POPULATIONS, lookup_grid=GRID, lookup_congruence=fx.CONGRUENCE["paper"],
        sd_model=fx.SD_MODEL, planner={"target": 0.05, "n_max": 10**6, "sd_level": "mean"},
        venue_label="V", test_set_splits=("train_test", "train_val_test", "cv_plus_test"))}


def _texts(fig) -> list[str]:
    return [t.get_text() for t in fig.findobj(lambda a: hasattr(a, "get_text"))]


def _bbox(artist):
    return artist.get_window_extent(artist.figure.canvas.get_renderer())


def _venue_curves(k: int) -> dict[str, pd.DataFrame]:
    out = {}
    for i in range(k):
        prob = fx.probabilities(fx.top2(n=(4, 5), seed=i), sources=("paper", "msd"),
                                sd_sources=("msd_reference",))
        out[f"v{i}"] = fx.curves(prob, np.linspace(0, 0.5, 11)).assign(venue=f"v{i}")
    return out


def test_panel_letters_go_past_h():
    """Five venues give ten facets (two tasks each): the letters ran out after "h" and the
    venue comparison failed with an IndexError."""
    fig, _ = fig5_venue_facets(_venue_curves(5), HEAD)
    assert {"i", "j"} <= set(_texts(fig))
    from falseclaims.figures.common import letter

    assert [letter(i) for i in (0, 7, 8, 25, 26, 27)] == ["a", "h", "i", "z", "aa", "ab"]


def test_one_paper_is_one_paper_and_every_panel_title_counts_alike():
    """A venue with one paper per task: "n = 1 paper", never "n = 1 papers"; and every
    per-task figure counts its papers in the same words (Fig S2/S8 said "(116 papers)"
    where the others say "(n = 126 papers)")."""
    made = _render(_tables((1, 1)))
    titled = re.compile(r"(Classification|Segmentation) \(n = (\d+) papers?[;)]")
    for name in PER_TASK:
        texts = " ".join(_texts(made[name]))
        assert "1 papers" not in texts, name
        found = titled.findall(texts)
        assert found and all(n == "1" for _, n in found), (name, texts)
    plt.close("all")
    many = _render(_tables((3, 4)))
    for name in PER_TASK:
        assert titled.search(" ".join(_texts(many[name]))), name
    plt.close("all")


def _ties(counts: dict[str, list[int]]) -> pd.DataFrame:
    rows = [{"venue": "v", "paper_id": f"{t[:3]}{i}", "task": t, "n_tied": k, "cutoff": 0.05}
            for t, ks in counts.items() for i, k in enumerate(ks)]
    return pd.DataFrame(rows)


@pytest.mark.parametrize("counts", [
    {"classification": [1, 1, 1, 2, 2]},  # the DL-EEG review: 5 papers, tall bars
    {"classification": [0] * 7 + [1] * 15 + [2] * 11, "segmentation": [0] * 62 + [1] * 36}])
def test_ties_legend_keeps_off_the_bars_and_counts_are_whole(counts):
    """The legend in the upper right covered the tallest bar of a 5-paper venue, and the
    count axis read 0.5, 1.5, 2.5 papers; the legend names the tasks as every figure does."""
    fig, _ = ties_figure(_ties(counts), "A venue")
    fig.canvas.draw()
    ax = fig.axes[0]
    labels = [t.get_text() for t in ax.get_yticklabels() if t.get_text()]
    assert labels and all(re.fullmatch(r"\d+", s) for s in labels), labels
    legend = fig.legends[0] if fig.legends else ax.get_legend()
    box = _bbox(legend)
    assert all(not box.overlaps(_bbox(bar)) for bar in ax.patches if bar.get_height() > 0)
    assert fig.bbox.contains(box.x0, box.y0) and fig.bbox.contains(box.x1, box.y1)
    names = [t.get_text() for t in legend.get_texts()]
    assert names[0].startswith("Classification (n = ")


def test_agreement_figure_colours_each_data_set_as_its_congruence_source():
    """isic2018 and touchstone are congruence sources too: the same colour as in the
    congruence figures (they were CYCLE blue and orange, the task colours)."""
    rng = np.random.default_rng(0)
    rows = []
    for d, task, k in (("isic2018", "classification", 4), ("touchstone", "segmentation", 9)):
        for i in range(k):
            p = float(rng.uniform(1e-4, 0.4))
            rows.append({"dataset": d, "table": f"{d}_t", "task": task, "winner": "a",
                         "method": f"m{i}", "p_table": p, "p_percase": p * 1.1,
                         "congruence_assumed": 0.67, "congruence_empirical": 0.6,
                         "tied_table": p >= 0.05, "tied_percase": p * 1.1 >= 0.05,
                         "agree": i != 0, "cutoff": 0.05})
    congruence = {t: fx.CONGRUENCE["paper"][t] for t in ("classification", "segmentation")}
    fig, _ = agreement_figure(pd.DataFrame(rows), congruence)
    seen = {}
    for coll in fig.axes[0].collections:
        name = coll.get_label().split(":")[0]
        colours = coll.get_facecolor() if len(coll.get_facecolor()) else coll.get_edgecolor()
        seen[name] = to_hex(colours[0], keep_alpha=False)
    assert seen["isic2018"] == SOURCE_COLOURS["isic2018"].lower()
    assert seen["touchstone"] == SOURCE_COLOURS["touchstone"].lower()
    assert TASK_COLOURS["classification"].lower() not in seen.values()
    assert {"a", "b"} <= set(_texts(fig))  # bold panel letters as in every figure


def test_venue_facets_list_the_headline_source_first():
    """The legend of the venue facets listed the tables' alphabetical order (isic2018 before
    paper); Fig 5's companion lists the headline source first."""
    curves = {}
    for v, c in _venue_curves(2).items():  # a source named before the headline's, sorted
        c.loc[c["congruence_source"] == "msd", "congruence_source"] = "aaa"  # as in the
        curves[v] = c.sort_values("congruence_source", kind="stable")  # pipeline's tables
    fig, _ = fig5_venue_facets(curves, HEAD)
    names = [t.get_text() for t in fig.legends[0].get_texts()]
    sources = [n for n in names if n in ("paper", "aaa")]
    assert sources == ["paper", "aaa"], names


def _six_venues_one_long_name():
    """Six venues' curves and labels, one label long enough to wrap."""
    curves = _venue_curves(6)
    labels = {v: f"Venue {v}" for v in curves}
    labels["v2"] = ("International Conference on Medical Image Computing and Computer "
                    "Assisted Intervention 2023 (synthetic)")
    return curves, labels


def test_venue_comparison_headline_note_stays_under_the_axis_title():
    """With six venues (one a long name) the legend took three rows and shortened the axes:
    the "Headline: ..." note, placed at a fixed axes fraction, ran into the axis title."""
    curves, labels = _six_venues_one_long_name()
    fig, _ = fig5_venues(curves, HEAD, labels=labels)
    fig.canvas.draw()
    for ax in fig.axes:
        note = next(t for t in ax.texts if t.get_text().startswith("Headline:"))
        below, title = _bbox(note), _bbox(ax.xaxis.label)
        assert not below.overlaps(title) and below.y1 <= title.y0 + 0.5


def test_percase_sensitivity_ticks_do_not_collide_and_levels_are_named_as_in_the_survey():
    """Segmentation congruence runs from -1 to 1: nine tick labels ran into each other
    ("-1.00-0.75-0.50"); the assumptions read q1/q3 where every survey figure says Q1/Q3."""
    from falseclaims.figures.percase import probability_vs_congruence

    grid = np.linspace(-1, 1, 81)
    marks = [{"assumption": a, "congruence_used": c, "probability": 0.3 - 0.2 * c}
             for a, c in (("q1", 0.44), ("median", 0.67), ("q3", 0.82))]
    fig = probability_vs_congruence(grid, 0.3 - 0.2 * grid, marks, "segmentation")
    fig.canvas.draw()
    ax = fig.axes[0]
    boxes = [_bbox(t) for t in ax.get_xticklabels() if t.get_text()]
    boxes = [b for b in boxes if fig.bbox.overlaps(b)]
    assert len(boxes) >= 3
    assert all(a.x1 < b.x0 for a, b in zip(boxes, boxes[1:])), [(b.x0, b.x1) for b in boxes]
    texts = [t.get_text() for t in ax.texts]
    assert "Q1" in texts and "Q3" in texts and "q1" not in texts


def test_many_venues_get_a_row_each_and_every_text_fits():
    """Six venues side by side gave 27 mm facets: x tick labels of neighbouring facets ran
    together ("0.50.0") and wrapped venue names were clipped at the top edge. More than four
    venues: a row per venue (its name beside the row), a column per task."""
    curves, labels = _six_venues_one_long_name()
    fig, _ = fig5_venue_facets(curves, HEAD, labels=labels)
    fig.canvas.draw()
    assert len(fig.axes) == 12
    columns = {round(ax.get_position().x0, 3) for ax in fig.axes}
    assert len(columns) == 2  # a column per task
    for t in fig.findobj(lambda a: hasattr(a, "get_text") and a.get_visible()):
        if t.get_text().strip() and t.figure is fig:
            box = _bbox(t)
            assert fig.bbox.x0 - 1 <= box.x0 and box.x1 <= fig.bbox.x1 + 1, t.get_text()
            assert fig.bbox.y0 - 1 <= box.y0 and box.y1 <= fig.bbox.y1 + 1, t.get_text()
    low = min(ax.get_position().y0 for ax in fig.axes)
    bottom = [ax for ax in fig.axes if abs(ax.get_position().y0 - low) < 1e-6]
    assert len(bottom) == 2
    ticks = [_bbox(t) for ax in bottom for t in ax.get_xticklabels()  # those drawn
             if t.get_text() and ax.get_xlim()[0] <= t.get_position()[0] <= ax.get_xlim()[1]]
    ticks.sort(key=lambda b: b.x0)
    assert all(a.x1 < b.x0 for a, b in zip(ticks, ticks[1:]))
    texts = _texts(fig)
    assert any("Venue v0" in t for t in texts) and "Classification" in texts


def test_flow_of_a_one_task_venue_draws_that_task_only():
    """A classification-only review (the DL-EEG sheet) drew a second column of six
    "Segmentation n = 0" boxes; its other per-task figures draw its task only, one column
    wide. A venue without papers keeps both columns (tests/test_figures_robust.py)."""
    from falseclaims.figures.flow import flow_diagram
    from falseclaims.style import settings

    flow = fx.flow()
    flow.loc[flow["task"] == "segmentation", "n_papers"] = 0
    fig, data = flow_diagram(flow)
    texts = _texts(fig)
    assert "Classification" in texts and "Segmentation" not in texts
    assert "n = 0" not in texts and "n = 133" in texts
    assert abs(fig.get_figwidth() * 25.4 - settings()["single_width_mm"]) < 0.5
    assert (data["task"] == "segmentation").any()  # the data keep every row
    fig, _ = flow_diagram(fx.flow())
    assert {"Classification", "Segmentation"} <= set(_texts(fig))


def test_percase_differences_legend_signs_its_values_as_the_axis_does():
    """"median -0.0034" (a hyphen) beside tick labels "−0.2" (the minus sign) and
    "mean +0.0016": a negative value is signed with the minus sign."""
    from falseclaims.figures.percase import differences_histogram

    fig = differences_histogram(np.array([-0.3, -0.2, -0.01, -0.004, 0.002, 0.05]), "a", "b")
    names = [t.get_text() for t in fig.legends[0].get_texts()]
    assert any(n.startswith("median −0.") for n in names), names
    assert not any("-" in n for n in names), names


def test_one_task_fig5_legend_is_one_row_inside_the_figure():
    """A one-task venue's Fig 5 (one column wide) stacked its one legend group (congruence:
    Q1, median, Q3) in a column that ran down a third of the figure; a row fits."""
    from falseclaims.figures.exceedance import fig5_exceedance

    tables = _tables((5, 1))
    curves = tables["exceedance"][tables["exceedance"]["task"] == "classification"]
    fig, _ = fig5_exceedance(curves, HEAD, tasks=["classification"])
    fig.canvas.draw()
    legend = fig.legends[0]
    rows = {round(_bbox(t).y0) for t in legend.get_texts() if t.get_text()}
    assert len(rows) == 1, rows
    box = _bbox(legend)
    assert fig.bbox.x0 <= box.x0 and box.x1 <= fig.bbox.x1


def test_figS7_counts_stay_inside_a_one_column_figure():
    """A one-task sheet that records no uncertainty, 1416 papers: "1416 of 1416 papers"
    after the full "Not recorded in sheet" bar ran off the figure's right edge."""
    from falseclaims.figures.practices import figS7_uncertainty

    papers = fx.papers(n=(1500, 0))
    papers["uncertainty"] = pd.NA
    fig, _ = figS7_uncertainty(papers, tasks=["classification"])
    fig.canvas.draw()
    texts = [t for ax in fig.axes for t in ax.texts if " of " in t.get_text()]
    assert texts
    texts.append(fig._supxlabel)  # the note under the panel was 70 characters a line: 2 px
    # past both edges of the one-column figure
    for t in texts:
        assert fig.bbox.x0 <= _bbox(t).x0 and _bbox(t).x1 <= fig.bbox.x1, t.get_text()


def test_a_posterior_hidden_under_the_median_still_shows():
    """A clamped Q1 congruence gives the median's posterior: drawn first at the same width,
    the median's line hid it completely (the legend listed a curve no one could see)."""
    from falseclaims.figures.percase import posterior_classification

    same = {"n": 500, "x1": 40, "x2": 35}
    curves = [{"label": "q1", **same, "probability": 0.34},
              {"label": "median", **same, "probability": 0.34},
              {"label": "q3", "n": 500, "x1": 30, "x2": 25, "probability": 0.16}]
    fig = posterior_classification(curves)
    widths = {ln.get_label().split(":")[0]: ln.get_linewidth() for ln in fig.axes[0].lines
              if ":" in ln.get_label()}
    assert widths["Q1"] > widths["median"] == widths["Q3"], widths
