"""Venue comparison: Fig 5 with one headline curve per venue, Fig 5 of every venue side by
side (facets), and the headline-share table."""
from pathlib import Path

from falseclaims import figures, style
from falseclaims.figures.output import write_figure
from falseclaims.figures.registry import figures_of
from falseclaims.figures.venue import is_design_only
from falseclaims.pipeline import run_job
from falseclaims.io.table_io import read_table, write_table
from falseclaims.survey.headline import Headline


def main(smk):
    p = smk.params
    style.configure(p.style)
    headline = Headline(**p.headline)
    exceedance = {v: read_table(f) for v, f in zip(p.venues, smk.input.exceedance)}
    summaries = {v: read_table(f) for v, f in zip(p.venues, smk.input.summaries)}
    design_only = [v for v, f in zip(p.venues, smk.input.flows) if is_design_only(read_table(f))]
    for fig in figures_of("venue_comparison"):  # Fig 5 per venue, facets
        write_figure(*fig.function(exceedance, headline, p.labels, p.cutoff, design_only),
                     smk.output[f"{fig.name}_png"])
    table = figures.venue_comparison(summaries, headline, p.labels)
    write_table(table, smk.output.table)
    Path(smk.output.tex).write_text(figures.venue_comparison_latex(table, headline),
                                    encoding="utf-8")


run_job(snakemake, main)  # noqa: F821
