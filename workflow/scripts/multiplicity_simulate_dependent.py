"""Thin wrapper: simulate the best of m, independent vs dependent classifiers, and one
replicate's per-classifier failures.

[Mollersen2023], Sec. 4, Figs 4-5."""
from falseclaims.multiplicity.tables import dependent_simulation, replicate_table
from falseclaims.pipeline import run_step


def main(smk):
    cfg = smk.params.cfg
    ex, dep = cfg["example"], cfg["dependent"]
    draws, summary = dependent_simulation(ex["m"], ex["n"], ex["p"], dep["rho"], dep["reps"],
                                          list(smk.params.seed), dep["reference"],
                                          cfg["alpha"])
    draws.to_csv(smk.output.draws, index=False)
    summary.to_csv(smk.output.summary, index=False)
    # one replicate ([Mollersen2023], Fig 4): its own seed stream below the simulation's
    replicate_table(ex["m"], ex["n"], ex["p"], dep["rho"], list(smk.params.seed) + [1],
                    dep["reference"]).to_csv(smk.output.replicate, index=False)


run_step(snakemake, main)  # noqa: F821
