"""Figures of venues with one task or no eligible paper, labels with ``$``, and identical
bytes on a rerun. Every figure must be drawn (the panel says why it is empty), never fail."""

from pathlib import Path

import figure_fixtures as fx
import numpy as np
import pandas as pd
import pytest

from falseclaims import figures
from falseclaims.figures import percase as pf
from falseclaims.figures.output import write_figure
from falseclaims.figures.registry import VENUE_JOBS, figures_of
from falseclaims.figures.venue import VENUE_FIGURES, metric_tables, venue_figures
from falseclaims.io.table_io import read_table
from falseclaims.style import NO_DATA
from falseclaims.survey.headline import Headline

HEAD = Headline("paper", "median", "msd_reference", "mean")
GRID = {"congruence_source": "paper", "sd_level": "mean", "bands": [0.05, 0.1],
        "multiplier_delta": 0.01,  # the schema requires it: grid_level reads the whole block
        "classification": {"level": 0.85, "n": [50, 500], "delta": [0.01, 0.03]},
        "segmentation": {"level": 0.85, "n": [20, 200], "delta": [0.01, 0.03]}}
POPULATIONS = {"practices": "in_scope", "uncertainty": "in_scope", "split_sizes": "in_scope",
               "metrics": "quantitative"}


def _tables(tasks):
    """Pipeline tables of a venue restricted to ``tasks`` (empty tuple: nothing eligible)."""
    t2 = fx.top2(n=(5, 7))
    prob = fx.probabilities(t2, sources=("paper", "msd"), sd_sources=("msd_reference",))
    tables = {"papers": fx.papers(n=(8, 9)), "flow": fx.flow(), "top2": t2,
              "probabilities": prob, "exceedance": fx.curves(prob, np.linspace(0, 0.5, 11))}
    keep = {"papers": tasks or ("classification", "segmentation"),
            "flow": tasks or ("classification", "segmentation")}
    return {k: t[t["task"].isin(keep.get(k, tasks))].reset_index(drop=True)
            for k, t in tables.items()}


def _texts(fig) -> list[str]:
    return [t.get_text() for t in fig.findobj(lambda a: hasattr(a, "get_text"))]


def _render(tables):
    return {name: (fig, data) for name, fig, data in venue_figures(
        tables, headline=HEAD, cutoff=0.05, size_categories=(50, 500), seed=1,
        populations=POPULATIONS, lookup_grid=GRID,
        lookup_congruence=fx.CONGRUENCE["paper"], sd_model=fx.SD_MODEL,
        planner={"target": 0.05, "n_max": 10**6, "sd_level": "mean"}, venue_label="V",
        test_set_splits=("train_test", "train_val_test", "cv_plus_test"))}


@pytest.mark.parametrize("job", sorted(VENUE_JOBS.values()))
def test_each_venue_job_draws_its_figures_from_the_tables_the_registry_names(job):
    """One job per figure family gets only the tables its figures read (registry ``reads``;
    probabilities.csv comes joined with top2, as read_probabilities gives it): drawing must
    need nothing else, and it draws exactly the family's figures."""
    tables = _tables(())
    stems = {Path(r).stem for fig in figures_of(job) for r in fig.reads if r != "config"}
    given = {k: t for k, t in tables.items() if k in stems}
    made = list(venue_figures(
        given, job=job, headline=HEAD, cutoff=0.05, size_categories=(50, 500), seed=1,
        populations=POPULATIONS, lookup_grid=GRID, lookup_congruence=fx.CONGRUENCE["paper"],
        sd_model=fx.SD_MODEL, planner={"target": 0.05, "n_max": 10**6, "sd_level": "mean"},
        venue_label="V",
        test_set_splits=("train_test", "train_val_test", "cv_plus_test")))
    assert [name for name, _, _ in made] == [f.name for f in figures_of(job)]
    assert set(VENUE_FIGURES) == {f.name for j in VENUE_JOBS.values() for f in figures_of(j)}


# the per-task figures of a venue and their panels per task (Fig 5 companion: one per level)
PER_TASK = {"fig3_reporting_practices": 1, "figS7_uncertainty": 1, "figS8_split_sizes": 1,
            "figS9_delta_distribution": 1, "fig4_delta_vs_size": 1, "fig5_exceedance": 1,
            "fig5_congruence_sources": 3}


@pytest.mark.parametrize("task", ["classification", "segmentation"])
def test_one_task_venue_draws_only_its_task(task, tmp_path):
    """A venue whose papers are all of one task (a classification-only review, a
    segmentation-only challenge): each per-task figure draws that task's panels only, one
    column wide (no empty "Segmentation (n = 0 papers)" half); Fig S10 (segmentation only)
    of a classification-only venue says once why it is empty, with no axis or legend."""
    from falseclaims.figures.sd_sensitivity import NO_SEGMENTATION
    from falseclaims.tasks import TASK_LABELS

    made = _render(_tables((task,)))
    assert list(made) == list(VENUE_FIGURES)
    other = "segmentation" if task == "classification" else "classification"
    for name, panels in PER_TASK.items():
        fig, data = made[name]
        texts = " ".join(_texts(fig))
        assert len(fig.axes) == panels, name
        assert NO_DATA not in texts and "no papers in scope" not in texts, name
        assert TASK_LABELS[other] not in texts and TASK_LABELS[task] in texts, name
        assert not (data["task"] == other).any(), name
        if panels == 1:
            assert fig.get_figwidth() < 4, name  # one column (the style's single width)
            ax = fig.axes[0]
            assert ax.yaxis.get_tick_params()["labelleft"], name
            assert name in ("fig3_reporting_practices", "figS7_uncertainty") \
                or ax.get_ylabel(), name  # practice bars: no y-axis title
    fig, data = made["figS10_sd_sensitivity"]
    texts = [t for t in _texts(fig) if t.strip()]
    if task == "classification":
        assert texts == [NO_SEGMENTATION] and data.empty
        assert len(fig.axes) == 1 and not fig.axes[0].axison and not fig.legends
    else:
        assert NO_SEGMENTATION not in texts and fig.legends and len(data)
    for name, (fig, data) in made.items():
        written = write_figure(fig, data, tmp_path / name)
        assert all(p.stat().st_size > 0 for p in written)


def test_a_venue_with_both_tasks_keeps_the_two_panel_layout():
    """The paper's layout: a panel per task side by side (a row per task in the Fig 5
    companion), lettered a, b, ...; Fig S10 drawn."""
    made = _render(_tables(("classification", "segmentation")))
    for name, panels in PER_TASK.items():
        fig = made[name][0]
        assert len(fig.axes) == 2 * panels and fig.get_figwidth() > 6, name
        assert {"a", "b"} <= set(_texts(fig)), name
    assert made["figS10_sd_sensitivity"][0].legends


def test_venue_without_eligible_papers_gives_empty_tables_with_headers(tmp_path):
    from falseclaims.figures.sd_sensitivity import NO_SEGMENTATION

    made = _render(_tables(()))
    for name in ("figS9_delta_distribution", "fig4_delta_vs_size", "fig5_exceedance",
                 "figS10_sd_sensitivity"):
        fig, data = made[name]
        # both task panels say they are empty; Fig S10 (segmentation only) why it is
        said = NO_SEGMENTATION if name == "figS10_sd_sensitivity" else NO_DATA
        assert _texts(fig).count(said) == (1 if said == NO_SEGMENTATION else 2), name
        assert data.empty
        write_figure(fig, data, tmp_path / name)
        header = (tmp_path / f"{name}.csv").read_text().splitlines()
        assert len(header) == 1 and "task" in header[0].split(",")
    # the reporting-practice figures still count the papers in scope
    assert not made["fig3_reporting_practices"][1].empty


def test_a_design_only_venue_says_so_once_and_draws_its_practices(tmp_path):
    """A study-design sheet (no results row: its flow has the step ``results_recorded``):
    each comparison and probability figure is one note "design-only: no results recorded"
    (no empty task panels, no "no eligible papers"), its CSV keeps its header; the practice
    figures and the flow are drawn as for any venue."""
    from falseclaims.figures.registry import FIGURES
    from falseclaims.config import Eligibility
    from falseclaims.survey.eligibility import DESIGN_ONLY_NOTE, select_papers

    papers = fx.papers(n=(8, 9))
    analysis = Eligibility(metrics={"classification": ("accuracy",), "segmentation": ("dsc",)},
                           test_set_splits=("train_test", "train_val_test", "cv_plus_test"))
    results = pd.DataFrame(columns=["venue", "paper_id", "method", "metric", "value", "sd",
                                    "sd_over", "n_test"])
    flow = select_papers(papers, results, analysis, "v").flow
    tables = _tables(())
    tables.update(papers=papers, flow=flow)
    made = _render(tables)
    notes = {f.name for f in FIGURES if f.of_results}
    assert len(notes) == 6  # Figs S9, 4, 5, 5 companion, S10, S10 companion
    for name, (fig, data) in made.items():
        texts = [t for t in _texts(fig) if t.strip()]
        if name in notes:
            assert texts == [f"V: {DESIGN_ONLY_NOTE}"], name
            assert len(fig.axes) == 1 and data.empty
            write_figure(fig, data, tmp_path / name)
            assert "task" in (tmp_path / f"{name}.csv").read_text().splitlines()[0]
        else:
            assert NO_DATA not in texts and DESIGN_ONLY_NOTE not in " ".join(texts), name
    assert not made["fig3_reporting_practices"][1].empty
    assert "Results recorded" in _texts(made["flow_diagram"][0])


def test_header_only_csvs_are_drawn(tmp_path):
    """Pipeline tables of a venue without eligible papers, as the stages write them (a header
    and no rows) and as a job reads them back: every column is text."""
    tables = {}
    for name, table in _tables(()).items():
        table.to_csv(tmp_path / f"{name}.csv", index=False)
        tables[name] = read_table(tmp_path / f"{name}.csv")
    tables["top2"] = tables["top2"].iloc[0:0].astype(str)
    made = _render(tables)
    assert NO_DATA in _texts(made["figS9_delta_distribution"][0])
    assert made["fig5_exceedance"][1].empty


def test_venue_without_papers_in_scope():
    papers = fx.papers(n=(4, 4)).iloc[0:0]
    for func in (figures.fig3_reporting_practices, figures.figS7_uncertainty,
                 figures.figS8_split_sizes):
        fig, data = func(papers)
        assert data.empty and len(data.columns) > 3
        assert _texts(fig).count("no papers in scope") == 2
    freq, tex = metric_tables(papers, "quantitative", None, "V")
    assert freq.empty and list(freq.columns)[:3] == ["venue", "task", "metric"]
    assert tex["classification"].startswith("% no classification papers")
    fig, data = figures.flow_diagram(fx.flow().iloc[0:0])
    assert data.empty and "no papers in the sheet" in _texts(fig)


def test_venue_comparison_with_an_empty_venue():
    prob = fx.probabilities(fx.top2(n=(4, 5)), sources=("paper",))
    curves = fx.curves(prob, np.linspace(0, 0.5, 11))
    empty = curves.iloc[0:0]
    fig, data = figures.fig5_venues({"a": curves[curves.task == "classification"],
                                     "b": empty}, HEAD)
    assert NO_DATA in _texts(fig)  # segmentation panel
    fig, data = figures.fig5_venue_facets({"a": curves[curves.task == "classification"],
                                           "b": curves}, HEAD, {"b": "B $1"})
    # a: segmentation (the facet's note is wrapped to stay inside its frame)
    assert [t.replace("\n", " ") for t in _texts(fig)].count(NO_DATA) == 1
    assert "B $1" in _texts(fig) and set(data["venue_label"]) == {"a", "B $1"}
    assert len(fig.axes) == 4
    table = figures.venue_comparison({"a": curves, "b": empty}, HEAD)
    assert set(table["venue"]) == {"a", "b"}  # b: one row, no analysed papers
    assert table.loc[table["venue"] == "b", "n_papers"].tolist() == [0]
    assert list(figures.venue_comparison({"b": empty}, HEAD).columns) == [
        "venue", "label", "task", "n_papers"]


def test_dollar_signs_in_labels_are_printed_literally(tmp_path):
    prob = fx.probabilities(fx.top2(n=(4, 5)), sources=("paper", "msd"))
    prob["congruence_source"] = prob["congruence_source"].replace("msd", "my $x$ source")
    curves = fx.curves(prob, np.linspace(0, 0.5, 11))
    fig, data = figures.fig5_congruence_sources(curves, prob, HEAD)
    assert any(t.startswith("my $x$ source") for t in _texts(fig))
    write_figure(fig, data, tmp_path / "sources")  # mathtext would raise on "$x$ sour..."
    fig, data = figures.fig5_venues({"v": curves, "w": curves}, HEAD,
                                    {"v": "Venue $5 & $^_", "w": "$"})
    assert any(t.startswith("Venue $5 & $^_ (") for t in _texts(fig))  # + papers per task
    write_figure(fig, data, tmp_path / "venues")
    fig = pf.scatter_a_vs_b([0.8, 0.9, 0.7], [0.7, 0.95, 0.6], "net$_1$", "$$")
    assert any("net$_1$" in t for t in _texts(fig))
    write_figure(fig, pd.DataFrame({"x": [1]}), tmp_path / "scatter")


def test_log_axis_ticks_are_plain_text(tmp_path):
    prob = fx.probabilities(fx.top2(n=(20, 20)), sources=("paper",))
    fig, data = figures.fig4_delta_vs_size(prob, HEAD)
    fig.canvas.draw()
    labels = [t.get_text() for t in fig.axes[0].get_xticklabels() if t.get_text()]
    assert labels and all("$" not in t and t.startswith("10") for t in labels)


def test_figures_are_byte_identical_on_a_rerun(tmp_path):
    """seaborn figures and the seeded jitter give the same PDF, PNG and CSV bytes."""
    t = _tables(("classification", "segmentation"))
    draw = {"fig5": lambda: figures.fig5_exceedance(t["exceedance"], HEAD),
            "fig4": lambda: figures.fig4_delta_vs_size(t["probabilities"], HEAD),
            "figS8": lambda: figures.figS8_split_sizes(t["papers"], seed=3),
            "figS9": lambda: figures.figS9_delta_distribution(t["top2"], seed=3)}
    for run in ("a", "b"):
        for name, func in draw.items():
            write_figure(*func(), tmp_path / run / name)
    files = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert len(files) == 3 * len(draw)
    differ = [f for f in files
              if (tmp_path / "a" / f).read_bytes() != (tmp_path / "b" / f).read_bytes()]
    assert not differ


def test_flow_diagram_names_the_unreadable_cell_step():
    from falseclaims.config import Eligibility
    from falseclaims.survey.eligibility import select_papers
    papers = pd.DataFrame({"venue": "v", "paper_id": ["a", "b", "c"],
                           "task": ["segmentation"] * 3, "in_scope": True,
                           "values_only_in_figures": False, "split": "train_test",
                           "n_test": 50, "invalid_cell": [None, "row 3, column 'Ours': got "
                                                          "'n.r.'", None]})
    results = pd.DataFrame({"paper_id": ["a", "a", "c", "c"], "method": ["p", "q"] * 2,
                            "metric": "dsc", "value": [0.8, 0.7, 0.9, 0.85], "sd": np.nan,
                            "sd_over": None, "n_test": np.nan})
    analysis = Eligibility(metrics={"classification": ("accuracy",), "segmentation": ("dsc",)},
                           test_set_splits=("train_test",))
    flow = select_papers(papers, results, analysis, venue="v").flow
    fig, data = figures.flow_diagram(flow)
    seg = data[data["task"] == "segmentation"].set_index("step")
    assert seg.loc["valid_cells", "n_papers"] == 2 and seg.loc["valid_cells", "n_removed"] == 1
    texts = _texts(fig)
    assert "All cells readable" in texts and "− 1 removed\n(unreadable cell)" in texts


def test_narrow_log_axis_labels_minor_ticks():
    """A log axis from 20 to 150 shows 10² alone; its 20 and 50 ticks are labelled too,
    a wide axis keeps decade labels only."""
    from falseclaims.style import figure, log_ticks
    for (lo, hi), expected in (((20, 150), {"20", "50", "10²"}), ((5, 5000), set())):
        fig, ax = figure()
        ax.set_xscale("log")
        ax.set_xlim(lo, hi)
        log_ticks(ax.xaxis)
        fig.canvas.draw()
        minor = {t.get_text() for t in ax.get_xticklabels(minor=True) if t.get_text()}
        major = {t.get_text() for t in ax.get_xticklabels() if t.get_text()}
        assert (minor | major) >= expected if expected else not minor, (minor, major)


def test_the_venue_legend_of_fig5_per_venue_fits_the_figure():
    """Four venues with long labels (the default run's): one legend row ran off both edges
    of the figure; it takes as many rows as it needs."""
    prob = fx.probabilities(fx.top2(n=(4, 5)), sources=("paper",))
    curves = fx.curves(prob, np.linspace(0, 0.5, 11))
    labels = {v: f"Venue {v} (a long label, as a real review's: author et al. 2019)"
              for v in "abcd"}
    fig, _ = figures.fig5_venues({v: curves for v in labels}, HEAD, labels)
    (legend,) = fig.legends
    box = legend.get_window_extent(fig.canvas.get_renderer())
    assert 0 <= box.x0 and box.x1 <= fig.bbox.width
    # each venue's entry: its label, then its analysed papers per task ("(4 / 5)")
    texts = [t.get_text() for t in legend.texts]
    assert all(any(t.startswith(f"{v} (") for t in texts) for v in labels.values()), texts


def test_a_count_after_its_bar_stays_inside_a_one_column_fig3():
    """Fig 3 of a classification-only venue (one column wide) whose sheet records the test
    for some papers only: "18% (27 of 154 recorded)" after a short bar ran past the axes'
    end; it goes on two lines, inside the panel."""
    papers = fx.papers(n=(156, 0))
    papers["claims_outperformance"] = pd.NA
    papers["bold_best"] = pd.NA
    papers["statistical_test"] = pd.array([True] * 27 + [False] * 127 + [pd.NA] * 2,
                                          dtype="boolean")
    papers["in_scope"] = True
    fig, data = figures.fig3_reporting_practices(papers, "in_scope", ["classification"])
    fig.draw_without_rendering()
    (ax,) = fig.axes
    labels = [t for t in ax.texts if "recorded)" in t.get_text()]
    assert [t.get_text() for t in labels] == ["18%\n(27 of 154 recorded)"]
    assert labels[0].get_window_extent().x1 <= ax.bbox.x1
