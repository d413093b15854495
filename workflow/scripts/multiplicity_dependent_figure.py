"""Thin wrapper: histograms of simulated best-of-m failures ([Mollersen2023], Fig 5)."""
from pathlib import Path

import pandas as pd

from falseclaims.multiplicity_figures import dependent_figure
from falseclaims.pipeline import run_step


def main(smk):
    cfg = smk.params.cfg
    ex, dep = cfg["example"], cfg["dependent"]
    dependent_figure(pd.read_csv(smk.input.draws), ex["m"], ex["n"], ex["p"], dep["rho"],
                     dep["reference"], Path(smk.output.png).with_suffix(""))


run_step(snakemake, main)  # noqa: F821
