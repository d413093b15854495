"""File names (without extension) of the figures of one venue under ``figures/{venue}/``,
in drawing order. Kept free of heavy imports: the Snakefile reads it at every start."""

from falseclaims.tasks import TASKS

VENUE_FIGURES = (
    "fig3_reporting_practices",
    "figS7_uncertainty",
    "figS8_split_sizes",
    "flow_diagram",
    "figS9_delta_distribution",
    "fig4_delta_vs_size",
    "fig5_cumulative",
    "fig5_congruence_sources",
    "figS10_sd_sensitivity",
    *(f"fig6_lookup_{task}" for task in TASKS),
)
