# The survey analysis of [Christodoulou2025]: sheets -> eligibility -> top-2 -> SD imputation ->
# congruence assignment -> probabilities -> summaries.


from falseclaims.config import ConfigParam


rule validate_sheets:
    input:
        venue_sheet_files,
    output:
        papers="results/{venue}/validated/papers.csv",
        results="results/{venue}/validated/results.csv",
        notes="results/{venue}/validated/notes.csv",
        # the notes that change results, by kind: first among the venue's Selection entries
        digest=report(
            "results/{venue}/validated/notes_digest.html",
            caption=caption("notes_digest"),
            category=venue_label_of,
            subcategory=REPORT_SELECTION,
            labels={"#": "00", "result": "Notes that change results (digest)"},
        ),
    log:
        "logs/{venue}/validate_sheets.log",
    priority: VENUE_CHAIN_PRIORITY
    params:
        venue_cfg=lambda wc: config["venues"][wc.venue],
        # the sheets' paths are relative to the working directory, as their inputs above
        # (the Snakefile's folder held the repository's copy in a project folder elsewhere)
        base_dir=".",
        # a paper's comparison from a block of its primary metric first (group_rows_by_id)
        metrics=Eligibility.from_block(config["analysis"]).metrics,
    run:
        run_script(
            SCRIPTS / "validate_sheets.py",
            input,
            output,
            params,
            wildcards,
            log,
            rule,
        )


rule eligibility:
    input:
        papers=rules.validate_sheets.output.papers,
        results=rules.validate_sheets.output.results,
    output:
        eligible="results/{venue}/eligible.csv",
        exclusions=report(
            "results/{venue}/exclusions.csv",
            caption=caption("exclusions"),
            category=venue_label_of,
            subcategory=REPORT_SELECTION,
            labels={"#": "02", "result": "Excluded papers and why (CSV)"},
        ),
        flow="results/{venue}/flow.csv",
        top2="results/{venue}/top2.csv",
    log:
        "logs/{venue}/eligibility.log",
    priority: VENUE_CHAIN_PRIORITY
    params:
        # only what select_papers reads: editing cutoffs or headline levels keeps the selection
        analysis={k: config["analysis"][k] for k in ("metrics", "test_set_splits")},
    run:
        run_script(
            SCRIPTS / "eligibility.py", input, output, params, wildcards, log, rule
        )


# does the venue's result defend itself? (falseclaims.plausibility; config/README.md,
# ## plausibility): warnings in the console and log, and above the venue's headline
rule plausibility:
    input:
        papers=rules.validate_sheets.output.papers,
        results=rules.validate_sheets.output.results,
        notes=rules.validate_sheets.output.notes,
        exclusions=rules.eligibility.output.exclusions,
    output:
        "results/{venue}/plausibility.csv",
    log:
        "logs/{venue}/plausibility.log",
    priority: VENUE_CHAIN_PRIORITY
    params:
        venue_cfg=lambda wc: config["venues"][wc.venue],
        cfg=ConfigParam(config_subset("analysis", "plausibility")),
    run:
        run_script(
            SCRIPTS / "plausibility.py", input, output, params, wildcards, log, rule
        )


rule impute_sd:
    input:
        top2=rules.eligibility.output.top2,
        estimated=lambda wc: list(estimated_sd_files().values()),
    output:
        sds="results/{venue}/sd_imputed.csv",
    log:
        "logs/{venue}/impute_sd.log",
    priority: VENUE_CHAIN_PRIORITY
    params:
        estimated=estimated_sd_files(),
        cfg=config_subset(
            ("sd_model", "use"), *(("sd_model", s) for s in config["sd_model"]["use"])
        ),
        use_reported_sd_over=config["analysis"]["use_reported_sd_over"],
    run:
        run_script(
            SCRIPTS / "impute_sd.py", input, output, params, wildcards, log, rule
        )


rule assign_congruence:
    input:
        top2=rules.eligibility.output.top2,
        estimated=lambda wc: list(estimated_congruence_files().values()),
    output:
        congruence="results/{venue}/congruence.csv",
    log:
        "logs/{venue}/assign_congruence.log",
    priority: VENUE_CHAIN_PRIORITY
    params:
        estimated=estimated_congruence_files(),
        cfg=config_subset(
            ("congruence", "use"),
            *(("congruence", s) for s in config["congruence"]["use"]),
        ),
    run:
        run_script(
            SCRIPTS / "assign_congruence.py",
            input,
            output,
            params,
            wildcards,
            log,
            rule,
        )


rule probabilities:
    input:
        top2=rules.eligibility.output.top2,
        congruence=rules.assign_congruence.output.congruence,
        sds=rules.impute_sd.output.sds,
    output:
        # not embedded in the report: at ~1 MB it would be a fifth of it (Fig 5's caption
        # points here)
        probabilities="results/{venue}/probabilities.csv",
    log:
        "logs/{venue}/probabilities.log",
    priority: VENUE_CHAIN_PRIORITY
    run:
        run_script(
            SCRIPTS / "probabilities.py",
            input,
            output,
            params,
            wildcards,
            log,
            rule,
        )


rule exceedance:
    input:
        rules.probabilities.output.probabilities,
    output:
        # not embedded in the report (it keeps under 4 MB): drawn as Fig 5 and Fig S10, the
        # headline rows of every venue are the venue comparison table; Fig 5's caption points here
        summary="results/{venue}/summary.csv",
        # the exceedance curves: share of papers above each cutoff of analysis.exceedance_grid
        exceedance="results/{venue}/exceedance.csv",
    log:
        "logs/{venue}/exceedance.log",
    priority: VENUE_CHAIN_PRIORITY
    params:
        cutoffs=config["analysis"]["cutoffs"],
        headline=HEADLINE,
        exceedance_grid=config["analysis"]["exceedance_grid"],
    run:
        run_script(
            SCRIPTS / "exceedance.py", input, output, params, wildcards, log, rule
        )
