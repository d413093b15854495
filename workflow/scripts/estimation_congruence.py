from falseclaims.estimation.stages import estimate_congruence
from falseclaims.pipeline import run_job
from falseclaims.io.table_io import write_table, write_yaml


def main(smk):
    pairs, quartiles, summary = estimate_congruence(smk.wildcards.source, smk.params.spec,
                                                    smk.params.seed)
    write_table(pairs, smk.output.pairs)
    write_table(quartiles, smk.output.quartiles)
    write_yaml(summary, smk.output.summary)


run_job(snakemake, main)  # noqa: F821
