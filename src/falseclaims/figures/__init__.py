"""Every figure of the project, one module per family:

- survey figures and tables of [Christodoulou2025]: ``practices``, ``sizes``, ``flow``,
  ``deltas``, ``delta_vs_size``, ``exceedance``, ``sd_sensitivity``, ``sources``, ``lookup``,
  ``tables``; ``venue`` draws a venue's figures, one family per job (the figures
  :mod:`~falseclaims.figures.registry` declares);
- ``estimation`` (congruence and SD models from per-case data), ``multiplicity`` (best of m),
  ``calibration`` (calibration study), ``percase`` (figures embedded in the single-claim
  HTML report, which returns figures only: their data is the report's CSV download).

Convention: a plotting function takes tidy DataFrames (or plain numbers) and returns
``(figure, data)``, the matplotlib figure and the tidy DataFrame behind it; it never writes.
:func:`falseclaims.figures.output.write_figure` is the one writer (PDF + PNG + CSV).
seaborn draws the statistical panels (lines with hue and style, scatter, ECDF, box plots);
matplotlib the look-up grid, the flow diagram and the bar charts. Style:
:mod:`falseclaims.style`.

Names are resolved lazily so a pipeline job imports only the figure module it uses.
"""

import importlib

from falseclaims.figures.registry import FIGURES, VENUE_JOBS

# name: module; the survey figures' drawing functions from the registry, then helpers
_WHERE = {
    **{f.draw.rsplit(".", 1)[1]: f.draw.rsplit(".", 1)[0] for f in FIGURES
       if f.job in (*VENUE_JOBS.values(), "venue_comparison")},
    "fig6_lookup": "lookup", "lookup_data": "lookup", "observed_medians": "lookup",
    "split_sizes": "sizes", "clamp_shares": "sources",
    "metric_table": "tables", "metric_table_latex": "tables",
    "venue_comparison": "tables", "venue_comparison_latex": "tables",
}

__all__ = sorted(_WHERE)


def __getattr__(name):
    if name in _WHERE:
        return getattr(importlib.import_module(f"falseclaims.figures.{_WHERE[name]}"), name)
    raise AttributeError(f"module 'falseclaims.figures' has no attribute {name!r}")
