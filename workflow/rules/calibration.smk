# Calibration study (docs/calibration.md): simulate comparisons with known truth, compare the predicted
# probability of a false claim with the observed share of truly false claims.
# Heavy work is `calibration_simulate`, one job per (task, chunk); raise
# config["calibration"]["chunks"] for a bigger study and run the chunks in parallel
# (e.g. on a cluster, profiles/slurm). Merging sums additive counts, so more chunks only
# add data.

from falseclaims.calibration.grid import resolve_grid

# calibration.grid (quick | full) resolved: the sizes the jobs simulate
CALIBRATION = resolve_grid(config["calibration"])
CALIBRATION_CHUNKS = list(range(int(CALIBRATION["chunks"])))


rule calibration_simulate:
    output:
        bins="results/calibration/chunks/{task}/chunk{chunk}_bins.csv",
        cells="results/calibration/chunks/{task}/chunk{chunk}_cells.csv",
    log:
        "logs/calibration/simulate_{task}_{chunk}.log",
    wildcard_constraints:
        chunk=r"\d+",
    priority: LONG_CHAIN_HEAD_PRIORITY
    params:
        # everything CalibrationSettings reads: the block plus the assumptions it borrows
        cfg=config_subset(
            "seed",
            "calibration",
            ("congruence", config["calibration"]["survey_congruence_source"]),
            ("sd_model", config["calibration"]["sd_model_source"]),
        ),
    run:
        run_script(
            SCRIPTS / "calibration_simulate.py",
            input,
            output,
            params,
            wildcards,
            log,
            rule,
        )


# merging the chunks (summing additive counts) and the figures in one job: one process start
# instead of two (the figures: falseclaims.figures.registry; figure_outputs: common.smk)
rule calibration_figures:
    input:
        bins=expand(
            rules.calibration_simulate.output.bins,
            task=TASKS,
            chunk=CALIBRATION_CHUNKS,
        ),
        cells=expand(
            rules.calibration_simulate.output.cells,
            task=TASKS,
            chunk=CALIBRATION_CHUNKS,
        ),
        code=figure_code("calibration_figures"),
    output:
        **figure_outputs("calibration_figures"),
        bins="results/calibration/bins.csv",
        cells="results/calibration/cells.csv",
        curve="results/calibration/curve.csv",
        ece=report(
            "results/calibration/ece.csv",
            caption=caption("calibration_ece_table"),
            category=scope_category("calibration"),
            subcategory="Tables",
        ),
        ece_by_n="results/calibration/ece_by_n.csv",
    log:
        "logs/calibration/figures.log",
    params:
        cfg=config_subset(("calibration", "confidence"), ("calibration", "interval")),
        style=config["style"],
        reference_delta_sd=config["calibration"]["reference_delta_sd"],
        congruence_shift=config["calibration"]["congruence_shift"],
    run:
        run_script(
            SCRIPTS / "calibration_figures.py",
            input,
            output,
            params,
            wildcards,
            log,
            rule,
        )
