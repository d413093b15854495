"""Thin wrapper: histograms of simulated best-of-m failures ([Mollersen2023], Fig 5)."""
from pathlib import Path

from falseclaims.multiplicity_figures import dependent_figure
from falseclaims.pipeline import read_table, run_step


def main(smk):
    cfg = smk.params.cfg
    ex, dep = cfg["example"], cfg["dependent"]
    dependent_figure(read_table(smk.input.draws), ex["m"], ex["n"], ex["p"], dep["rho"],
                     dep["reference"], Path(smk.output.png).with_suffix(""))


run_step(snakemake, main)  # noqa: F821
