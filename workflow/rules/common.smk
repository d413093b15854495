# Config validation, shared helpers and the list of final targets.
import json
import re
import sys
from pathlib import Path

from falseclaims.config import report_category, run_venues, venue_label, where_to_look
from falseclaims.config_validation import ConfigError, schema_path, validate
from falseclaims.tasks import TASKS

# YAML reads a key like 2023 as a number; venue keys are names (and output folders)
if isinstance(config.get("venues"), dict):
    config["venues"] = {str(k): v for k, v in config["venues"].items()}

# the schemas ship with the package (workflow/schemas/README.md); the CLI validates with the
# same function and schemas
try:
    validate(config, schema_path("config"))
except ConfigError as _exc:  # one message naming each bad key, no traceback
    sys.exit(f"ERROR: {_exc}")

try:  # run_venues: [mine] runs only the user's venues (config/README.md, ## run_venues)
    VENUES = run_venues(config)
except ValueError as _exc:
    sys.exit(f"ERROR: {_exc}")
# every venue gets its display label here, so captions and scripts read `label` as is
for _venue in VENUES:
    config["venues"][_venue]["label"] = venue_label(config, _venue)

# every rules file appends its final outputs here; `rule all` requests them
ALL_TARGETS = []

# Which ready job runs first (same outputs, less time with a core idle at the end): the heads
# of the long serial chains (the estimated congruence and SD every venue reads, the dependent
# multiplicity simulation, the calibration simulation) first, then every venue's survey
# stages and its figure job (the longest job); the short figure and summary jobs fill the
# free cores.
LONG_CHAIN_HEAD_PRIORITY = 20
VENUE_CHAIN_PRIORITY = 10


wildcard_constraints:
    venue="|".join(re.escape(v) for v in VENUES),
    task="|".join(TASKS),


def venue_sheet_files(wildcards):
    v = config["venues"][wildcards.venue]
    return sorted({v["papers"], v.get("results")} - {None})


def config_subset(*paths):
    """The parts of the config a job reads, config-shaped, for its ``params:`` (so editing
    one of them reruns the job and editing anything else does not). A path is a key or a
    tuple of keys; missing keys are left out (the library reports them)."""
    out = {}
    for path in paths:
        keys = (path,) if isinstance(path, str) else tuple(path)
        src, dst = config, out
        for key in keys[:-1]:
            if not isinstance(src, dict) or key not in src:
                break
            src, dst = src[key], dst.setdefault(key, {})
        else:
            if isinstance(src, dict) and keys[-1] in src:
                dst[keys[-1]] = src[keys[-1]]
    return out


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


# report subcategories of a venue, in the order of the menu (sorted by name): the numbers
# first, then the figures and tables in the paper's order (their "#" label)
REPORT_NUMBERS = "1 · Numbers stated in the paper"
REPORT_FIGURES = "2 · Figures and tables"
REPORT_SELECTION = "3 · Selection"


def venue_label_of(wildcards):
    """Report category of a venue's results: its label, not its key."""
    return report_category(config["venues"][wildcards.venue]["label"])


def figure_outputs(names, folder, category, report_info):
    """Outputs of a job drawing several figures: {name_png: report(...), name_pdf, name_csv}
    per figure name; ``report_info[name]`` = (caption file stem, report subcategory) or
    (caption stem, subcategory, (order, title)): the report lists such a figure by its
    ``labels`` (order "01", title "Fig 3: reporting practices") instead of its path. The
    PNG is in the report; the PDF and the CSV (the data) only in ``folder``."""
    out = {}
    for name in names:
        cap, sub, *label = report_info[name]
        labels = {"#": label[0][0], "result": label[0][1]} if label else None
        out[f"{name}_png"] = report(
            f"{folder}/{name}.png",
            caption=caption(cap),
            category=category,
            subcategory=sub,
            labels=labels,
        )
        out[f"{name}_pdf"] = f"{folder}/{name}.pdf"
        out[f"{name}_csv"] = f"{folder}/{name}.csv"
    return out
