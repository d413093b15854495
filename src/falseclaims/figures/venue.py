"""Every survey figure and table of one venue, one family of figures per pipeline job.

:func:`venue_figures` yields ``(name, figure, data)`` one figure at a time (so only one is in
memory); :func:`metric_tables` gives Tables S1/S2. Every value comes from the arguments
(the rule's ``params``), never from a config read here. A drawing module is imported only
when one of its figures is drawn, so a job pays for the libraries of its family only.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import matplotlib.pyplot as plt
import pandas as pd

from falseclaims.figures.common import note_figure
from falseclaims.figures.registry import FIGURES, VENUE_FIGURES, VENUE_JOBS, figures_of
from falseclaims.figures.tables import metric_table, metric_table_latex
from falseclaims.config import from_params
from falseclaims.survey.populations import Populations, metric_frequency
from falseclaims.survey.headline import Headline
from falseclaims.sd_model import SDModel
from falseclaims.survey.eligibility import DESIGN_ONLY_NOTE, RESULTS_STEP
from falseclaims.tasks import TASKS

__all__ = ["VENUE_FIGURES", "metric_tables", "venue_figures"]


def venue_figures(tables: Mapping[str, pd.DataFrame], *, job: str | None = None,
                  headline: Headline | None = None, cutoff: float | None = None,
                  size_categories=None, seed: int | None = None,
                  populations: Populations | Mapping | None = None,
                  lookup_grid: Mapping | None = None,
                  lookup_congruence: Mapping | None = None, sd_model: SDModel | None = None,
                  planner: Mapping | None = None, venue_label: str | None = None,
                  test_set_splits=None
                  ) -> Iterator[tuple[str, object, pd.DataFrame]]:
    """Draws the figures the registry gives ``job`` (one of ``VENUE_JOBS``; None: every
    venue job's), in its order, each called as the registry's ``call`` says. ``tables``:
    those the figures read of papers (validated), flow, top2, probabilities, exceedance;
    the arguments: those the figures use.

    ``lookup_congruence``: {task: {q1, median, q3}} of ``lookup_grid.congruence_source``;
    ``sd_model``: the SD model of the look-up grid (segmentation); ``planner``: target, n_max;
    ``test_set_splits``: the splits with a distinct test set (config
    ``analysis.test_set_splits``: the population of the median test-set size);
    ``populations``: a :class:`Populations`, or the block the rule passes (read once).
    """
    if populations is not None:
        populations = from_params(populations, Populations)
    values = {**tables, "headline": headline, "cutoff": cutoff,
              "size_categories": size_categories, "seed": seed, "populations": populations,
              "lookup_grid": lookup_grid, "lookup_congruence": lookup_congruence,
              "sd_model": sd_model, "planner": planner, "venue_label": venue_label,
              "test_set_splits": test_set_splits,
              # the panels of the per-task figures: the tasks of the sheet's papers
              # (practices, sizes) and of the analysed papers (comparisons, probabilities);
              # a task without papers draws no empty panel
              "tasks": {"found": venue_tasks(tables.get("papers")),
                        "analysed": venue_tasks(tables.get("probabilities"))}}

    def argument(name, task):
        if name == "task":
            return task
        key, _, item = name.partition(".")
        value = values[key]
        if not item:
            return value
        return value[item] if isinstance(value, Mapping) else getattr(value, item)

    figures = (figures_of(job) if job else
               tuple(f for f in FIGURES if f.job in VENUE_JOBS.values()))
    design_only = "flow" in tables and is_design_only(tables["flow"])
    for fig in figures:  # fig.function imports the drawing module on first use
        drawn, data = fig.function(*(argument(a, fig.task) for a in fig.call))
        if design_only and fig.of_results:
            # no result, no probability: one note instead of empty task panels
            plt.close(drawn)
            note = f"{venue_label}: {DESIGN_ONLY_NOTE}" if venue_label else DESIGN_ONLY_NOTE
            drawn = note_figure(note)
        yield fig.name, drawn, data


def venue_tasks(table: pd.DataFrame | None) -> list[str] | None:
    """The tasks with a row in a venue's table (papers found, or analysed), in the paper's
    order: the panels of its per-task figures (:func:`falseclaims.figures.common.panel_tasks`);
    None when the job does not read the table."""
    if table is None:
        return None
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
