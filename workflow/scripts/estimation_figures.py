"""Congruence figures (ECDF, by task) and the SD-model figure, with their summary tables."""
from falseclaims import style
from falseclaims.config import sd_model_from_config
from falseclaims.estimation.stages import congruence_table, read_pairs, sd_models_table
from falseclaims.figures.estimation import (
    plot_congruence_by_task,
    plot_congruence_ecdf,
    plot_sd_models,
)
from falseclaims.figures.output import write_figure
from falseclaims.io.table_io import write_table
from falseclaims.pipeline import run_job


def main(smk):
    p, out = smk.params, smk.output
    style.configure(p.style)
    pairs = read_pairs(smk.input.congruence_pairs)
    write_figure(*plot_congruence_ecdf(pairs, p.paper), out.congruence_ecdf_png)
    write_figure(*plot_congruence_by_task(pairs, p.paper), out.congruence_by_task_png)
    write_table(congruence_table(pairs, p.paper), out.congruence_summary)
    reference = (sd_model_from_config({"sd_model": p.sd_model}, p.sd_reference)
                 if p.sd_reference else None)
    compare = {name: sd_model_from_config({"sd_model": p.sd_model}, name)
               for name in p.sd_compare}
    models, table = sd_models_table(dict(zip(p.sd_sources, smk.input.sd_models)))
    write_figure(*plot_sd_models(read_pairs(smk.input.sd_pairs), models, reference=reference,
                                 compare=compare), out.sd_models_png)
    write_table(table, out.sd_summary)


run_job(snakemake, main)  # noqa: F821
