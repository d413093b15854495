"""Every survey figure and table of one venue, drawn in one process (one pipeline job).

:func:`venue_figures` yields ``(name, figure, data)`` one figure at a time (so only one is in
memory); :func:`metric_tables` gives Tables S1/S2. Every value comes from the arguments
(the rule's ``params``), never from a config read here.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import pandas as pd

from falseclaims.survey.headline import Headline
from falseclaims.figures.delta_vs_size import fig4_delta_vs_size
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
from falseclaims.figures.tables import metric_table_latex
from falseclaims.sd_model import SDModel
from falseclaims.tasks import TASKS

__all__ = ["VENUE_FIGURES", "metric_tables", "venue_figures"]


def venue_figures(tables: Mapping[str, pd.DataFrame], *, headline: Headline,
                  cutoff: float, size_categories, seed: int, populations: Mapping,
                  lookup_grid: Mapping, lookup_congruence: Mapping, sd_model: SDModel,
                  planner: Mapping, venue_label: str
                  ) -> Iterator[tuple[str, object, pd.DataFrame]]:
    """``tables``: papers (validated), flow, top2, probabilities, exceedance of one venue.
    Draws the figures the registry gives the ``venue_figures`` job, in its order.

    ``lookup_congruence``: {task: {q1, median, q3}} of ``lookup_grid.congruence_source``;
    ``sd_model``: the SD model of the look-up grid (segmentation); ``planner``: target, n_max.
    """
    papers, top2, probs = tables["papers"], tables["top2"], tables["probabilities"]
    exceedance = tables["exceedance"]

    def lookup(task):
        grid = lookup_grid[task]
        return fig6_lookup(
            task, grid["n"], grid["delta"], grid["level"], lookup_congruence[task],
            sd_model=sd_model if task == "segmentation" else None,
            sd_level=lookup_grid["sd_level"], observed=observed_medians(top2, task),
            target=planner["target"], bands=tuple(lookup_grid["bands"]),
            n_max=planner["n_max"], venue_label=venue_label,
            congruence_source=lookup_grid["congruence_source"])

    # each drawing function with this venue's arguments (task: the registry's, if any)
    calls = {
        fig3_reporting_practices: lambda task: fig3_reporting_practices(
            papers, populations["practices"]),
        figS7_uncertainty: lambda task: figS7_uncertainty(papers, populations["uncertainty"]),
        figS8_split_sizes: lambda task: figS8_split_sizes(
            papers, populations["split_sizes"], seed),
        flow_diagram: lambda task: flow_diagram(tables["flow"]),
        figS9_delta_distribution: lambda task: figS9_delta_distribution(
            top2, size_categories, seed),
        fig4_delta_vs_size: lambda task: fig4_delta_vs_size(probs, headline, cutoff),
        fig5_exceedance: lambda task: fig5_exceedance(exceedance, headline, cutoff),
        fig5_congruence_sources: lambda task: fig5_congruence_sources(
            exceedance, probs, headline, cutoff),
        figS10_sd_sensitivity: lambda task: figS10_sd_sensitivity(exceedance, headline, cutoff),
        fig6_lookup: lookup,
    }
    for fig in figures_of("venue_figures"):
        yield fig.name, *calls[fig.function](fig.task)


def metric_tables(papers: pd.DataFrame, population: str, labels: Mapping | None,
                  venue_label: str) -> tuple[pd.DataFrame, dict[str, str]]:
    """Tables S1/S2: the frequency table and one LaTeX table per task (a comment line when
    the venue has no paper of that task)."""
    freq = metric_frequency(papers, population, labels)
    tex = {task: (metric_table_latex(freq, task, venue_label) if (freq["task"] == task).any()
                  else f"% no {task} papers in {venue_label}\n") for task in TASKS}
    return freq, tex
