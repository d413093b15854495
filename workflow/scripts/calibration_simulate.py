from falseclaims.calibration.simulation import run_chunk
from falseclaims.pipeline import run_job
from falseclaims.io.table_io import write_table


def main(smk):
    bins, cells = run_chunk(smk.params.cfg, smk.wildcards.task, int(smk.wildcards.chunk))
    write_table(bins, smk.output.bins)
    write_table(cells, smk.output.cells)


run_job(snakemake, main)  # noqa: F821
