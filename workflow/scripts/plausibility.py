import logging

from falseclaims.pipeline import run_job
from falseclaims.plausibility import check_venue, findings_frame
from falseclaims.io.table_io import read_table, write_table


def main(smk):
    venue = smk.wildcards.venue
    findings = check_venue(venue, smk.params.venue_cfg, read_table(smk.input.papers),
                           read_table(smk.input.results), smk.params.cfg,
                           read_table(smk.input.exclusions), read_table(smk.input.notes))
    for f in findings:  # the console shows warnings (falseclaims.pipeline.run_step)
        logging.getLogger("falseclaims.plausibility").warning(
            "IMPLAUSIBLE result of venue %s: %s", venue, f)
    write_table(findings_frame(venue, findings), smk.output[0])


run_job(snakemake, main)  # noqa: F821
