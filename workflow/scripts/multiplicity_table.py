"""Thin wrapper: table of the expected best accuracy over the (m, n, p) grid ([Mollersen2023])."""
from falseclaims.multiplicity.tables import sota_table
from falseclaims.pipeline import run_step


def main(smk):
    cfg = smk.params.cfg
    sota_table(cfg["grid"], cfg["alpha"], cfg.get("published")).to_csv(smk.output[0],
                                                                        index=False)


run_step(snakemake, main)  # noqa: F821
