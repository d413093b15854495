"""One family of a venue's survey figures and tables (the rule's: Figs 3-6, S7-S10, the
flow, Tables S1/S2, the Fig 6 test-set size multipliers; falseclaims.figures.registry)."""
from pathlib import Path

from falseclaims import style
from falseclaims.config import LookupGrid, Planner, sd_model_from_config
from falseclaims.figures.output import write_figure
from falseclaims.figures.venue import metric_tables, venue_figures
from falseclaims.io.table_io import read_table, write_table
from falseclaims.pipeline import run_job
from falseclaims.survey.headline import Headline
from falseclaims.survey.populations import Populations

# the rule's params passed as they are to venue_figures
DRAW_PARAMS = ("cutoff", "size_categories", "seed", "populations", "lookup_grid",
               "lookup_congruence", "planner", "venue_label", "test_set_splits")


def main(smk):
    p, given = smk.params, set(smk.input.keys())
    style.configure(p.style)
    tables = {k: read_table(smk.input[k]) for k in ("papers", "flow", "top2", "exceedance")
              if k in given}
    if "probabilities" in given:
        from falseclaims.survey.probabilities import read_probabilities

        tables["probabilities"] = read_probabilities(smk.input.probabilities, tables["top2"],
                                                     smk.input.congruence, smk.input.sds)
    kwargs = {k: p[k] for k in DRAW_PARAMS if k in p.keys()}
    # the config blocks as their typed objects, read once
    typed = {"populations": Populations, "lookup_grid": LookupGrid, "planner": Planner}
    kwargs |= {k: kind.from_block(kwargs[k]) for k, kind in typed.items() if k in kwargs}
    if "headline" in p.keys():
        kwargs["headline"] = Headline(**p.headline)
    if "sd_model" in p.keys():
        kwargs["sd_model"] = sd_model_from_config({"sd_model": p.sd_model},
                                                  p.headline["sd_source"])
    for name, fig, data in venue_figures(tables, job=smk.rule, **kwargs):
        write_figure(fig, data, smk.output[f"{name}_png"])
    if "metrics" in smk.output.keys():
        write_metric_tables(smk, tables["papers"])
    if "multipliers" in smk.output.keys():
        from falseclaims.survey.multipliers import venue_multipliers

        write_table(venue_multipliers(tables["papers"], tables["top2"], kwargs["lookup_grid"],
                                      p.lookup_congruence, kwargs["sd_model"],
                                      kwargs["planner"], p.test_set_splits,
                                      kwargs["populations"].split_sizes, smk.wildcards.venue),
                    smk.output.multipliers)


def write_metric_tables(smk, papers):
    """Tables S1/S2: CSV, the report's HTML and one LaTeX table per task."""
    from falseclaims.survey.front_page import metric_tables_html
    from falseclaims.survey.numbers import MATCHED_NOTE

    p = smk.params
    note = MATCHED_NOTE if p.matched_to_paper else ""
    freq, tex = metric_tables(papers, Populations.from_block(p.populations).metrics,
                              p.metric_labels,
                              p.venue_label, p.paper_metric_tables, note)
    write_table(freq, smk.output.metrics_csv)
    Path(smk.output.metrics).write_text(metric_tables_html(freq, p.venue_label, note),
                                        encoding="utf-8")
    for task, text in tex.items():
        Path(smk.output[f"tex_{task}"]).write_text(text, encoding="utf-8")


run_job(snakemake, main)  # noqa: F821
