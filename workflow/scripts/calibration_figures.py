"""Calibration curves, calibration per truth distribution, and the ECE dot plot."""
from falseclaims import style
from falseclaims.figures import calibration as cf
from falseclaims.figures.output import write_figure
from falseclaims.pipeline import read_table, run_step


def main(smk):
    p, out = smk.params, smk.output
    style.configure(p.style)
    curve, ece = read_table(smk.input.curve), read_table(smk.input.ece)
    shift = p.congruence_shift
    write_figure(*cf.calibration_curves(curve, p.reference_delta_sd, shift),
                 out.calibration_curves_png)
    write_figure(*cf.calibration_by_truth(curve, "true"), out.calibration_truth_png)
    write_figure(*cf.ece_dotplot(ece, shift), out.calibration_ece_png)


run_step(snakemake, main)  # noqa: F821
