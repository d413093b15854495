"""What the figure review asked of the companion figures (calibration, estimation) and the
per-case figures: panel letters, comparable ECE panels, one y-label wording, a legend that
fits every panel, A and B named and one colour per role across the per-case figures."""

import matplotlib
import numpy as np
import pandas as pd
import pytest
from matplotlib.collections import PathCollection, PolyCollection
from matplotlib.colors import to_rgba
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle

from falseclaims.figures import calibration as cf
from falseclaims.figures import estimation as ef
from falseclaims.figures import percase as pf
from falseclaims.sd_model import SDModel
from falseclaims.style import PALETTE

matplotlib.use("Agg")
DELTAS = (0.005, 0.02)
CONDITIONS = {"classification": ["true", "congruence_low", "congruence_high",
                                 "congruence_sample", "survey"],
              "segmentation": ["true", "congruence_low", "congruence_high",
                               "congruence_sample", "sd_sample", "sd_imputed", "survey"]}


def _curve():
    rows = []
    for task, conds in CONDITIONS.items():
        for cond in conds:
            for delta in DELTAS:
                for p in (0.05, 0.15, 0.25, 0.35, 0.45):
                    rows.append({"task": task, "condition": cond, "delta_sd": delta,
                                 "predicted": p, "observed": p + 0.05,
                                 "observed_lo": p, "observed_hi": p + 0.1})
    return pd.DataFrame(rows)


def _ece(top):
    """ECE per condition; ``top`` = {task: largest ECE} so the tasks' ranges differ."""
    rows = [{"task": task, "condition": cond, "delta_sd": delta,
             "ece": top[task] * (i + 1) / len(conds), "ece_noise_floor": 0.01}
            for task, conds in CONDITIONS.items() for i, cond in enumerate(conds)
            for delta in DELTAS]
    return pd.DataFrame(rows)


def _letters(ax):
    return [t.get_text() for t in ax.texts if t.get_fontweight() == "bold"]


def _congruence_pairs():
    rng = np.random.default_rng(0)
    return pd.DataFrame({"source": np.repeat(["s1", "s2"], 40),
                         "kind": np.tile(np.repeat(["classification", "segmentation"], 20), 2),
                         "congruence": rng.uniform(0.3, 0.95, 80)})


PAPER = {k: {"q1": 0.4, "median": 0.6, "q3": 0.8} for k in ("classification", "segmentation")}


def _sd_inputs():
    rng = np.random.default_rng(1)
    m = rng.uniform(0.2, 0.95, 60)
    pairs = pd.DataFrame({"source": np.repeat(["msd", "touchstone"], 30), "mean": m,
                          "sd": 0.3 * (1 - m) + rng.uniform(0, 0.05, 60)})
    model = SDModel(b0=0.3, b1=0.0, b2=-0.3, pi_ratio_q1=0.8, pi_ratio_q3=1.2)
    return pairs, {"msd": model, "touchstone": model}, model


@pytest.mark.parametrize("name", ["curves", "truth", "ece", "ecdf", "sd_models"])
def test_companion_figures_letter_their_panels(name):
    pairs, models, ref = _sd_inputs()
    draw = {"curves": lambda: cf.calibration_curves(_curve(), 0.02),
            "truth": lambda: cf.calibration_by_truth(_curve()),
            "ece": lambda: cf.ece_dotplot(_ece({"classification": 0.1, "segmentation": 0.2})),
            "ecdf": lambda: ef.plot_congruence_ecdf(_congruence_pairs(), PAPER),
            "sd_models": lambda: ef.plot_sd_models(pairs, models, reference=ref)}
    fig, _ = draw[name]()
    panels = [ax for ax in fig.axes if ax.get_visible()]
    assert [_letters(ax) for ax in panels] == [[c] for c in "abc"[:len(panels)]]


def test_ece_panels_share_one_x_range_covering_both_tasks():
    fig, _ = cf.ece_dotplot(_ece({"classification": 0.1, "segmentation": 0.4}))
    cls, seg = fig.axes[:2]
    assert cls.get_xlim() == seg.get_xlim()
    assert cls.get_xlim()[0] == 0 and cls.get_xlim()[1] >= 0.4


def test_ece_marks_conditions_a_task_does_not_simulate_as_not_applicable():
    fig, _ = cf.ece_dotplot(_ece({"classification": 0.1, "segmentation": 0.2}))
    cls, seg = fig.axes[:2]
    labels = cf.condition_labels()
    rows = {t.get_text(): t.get_position()[1] for t in cls.get_yticklabels()}
    na = sorted(t.get_position()[1] for t in cls.texts if t.get_text() == "n/a")
    assert na == sorted(rows[labels[c]] for c in ("sd_sample", "sd_imputed"))
    assert not [t for t in seg.texts if t.get_text() == "n/a"]


def test_calibration_figures_word_the_y_axis_alike():
    curves, _ = cf.calibration_curves(_curve(), 0.02)
    truth, _ = cf.calibration_by_truth(_curve())
    assert curves.axes[0].get_ylabel() == truth.axes[0].get_ylabel() != ""


def test_sd_models_legend_is_neutral_across_panels_of_different_colours():
    pairs, models, ref = _sd_inputs()
    fig, _ = ef.plot_sd_models(pairs, models, reference=ref)
    neutral = {to_rgba(PALETTE["gray"])[:3], to_rgba(PALETTE["black"])[:3]}
    legend = fig.legends[0]
    colours = [_rgb(h) for h in legend.legend_handles]
    assert len(colours) == 4 and set(colours) <= neutral
    panel_colours = {tuple(np.round(c.get_facecolor()[0][:3], 3)) for ax in fig.axes
                     for c in ax.collections if isinstance(c, PathCollection)}
    assert len(panel_colours) == 2  # each panel keeps its source's colour


def _rgb(handle):
    if isinstance(handle, Line2D):
        return to_rgba(handle.get_color())[:3]
    return tuple(float(v) for v in np.atleast_2d(handle.get_facecolor())[0][:3])


# ---------------------------------------------------------------- per-case figures
A, B = "resnet", "densenet"
TAB = np.array([[153, 37], [29, 21]])  # rows A correct / wrong, columns B correct / wrong


def _cell(ax, count):
    """The rectangle holding ``count`` (its text sits at the cell's centre)."""
    text = next(t for t in ax.texts if f"\n{count} (" in t.get_text())
    x, y = text.get_position()
    return next(p for p in ax.patches if isinstance(p, Rectangle)
                and p.get_x() < x < p.get_x() + 1 and p.get_y() < y < p.get_y() + 1)


def test_agreement_table_names_a_on_x_and_b_on_y_like_the_scatter():
    ax = pf.plot_agreement_table(TAB, A, B).axes[0]
    scatter = pf.scatter_a_vs_b([0.8, 0.9, 0.7], [0.7, 0.95, 0.6], A, B).axes[0]
    assert ax.get_xlabel() == f"A ({A})" and ax.get_ylabel() == f"B ({B})"
    assert f"A ({A})" in scatter.get_xlabel() and f"B ({B})" in scatter.get_ylabel()
    # only A correct: A correct (right), B wrong (bottom), as A-better points in the scatter
    only_a, only_b = _cell(ax, 37), _cell(ax, 29)
    assert (only_a.get_x(), only_a.get_y()) == (1, 0)
    assert (only_b.get_x(), only_b.get_y()) == (0, 1)
    assert "only A correct" in next(t.get_text() for t in ax.texts if "\n37 (" in t.get_text())


def test_each_role_has_one_colour_in_every_per_case_figure():
    a_rgba, b_rgba = to_rgba(pf.A_COLOUR), to_rgba(pf.B_COLOUR)
    table = pf.plot_agreement_table(TAB, A, B).axes[0]
    assert to_rgba(_cell(table, 37).get_facecolor()) == a_rgba
    assert to_rgba(_cell(table, 29).get_facecolor()) == b_rgba
    bars = pf.discordance_bars(37, 174, 29, A, B).axes[0].patches
    assert [to_rgba(bars[i].get_facecolor()) for i in (2, 0)] == [a_rgba, b_rgba]
    scatter = pf.scatter_a_vs_b([0.8, 0.6], [0.7, 0.9], A, B).axes[0]
    points = [tuple(c.get_facecolor()[0]) for c in scatter.collections]
    assert points == [a_rgba, b_rgba]
    post = pf.posterior_classification([{"label": "median", "n": 240, "x1": 37, "x2": 29,
                                         "probability": 0.16}]).axes[0]
    fills = [c for c in post.collections if isinstance(c, PolyCollection) and len(c.get_paths())]
    assert fills and all(tuple(f.get_facecolor()[0]) == b_rgba for f in fills)
    # the curves use neither role colour
    assert all(to_rgba(line.get_color()) not in (a_rgba, b_rgba) for line in post.lines)


@pytest.mark.parametrize("gap", [0.0, 0.005, 0.05])
def test_histogram_shows_mean_and_median_apart_even_when_they_coincide(gap):
    d = np.r_[np.linspace(-0.2, 0.2, 59), 0.3 + 59 * gap]  # mean - median = 0.005 + gap
    fig = pf.differences_histogram(d, A, B)
    ax = fig.axes[0]
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    marks = [line for line in ax.lines if line.get_marker() not in ("None", "", None)]
    assert len(marks) == 2
    ys = sorted(ax.transData.transform((m.get_xdata()[0], m.get_ydata()[0]))[1] for m in marks)
    assert ys[1] - ys[0] > 5  # pixels: one marker never hides the other
    box = ax.get_window_extent(renderer)
    assert all(box.y0 < y < box.y1 for y in ys)
    legend = fig.legends[0].get_window_extent(renderer)
    assert legend.y1 < box.y0  # the legend sits under the axes, clear of the lines
    assert [t.get_text().split()[0] for t in fig.legends[0].get_texts()] == ["mean", "median"]


def test_sensitivity_labels_at_the_right_edge_stay_inside_the_axes():
    grid = np.linspace(0.65, 0.80, 31)
    marks = [{"assumption": a, "congruence_used": c, "probability": p}
             for a, c, p in (("q1", 0.65, 0.12), ("median", 0.67, 0.10), ("q3", 0.80, 0.0))]
    fig = pf.probability_vs_congruence(grid, 0.12 - 0.8 * (grid - 0.65), marks,
                                       "classification")
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    ax = fig.axes[0]
    for text in ax.texts:
        assert text.get_window_extent(renderer).x1 <= ax.get_window_extent(renderer).x1
