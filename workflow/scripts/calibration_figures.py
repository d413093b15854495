from pathlib import Path

from falseclaims import calibration_figures as cf
from falseclaims.pipeline import read_table, run_step, write_table
from falseclaims.style import save_figure


def main(smk):
    block = smk.config["calibration"]
    curve, ece = read_table(smk.input.curve), read_table(smk.input.ece)
    shift = block["congruence_shift"]
    made = {
        "curves": cf.calibration_curves(curve, block["reference_delta_sd"], shift),
        "truth": cf.calibration_by_truth(curve, "true"),
        "ece": cf.ece_dotplot(ece, shift),
    }
    for name, (fig, data) in made.items():
        base = Path(smk.output[f"{name}_png"]).with_suffix("")
        save_figure(fig, base)
        write_table(data, smk.output[f"{name}_csv"])


run_step(snakemake, main)  # noqa: F821
