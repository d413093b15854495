"""Selection flow diagram from flow.csv."""
from falseclaims import figures, style
from falseclaims.figures.output import write_figure
from falseclaims.pipeline import read_table, run_step


def main(smk):
    style.configure(smk.config.get("style"))
    fig, data = figures.flow_diagram(read_table(smk.input.flow))
    write_figure(fig, data, smk.output.png)


run_step(snakemake, main)  # noqa: F821
