"""Venue comparison: Fig 5 with one headline curve per venue, Fig 5 of every venue side by
side (facets), and the headline-share table."""
from pathlib import Path

from falseclaims import figures, style
from falseclaims.figures.output import write_figure
from falseclaims.pipeline import run_step
from falseclaims.table_io import read_table, write_table


def main(smk):
    p = smk.params
    style.configure(p.style)
    headline = figures.Headline(**p.headline)
    curves = {v: read_table(f) for v, f in zip(p.venues, smk.input.curves)}
    summaries = {v: read_table(f) for v, f in zip(p.venues, smk.input.summaries)}
    write_figure(*figures.fig5_venues(curves, headline, p.labels, p.threshold),
                 smk.output.fig5_venues_png)
    write_figure(*figures.fig5_venue_facets(curves, headline, p.labels, p.threshold),
                 smk.output.fig5_venue_facets_png)
    table = figures.venue_comparison(summaries, headline, p.labels)
    write_table(table, smk.output.table)
    Path(smk.output.tex).write_text(figures.venue_comparison_latex(table, headline),
                                    encoding="utf-8")


run_step(snakemake, main)  # noqa: F821
