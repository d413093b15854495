from falseclaims.estimation.stages import fit_sd_model
from falseclaims.pipeline import run_job
from falseclaims.io.table_io import write_table, write_yaml


def main(smk):
    pairs, model = fit_sd_model(smk.wildcards.source, smk.params.spec)
    write_table(pairs, smk.output.pairs)
    write_yaml(model, smk.output.model)


run_job(snakemake, main)  # noqa: F821
