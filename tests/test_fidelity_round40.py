"""Fidelity to [Christodoulou2025] (round 40 audit, /work/coord's fidelity3): what a figure
states once it states the same everywhere on it, a value drawn at a floor says so, and every
report caption names its source (a reference of docs/references.md, or "our addition") and
what the paper leaves unstated about the figure it reproduces."""

from __future__ import annotations

import re
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
import yaml

from falseclaims import figures
from falseclaims.figures.table import FLOOR, agreement_figure

from test_report_captions import _render

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = yaml.safe_load((ROOT / "config" / "config.yaml").read_text(encoding="utf-8"))
REFERENCES = set(re.findall(r"\*\*\[(\w+)\]\*\*",
                            (ROOT / "docs" / "references.md").read_text(encoding="utf-8")))
PAPER_CONGRUENCE = SHIPPED["congruence"]["paper"]


def _caption(name: str) -> str:
    return " ".join(_render(ROOT / "workflow" / "report" / f"{name}.rst", SHIPPED).split())


def _texts(fig) -> str:
    return " ".join(t.get_text() for t in fig.findobj(lambda a: hasattr(a, "get_text")))


@pytest.mark.parametrize("level", [0.8485, 0.83785, 0.846])
def test_fig6_title_states_the_level_the_footnote_and_the_cells_use(level):
    """Venue B's grid was titled "A = 0.849" above a footnote "A = 0.8485" (the value every
    cell is computed at): two levels on one figure. The title now prints the footnote's."""
    task = "classification"
    fig, data = figures.fig6_lookup(task, [100, 1000], [0.01, 0.02], level,
                                    PAPER_CONGRUENCE[task], observed=(500, 0.01),
                                    level_text="median winner value of the 28 analysed papers")
    title = fig.axes[0].get_title(loc="left")
    notes = _texts(fig)
    plt.close(fig)
    stated = set(re.findall(r"A = (0\.\d+)", title)) | set(re.findall(r"A = (0\.\d+)", notes))
    assert stated == {f"{level:g}"}, stated
    # the cells are computed at that level: A and B = A - delta in the CSV beside the figure
    assert np.allclose(data["value_a"], level)
    assert np.allclose(data["value_b"], level - data["delta"])
    assert f"A = {level:g}: median winner value of the 28 analysed papers" in title


def test_agreement_figure_labels_its_floor_as_at_most():
    """Panel a draws probabilities below 1e-6 at 1e-6 (log axes): the floor's tick said
    "10⁻⁶" as if those pairs had exactly that probability; it says "≤10⁻⁶" now."""
    rows = [{"dataset": "touchstone", "table": "t", "task": "segmentation", "winner": "a",
             "method": f"m{i}", "p_table": p, "p_percase": q, "congruence_assumed": 0.67,
             "congruence_empirical": 0.6, "tied_table": p >= 0.05, "tied_percase": q >= 0.05,
             "agree": (p >= 0.05) == (q >= 0.05), "cutoff": 0.05}
            for i, (p, q) in enumerate([(1e-12, 3e-9), (0.2, 0.3), (1e-3, 2e-3)])]
    fig, _ = agreement_figure(pd.DataFrame(rows),
                              {"segmentation": PAPER_CONGRUENCE["segmentation"]})
    fig.canvas.draw()
    ax = fig.axes[0]
    for axis in (ax.xaxis, ax.yaxis):
        labels = {round(float(np.log10(t.get_loc()))): t.label1.get_text()
                  for t in axis.get_major_ticks()
                  if t.label1.get_visible() and t.label1.get_text()}
        assert labels[round(np.log10(FLOOR))].startswith("≤"), labels
        assert not labels[-3].startswith("≤") and not labels[0].startswith("≤"), labels
    plt.close(fig)
    assert "≤10⁻⁶" in _caption("table_agreement")


def test_every_report_caption_names_its_source():
    """Every figure and table of the report says where it comes from: a reference of
    docs/references.md by its key, or that it is our addition. The calibration captions, the
    front page and the sheet digest named none; a key not in docs/references.md is refused."""
    for path in sorted((ROOT / "workflow" / "report").glob("*.rst")):
        text = _caption(path.stem)
        cited = set(re.findall(r"\[(\w+)\]", text))
        assert cited <= REFERENCES, (path.name, cited - REFERENCES)
        assert cited or "our addition" in text.lower(), path.name
    for name in ("calibration_curves", "calibration_ece", "calibration_ece_table",
                 "calibration_truth", "notes_digest"):
        assert "our addition" in _caption(name).lower(), name
    assert "[Christodoulou2025]" in _caption("front_page")


def test_the_papers_congruence_lines_of_the_estimation_figures_cite_it():
    """"the paper's assumed Q1" named no paper: the lines are [Christodoulou2025]'s
    constants (Methods)."""
    for name in ("estimation_congruence_ecdf", "estimation_congruence_by_task"):
        text = _caption(name)
        assert "[Christodoulou2025] (Methods)" in text, name


def test_figS8_caption_says_what_the_paper_leaves_unstated_about_its_scale():
    """The paper gives Fig S8's whisker rule but neither its axis scale nor the scale its
    whiskers are computed on; ours are computed on log10 sizes, which on the example keeps
    16-35 papers per box inside whiskers that on the sizes themselves would lie beyond them.
    The caption says so (it said "log scale" as if the paper did)."""
    text = _caption("figS8_split_sizes")
    assert "computed on log10 of the sizes" in text
    assert "the paper's caption gives the whisker rule but states neither its axis scale" in text
    assert "max(min, Q1 − 1.5 IQR)" in text


def test_figS8_whiskers_are_computed_on_log_sizes_as_the_caption_says():
    """The caption's claim checked on the drawing: a size far above Q3 + 1.5 IQR of the
    sizes, but within 1.5 IQR of their log10, ends inside the upper whisker."""
    sizes = [10, 20, 40, 80, 100, 200, 400, 800, 1000, 20000]
    papers = pd.DataFrame({
        "venue": "v", "paper_id": [f"p{i}" for i in range(len(sizes))],
        "task": "classification", "split": "train_test", "cv_folds": np.nan,
        "n_train": np.nan, "n_val": np.nan, "n_test": [float(s) for s in sizes],
        "in_scope": True, "main_task_in_scope": True, "values_only_in_figures": False})
    q1, q3 = np.percentile(sizes, [25, 75])
    assert 20000 > q3 + 1.5 * (q3 - q1)  # an outlier on the sizes themselves
    lg = np.log10(sizes)
    a, b = np.percentile(lg, [25, 75])
    assert np.log10(20000) <= b + 1.5 * (b - a)  # inside on their log10
    fig, _ = figures.figS8_split_sizes(papers, "all", 0, ("train_test",), ["classification"])
    ax = fig.axes[0]
    tops = [max(line.get_ydata()) for line in ax.lines if len(line.get_ydata()) == 2
            and line.get_ydata()[0] == line.get_ydata()[1]]
    plt.close(fig)
    assert np.isclose(max(tops), np.log10(20000)), tops


def test_the_reports_main_page_numbers_the_supplement_and_names_the_sd_levels_as_the_paper():
    """The main page listed "S3/S9, S7, S8, S10" where every title writes the paper's double
    numbering (main text S1-S4, supplement S7-S10), and the SD levels as "Q1 / fit / Q3"
    where the paper (Fig S10: "mean, Q1 or Q3") and every figure say mean."""
    text = _caption("workflow")
    assert "S1/S7, S2/S8, S3/S9, S4/S10" in text
    assert "Q1 / mean / Q3 of the 50% prediction interval" in text
    assert " fit " not in text


@pytest.mark.parametrize("level, n_papers", [(0.83785, 131), (0.837851, 1311), (0.846, 43)])
def test_fig6_title_stays_inside_the_figure_whatever_the_level_and_count(level, n_papers):
    """Printing A unrounded made the second title line of a 5-digit level and 131 papers end
    under 1 px from the figure's edge: past the width, the paper's silence on the level
    goes to a third line; every line ends inside the figure with room to spare."""
    task = "classification"  # line 2, the long one, is the same for both tasks
    fig, _ = figures.fig6_lookup(task, [10, 100], [0.01, 0.02], level, PAPER_CONGRUENCE[task],
                                 observed=(69, 0.01),
                                 level_text=f"median winner value of the {n_papers} analysed "
                                            "papers")
    fig.canvas.draw()
    title = fig.axes[0]._left_title
    right = title.get_window_extent(fig.canvas.get_renderer()).x1
    text = title.get_text()
    plt.close(fig)
    assert right <= fig.bbox.x1 - 5, (right, fig.bbox.x1)
    assert "(the paper does not state its level)" in text
    assert f"A = {level:g}: median winner value of the {n_papers} analysed papers" in text


def test_fig6_caption_does_not_say_the_paper_publishes_no_grid():
    """The paper's Fig 6 draws its grid with a value in every cell ("Each cell displays the
    median probability"); the caption said the paper does not publish its sizes,
    differences or cell values. They are in its figure, not its text: ours are our own."""
    text = _caption("fig6_lookup")
    assert "nor does it publish" not in text
    assert "drawn in its figure only, not given in its text" in text
    assert "not read off that figure" in text
