from falseclaims.survey.eligibility import select_papers
from falseclaims.pipeline import run_job
from falseclaims.io.table_io import read_table, write_table


def main(smk):
    sel = select_papers(read_table(smk.input.papers), read_table(smk.input.results),
                        smk.params.analysis, venue=smk.wildcards.venue)
    for name in ("eligible", "exclusions", "flow", "top2"):
        write_table(getattr(sel, name), smk.output[name])


run_job(snakemake, main)  # noqa: F821
