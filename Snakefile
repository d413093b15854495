# falseclaims: probability of false outperformance claims, end to end.
# Rules live in workflow/rules/*.smk; all logic in the falseclaims package (src/).

from snakemake.utils import min_version

min_version("9.0")


configfile: "config/config.yaml"


report: "workflow/report/workflow.rst"


include: "workflow/rules/common.smk"
include: "workflow/rules/survey.smk"
include: "workflow/rules/figures.smk"
include: "workflow/rules/estimation.smk"
include: "workflow/rules/multiplicity.smk"
include: "workflow/rules/calibration.smk"


# the one list of light rules: they run on the submitting machine under a cluster profile
# (docs/cluster.md); every other rule becomes a cluster job
localrules:
    all,
    validate_sheets,
    eligibility,
    impute_sd,
    assign_congruence,
    probabilities,
    summarize,
    estimation_congruence_figures,
    estimation_sd_figure,
    fig3_reporting_practices,
    figS7_uncertainty,
    figS8_split_sizes,
    table_metrics,
    flow_diagram,
    figS9_delta_distribution,
    fig4_delta_vs_size,
    fig5_cumulative,
    figS10_sd_sensitivity,
    fig6_lookup,
    venue_comparison,
    multiplicity_table,
    multiplicity_pmf_figure,
    multiplicity_cdf_figure,
    multiplicity_dependent_figure,
    calibration_summarize,
    calibration_figures,


rule all:
    default_target: True
    input:
        ALL_TARGETS,
