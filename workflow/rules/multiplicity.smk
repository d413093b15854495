# Multiplicity of the state of the art ([Mollersen2023]): how optimistic is the best of m?
# Logic in falseclaims.multiplicity (best_of_m, tables) and multiplicity_figures.

MULT_RES = "results/multiplicity"
MULT_FIG = "figures/multiplicity"


rule multiplicity_table:
    output:
        report(f"{MULT_RES}/sota_table.csv", caption=caption("multiplicity_table"),
               category="Multiplicity", subcategory="Tables"),
    log:
        "logs/multiplicity/table.log",
    params:
        cfg=config["multiplicity"],
    conda:
        "../../envs/falseclaims.yaml"
    script:
        "../scripts/multiplicity_table.py"


rule multiplicity_pmf_figure:
    output:
        pdf=f"{MULT_FIG}/pmf_single_vs_best.pdf",
        png=report(f"{MULT_FIG}/pmf_single_vs_best.png", caption=caption("multiplicity_pmf"),
                   category="Multiplicity", subcategory="Figures"),
        csv=report(f"{MULT_FIG}/pmf_single_vs_best.csv", caption=caption("multiplicity_pmf"),
                   category="Multiplicity", subcategory="Figure data"),
    log:
        "logs/multiplicity/pmf_figure.log",
    params:
        cfg=config["multiplicity"],
    conda:
        "../../envs/falseclaims.yaml"
    script:
        "../scripts/multiplicity_pmf_figure.py"


rule multiplicity_cdf_figure:
    output:
        pdf=f"{MULT_FIG}/cdf_best.pdf",
        png=report(f"{MULT_FIG}/cdf_best.png", caption=caption("multiplicity_cdf"),
                   category="Multiplicity", subcategory="Figures"),
        csv=report(f"{MULT_FIG}/cdf_best.csv", caption=caption("multiplicity_cdf"),
                   category="Multiplicity", subcategory="Figure data"),
    log:
        "logs/multiplicity/cdf_figure.log",
    params:
        cfg=config["multiplicity"],
    conda:
        "../../envs/falseclaims.yaml"
    script:
        "../scripts/multiplicity_cdf_figure.py"


rule multiplicity_simulate_dependent:
    output:
        draws=f"{MULT_RES}/dependent_draws.csv",
        summary=report(f"{MULT_RES}/dependent_summary.csv",
                       caption=caption("multiplicity_dependent_summary"),
                       category="Multiplicity", subcategory="Tables"),
    log:
        "logs/multiplicity/simulate_dependent.log",
    params:
        cfg=config["multiplicity"],
        seed=[config["seed"], config["multiplicity"]["dependent"]["seed_stream"]],
    conda:
        "../../envs/falseclaims.yaml"
    script:
        "../scripts/multiplicity_simulate_dependent.py"


rule multiplicity_dependent_figure:
    input:
        draws=rules.multiplicity_simulate_dependent.output.draws,
    output:
        pdf=f"{MULT_FIG}/dependent_hist.pdf",
        png=report(f"{MULT_FIG}/dependent_hist.png", caption=caption("multiplicity_dependent"),
                   category="Multiplicity", subcategory="Figures"),
        csv=report(f"{MULT_FIG}/dependent_hist.csv", caption=caption("multiplicity_dependent"),
                   category="Multiplicity", subcategory="Figure data"),
    log:
        "logs/multiplicity/dependent_figure.log",
    params:
        cfg=config["multiplicity"],
    conda:
        "../../envs/falseclaims.yaml"
    script:
        "../scripts/multiplicity_dependent_figure.py"


ALL_TARGETS.extend(
    [f"{MULT_RES}/sota_table.csv", f"{MULT_RES}/dependent_summary.csv"]
    + expand(f"{MULT_FIG}/{{name}}.{{ext}}",
             name=["pmf_single_vs_best", "cdf_best", "dependent_hist"],
             ext=["pdf", "png", "csv"])
)
