# Congruence and SD models estimated from open per-case data (docs/estimation.md).
# Logic: falseclaims.estimation (sources, fits) and falseclaims.figures.estimation.
from falseclaims.estimation.congruence_sources import source_input_files

EST = config.get("estimation", {})
CONGRUENCE_SOURCES = list(EST.get("congruence_sources", {}))
SD_SOURCES = list(EST.get("sd_sources", {}))
EST_CATEGORY = "Congruence and SD estimation"


rule estimation_congruence:
    wildcard_constraints:
        source="[A-Za-z0-9_]+",
    input:
        lambda wc: source_input_files(EST["congruence_sources"][wc.source]),
    output:
        pairs="results/estimation/congruence/{source}_pairs.csv",
        summary="results/estimation/congruence/{source}.yaml",
        quartiles="results/estimation/congruence/{source}_quartiles.csv",
    params:
        spec=lambda wc: EST["congruence_sources"][wc.source],
        seed=config["seed"],
    log:
        "logs/estimation/congruence_{source}.log",
    conda:
        "../../envs/falseclaims.yaml"
    script:
        "../scripts/estimation_congruence.py"


rule estimation_sd:
    wildcard_constraints:
        source="[A-Za-z0-9_]+",
    input:
        lambda wc: source_input_files(EST["sd_sources"][wc.source]),
    output:
        pairs="results/estimation/sd_model/{source}_mean_sd.csv",
        model="results/estimation/sd_model/{source}.yaml",
    params:
        spec=lambda wc: EST["sd_sources"][wc.source],
    log:
        "logs/estimation/sd_model_{source}.log",
    conda:
        "../../envs/falseclaims.yaml"
    script:
        "../scripts/estimation_sd.py"


rule estimation_congruence_figures:
    input:
        pairs=expand("results/estimation/congruence/{source}_pairs.csv",
                     source=CONGRUENCE_SOURCES),
    output:
        summary=report(
            "results/estimation/congruence_summary.csv",
            caption=caption("estimation_congruence_summary"),
            category=EST_CATEGORY,
            subcategory="Congruence",
        ),
        ecdf=report(
            "figures/estimation/congruence_ecdf.png",
            caption=caption("estimation_congruence_ecdf"),
            category=EST_CATEGORY,
            subcategory="Congruence",
        ),
        ecdf_pdf="figures/estimation/congruence_ecdf.pdf",
        ecdf_csv="figures/estimation/congruence_ecdf.csv",
        by_task=report(
            "figures/estimation/congruence_by_task.png",
            caption=caption("estimation_congruence_by_task"),
            category=EST_CATEGORY,
            subcategory="Congruence",
        ),
        by_task_pdf="figures/estimation/congruence_by_task.pdf",
        by_task_csv="figures/estimation/congruence_by_task.csv",
    log:
        "logs/estimation/congruence_figures.log",
    conda:
        "../../envs/falseclaims.yaml"
    script:
        "../scripts/estimation_congruence_figures.py"


rule estimation_sd_figure:
    input:
        pairs=expand("results/estimation/sd_model/{source}_mean_sd.csv", source=SD_SOURCES),
        models=expand("results/estimation/sd_model/{source}.yaml", source=SD_SOURCES),
    output:
        summary=report(
            "results/estimation/sd_model_summary.csv",
            caption=caption("estimation_sd_summary"),
            category=EST_CATEGORY,
            subcategory="SD model",
        ),
        figure=report(
            "figures/estimation/sd_models.png",
            caption=caption("estimation_sd_models"),
            category=EST_CATEGORY,
            subcategory="SD model",
        ),
        figure_pdf="figures/estimation/sd_models.pdf",
        figure_csv="figures/estimation/sd_models.csv",
    params:
        sources=SD_SOURCES,
        reference=EST.get("figures", {}).get("sd_reference"),
    log:
        "logs/estimation/sd_model_figure.log",
    conda:
        "../../envs/falseclaims.yaml"
    script:
        "../scripts/estimation_sd_figure.py"


ALL_TARGETS.extend(
    expand("results/estimation/congruence/{source}.yaml", source=CONGRUENCE_SOURCES)
    + expand("results/estimation/sd_model/{source}.yaml", source=SD_SOURCES)
    + [
        "results/estimation/congruence_summary.csv",
        "results/estimation/sd_model_summary.csv",
        "figures/estimation/congruence_ecdf.png",
        "figures/estimation/congruence_by_task.png",
        "figures/estimation/sd_models.png",
    ]
)
