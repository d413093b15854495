"""Table mode vs per-case truth: pairs, printed tables, summary and the figure."""

from falseclaims.config import configured_congruence
from falseclaims.figures.output import write_figure
from falseclaims.figures.table import agreement_figure
from falseclaims.pipeline import run_job
from falseclaims.io.table_io import write_table
from falseclaims.style import configure
from falseclaims.table.agreement import agreement_study


def main(smk):
    p = smk.params
    configure(p.style)
    out = agreement_study(p.cfg["table_agreement"]["touchstone"],
                          p.cfg["table_agreement"]["isic"], p.cfg,
                          int(p.cfg["table_agreement"]["decimals"]))
    for name in ("pairs", "tables", "summary"):
        write_table(out[name], smk.output[name])
    fig, data = agreement_figure(out["pairs"], configured_congruence(p.cfg, "paper"))
    write_figure(fig, data, smk.output.agreement_png)


run_job(snakemake, main)  # noqa: F821
