"""Fig S3/S9: distribution of the top-2 delta per task."""
from falseclaims import figures, style
from falseclaims.figures.output import write_figure
from falseclaims.pipeline import read_table, run_step


def main(smk):
    style.configure(smk.config.get("style"))
    fig, data = figures.figS9_delta_distribution(
        read_table(smk.input.top2), smk.config["figures"]["size_categories"], smk.config["seed"])
    write_figure(fig, data, smk.output.png)


run_step(snakemake, main)  # noqa: F821
