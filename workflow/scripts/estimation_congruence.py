from falseclaims.estimation.stages import run_congruence
from falseclaims.pipeline import run_step


def main(smk):
    source = smk.wildcards.source
    run_congruence(source, smk.config["estimation"]["congruence_sources"][source],
                   smk.config["seed"], smk.output.pairs, smk.output.summary,
                   smk.output.quartiles)


run_step(snakemake, main)  # noqa: F821
