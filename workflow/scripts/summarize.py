from falseclaims.pipeline import read_table, run_step, write_table
from falseclaims.survey.probabilities import curves, summarize


def main(smk):
    probs = read_table(smk.input[0])
    write_table(summarize(probs, smk.params.cutoffs), smk.output.summary)
    write_table(curves(probs, smk.params.curve_grid), smk.output.curves)


run_step(snakemake, main)  # noqa: F821
