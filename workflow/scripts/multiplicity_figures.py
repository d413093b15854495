"""Table of the expected best accuracy over the (m, n, p) grid ([Mollersen2023]); its Figs 1-4
(pmf of one classifier with the shaded areas, cdf and pmf of the best of m, one replicate's
failures) and histograms of simulated best-of-m failures (independent vs dependent)."""
from falseclaims import style
from falseclaims.figures.multiplicity import (best_pmf_figure, cdf_figure, dependent_figure,
                                              pmf_figure, replicate_figure)
from falseclaims.figures.output import write_figure
from falseclaims.multiplicity.tables import sota_table
from falseclaims.pipeline import run_job
from falseclaims.io.table_io import read_table, write_table


def main(smk):
    p, out = smk.params, smk.output
    write_table(sota_table(p.grid, p.alpha, p.published), out.sota_table)
    style.configure(p.style)
    ex, dep = p.example, p.dependent
    write_figure(*pmf_figure(ex["m"], ex["n"], ex["p"], p.alpha), out.pmf_single_vs_best_png)
    write_figure(*cdf_figure(p.cdf_m, ex["n"], ex["p"], p.alpha), out.cdf_best_png)
    write_figure(*dependent_figure(read_table(smk.input.draws), ex["m"], ex["n"], ex["p"],
                                   dep["rho"], dep["reference"]), out.dependent_hist_png)
    write_figure(*best_pmf_figure(ex["m"], ex["n"], ex["p"], p.alpha), out.pmf_best_png)
    write_figure(*replicate_figure(read_table(smk.input.replicate), ex["n"], ex["p"]),
                 out.replicate_failures_png)


run_job(snakemake, main)  # noqa: F821
