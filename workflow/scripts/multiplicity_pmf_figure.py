"""Thin wrapper: pmf of one classifier vs the best of m ([Mollersen2023], Fig 1)."""
from pathlib import Path

from falseclaims.multiplicity_figures import pmf_figure
from falseclaims.pipeline import run_step


def main(smk):
    cfg, ex = smk.params.cfg, smk.params.cfg["example"]
    pmf_figure(ex["m"], ex["n"], ex["p"], cfg["alpha"], Path(smk.output.png).with_suffix(""))


run_step(snakemake, main)  # noqa: F821
