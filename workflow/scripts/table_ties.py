"""Per paper: how many reported methods are tied with the winner (ties.csv + figure)."""

from falseclaims.figures.output import write_figure
from falseclaims.figures.table import ties_figure
from falseclaims.pipeline import run_job
from falseclaims.io.table_io import read_table, write_table
from falseclaims.style import configure
from falseclaims.table.survey import paper_ties


def main(smk):
    configure(smk.params.style)
    ties = paper_ties(read_table(smk.input.eligible), read_table(smk.input.results),
                      read_table(smk.input.top2), smk.params.cfg)
    write_table(ties, smk.output.ties)
    fig, data = ties_figure(ties, smk.params.label)
    write_figure(fig, data, smk.output.ties_png)


run_job(snakemake, main)  # noqa: F821
