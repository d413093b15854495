from falseclaims.config import sd_models
from falseclaims.pipeline import run_job
from falseclaims.io.table_io import read_table, write_table
from falseclaims.survey.sd_imputation import impute_sd


def main(smk):
    models = sd_models(smk.params.cfg, smk.params.estimated)
    table = impute_sd(read_table(smk.input.top2), models, smk.params.use_reported_sd_over)
    write_table(table, smk.output[0])


run_job(snakemake, main)  # noqa: F821
