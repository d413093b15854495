# Publication figures and tables of [Christodoulou2025], per venue in figures/{venue}/ and,
# with several venues, a comparison in figures/comparison/. Each figure: PDF + PNG + the
# data behind it as CSV. Logic: falseclaims.figures; style: config `style:`.

# per-venue figures with PDF + PNG + CSV (Fig 6 is per task, below)
VENUE_FIGURES = [
    "fig3_reporting_practices",
    "figS7_uncertainty",
    "figS8_split_sizes",
    "figS9_delta_distribution",
    "fig4_delta_vs_size",
    "fig5_cumulative",
    "figS10_sd_sensitivity",
    "flow_diagram",
]


rule fig3_reporting_practices:
    input:
        papers="results/{venue}/validated/papers.csv",
    output:
        png=report(
            "figures/{venue}/fig3_reporting_practices.png",
            caption=caption("fig3_reporting_practices"),
            category="{venue}",
            subcategory="Reporting practices",
        ),
        pdf="figures/{venue}/fig3_reporting_practices.pdf",
        csv="figures/{venue}/fig3_reporting_practices.csv",
    params:
        kind="fig3",
    log:
        "logs/{venue}/figures/fig3_reporting_practices.log",
    conda:
        "../../envs/falseclaims.yaml"
    script:
        "../scripts/fig_reporting.py"


rule figS7_uncertainty:
    input:
        papers="results/{venue}/validated/papers.csv",
    output:
        png=report(
            "figures/{venue}/figS7_uncertainty.png",
            caption=caption("figS7_uncertainty"),
            category="{venue}",
            subcategory="Reporting practices",
        ),
        pdf="figures/{venue}/figS7_uncertainty.pdf",
        csv="figures/{venue}/figS7_uncertainty.csv",
    params:
        kind="figS7",
    log:
        "logs/{venue}/figures/figS7_uncertainty.log",
    conda:
        "../../envs/falseclaims.yaml"
    script:
        "../scripts/fig_reporting.py"


rule figS8_split_sizes:
    input:
        papers="results/{venue}/validated/papers.csv",
    output:
        png=report(
            "figures/{venue}/figS8_split_sizes.png",
            caption=caption("figS8_split_sizes"),
            category="{venue}",
            subcategory="Reporting practices",
        ),
        pdf="figures/{venue}/figS8_split_sizes.pdf",
        csv="figures/{venue}/figS8_split_sizes.csv",
    params:
        kind="figS8",
    log:
        "logs/{venue}/figures/figS8_split_sizes.log",
    conda:
        "../../envs/falseclaims.yaml"
    script:
        "../scripts/fig_reporting.py"


rule table_metrics:
    input:
        papers="results/{venue}/validated/papers.csv",
    output:
        csv=report(
            "figures/{venue}/tables_metrics.csv",
            caption=caption("tables_metrics"),
            category="{venue}",
            subcategory="Reporting practices",
        ),
        tex_cls="figures/{venue}/tableS1_metrics_classification.tex",
        tex_seg="figures/{venue}/tableS2_metrics_segmentation.tex",
    log:
        "logs/{venue}/figures/table_metrics.log",
    conda:
        "../../envs/falseclaims.yaml"
    script:
        "../scripts/tab_metrics.py"


rule flow_diagram:
    input:
        flow="results/{venue}/flow.csv",
    output:
        png=report(
            "figures/{venue}/flow_diagram.png",
            caption=caption("flow_diagram"),
            category="{venue}",
            subcategory="Selection",
        ),
        pdf="figures/{venue}/flow_diagram.pdf",
        csv="figures/{venue}/flow_diagram.csv",
    log:
        "logs/{venue}/figures/flow_diagram.log",
    conda:
        "../../envs/falseclaims.yaml"
    script:
        "../scripts/fig_flow.py"


rule figS9_delta_distribution:
    input:
        top2="results/{venue}/top2.csv",
    output:
        png=report(
            "figures/{venue}/figS9_delta_distribution.png",
            caption=caption("figS9_delta_distribution"),
            category="{venue}",
            subcategory="Probabilities",
        ),
        pdf="figures/{venue}/figS9_delta_distribution.pdf",
        csv="figures/{venue}/figS9_delta_distribution.csv",
    log:
        "logs/{venue}/figures/figS9_delta_distribution.log",
    conda:
        "../../envs/falseclaims.yaml"
    script:
        "../scripts/fig_deltas.py"


rule fig4_delta_vs_size:
    input:
        "results/{venue}/probabilities.csv",
    output:
        png=report(
            "figures/{venue}/fig4_delta_vs_size.png",
            caption=caption("fig4_delta_vs_size"),
            category="{venue}",
            subcategory="Probabilities",
        ),
        pdf="figures/{venue}/fig4_delta_vs_size.pdf",
        csv="figures/{venue}/fig4_delta_vs_size.csv",
    params:
        kind="fig4",
    log:
        "logs/{venue}/figures/fig4_delta_vs_size.log",
    conda:
        "../../envs/falseclaims.yaml"
    script:
        "../scripts/fig_probabilities.py"


rule fig5_cumulative:
    input:
        "results/{venue}/curves.csv",
    output:
        png=report(
            "figures/{venue}/fig5_cumulative.png",
            caption=caption("fig5_cumulative"),
            category="{venue}",
            subcategory="Probabilities",
        ),
        pdf="figures/{venue}/fig5_cumulative.pdf",
        csv="figures/{venue}/fig5_cumulative.csv",
    params:
        kind="fig5",
    log:
        "logs/{venue}/figures/fig5_cumulative.log",
    conda:
        "../../envs/falseclaims.yaml"
    script:
        "../scripts/fig_probabilities.py"


rule figS10_sd_sensitivity:
    input:
        "results/{venue}/curves.csv",
    output:
        png=report(
            "figures/{venue}/figS10_sd_sensitivity.png",
            caption=caption("figS10_sd_sensitivity"),
            category="{venue}",
            subcategory="Probabilities",
        ),
        pdf="figures/{venue}/figS10_sd_sensitivity.pdf",
        csv="figures/{venue}/figS10_sd_sensitivity.csv",
    params:
        kind="figS10",
    log:
        "logs/{venue}/figures/figS10_sd_sensitivity.log",
    conda:
        "../../envs/falseclaims.yaml"
    script:
        "../scripts/fig_probabilities.py"


rule fig6_lookup:
    input:
        top2="results/{venue}/top2.csv",
    output:
        png=report(
            "figures/{venue}/fig6_lookup_{task}.png",
            caption=caption("fig6_lookup"),
            category="{venue}",
            subcategory="Look-up grid (Fig 6)",
            labels={"task": "{task}"},
        ),
        pdf="figures/{venue}/fig6_lookup_{task}.pdf",
        csv="figures/{venue}/fig6_lookup_{task}.csv",
    log:
        "logs/{venue}/figures/fig6_lookup_{task}.log",
    conda:
        "../../envs/falseclaims.yaml"
    script:
        "../scripts/fig_lookup.py"


rule venue_comparison:
    input:
        curves=expand("results/{venue}/curves.csv", venue=VENUES),
        summaries=expand("results/{venue}/summary.csv", venue=VENUES),
    output:
        png=report(
            "figures/comparison/fig5_venues.png",
            caption=caption("fig5_venues"),
            category="Venue comparison",
            subcategory="Fig 5",
        ),
        pdf="figures/comparison/fig5_venues.pdf",
        csv="figures/comparison/fig5_venues.csv",
        table=report(
            "figures/comparison/venue_comparison.csv",
            caption=caption("venue_comparison"),
            category="Venue comparison",
            subcategory="Headline shares",
        ),
        tex="figures/comparison/venue_comparison.tex",
    params:
        venues=VENUES,
    log:
        "logs/comparison/venue_comparison.log",
    conda:
        "../../envs/falseclaims.yaml"
    script:
        "../scripts/fig_comparison.py"


FIGURE_TARGETS = expand(
    "figures/{venue}/{name}.{ext}",
    venue=VENUES,
    name=VENUE_FIGURES,
    ext=["pdf", "png", "csv"],
)
FIGURE_TARGETS += expand(
    "figures/{venue}/fig6_lookup_{task}.{ext}",
    venue=VENUES,
    task=TASKS,
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
    FIGURE_TARGETS += [
        "figures/comparison/fig5_venues.png",
        "figures/comparison/fig5_venues.pdf",
        "figures/comparison/fig5_venues.csv",
        "figures/comparison/venue_comparison.csv",
        "figures/comparison/venue_comparison.tex",
    ]

ALL_TARGETS.extend(FIGURE_TARGETS)
