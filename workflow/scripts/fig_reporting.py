"""Fig 3 / Fig S7 / Fig S8 from the validated papers table (params.kind selects)."""
from falseclaims import figures, style
from falseclaims.figures.output import write_figure
from falseclaims.pipeline import read_table, run_step


def main(smk):
    style.configure(smk.config.get("style"))
    papers = read_table(smk.input.papers)
    pops = smk.config["figures"]["populations"]
    kind = smk.params.kind
    if kind == "fig3":
        fig, data = figures.fig3_reporting_practices(papers, pops["practices"])
    elif kind == "figS7":
        fig, data = figures.figS7_uncertainty(papers, pops["uncertainty"])
    elif kind == "figS8":
        fig, data = figures.figS8_split_sizes(papers, pops["split_sizes"], smk.config["seed"])
    else:
        raise ValueError(f"unknown figure kind {kind!r}")
    write_figure(fig, data, smk.output.png)


run_step(snakemake, main)  # noqa: F821
