from falseclaims.calibration.metrics import summarize
from falseclaims.pipeline import read_table, run_step, write_table


def main(smk):
    tables = summarize([read_table(p) for p in smk.input.bins],
                       [read_table(p) for p in smk.input.cells], smk.params.cfg)
    for name, table in tables.items():
        write_table(table, smk.output[name])


run_step(snakemake, main)  # noqa: F821
