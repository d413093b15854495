from pathlib import Path

from falseclaims.estimation.stages import run_congruence_figures
from falseclaims.pipeline import run_step


def main(smk):
    run_congruence_figures(smk.input.pairs, smk.config["congruence"]["paper"],
                           Path(smk.output.ecdf).with_suffix(""),
                           Path(smk.output.by_task).with_suffix(""), smk.output.summary)


run_step(snakemake, main)  # noqa: F821
