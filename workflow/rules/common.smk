# Config validation, shared helpers and the list of final targets.
import json
import sys
from pathlib import Path

from falseclaims.config import venue_label
from falseclaims.config_validation import ConfigError, validate
from falseclaims.tasks import TASKS

# the schemas ship with the package; the CLI validates with the same function and schemas
SCHEMAS = Path(workflow.basedir) / "src" / "falseclaims" / "schemas"

try:
    validate(config, SCHEMAS / "config.schema.yaml")
except ConfigError as _exc:  # one message naming each bad key, no traceback
    sys.exit(f"ERROR: {_exc}")

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
