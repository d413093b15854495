# Config validation, shared helpers and the list of final targets.
import json
from pathlib import Path

from snakemake.utils import validate

from falseclaims.config import venue_label
from falseclaims.tasks import TASKS

SCHEMAS = Path(workflow.basedir) / "workflow" / "schemas"

validate(config, str(SCHEMAS / "config.schema.yaml"))
for _block in config:
    _schema = SCHEMAS / f"{_block}.schema.yaml"
    if _schema.exists():
        validate(config[_block], str(_schema))

VENUES = list(config["venues"])
# every venue gets its display label here, so captions and scripts read `label` as is
for _venue in VENUES:
    config["venues"][_venue]["label"] = venue_label(config, _venue)

# every rules file appends its final outputs here; `rule all` requests them
ALL_TARGETS = []


wildcard_constraints:
    venue="|".join(VENUES),
    task="|".join(TASKS),


def venue_sheet_files(wildcards):
    v = config["venues"][wildcards.venue]
    return sorted({v["papers"], v.get("results")} - {None})


def caption(name):
    return str(Path(workflow.basedir) / "workflow" / "report" / f"{name}.rst")


def estimated_congruence_files(wildcards=None):
    return {
        s: f"results/estimation/congruence/{s}.yaml"
        for s in config["congruence"]["use"]
        if s not in config["congruence"]
    }


def estimated_sd_files(wildcards=None):
    return {
        s: f"results/estimation/sd_model/{s}.yaml"
        for s in config["sd_model"]["use"]
        if s not in config["sd_model"]
    }
