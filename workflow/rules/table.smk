# Table mode (`falseclaims table`, docs/table.md): checked against per-case truth, and the
# ties among the reported methods of each survey paper. Logic in falseclaims.table.

TAB_RES = "results/table_agreement"
# the first SD source defined inline: what `falseclaims check` uses outside the pipeline
TAB_SD = next(s for s in config["sd_model"]["use"] if s in config["sd_model"])


rule table_agreement:
    input:
        touchstone=config["table_agreement"]["touchstone"],
        isic=config["table_agreement"]["isic"],
        code=figure_code("table_agreement"),
    output:
        **figure_outputs("table_agreement"),
        pairs=f"{TAB_RES}/pairs.csv",
        tables=f"{TAB_RES}/tables.csv",
        summary=report(
            f"{TAB_RES}/summary.csv",
            caption=caption("table_agreement"),
            category=scope_category("table"),
            subcategory="Agreement",
        ),
    log:
        "logs/table_agreement/table_agreement.log",
    priority: LONG_CHAIN_HEAD_PRIORITY
    params:
        style=config["style"],
        cfg={
            "analysis": config["analysis"],
            "congruence": {"use": ["paper"], "paper": config["congruence"]["paper"]},
            "sd_model": {"use": [TAB_SD], TAB_SD: config["sd_model"][TAB_SD]},
            "claim_check": config["claim_check"],
            "planner": config["planner"],
            "table_agreement": config["table_agreement"],
        },
    run:
        run_script(
            SCRIPTS / "table_agreement.py",
            input,
            output,
            params,
            wildcards,
            log,
            rule,
        )


# venues whose results sheet lists every method of a paper (the long layout); a wide top-2
# sheet holds two methods per paper and has no ties to count
TIE_VENUES = [v for v in VENUES if config["venues"][v].get("layout", "long") == "long"]


rule table_ties:
    input:
        eligible=rules.eligibility.output.eligible,
        results=rules.validate_sheets.output.results,
        top2=rules.eligibility.output.top2,
        code=figure_code("table_ties"),
    output:
        **figure_outputs("table_ties"),
        ties="results/{venue}/ties.csv",
    log:
        "logs/{venue}/table_ties.log",
    params:
        style=config["style"],
        label=lambda wc: config["venues"][wc.venue]["label"],
        cfg={
            "analysis": config["analysis"],
            "congruence": {"use": ["paper"], "paper": config["congruence"]["paper"]},
            "sd_model": {"use": [TAB_SD], TAB_SD: config["sd_model"][TAB_SD]},
            "claim_check": config["claim_check"],
            "planner": config["planner"],
        },
    run:
        run_script(
            SCRIPTS / "table_ties.py", input, output, params, wildcards, log, rule
        )
