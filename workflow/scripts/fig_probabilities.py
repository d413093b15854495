"""Fig 4 (from probabilities.csv), Fig 5 and Fig S10 (from curves.csv); params.kind selects."""
from falseclaims import figures, style
from falseclaims.figures.output import write_figure
from falseclaims.pipeline import read_table, run_step
from falseclaims.survey.probabilities import read_probabilities


def main(smk):
    style.configure(smk.config.get("style"))
    headline = figures.Headline.from_config(smk.config)
    threshold = smk.config["figures"]["threshold"]
    kind = smk.params.kind
    if kind == "fig4":  # needs every input per paper: probabilities joined with its inputs
        table = read_probabilities(smk.input.probs, smk.input.top2, smk.input.congruence,
                                   smk.input.sds)
    else:
        table = read_table(smk.input[0])
    if kind == "fig4":
        fig, data = figures.fig4_delta_vs_size(table, headline, threshold)
    elif kind == "fig5":
        fig, data = figures.fig5_cumulative(table, headline, threshold)
    elif kind == "figS10":
        fig, data = figures.figS10_sd_sensitivity(table, headline, threshold)
    else:
        raise ValueError(f"unknown figure kind {kind!r}")
    write_figure(fig, data, smk.output.png)


run_step(snakemake, main)  # noqa: F821
