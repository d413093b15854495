"""Thin wrapper: simulate the best of m, independent vs dependent classifiers (seed 003 §4)."""
import sys

from falseclaims.multiplicity_tables import dependent_simulation

sys.stderr = open(snakemake.log[0], "w")
cfg = snakemake.params.cfg
ex, dep = cfg["example"], cfg["dependent"]
draws, summary = dependent_simulation(ex["m"], ex["n"], ex["p"], dep["rho"], dep["reps"],
                                      list(snakemake.params.seed), dep["reference"],
                                      cfg["alpha"])
draws.to_csv(snakemake.output.draws, index=False)
summary.to_csv(snakemake.output.summary, index=False)
