"""Thin wrapper: simulate the best of m, independent vs dependent classifiers.

[Mollersen2023], Sec. 4."""
from falseclaims.multiplicity.tables import dependent_simulation
from falseclaims.pipeline import run_step


def main(smk):
    cfg = smk.params.cfg
    ex, dep = cfg["example"], cfg["dependent"]
    draws, summary = dependent_simulation(ex["m"], ex["n"], ex["p"], dep["rho"], dep["reps"],
                                          list(smk.params.seed), dep["reference"],
                                          cfg["alpha"])
    draws.to_csv(smk.output.draws, index=False)
    summary.to_csv(smk.output.summary, index=False)


run_step(snakemake, main)  # noqa: F821
