"""Tables S1/S2: metric reporting frequency per task (CSV + one LaTeX table per task)."""
from pathlib import Path

from falseclaims import figures
from falseclaims.pipeline import read_table, run_step, write_table


def main(smk):
    cfg = smk.config["figures"]
    freq = figures.metric_frequency(read_table(smk.input.papers), cfg["populations"]["metrics"],
                                    cfg.get("metric_labels"))
    write_table(freq, smk.output.csv)
    label = smk.config["venues"][smk.wildcards.venue].get("label", smk.wildcards.venue)
    for task, path in (("classification", smk.output.tex_cls),
                       ("segmentation", smk.output.tex_seg)):
        text = (figures.metric_table_latex(freq, task, label) if (freq["task"] == task).any()
                else f"% no {task} papers in {label}\n")
        Path(path).write_text(text, encoding="utf-8")


run_step(snakemake, main)  # noqa: F821
