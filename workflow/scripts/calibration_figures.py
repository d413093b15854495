"""Calibration tables (the chunks merged by summing additive counts), then the calibration
curves, calibration per truth distribution, and the ECE dot plot."""
from falseclaims import style
from falseclaims.calibration.metrics import calibration_tables
from falseclaims.figures import calibration as cf
from falseclaims.figures.output import write_figure
from falseclaims.pipeline import run_job
from falseclaims.io.table_io import read_table, write_table


def main(smk):
    p, out = smk.params, smk.output
    tables = calibration_tables([read_table(path) for path in smk.input.bins],
                       [read_table(path) for path in smk.input.cells], p.cfg)
    for name, table in tables.items():
        write_table(table, out[name])
    style.configure(p.style)
    # the figures read the tables as written (rounded), as a user re-plotting them would
    curve, ece = read_table(out.curve), read_table(out.ece)
    shift = p.congruence_shift
    write_figure(*cf.calibration_curves(curve, p.reference_delta_sd, shift),
                 out.calibration_curves_png)
    write_figure(*cf.calibration_by_truth(curve, "true"), out.calibration_truth_png)
    write_figure(*cf.ece_dotplot(ece, shift), out.calibration_ece_png)


run_job(snakemake, main)  # noqa: F821
