# Congruence and SD models estimated from open per-case data (docs/estimation.md).
# Logic: falseclaims.estimation (sources, fits) and falseclaims.figures.estimation
# (the figures: falseclaims.figures.registry; figure_outputs: workflow/rules/common.smk).
EST = config.get("estimation", {})
CONGRUENCE_SOURCES = list(EST.get("congruence_sources", {}))
SD_SOURCES = list(EST.get("sd_sources", {}))
EST_CATEGORY = scope_category("estimation")
ESTIMATION_FIGURE_SD_SOURCES = [
    s
    for s in [
        EST.get("figures", {}).get("sd_reference"),
        *EST.get("figures", {}).get("sd_compare", []),
    ]
    if s
]


rule estimation_congruence:
    input:
        source_files("congruence_sources"),
    output:
        pairs="results/estimation/congruence/{source}_pairs.csv",
        summary="results/estimation/congruence/{source}.yaml",
        quartiles="results/estimation/congruence/{source}_quartiles.csv",
    log:
        "logs/estimation/congruence_{source}.log",
    wildcard_constraints:
        source="[A-Za-z0-9_]+",
    priority: LONG_CHAIN_HEAD_PRIORITY
    params:
        spec=lambda wc: EST["congruence_sources"][wc.source],
        seed=config["seed"],
    run:
        run_script(
            SCRIPTS / "estimation_congruence.py",
            input,
            output,
            params,
            wildcards,
            log,
            rule,
        )


rule estimation_sd:
    input:
        source_files("sd_sources"),
    output:
        pairs="results/estimation/sd_model/{source}_mean_sd.csv",
        model="results/estimation/sd_model/{source}.yaml",
    log:
        "logs/estimation/sd_model_{source}.log",
    wildcard_constraints:
        source="[A-Za-z0-9_]+",
    priority: LONG_CHAIN_HEAD_PRIORITY
    params:
        spec=lambda wc: EST["sd_sources"][wc.source],
    run:
        run_script(
            SCRIPTS / "estimation_sd.py",
            input,
            output,
            params,
            wildcards,
            log,
            rule,
        )


# both estimation figures and their summary tables in one job
rule estimation_figures:
    input:
        congruence_pairs=expand(
            rules.estimation_congruence.output.pairs, source=CONGRUENCE_SOURCES
        ),
        sd_pairs=expand(rules.estimation_sd.output.pairs, source=SD_SOURCES),
        sd_models=expand(rules.estimation_sd.output.model, source=SD_SOURCES),
        code=figure_code("estimation_figures"),
    output:
        **figure_outputs("estimation_figures"),
        congruence_summary=report(
            "results/estimation/congruence_summary.csv",
            caption=caption("estimation_congruence_summary"),
            category=EST_CATEGORY,
            subcategory="Congruence",
        ),
        sd_summary=report(
            "results/estimation/sd_model_summary.csv",
            caption=caption("estimation_sd_summary"),
            category=EST_CATEGORY,
            subcategory="SD model",
        ),
    log:
        "logs/estimation/figures.log",
    params:
        style=config["style"],
        paper=config["congruence"]["paper"],
        sd_sources=SD_SOURCES,
        sd_reference=EST.get("figures", {}).get("sd_reference"),
        sd_compare=EST.get("figures", {}).get("sd_compare", []),
        # only the SD sources the figure draws (reference and compared models)
        sd_model=config_subset(
            *(("sd_model", s) for s in ESTIMATION_FIGURE_SD_SOURCES)
        ).get("sd_model", {}),
    run:
        run_script(
            SCRIPTS / "estimation_figures.py",
            input,
            output,
            params,
            wildcards,
            log,
            rule,
        )
