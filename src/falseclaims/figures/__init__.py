"""Publication figures and tables of the survey ([Christodoulou2025]). Every function takes tidy
DataFrames (the pipeline outputs of docs/architecture.md) and returns ``(figure, data)``:
the matplotlib figure and the tidy DataFrame behind it.

Names are resolved lazily so a pipeline job imports only the figure module it uses.
"""

import importlib

_WHERE = {
    "Headline": "common",
    "figS9_delta_distribution": "deltas",
    "flow_diagram": "flow",
    "fig6_lookup": "lookup", "lookup_data": "lookup", "observed_medians": "lookup",
    "fig3_reporting_practices": "practices", "figS7_uncertainty": "practices",
    "fig4_delta_vs_size": "probabilities", "fig5_cumulative": "probabilities",
    "fig5_venues": "probabilities", "figS10_sd_sensitivity": "probabilities",
    "figS8_split_sizes": "sizes", "split_sizes": "sizes",
    "metric_frequency": "tables", "metric_table_latex": "tables",
    "venue_comparison": "tables", "venue_comparison_latex": "tables",
}

__all__ = sorted(_WHERE)


def __getattr__(name):
    if name in _WHERE:
        return getattr(importlib.import_module(f"falseclaims.figures.{_WHERE[name]}"), name)
    raise AttributeError(f"module 'falseclaims.figures' has no attribute {name!r}")
