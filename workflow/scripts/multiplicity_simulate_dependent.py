"""Thin wrapper: simulate the best of m, independent vs dependent classifiers, and one
replicate's per-classifier failures.

[Mollersen2023], Sec. 4, Figs 4-5."""
from falseclaims.multiplicity.tables import dependent_simulation, replicate_table
from falseclaims.pipeline import run_job
from falseclaims.io.table_io import write_table


def main(smk):
    cfg = smk.params.cfg
    ex, dep = cfg["example"], cfg["dependent"]
    draws, summary = dependent_simulation(ex["m"], ex["n"], ex["p"], dep["rho"], dep["reps"],
                                          list(smk.params.seed), dep["reference"],
                                          cfg["alpha"])
    write_table(draws, smk.output.draws)
    write_table(summary, smk.output.summary)
    # one replicate ([Mollersen2023], Fig 4): its own seed stream below the simulation's
    write_table(replicate_table(ex["m"], ex["n"], ex["p"], dep["rho"],
                                list(smk.params.seed) + [1], dep["reference"]),
                smk.output.replicate)


run_job(snakemake, main)  # noqa: F821
