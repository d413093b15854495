"""Every survey figure and table of one venue (Figs 3-6, S7-S10, flow, Tables S1/S2, the
Fig 6 test-set size multipliers)."""
from pathlib import Path

from falseclaims import style
from falseclaims.config import sd_model_from_config
from falseclaims.survey.headline import Headline
from falseclaims.figures.output import write_figure
from falseclaims.figures.lookup import venue_multipliers
from falseclaims.figures.venue import metric_tables, venue_figures
from falseclaims.pipeline import run_step
from falseclaims.io.table_io import read_table, write_table
from falseclaims.survey.front_page import metric_tables_html
from falseclaims.survey.probabilities import read_probabilities


def main(smk):
    p = smk.params
    style.configure(p.style)
    tables = {k: read_table(smk.input[k]) for k in ("papers", "flow", "top2", "exceedance")}
    tables["probabilities"] = read_probabilities(smk.input.probabilities, tables["top2"],
                                                 smk.input.congruence, smk.input.sds)
    figs = p.figures
    sd_model = sd_model_from_config({"sd_model": p.sd_model}, p.headline["sd_source"])
    made = venue_figures(
        tables, headline=Headline(**p.headline), cutoff=figs["cutoff"],
        size_categories=figs["size_categories"], seed=p.seed,
        populations=figs["populations"], lookup_grid=p.lookup_grid,
        lookup_congruence=p.lookup_congruence, sd_model=sd_model, planner=p.planner,
        venue_label=p.venue_label)
    for name, fig, data in made:
        write_figure(fig, data, smk.output[f"{name}_png"])
    freq, tex = metric_tables(tables["papers"], figs["populations"]["metrics"],
                              figs.get("metric_labels"), p.venue_label)
    write_table(freq, smk.output.metrics_csv)
    Path(smk.output.metrics).write_text(metric_tables_html(freq, p.venue_label),
                                        encoding="utf-8")
    for task, text in tex.items():
        Path(smk.output[f"tex_{task}"]).write_text(text, encoding="utf-8")
    write_table(venue_multipliers(tables["top2"], p.lookup_grid, p.lookup_congruence,
                                  sd_model, p.planner), smk.output.multipliers)


run_step(snakemake, main)  # noqa: F821
