"""Publication figures and tables of the survey (seed 001). Every function takes tidy
DataFrames (the pipeline outputs of docs/architecture.md) and returns ``(figure, data)``:
the matplotlib figure and the tidy DataFrame behind it."""

from falseclaims.figures.common import Headline
from falseclaims.figures.deltas import figS9_delta_distribution
from falseclaims.figures.flow import flow_diagram
from falseclaims.figures.lookup import fig6_lookup, lookup_data, observed_medians
from falseclaims.figures.practices import fig3_reporting_practices, figS7_uncertainty
from falseclaims.figures.probabilities import (
    fig4_delta_vs_size,
    fig5_cumulative,
    fig5_venues,
    figS10_sd_sensitivity,
)
from falseclaims.figures.sizes import figS8_split_sizes, split_sizes
from falseclaims.figures.tables import (
    metric_frequency,
    metric_table_latex,
    venue_comparison,
    venue_comparison_latex,
)

__all__ = [
    "Headline", "fig3_reporting_practices", "fig4_delta_vs_size", "fig5_cumulative",
    "fig5_venues", "fig6_lookup", "figS7_uncertainty", "figS8_split_sizes",
    "figS9_delta_distribution", "figS10_sd_sensitivity", "flow_diagram", "lookup_data",
    "metric_frequency", "metric_table_latex", "observed_medians", "split_sizes",
    "venue_comparison", "venue_comparison_latex",
]
