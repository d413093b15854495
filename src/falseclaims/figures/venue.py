"""Every survey figure and table of one venue, drawn in one process (one pipeline job).

:func:`venue_figures` yields ``(name, figure, data)`` one figure at a time (so only one is in
memory); :func:`metric_tables` gives Tables S1/S2. Every value comes from the arguments
(the rule's ``params``), never from a config read here.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import pandas as pd

from falseclaims.figures.common import TASKS, Headline
from falseclaims.figures.deltas import figS9_delta_distribution
from falseclaims.figures.flow import flow_diagram
from falseclaims.figures.lookup import fig6_lookup, observed_medians
from falseclaims.figures.names import VENUE_FIGURES  # noqa: F401 (listed here for users)
from falseclaims.figures.practices import fig3_reporting_practices, figS7_uncertainty
from falseclaims.figures.probabilities import (
    fig4_delta_vs_size,
    fig5_cumulative,
)
from falseclaims.figures.sd_sensitivity import figS10_sd_sensitivity
from falseclaims.figures.sizes import figS8_split_sizes
from falseclaims.figures.sources import fig5_congruence_sources
from falseclaims.figures.tables import metric_frequency, metric_table_latex
from falseclaims.sd_model import SDModel



def venue_figures(tables: Mapping[str, pd.DataFrame], *, headline: Headline,
                  threshold: float, size_categories, seed: int, populations: Mapping,
                  lookup_grid: Mapping, lookup_congruence: Mapping, sd_model: SDModel,
                  planner: Mapping, venue_label: str
                  ) -> Iterator[tuple[str, object, pd.DataFrame]]:
    """``tables``: papers (validated), flow, top2, probabilities, curves of one venue.

    ``lookup_congruence``: {task: {q1, median, q3}} of ``lookup_grid.congruence_source``;
    ``sd_model``: the SD model of the look-up grid (segmentation); ``planner``: target, n_max.
    """
    papers, top2 = tables["papers"], tables["top2"]
    yield "fig3_reporting_practices", *fig3_reporting_practices(papers, populations["practices"])
    yield "figS7_uncertainty", *figS7_uncertainty(papers, populations["uncertainty"])
    yield "figS8_split_sizes", *figS8_split_sizes(papers, populations["split_sizes"], seed)
    yield "flow_diagram", *flow_diagram(tables["flow"])
    yield "figS9_delta_distribution", *figS9_delta_distribution(top2, size_categories, seed)
    yield "fig4_delta_vs_size", *fig4_delta_vs_size(tables["probabilities"], headline,
                                                    threshold)
    yield "fig5_cumulative", *fig5_cumulative(tables["curves"], headline, threshold)
    yield "fig5_congruence_sources", *fig5_congruence_sources(
        tables["curves"], tables["probabilities"], headline, threshold)
    yield "figS10_sd_sensitivity", *figS10_sd_sensitivity(tables["curves"], headline,
                                                          threshold)
    for task in TASKS:
        grid = lookup_grid[task]
        yield f"fig6_lookup_{task}", *fig6_lookup(
            task, grid["n"], grid["delta"], grid["level"], lookup_congruence[task],
            sd_model=sd_model if task == "segmentation" else None,
            sd_level=lookup_grid["sd_level"], observed=observed_medians(top2, task),
            target=planner["target"], bands=tuple(lookup_grid["bands"]),
            n_max=planner["n_max"], venue_label=venue_label,
            congruence_source=lookup_grid["congruence_source"])


def metric_tables(papers: pd.DataFrame, population: str, labels: Mapping | None,
                  venue_label: str) -> tuple[pd.DataFrame, dict[str, str]]:
    """Tables S1/S2: the frequency table and one LaTeX table per task (a comment line when
    the venue has no paper of that task)."""
    freq = metric_frequency(papers, population, labels)
    tex = {task: (metric_table_latex(freq, task, venue_label) if (freq["task"] == task).any()
                  else f"% no {task} papers in {venue_label}\n") for task in TASKS}
    return freq, tex
