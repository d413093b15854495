from falseclaims.pipeline import run_job
from falseclaims.io.table_io import write_table
from falseclaims.survey.exceedance import (
    exceedance_curve,
    mark_headline,
    read_for_shares,
    share_above,
)
from falseclaims.survey.headline import Headline


def main(smk):
    probs = read_for_shares(smk.input[0])
    summary = share_above(probs, smk.params.cutoffs)
    write_table(mark_headline(summary, Headline(**smk.params.headline)), smk.output.summary)
    write_table(exceedance_curve(probs, smk.params.exceedance_grid), smk.output.exceedance)


run_job(snakemake, main)  # noqa: F821
