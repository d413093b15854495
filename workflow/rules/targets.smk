# The final targets, built here and only here from the rules' outputs (the figures among
# them come from the figure registry through figure_outputs): `snakemake` (rule `all` in
# the Snakefile: an included file cannot set the default target) makes them all;
# `snakemake survey` (every venue's tables and figures and the venue comparison),
# `snakemake estimation`, `snakemake calibration`, `snakemake multiplicity` and
# `snakemake table_agreement` make one part.


SURVEY_TARGETS = outputs(
    rules.eligibility.output,
    rules.exceedance.output,
    rules.venue_figures_reporting.output,
    rules.venue_figures_deltas.output,
    rules.venue_figures_exceedance.output,
    rules.venue_figures_lookup.output,
    venue=VENUES,
)
if len(VENUES) > 1:
    SURVEY_TARGETS += outputs(rules.venue_comparison.output)
# two venues, then one (a venue removed, or run_venues): the comparison is no target, and
# Snakemake would leave its last outputs naming the venue the run dropped; the Snakefile's
# onstart removes them (a real run, not a dry run)
STALE_COMPARISON = (
    []
    if len(VENUES) > 1
    else [f for f in outputs(rules.venue_comparison.output) if Path(f).exists()]
)
ESTIMATION_TARGETS = (
    outputs(rules.estimation_congruence.output, source=CONGRUENCE_SOURCES)
    + outputs(rules.estimation_sd.output, source=SD_SOURCES)
    + outputs(rules.estimation_figures.output)
)
CALIBRATION_TARGETS = outputs(rules.calibration_figures.output)
MULTIPLICITY_TARGETS = outputs(
    rules.multiplicity_simulate_dependent.output, rules.multiplicity_figures.output
)
# ties: venues whose results sheet lists every method of a paper (table.smk: TIE_VENUES)
ALL_TARGETS = (
    SURVEY_TARGETS
    + outputs(rules.numbers.output, venue=VENUES)
    + outputs(rules.front_page.output)
    + ESTIMATION_TARGETS
    + CALIBRATION_TARGETS
    + MULTIPLICITY_TARGETS
    + outputs(rules.table_agreement.output)
    + outputs(rules.table_ties.output, venue=TIE_VENUES)
)


rule survey:
    input:
        SURVEY_TARGETS,


rule estimation:
    input:
        ESTIMATION_TARGETS,


rule calibration:
    input:
        CALIBRATION_TARGETS,


rule multiplicity:
    input:
        MULTIPLICITY_TARGETS,
