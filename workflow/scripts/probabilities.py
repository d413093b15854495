from falseclaims.pipeline import run_job
from falseclaims.io.table_io import read_table, write_table_parts
from falseclaims.survey.probabilities import iter_compact_probabilities


def main(smk):
    parts = iter_compact_probabilities(read_table(smk.input.top2),
                                       read_table(smk.input.congruence),
                                       read_table(smk.input.sds))
    write_table_parts(parts, smk.output[0])


run_job(snakemake, main)  # noqa: F821
