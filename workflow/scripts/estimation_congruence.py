from falseclaims.estimation.stages import run_congruence
from falseclaims.pipeline import run_step


def main(smk):
    run_congruence(smk.wildcards.source, smk.params.spec, smk.params.seed, smk.output.pairs,
                   smk.output.summary, smk.output.quartiles)


run_step(snakemake, main)  # noqa: F821
