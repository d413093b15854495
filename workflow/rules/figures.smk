# Survey figures and tables of [Christodoulou2025], per venue in figures/{venue}/ and, with
# several venues, a comparison in figures/comparison/. One job per venue draws them all
# (the start-up of a Python process with matplotlib costs more than most figures). Each
# figure: PDF + PNG + the data behind it as CSV; every PNG is in the report with its
# caption. Logic: falseclaims.figures; style: config `style:`.
from falseclaims.config import (
    ConfigParam,
    ReportText,
    configured_congruence,
    headline_assumption,
)
from falseclaims.figures.names import VENUE_FIGURES

# caption file, report subcategory and (order, title) of each figure: the report lists a
# venue's figures in the paper's order (Figs 3-6, then the supplementary ones)
FIGURE_REPORT = {
    "fig3_reporting_practices": (
        "fig3_reporting_practices",
        REPORT_FIGURES,
        ("01", "Fig 3: reporting practices"),
    ),
    "fig4_delta_vs_size": (
        "fig4_delta_vs_size",
        REPORT_FIGURES,
        ("02", "Fig 4: difference vs test-set size"),
    ),
    "fig5_cumulative": (
        "fig5_cumulative",
        REPORT_FIGURES,
        ("03", "Fig 5: share of papers above each cutoff"),
    ),
    "fig6_lookup_classification": (
        "fig6_lookup",
        REPORT_FIGURES,
        ("04", "Fig 6a: look-up grid, classification"),
    ),
    "fig6_lookup_segmentation": (
        "fig6_lookup",
        REPORT_FIGURES,
        ("05", "Fig 6b: look-up grid, segmentation"),
    ),
    "fig5_congruence_sources": (
        "fig5_congruence_sources",
        REPORT_FIGURES,
        ("03b", "Fig 5 companion: congruence sources compared"),
    ),
    "figS9_delta_distribution": (
        "figS9_delta_distribution",
        REPORT_FIGURES,
        ("06", "Fig S3/S9: differences of the top two"),
    ),
    "figS7_uncertainty": (
        "figS7_uncertainty",
        REPORT_FIGURES,
        ("07", "Fig S7: reporting of uncertainty"),
    ),
    "figS8_split_sizes": (
        "figS8_split_sizes",
        REPORT_FIGURES,
        ("08", "Fig S8: train, validation and test sizes"),
    ),
    "figS10_sd_sensitivity": (
        "figS10_sd_sensitivity",
        REPORT_FIGURES,
        ("10", "Fig S10: sensitivity to the imputed SD"),
    ),
    "flow_diagram": ("flow_diagram", REPORT_SELECTION, ("01", "Selection flow")),
}
HEADLINE = headline_assumption(config)


rule venue_figures:
    input:
        papers="results/{venue}/validated/papers.csv",
        flow="results/{venue}/flow.csv",
        top2="results/{venue}/top2.csv",
        probabilities="results/{venue}/probabilities.csv",
        # Fig 4 reads probabilities.csv joined with its inputs (read_probabilities)
        congruence="results/{venue}/congruence.csv",
        sds="results/{venue}/sd_imputed.csv",
        curves="results/{venue}/curves.csv",
    output:
        **figure_outputs(
            VENUE_FIGURES, "figures/{venue}", venue_label_of, FIGURE_REPORT
        ),
        metrics=report(
            "figures/{venue}/tables_metrics.html",
            caption=caption("tables_metrics"),
            category=venue_label_of,
            subcategory=REPORT_FIGURES,
            labels={"#": "09", "result": "Tables S1/S2: metrics reported"},
        ),
        metrics_csv="figures/{venue}/tables_metrics.csv",
        tex_classification="figures/{venue}/tableS1_metrics_classification.tex",
        tex_segmentation="figures/{venue}/tableS2_metrics_segmentation.tex",
        # Fig 6: smallest sufficient test set over the venue's median ("8x", "10x")
        multipliers="figures/{venue}/fig6_multipliers.csv",
    log:
        "logs/{venue}/figures.log",
    benchmark:
        "logs/benchmarks/venue_figures/{venue}.tsv"
    priority: VENUE_CHAIN_PRIORITY
    conda:
        "../../envs/falseclaims.yaml"
    params:
        # ConfigParam: the report's "Job parameters" panel lists the keys, not every value
        style=ConfigParam(config["style"], "style"),
        figures=ConfigParam(config["figures"], "figures"),
        seed=config["seed"],
        headline=HEADLINE,
        lookup_grid=ConfigParam(config["lookup_grid"], "lookup_grid"),
        lookup_congruence=ConfigParam(
            configured_congruence(config, config["lookup_grid"]["congruence_source"]),
            f"congruence {config['lookup_grid']['congruence_source']}",
        ),
        sd_model=ConfigParam(config["sd_model"], "sd_model"),
        planner=ConfigParam(config["planner"], "planner"),
        venue_label=lambda wc: ReportText(config["venues"][wc.venue]["label"]),
    script:
        "../scripts/venue_figures.py"


rule venue_comparison:
    input:
        curves=expand("results/{venue}/curves.csv", venue=VENUES),
        summaries=expand("results/{venue}/summary.csv", venue=VENUES),
    output:
        **figure_outputs(
            ["fig5_venues", "fig5_venue_facets"],
            "figures/comparison",
            "Venue comparison",
            {
                "fig5_venues": (
                    "fig5_venues",
                    "Fig 5",
                    ("01", "Fig 5: headline curve per venue"),
                ),
                "fig5_venue_facets": (
                    "fig5_venue_facets",
                    "Fig 5",
                    ("02", "Fig 5 of every venue"),
                ),
            },
        ),
        table=report(
            "figures/comparison/venue_comparison.csv",
            caption=caption("venue_comparison"),
            category="Venue comparison",
            subcategory="Headline shares",
            labels={"#": "01", "result": "Headline shares per venue (CSV)"},
        ),
        tex="figures/comparison/venue_comparison.tex",
    log:
        "logs/comparison/venue_comparison.log",
    benchmark:
        "logs/benchmarks/venue_comparison/comparison.tsv"
    conda:
        "../../envs/falseclaims.yaml"
    params:
        venues=VENUES,
        labels=ConfigParam(
            {v: config["venues"][v]["label"] for v in VENUES}, "venue labels"
        ),
        style=ConfigParam(config["style"], "style"),
        headline=HEADLINE,
        threshold=config["figures"]["threshold"],
    script:
        "../scripts/venue_comparison.py"


FIGURE_TARGETS = expand(
    "figures/{venue}/{name}.{ext}",
    venue=VENUES,
    name=VENUE_FIGURES,
    ext=["pdf", "png", "csv"],
)
FIGURE_TARGETS += expand(
    "figures/{venue}/{table}",
    venue=VENUES,
    table=[
        "tables_metrics.csv",
        "tableS1_metrics_classification.tex",
        "tableS2_metrics_segmentation.tex",
        "fig6_multipliers.csv",
    ],
)
if len(VENUES) > 1:
    FIGURE_TARGETS += expand(
        "figures/comparison/{name}.{ext}",
        name=["fig5_venues", "fig5_venue_facets"],
        ext=["pdf", "png", "csv"],
    )
    FIGURE_TARGETS += [
        "figures/comparison/venue_comparison.csv",
        "figures/comparison/venue_comparison.tex",
    ]

ALL_TARGETS.extend(FIGURE_TARGETS)
