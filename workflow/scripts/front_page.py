"""The report's front page: headline shares of every venue and the paper's numbers."""
from pathlib import Path

from falseclaims.survey.headline import Headline
from falseclaims.pipeline import run_job
from falseclaims.plausibility import read_findings
from falseclaims.io.table_io import read_table
from falseclaims.survey.front_page import front_page_html


def main(smk):
    p = smk.params
    numbers = {v: read_table(f) for v, f in zip(p.venues, smk.input.numbers)}
    warnings = {v: [str(f) for f in read_findings(read_table(f))]
                for v, f in zip(p.venues, smk.input.plausibility)}
    html = front_page_html(numbers, p.labels, p.compare,
                           Headline(**p.headline).describe("segmentation"), warnings,
                           p.configfiles)
    Path(smk.output[0]).write_text(html, encoding="utf-8")


run_job(snakemake, main)  # noqa: F821
