# Survey figures and tables of [Christodoulou2025], per venue in figures/{venue}/ and, with
# several venues, a comparison in figures/comparison/. One job per venue and figure family
# (falseclaims.figures.registry: VENUE_JOBS): each reads only its tables and parameters, so
# the families run in parallel and editing one figure's code or parameters reruns only its
# family. Each figure: PDF + PNG + the data behind it as CSV; every PNG is in the report
# with its caption. The figures: falseclaims.figures.registry (figure_outputs: common.smk).
# Logic: falseclaims.figures; style: config `style:`.
from falseclaims.config import (
    ConfigParam,
    ReportText,
    configured_congruence,
)

# the figures draw only the headline SD model (Fig 6 segmentation): editing another
# sd_model source leaves them as they are
FIGURE_SD_SOURCES = [HEADLINE["sd_source"]]
# venues generated to match the paper (Tables S1/S2 say so beside the paper's percentages)
MATCHED_TO_PAPER = config["numbers"].get("matched_to_paper", [])


# Fig 3, S7, S8, the selection flow and Tables S1/S2: what the papers report
rule venue_figures_reporting:
    input:
        papers=rules.validate_sheets.output.papers,
        flow=rules.eligibility.output.flow,
        code=figure_code("venue_figures_reporting"),
    output:
        **figure_outputs("venue_figures_reporting"),
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
    log:
        "logs/{venue}/figures_reporting.log",
    priority: VENUE_CHAIN_PRIORITY
    params:
        # ConfigParam: the report's "Job parameters" panel lists the keys, not every value
        style=ConfigParam(config["style"], "style"),
        populations=ConfigParam(config["figures"]["populations"], "figures populations"),
        metric_labels=config["figures"].get("metric_labels"),
        paper_metric_tables=ConfigParam(
            config["figures"].get("paper_metric_tables") or {},
            "figures paper_metric_tables",
        ),
        seed=config["seed"],
        # the population of the median test-set size (Fig S8's test-set panel)
        test_set_splits=config["analysis"]["test_set_splits"],
        matched_to_paper=lambda wc: wc.venue in MATCHED_TO_PAPER,
        venue_label=lambda wc: ReportText(config["venues"][wc.venue]["label"]),
    run:
        run_script(
            SCRIPTS / "venue_figures.py",
            input,
            output,
            params,
            wildcards,
            log,
            rule,
        )


# Fig S9 and Fig 4: the differences of the top two
rule venue_figures_deltas:
    input:
        top2=rules.eligibility.output.top2,
        probabilities=rules.probabilities.output.probabilities,
        # Fig 4 reads probabilities.csv joined with its inputs (read_probabilities)
        congruence=rules.assign_congruence.output.congruence,
        sds=rules.impute_sd.output.sds,
        # a design-only venue (no results recorded) gets one note per figure
        flow=rules.eligibility.output.flow,
        code=figure_code("venue_figures_deltas"),
    output:
        **figure_outputs("venue_figures_deltas"),
    log:
        "logs/{venue}/figures_deltas.log",
    priority: VENUE_CHAIN_PRIORITY
    params:
        style=ConfigParam(config["style"], "style"),
        size_categories=config["figures"]["size_categories"],
        cutoff=config["figures"]["cutoff"],
        seed=config["seed"],
        headline=HEADLINE,
        venue_label=lambda wc: ReportText(config["venues"][wc.venue]["label"]),
    run:
        run_script(
            SCRIPTS / "venue_figures.py",
            input,
            output,
            params,
            wildcards,
            log,
            rule,
        )


# Fig 5, its congruence-sources companion, Fig S10 and its SD-models companion: the share of
# papers above each cutoff
rule venue_figures_exceedance:
    input:
        exceedance=rules.exceedance.output.exceedance,
        top2=rules.eligibility.output.top2,
        probabilities=rules.probabilities.output.probabilities,
        congruence=rules.assign_congruence.output.congruence,
        sds=rules.impute_sd.output.sds,
        flow=rules.eligibility.output.flow,
        code=figure_code("venue_figures_exceedance"),
    output:
        **figure_outputs("venue_figures_exceedance"),
    log:
        "logs/{venue}/figures_exceedance.log",
    priority: VENUE_CHAIN_PRIORITY
    params:
        style=ConfigParam(config["style"], "style"),
        cutoff=config["figures"]["cutoff"],
        headline=HEADLINE,
        venue_label=lambda wc: ReportText(config["venues"][wc.venue]["label"]),
    run:
        run_script(
            SCRIPTS / "venue_figures.py",
            input,
            output,
            params,
            wildcards,
            log,
            rule,
        )


# Fig 6: the look-up grids and the smallest sufficient test set over the venue's median
rule venue_figures_lookup:
    input:
        papers=rules.validate_sheets.output.papers,
        top2=rules.eligibility.output.top2,
        code=figure_code("venue_figures_lookup"),
    output:
        **figure_outputs("venue_figures_lookup"),
        # Fig 6: smallest sufficient test set over the venue's median ("8x", "10x")
        multipliers="figures/{venue}/fig6_multipliers.csv",
    log:
        "logs/{venue}/figures_lookup.log",
    priority: VENUE_CHAIN_PRIORITY
    params:
        style=ConfigParam(config["style"], "style"),
        headline=HEADLINE,
        lookup_grid=ConfigParam(config["lookup_grid"], "lookup_grid"),
        lookup_congruence=ConfigParam(
            configured_congruence(config, config["lookup_grid"]["congruence_source"]),
            f"congruence {config['lookup_grid']['congruence_source']}",
        ),
        sd_model=ConfigParam(
            config_subset(*(("sd_model", s) for s in FIGURE_SD_SOURCES)).get(
                "sd_model", {}
            ),
            "sd_model " + ", ".join(FIGURE_SD_SOURCES),
        ),
        planner=ConfigParam(config["planner"], "planner"),
        # the population of the median test-set size (Fig 6's gray cell, the multipliers)
        test_set_splits=config["analysis"]["test_set_splits"],
        populations=ConfigParam(config["figures"]["populations"], "figures populations"),
        venue_label=lambda wc: ReportText(config["venues"][wc.venue]["label"]),
    run:
        run_script(
            SCRIPTS / "venue_figures.py",
            input,
            output,
            params,
            wildcards,
            log,
            rule,
        )


rule venue_comparison:
    input:
        exceedance=expand(rules.exceedance.output.exceedance, venue=VENUES),
        summaries=expand(rules.exceedance.output.summary, venue=VENUES),
        flows=expand(rules.eligibility.output.flow, venue=VENUES),
        code=figure_code("venue_comparison"),
    output:
        **figure_outputs("venue_comparison"),
        table=report(
            "figures/comparison/venue_comparison.csv",
            caption=caption("venue_comparison"),
            category=scope_category("comparison"),
            subcategory="Headline shares",
            labels={"#": "01", "result": "Headline shares per venue (CSV)"},
        ),
        tex="figures/comparison/venue_comparison.tex",
    log:
        "logs/comparison/venue_comparison.log",
    params:
        venues=VENUES,
        labels=ConfigParam(
            {v: config["venues"][v]["label"] for v in VENUES}, "venue labels"
        ),
        style=ConfigParam(config["style"], "style"),
        headline=HEADLINE,
        cutoff=config["figures"]["cutoff"],
    run:
        run_script(
            SCRIPTS / "venue_comparison.py",
            input,
            output,
            params,
            wildcards,
            log,
            rule,
        )
