# The numbers the text of [Christodoulou2025] states, per venue (results/{venue}/numbers.csv),
# and the report's front page: the headline table of every venue and the paper's numbers
# beside the compared venues' (falseclaims.survey.numbers, falseclaims.survey.front_page).
from falseclaims.config import ConfigParam, ReportText


rule numbers:
    input:
        papers=rules.validate_sheets.output.papers,
        results=rules.validate_sheets.output.results,
        flow=rules.eligibility.output.flow,
        top2=rules.eligibility.output.top2,
        summary=rules.exceedance.output.summary,
        code=library_code("survey.numbers"),
    output:
        csv="results/{venue}/numbers.csv",
        html=report(
            "results/{venue}/numbers.html",
            caption=caption("numbers"),
            category=venue_label_of,
            subcategory=REPORT_NUMBERS,
            labels={"#": "00", "result": "Numbers stated in the paper's text"},
        ),
    log:
        "logs/{venue}/numbers.log",
    params:
        cfg=ConfigParam(
            config_subset(
                "analysis",
                "congruence",
                # the headline SD model only (Fig 6 multipliers): the other sources do not
                # change the numbers
                ("sd_model", "use"),
                *(("sd_model", s) for s in FIGURE_SD_SOURCES),
                "lookup_grid",
                "planner",
                "numbers",
                ("figures", "populations"),
                ("figures", "metric_labels"),
            )
        ),
        label=lambda wc: ReportText(config["venues"][wc.venue]["label"]),
    run:
        run_script(SCRIPTS / "numbers.py", input, output, params, wildcards, log, rule)


rule front_page:
    input:
        numbers=expand(rules.numbers.output.csv, venue=VENUES),
        plausibility=expand(rules.plausibility.output[0], venue=VENUES),
        code=library_code("survey.front_page"),
    output:
        page=report(
            "results/front_page.html",
            caption=caption("front_page"),
            category="Headline (all venues)",
            labels={"#": "00", "result": "Headline shares and the paper's numbers"},
        ),
    log:
        "logs/front_page.log",
    params:
        venues=VENUES,
        labels=ConfigParam(
            {v: config["venues"][v]["label"] for v in VENUES}, "venue labels"
        ),
        compare=config["numbers"]["compare_venues"],
        headline=HEADLINE,
        # the banner's `sheet check` command names the --configfile that defines the venue
        configfiles=_configfiles,
    run:
        run_script(
            SCRIPTS / "front_page.py", input, output, params, wildcards, log, rule
        )
