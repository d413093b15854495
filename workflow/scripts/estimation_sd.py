from falseclaims.estimation.stages import run_sd_fit
from falseclaims.pipeline import run_step


def main(smk):
    source = smk.wildcards.source
    run_sd_fit(source, smk.config["estimation"]["sd_sources"][source], smk.output.pairs,
               smk.output.model)


run_step(snakemake, main)  # noqa: F821
