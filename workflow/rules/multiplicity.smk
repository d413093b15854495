# Multiplicity of the state of the art ([Mollersen2023]): how optimistic is the best of m?
# Logic in falseclaims.multiplicity (best_of_m, tables); figures: falseclaims.figures.multiplicity.

MULT_RES = "results/multiplicity"
MULT_FIG = "figures/multiplicity"


rule multiplicity_simulate_dependent:
    output:
        draws=f"{MULT_RES}/dependent_draws.csv",
        replicate=f"{MULT_RES}/dependent_replicate.csv",
        summary=report(
            f"{MULT_RES}/dependent_summary.csv",
            caption=caption("multiplicity_dependent_summary"),
            category="Multiplicity",
            subcategory="Tables",
        ),
    log:
        "logs/multiplicity/simulate_dependent.log",
    benchmark:
        "logs/benchmarks/multiplicity_simulate_dependent/all.tsv"
    priority: LONG_CHAIN_HEAD_PRIORITY
    conda:
        "../../envs/falseclaims.yaml"
    params:
        cfg=config["multiplicity"],
        seed=[config["seed"], config["multiplicity"]["dependent"]["seed_stream"]],
    script:
        "../scripts/multiplicity_simulate_dependent.py"


# caption, subcategory and (order, title): listed as the figures of [Mollersen2023]
MULT_FIGURES = {
    "pmf_single_vs_best": (
        "multiplicity_pmf",
        "Figures",
        ("01", "Fig 1: one classifier at p and at its upper limit"),
    ),
    "cdf_best": ("multiplicity_cdf", "Figures", ("02", "Fig 2: cdf of the best of m")),
    "pmf_best": (
        "multiplicity_pmf_best",
        "Figures",
        ("03", "Fig 3: pmf of the best of m"),
    ),
    "replicate_failures": (
        "multiplicity_replicate",
        "Figures",
        ("04", "Fig 4: failures of 1000 classifiers in one replicate"),
    ),
    "dependent_hist": (
        "multiplicity_dependent",
        "Figures",
        ("05", "Dependent classifiers: the best of m"),
    ),
}


# the closed-form table and the three figures in one job: one process start instead of two
# (figure_outputs: workflow/rules/figures.smk)
rule multiplicity_figures:
    input:
        draws=rules.multiplicity_simulate_dependent.output.draws,
        replicate=rules.multiplicity_simulate_dependent.output.replicate,
    output:
        **figure_outputs(MULT_FIGURES, MULT_FIG, "Multiplicity", MULT_FIGURES),
        sota_table=report(
            f"{MULT_RES}/sota_table.csv",
            caption=caption("multiplicity_table"),
            category="Multiplicity",
            subcategory="Tables",
        ),
    log:
        "logs/multiplicity/figures.log",
    benchmark:
        "logs/benchmarks/multiplicity_figures/multiplicity.tsv"
    conda:
        "../../envs/falseclaims.yaml"
    params:
        style=config["style"],
        alpha=config["multiplicity"]["alpha"],
        grid=config["multiplicity"]["grid"],
        published=config["multiplicity"].get("published"),
        example=config["multiplicity"]["example"],
        cdf_m=config["multiplicity"]["cdf_m"],
        dependent=config["multiplicity"]["dependent"],
    script:
        "../scripts/multiplicity_figures.py"


MULTIPLICITY_TARGETS = [
    f"{MULT_RES}/sota_table.csv",
    f"{MULT_RES}/dependent_summary.csv",
] + expand(
    f"{MULT_FIG}/{{name}}.{{ext}}", name=list(MULT_FIGURES), ext=["pdf", "png", "csv"]
)
ALL_TARGETS.extend(MULTIPLICITY_TARGETS)
