"""Venue comparison: Fig 5 with one headline curve per venue, and the headline-share table."""
from pathlib import Path

from falseclaims import figures, style
from falseclaims.figures.output import write_figure
from falseclaims.pipeline import read_table, run_step, write_table


def main(smk):
    cfg = smk.config
    style.configure(cfg.get("style"))
    headline = figures.Headline.from_config(cfg)
    venues = list(smk.params.venues)
    labels = {v: cfg["venues"][v].get("label", v) for v in venues}
    curves = {v: read_table(p) for v, p in zip(venues, smk.input.curves)}
    summaries = {v: read_table(p) for v, p in zip(venues, smk.input.summaries)}
    fig, data = figures.fig5_venues(curves, headline, labels, cfg["figures"]["threshold"])
    write_figure(fig, data, smk.output.png)
    table = figures.venue_comparison(summaries, headline, labels)
    write_table(table, smk.output.table)
    Path(smk.output.tex).write_text(figures.venue_comparison_latex(table, headline),
                                    encoding="utf-8")


run_step(snakemake, main)  # noqa: F821
