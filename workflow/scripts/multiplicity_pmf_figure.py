"""Thin wrapper: pmf of one classifier vs the best of m (seed 003 Fig 1)."""
import sys
from pathlib import Path

from falseclaims.multiplicity_figures import pmf_figure

sys.stderr = open(snakemake.log[0], "w")
cfg = snakemake.params.cfg
ex = cfg["example"]
pmf_figure(ex["m"], ex["n"], ex["p"], cfg["alpha"], Path(snakemake.output.png).with_suffix(""))
