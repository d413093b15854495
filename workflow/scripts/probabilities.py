from falseclaims.pipeline import read_table, run_step, write_table
from falseclaims.survey.probabilities import compute_probabilities


def main(smk):
    table = compute_probabilities(read_table(smk.input.top2),
                                  read_table(smk.input.congruence), read_table(smk.input.sds))
    write_table(table, smk.output[0])


run_step(snakemake, main)  # noqa: F821
