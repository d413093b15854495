"""Thin wrapper: histograms of simulated best-of-m failures (seed 003 Fig 5)."""
import sys
from pathlib import Path

import pandas as pd

from falseclaims.multiplicity_figures import dependent_figure

sys.stderr = open(snakemake.log[0], "w")
cfg = snakemake.params.cfg
ex, dep = cfg["example"], cfg["dependent"]
dependent_figure(pd.read_csv(snakemake.input.draws), ex["m"], ex["n"], ex["p"], dep["rho"],
                 dep["reference"], Path(snakemake.output.png).with_suffix(""))
