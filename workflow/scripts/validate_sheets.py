from falseclaims.pipeline import run_step
from falseclaims.table_io import write_table
from falseclaims.sheets import read_venue


def main(smk):
    sheets = read_venue(smk.params.venue_cfg, base_dir=smk.params.base_dir,
                        venue=smk.wildcards.venue)
    write_table(sheets.papers, smk.output.papers)
    write_table(sheets.results, smk.output.results)
    write_table(sheets.notes, smk.output.notes)


run_step(snakemake, main)  # noqa: F821
