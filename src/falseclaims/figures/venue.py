"""Every survey figure and table of one venue, drawn in one process (one pipeline job).

:func:`venue_figures` yields ``(name, figure, data)`` one figure at a time (so only one is in
memory); :func:`metric_tables` gives Tables S1/S2. Every value comes from the arguments
(the rule's ``params``), never from a config read here.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import matplotlib.pyplot as plt
import pandas as pd

from falseclaims.survey.eligibility import DESIGN_ONLY_NOTE, RESULTS_STEP
from falseclaims.survey.headline import Headline
from falseclaims.figures.delta_vs_size import fig4_delta_vs_size
from falseclaims.figures.common import note_figure
from falseclaims.figures.deltas import figS9_delta_distribution
from falseclaims.figures.exceedance import fig5_exceedance
from falseclaims.figures.flow import flow_diagram
from falseclaims.figures.lookup import fig6_lookup, observed_medians
from falseclaims.figures.practices import fig3_reporting_practices, figS7_uncertainty
from falseclaims.figures.registry import VENUE_FIGURES, figures_of
from falseclaims.figures.sd_sensitivity import figS10_sd_sensitivity
from falseclaims.figures.sizes import figS8_split_sizes
from falseclaims.figures.sources import fig5_congruence_sources
from falseclaims.survey.populations import metric_frequency
from falseclaims.figures.tables import metric_table, metric_table_latex
from falseclaims.sd_model import SDModel
from falseclaims.survey.multipliers import grid_level
from falseclaims.tasks import TASKS

__all__ = ["VENUE_FIGURES", "metric_tables", "venue_figures"]


def venue_figures(tables: Mapping[str, pd.DataFrame], *, headline: Headline,
                  cutoff: float, size_categories, seed: int, populations: Mapping,
                  lookup_grid: Mapping, lookup_congruence: Mapping, sd_model: SDModel,
                  planner: Mapping, venue_label: str, test_set_splits
                  ) -> Iterator[tuple[str, object, pd.DataFrame]]:
    """``tables``: papers (validated), flow, top2, probabilities, exceedance of one venue.
    Draws the figures the registry gives the ``venue_figures`` job, in its order.

    ``lookup_congruence``: {task: {q1, median, q3}} of ``lookup_grid.congruence_source``;
    ``sd_model``: the SD model of the look-up grid (segmentation); ``planner``: target, n_max;
    ``test_set_splits``: the splits with a distinct test set (config
    ``analysis.test_set_splits``: the population of the median test-set size).
    """
    papers, top2, probs = tables["papers"], tables["top2"], tables["probabilities"]
    exceedance = tables["exceedance"]
    # the panels: the tasks of the sheet's papers (practices, sizes) and of the analysed
    # papers (comparisons, probabilities); a task without papers draws no empty panel
    found, analysed = venue_tasks(papers), venue_tasks(probs)

    def lookup(task):
        grid = lookup_grid[task]
        level, level_text = grid_level(task, top2, lookup_grid)
        return fig6_lookup(
            task, grid["n"], grid["delta"], level, lookup_congruence[task],
            sd_model=sd_model if task == "segmentation" else None,
            sd_level=lookup_grid["sd_level"],
            observed=observed_medians(papers, top2, task, test_set_splits,
                                      populations["split_sizes"]),
            target=planner["target"], bands=tuple(lookup_grid["bands"]),
            n_max=planner["n_max"], venue_label=venue_label,
            congruence_source=lookup_grid["congruence_source"], level_text=level_text)

    # each drawing function with this venue's arguments (task: the registry's, if any)
    calls = {
        fig3_reporting_practices: lambda task: fig3_reporting_practices(
            papers, populations["practices"], found),
        figS7_uncertainty: lambda task: figS7_uncertainty(
            papers, populations["uncertainty"], found),
        figS8_split_sizes: lambda task: figS8_split_sizes(
            papers, populations["split_sizes"], seed, test_set_splits, found),
        flow_diagram: lambda task: flow_diagram(tables["flow"]),
        figS9_delta_distribution: lambda task: figS9_delta_distribution(
            top2, size_categories, seed, analysed),
        fig4_delta_vs_size: lambda task: fig4_delta_vs_size(probs, headline, cutoff, analysed),
        fig5_exceedance: lambda task: fig5_exceedance(exceedance, headline, cutoff, analysed),
        fig5_congruence_sources: lambda task: fig5_congruence_sources(
            exceedance, probs, headline, cutoff, analysed),
        figS10_sd_sensitivity: lambda task: figS10_sd_sensitivity(exceedance, headline, cutoff),
        fig6_lookup: lookup,
    }
    design_only = is_design_only(tables["flow"])
    for fig in figures_of("venue_figures"):
        drawn, data = calls[fig.function](fig.task)
        if design_only and fig.function in PROBABILITY_FIGURES:
            # no result, no probability: one note instead of empty task panels
            plt.close(drawn)
            drawn = note_figure(f"{venue_label}: {DESIGN_ONLY_NOTE}")
        yield fig.name, drawn, data


# the figures of the comparisons and probabilities (a study-design sheet has none)
PROBABILITY_FIGURES = (figS9_delta_distribution, fig4_delta_vs_size, fig5_exceedance,
                       fig5_congruence_sources, figS10_sd_sensitivity)


def venue_tasks(table: pd.DataFrame) -> list[str]:
    """The tasks with a row in a venue's table (papers found, or analysed), in the paper's
    order: the panels of its per-task figures (:func:`falseclaims.figures.common.panel_tasks`)."""
    present = set(table["task"]) if "task" in table else set()
    return [t for t in TASKS if t in present]


def is_design_only(flow: pd.DataFrame) -> bool:
    """A venue read from a study-design sheet (no results row): its flow has the step
    ``results_recorded`` (:func:`falseclaims.survey.eligibility.flow_steps`)."""
    return bool(len(flow)) and RESULTS_STEP[0] in set(flow["step"])


def metric_tables(papers: pd.DataFrame, population: str, labels: Mapping | None,
                  venue_label: str, paper: Mapping | None = None, note: str = ""
                  ) -> tuple[pd.DataFrame, dict[str, str]]:
    """Tables S1/S2 (:func:`falseclaims.figures.tables.metric_table`: the paper's rows in its
    order with its percentages ``paper`` beside the venue's) and one LaTeX table per task (a
    comment line when the venue has no paper of that task); ``note``: a caption sentence."""
    table = metric_table(metric_frequency(papers, population, labels), paper)
    tex = {task: (metric_table_latex(table, task, venue_label, note)
                  if (table["task"] == task).any()
                  else f"% no {task} papers in {venue_label}\n") for task in TASKS}
    return table, tex
