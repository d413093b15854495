from falseclaims.config import congruence_sources
from falseclaims.pipeline import run_job
from falseclaims.io.table_io import read_table, write_table
from falseclaims.survey.congruence_assignment import assign_congruence


def main(smk):
    sources = congruence_sources(smk.params.cfg, smk.params.estimated)
    write_table(assign_congruence(read_table(smk.input.top2), sources), smk.output[0])


run_job(snakemake, main)  # noqa: F821
