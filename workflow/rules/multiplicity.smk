# Multiplicity of the state of the art ([Mollersen2023]): how optimistic is the best of m?
# Logic in falseclaims.multiplicity (best_of_m, tables); figures: falseclaims.figures.multiplicity.

MULT_RES = "results/multiplicity"


rule multiplicity_simulate_dependent:
    output:
        draws=f"{MULT_RES}/dependent_draws.csv",
        replicate=f"{MULT_RES}/dependent_replicate.csv",
        summary=report(
            f"{MULT_RES}/dependent_summary.csv",
            caption=caption("multiplicity_dependent_summary"),
            category=scope_category("multiplicity"),
            subcategory="Tables",
        ),
    log:
        "logs/multiplicity/simulate_dependent.log",
    priority: LONG_CHAIN_HEAD_PRIORITY
    params:
        cfg=config["multiplicity"],
        seed=[config["seed"], config["multiplicity"]["dependent"]["seed_stream"]],
    run:
        run_script(
            SCRIPTS / "multiplicity_simulate_dependent.py",
            input,
            output,
            params,
            wildcards,
            log,
            rule,
        )


# the closed-form table and the three figures in one job: one process start instead of two
# (the figures: falseclaims.figures.registry; figure_outputs: workflow/rules/common.smk)
rule multiplicity_figures:
    input:
        draws=rules.multiplicity_simulate_dependent.output.draws,
        replicate=rules.multiplicity_simulate_dependent.output.replicate,
        code=figure_code("multiplicity_figures"),
    output:
        **figure_outputs("multiplicity_figures"),
        sota_table=report(
            f"{MULT_RES}/sota_table.csv",
            caption=caption("multiplicity_table"),
            category=scope_category("multiplicity"),
            subcategory="Tables",
        ),
    log:
        "logs/multiplicity/figures.log",
    params:
        style=config["style"],
        alpha=config["multiplicity"]["alpha"],
        grid=config["multiplicity"]["grid"],
        published=config["multiplicity"].get("published"),
        example=config["multiplicity"]["example"],
        cdf_m=config["multiplicity"]["cdf_m"],
        dependent=config["multiplicity"]["dependent"],
    run:
        run_script(
            SCRIPTS / "multiplicity_figures.py",
            input,
            output,
            params,
            wildcards,
            log,
            rule,
        )
