"""Every number the paper's text states, for one venue (numbers.csv and its report page)."""
from pathlib import Path

from falseclaims.pipeline import run_job

from falseclaims.io.table_io import read_table, write_table
from falseclaims.survey.front_page import numbers_html
from falseclaims.survey.numbers import venue_numbers


def main(smk):
    tables = {k: read_table(smk.input[k])
              for k in ("papers", "results", "flow", "top2", "summary")}
    numbers = venue_numbers(tables, smk.params.cfg, smk.wildcards.venue)
    write_table(numbers, smk.output.csv)
    compared = smk.wildcards.venue in smk.params.cfg["numbers"]["compare_venues"]
    Path(smk.output.html).write_text(numbers_html(numbers, smk.params.label, compared),
                                     encoding="utf-8")


run_job(snakemake, main)  # noqa: F821
