from falseclaims.estimation.stages import run_sd_fit
from falseclaims.pipeline import run_step


def main(smk):
    run_sd_fit(smk.wildcards.source, smk.params.spec, smk.output.pairs, smk.output.model)


run_step(snakemake, main)  # noqa: F821
