"""Thin wrapper: cdf of the best of m for several m ([Mollersen2023], Fig 2)."""
from pathlib import Path

from falseclaims.multiplicity_figures import cdf_figure
from falseclaims.pipeline import run_step


def main(smk):
    cfg, ex = smk.params.cfg, smk.params.cfg["example"]
    cdf_figure(cfg["cdf_m"], ex["n"], ex["p"], cfg["alpha"],
               Path(smk.output.png).with_suffix(""))


run_step(snakemake, main)  # noqa: F821
