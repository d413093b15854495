"""Thin wrapper: cdf of the best of m for several m (seed 003 Fig 2)."""
import sys
from pathlib import Path

from falseclaims.multiplicity_figures import cdf_figure

sys.stderr = open(snakemake.log[0], "w")
cfg = snakemake.params.cfg
ex = cfg["example"]
cdf_figure(cfg["cdf_m"], ex["n"], ex["p"], cfg["alpha"], Path(snakemake.output.png).with_suffix(""))
