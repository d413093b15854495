from falseclaims.pipeline import run_step
from falseclaims.io.table_io import write_table
from falseclaims.survey.exceedance import exceedance_curve, read_for_shares, share_above


def main(smk):
    probs = read_for_shares(smk.input[0])
    write_table(share_above(probs, smk.params.cutoffs), smk.output.summary)
    write_table(exceedance_curve(probs, smk.params.exceedance_grid), smk.output.exceedance)


run_step(snakemake, main)  # noqa: F821
