"""Congruence figures (ECDF, by task) and the SD-model figure, with their summary tables."""
from falseclaims import style
from falseclaims.config import sd_model_from_config
from falseclaims.estimation.stages import congruence_figures, sd_figure
from falseclaims.pipeline import run_step
from falseclaims.table_io import write_table


def main(smk):
    p, out = smk.params, smk.output
    style.configure(p.style)
    write_table(congruence_figures(smk.input.congruence_pairs, p.paper,
                                   out.congruence_ecdf_png, out.congruence_by_task_png),
                out.congruence_summary)
    reference = (sd_model_from_config({"sd_model": p.sd_model}, p.sd_reference)
                 if p.sd_reference else None)
    compare = {name: sd_model_from_config({"sd_model": p.sd_model}, name)
               for name in p.sd_compare}
    write_table(sd_figure(smk.input.sd_pairs, dict(zip(p.sd_sources, smk.input.sd_models)),
                          out.sd_models_png, reference=reference, compare=compare),
                out.sd_summary)


run_step(snakemake, main)  # noqa: F821
