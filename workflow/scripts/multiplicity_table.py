"""Thin wrapper: table of the expected best accuracy over the (m, n, p) grid (seed 003)."""
import sys

from falseclaims.multiplicity_tables import sota_table

sys.stderr = open(snakemake.log[0], "w")
cfg = snakemake.params.cfg
sota_table(cfg["grid"], cfg["alpha"], cfg.get("published")).to_csv(snakemake.output[0],
                                                                    index=False)
