from pathlib import Path

from falseclaims.config import sd_model_from_config
from falseclaims.estimation.stages import run_sd_figure
from falseclaims.pipeline import run_step


def main(smk):
    ref = smk.params.reference
    run_sd_figure(smk.input.pairs, dict(zip(smk.params.sources, smk.input.models)),
                  Path(smk.output.figure).with_suffix(""), smk.output.summary,
                  reference=sd_model_from_config(smk.config, ref) if ref else None)


run_step(snakemake, main)  # noqa: F821
