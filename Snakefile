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
include: "workflow/rules/table.smk"


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
    estimation_figures,
    venue_figures,
    venue_comparison,
    multiplicity_figures,
    calibration_figures,
    table_agreement,
    table_ties,


rule all:
    default_target: True
    input:
        ALL_TARGETS,
