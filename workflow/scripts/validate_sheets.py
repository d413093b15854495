from falseclaims.pipeline import run_job
from falseclaims.io.table_io import write_table
from falseclaims.sheets import read_venue
from falseclaims.sheets.read.digest import digest_html


def main(smk):
    sheets = read_venue(smk.params.venue_cfg, base_dir=smk.params.base_dir,
                        venue=smk.wildcards.venue, metrics=smk.params.metrics)
    write_table(sheets.papers, smk.output.papers)
    write_table(sheets.results, smk.output.results)
    write_table(sheets.notes, smk.output.notes)
    label = smk.params.venue_cfg["label"]  # filled by common.smk (config.venue_label)
    with open(smk.output.digest, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(digest_html(smk.wildcards.venue, label, sheets.papers, sheets.results,
                             sheets.notes))


run_job(snakemake, main)  # noqa: F821
