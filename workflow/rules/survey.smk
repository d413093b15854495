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
    benchmark:
        "logs/benchmarks/validate_sheets/{venue}.tsv"
    priority: VENUE_CHAIN_PRIORITY
    conda:
        "../../envs/falseclaims.yaml"
    params:
        venue_cfg=lambda wc: config["venues"][wc.venue],
        # the sheets' paths are relative to the working directory, as their inputs above
        # (the Snakefile's folder held the repository's copy in a project folder elsewhere)
        base_dir=".",
        # a paper's comparison from a block of its primary metric first (group_rows_by_id)
        metrics=Eligibility.from_block(config["analysis"]).metrics,
    script:
        "../scripts/validate_sheets.py"


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
    benchmark:
        "logs/benchmarks/eligibility/{venue}.tsv"
    priority: VENUE_CHAIN_PRIORITY
    conda:
        "../../envs/falseclaims.yaml"
    params:
        # only what select_papers reads: editing cutoffs or headline levels keeps the selection
        analysis={k: config["analysis"][k] for k in ("metrics", "test_set_splits")},
    script:
        "../scripts/eligibility.py"


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
    benchmark:
        "logs/benchmarks/plausibility/{venue}.tsv"
    priority: VENUE_CHAIN_PRIORITY
    conda:
        "../../envs/falseclaims.yaml"
    params:
        venue_cfg=lambda wc: config["venues"][wc.venue],
        cfg=ConfigParam(config_subset("analysis", "plausibility")),
    script:
        "../scripts/plausibility.py"


rule impute_sd:
    input:
        top2=rules.eligibility.output.top2,
        estimated=lambda wc: list(estimated_sd_files().values()),
    output:
        sds="results/{venue}/sd_imputed.csv",
    log:
        "logs/{venue}/impute_sd.log",
    benchmark:
        "logs/benchmarks/impute_sd/{venue}.tsv"
    priority: VENUE_CHAIN_PRIORITY
    conda:
        "../../envs/falseclaims.yaml"
    params:
        estimated=estimated_sd_files(),
        cfg=config_subset(
            ("sd_model", "use"), *(("sd_model", s) for s in config["sd_model"]["use"])
        ),
        use_reported_sd_over=config["analysis"]["use_reported_sd_over"],
    script:
        "../scripts/impute_sd.py"


rule assign_congruence:
    input:
        top2=rules.eligibility.output.top2,
        estimated=lambda wc: list(estimated_congruence_files().values()),
    output:
        congruence="results/{venue}/congruence.csv",
    log:
        "logs/{venue}/assign_congruence.log",
    benchmark:
        "logs/benchmarks/assign_congruence/{venue}.tsv"
    priority: VENUE_CHAIN_PRIORITY
    conda:
        "../../envs/falseclaims.yaml"
    params:
        estimated=estimated_congruence_files(),
        cfg=config_subset(
            ("congruence", "use"),
            *(("congruence", s) for s in config["congruence"]["use"]),
        ),
    script:
        "../scripts/assign_congruence.py"


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
    benchmark:
        "logs/benchmarks/probabilities/{venue}.tsv"
    priority: VENUE_CHAIN_PRIORITY
    conda:
        "../../envs/falseclaims.yaml"
    script:
        "../scripts/probabilities.py"


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
    benchmark:
        "logs/benchmarks/exceedance/{venue}.tsv"
    priority: VENUE_CHAIN_PRIORITY
    conda:
        "../../envs/falseclaims.yaml"
    params:
        cutoffs=config["analysis"]["cutoffs"],
        headline=HEADLINE,
        exceedance_grid=config["analysis"]["exceedance_grid"],
    script:
        "../scripts/exceedance.py"
