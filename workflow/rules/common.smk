# Config validation, shared helpers and the list of final targets.
import json
import sys
from pathlib import Path

from falseclaims.config_validation import ConfigError, validate

# the schemas ship with the package; the CLI validates with the same function and schemas
SCHEMAS = Path(workflow.basedir) / "src" / "falseclaims" / "schemas"

try:
    validate(config, SCHEMAS / "config.schema.yaml")
except ConfigError as _exc:  # one message naming each bad key, no traceback
    sys.exit(f"ERROR: {_exc}")

VENUES = list(config["venues"])
TASKS = ["classification", "segmentation"]

# every rules file appends its final outputs here; `rule all` requests them
ALL_TARGETS = []


wildcard_constraints:
    venue="|".join(VENUES),
    task="classification|segmentation",


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
