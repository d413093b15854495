# Survey figures and tables of [Christodoulou2025], per venue in figures/{venue}/ and, with
# several venues, a comparison in figures/comparison/. One job per venue draws them all
# (the start-up of a Python process with matplotlib costs more than most figures). Each
# figure: PDF + PNG + the data behind it as CSV; every PNG is in the report with its
# caption. Logic: falseclaims.figures; style: config `style:`.
from falseclaims.config import configured_congruence, headline_assumption
from falseclaims.figures.names import VENUE_FIGURES

# caption file and report subcategory of each figure
FIGURE_REPORT = {
    "fig3_reporting_practices": ("fig3_reporting_practices", "Reporting practices"),
    "figS7_uncertainty": ("figS7_uncertainty", "Reporting practices"),
    "figS8_split_sizes": ("figS8_split_sizes", "Reporting practices"),
    "flow_diagram": ("flow_diagram", "Selection"),
    "figS9_delta_distribution": ("figS9_delta_distribution", "Probabilities"),
    "fig4_delta_vs_size": ("fig4_delta_vs_size", "Probabilities"),
    "fig5_cumulative": ("fig5_cumulative", "Probabilities"),
    "figS10_sd_sensitivity": ("figS10_sd_sensitivity", "Probabilities"),
    "fig6_lookup_classification": ("fig6_lookup", "Look-up grid (Fig 6)"),
    "fig6_lookup_segmentation": ("fig6_lookup", "Look-up grid (Fig 6)"),
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
        **figure_outputs(VENUE_FIGURES, "figures/{venue}", "{venue}", FIGURE_REPORT),
        metrics=report(
            "figures/{venue}/tables_metrics.csv",
            caption=caption("tables_metrics"),
            category="{venue}",
            subcategory="Reporting practices",
        ),
        tex_classification="figures/{venue}/tableS1_metrics_classification.tex",
        tex_segmentation="figures/{venue}/tableS2_metrics_segmentation.tex",
    log:
        "logs/{venue}/figures.log",
    benchmark:
        "logs/benchmarks/venue_figures/{venue}.tsv"
    priority: VENUE_CHAIN_PRIORITY
    conda:
        "../../envs/falseclaims.yaml"
    params:
        style=config["style"],
        figures=config["figures"],
        seed=config["seed"],
        headline=HEADLINE,
        lookup_grid=config["lookup_grid"],
        lookup_congruence=configured_congruence(
            config, config["lookup_grid"]["congruence_source"]
        ),
        sd_model=config["sd_model"],
        planner=config["planner"],
        venue_label=lambda wc: config["venues"][wc.venue]["label"],
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
                "fig5_venues": ("fig5_venues", "Fig 5"),
                "fig5_venue_facets": ("fig5_venue_facets", "Fig 5"),
            },
        ),
        table=report(
            "figures/comparison/venue_comparison.csv",
            caption=caption("venue_comparison"),
            category="Venue comparison",
            subcategory="Headline shares",
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
        labels={v: config["venues"][v]["label"] for v in VENUES},
        style=config["style"],
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
