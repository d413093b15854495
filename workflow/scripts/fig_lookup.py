"""Fig 6 look-up grid for one task; highlights from the venue's top-2 table and the planner."""
from falseclaims import figures, style
from falseclaims.config import configured_congruence, sd_model_from_config
from falseclaims.figures.output import write_figure
from falseclaims.pipeline import read_table, run_step


def main(smk):
    cfg = smk.config
    style.configure(cfg.get("style"))
    grid, task = cfg["lookup_grid"], smk.wildcards.task
    source = grid["congruence_source"]
    fig, data = figures.fig6_lookup(
        task, grid[task]["n"], grid[task]["delta"], grid[task]["level"],
        configured_congruence(cfg, source)[task],
        sd_model=sd_model_from_config(cfg) if task == "segmentation" else None,
        sd_level=grid["sd_level"],
        observed=figures.observed_medians(read_table(smk.input.top2), task),
        target=cfg["planner"]["target"], bands=tuple(grid["bands"]),
        n_max=cfg["planner"]["n_max"],
        venue_label=cfg["venues"][smk.wildcards.venue].get("label", smk.wildcards.venue),
        congruence_source=source,
    )
    write_figure(fig, data, smk.output.png)


run_step(snakemake, main)  # noqa: F821
