# Config validation, shared helpers and the list of final targets.
import json
import re
import sys
from dataclasses import asdict
from importlib.util import find_spec
from pathlib import Path

from falseclaims.config import (
    Eligibility,
    Headline,
    missing_files,
    report_category,
    run_venues,
    venue_files,
    venue_label,
)
from falseclaims.config_validation import ConfigError, schema_path, validate
from falseclaims.estimation.inputs import source_input_files
from falseclaims.figures.registry import (
    REPORT_FIGURES,
    REPORT_NUMBERS,
    REPORT_SELECTION,
    SCOPES,
    figures_of,
)
from falseclaims.pipeline import run_script
from falseclaims.tasks import TASKS

# the rules' scripts (run by run_script: a process forked from one that imported the library)
SCRIPTS = Path(workflow.basedir) / "workflow" / "scripts"

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
# the headline assumption as plain data for the rules' params (Snakemake records and
# compares params between runs); the scripts rebuild Headline(**params.headline)
HEADLINE = asdict(Headline.from_config(config))

# Which ready job runs first (same outputs, less time with a core idle at the end): the heads
# of the long serial chains (the estimated congruence and SD every venue reads, the dependent
# multiplicity simulation, the calibration simulation; table mode's agreement study, the
# longest job without inputs, which had run alone at the end) first, then every venue's survey
# stages and its figure job (the longest job); the short figure and summary jobs fill the
# free cores.
LONG_CHAIN_HEAD_PRIORITY = 20
VENUE_CHAIN_PRIORITY = 10


wildcard_constraints:
    venue="|".join(re.escape(v) for v in VENUES),
    task="|".join(TASKS),


def venue_sheet_files(wildcards):
    """Every file a venue's sheets are read from (its sizes table too: editing it reruns
    the venue), relative to the working directory like every path of the config."""
    return sorted(set(venue_files(config["venues"][wildcards.venue]).values()))


def estimation_files():
    """{config key: path} of the files the estimation sources name (a glob matching nothing:
    the input function says so, source_files)."""
    out = {}
    for block in ("congruence_sources", "sd_sources"):
        for name, spec in (config.get("estimation", {}).get(block) or {}).items():
            try:
                files = source_input_files(spec)
            except FileNotFoundError:
                continue
            out.update({f"estimation.{block}.{name}": f for f in files if "*" not in f})
    return out


# every file the config names exists, before anything runs: Snakemake drops a job whose
# input is missing and takes its outputs of an earlier run as they are (config.missing_files)
_missing = missing_files(
    {
        **{
            f"venues.{v}.{key}": path
            for v in VENUES
            for key, path in venue_files(config["venues"][v]).items()
        },
        **estimation_files(),
    }
)
if _missing:
    sys.exit(
        f"ERROR: {len(_missing)} file(s) the config names are missing:\n"
        + "\n".join(f"  - config {line}" for line in _missing)
    )


def source_files(block):
    """The input function of an estimation rule: the files the source ``{source}`` of
    ``estimation.<block>`` reads; a glob matching no file stops the run with one line naming
    the key and the folder (an input function's error is otherwise a Python traceback).
    """

    def files(wildcards):
        try:
            return source_input_files(config["estimation"][block][wildcards.source])
        except FileNotFoundError as exc:
            sys.exit(
                f"ERROR: config estimation.{block}.{wildcards.source}: {exc}; "
                f"'.' is the working directory {Path.cwd()}"
            )

    return files


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
    """{source: fit} of the congruence sources in use estimated by the pipeline (rules of
    estimation.smk, included before the survey)."""
    return {
        s: rules.estimation_congruence.output.summary.format(source=s)
        for s in config["congruence"]["use"]
        if s not in config["congruence"]
    }


def estimated_sd_files(wildcards=None):
    """{source: fit} of the SD sources in use estimated by the pipeline."""
    return {
        s: rules.estimation_sd.output.model.format(source=s)
        for s in config["sd_model"]["use"]
        if s not in config["sd_model"]
    }


def venue_label_of(wildcards):
    """Report category of a venue's results: its label, not its key."""
    return report_category(config["venues"][wildcards.venue]["label"])


def scope_category(scope):
    """Report category of a scope of the figure registry (a venue's: its label)."""
    return SCOPES[scope][1] or venue_label_of


def figure_outputs(job):
    """Outputs of a job drawing figures, from the figure registry
    (falseclaims.figures.registry): {name_png: report(...), name_pdf, name_csv} per figure.
    The PNG is in the report with its caption, listed by its labels (order "01", title
    "Fig 3: reporting practices") when it has them; the PDF and the CSV (the data) beside it.
    """
    out = {}
    for fig in figures_of(job):
        paths = fig.paths()
        out[f"{fig.name}_png"] = report(
            paths["png"],
            caption=caption(fig.caption),
            category=scope_category(fig.scope),
            subcategory=fig.subcategory,
            labels=fig.labels,
        )
        out[f"{fig.name}_pdf"] = paths["pdf"]
        out[f"{fig.name}_csv"] = paths["csv"]
    return out


def figure_code(job):
    """The drawing modules of a job's figures (the files the job imports, wherever the
    package is installed), as inputs: editing one figure's code reruns only the jobs
    drawing with that module, not every figure (the shared style and writer are left out:
    editing them is a rerun of everything, ``--forcerun``)."""
    modules = sorted({fig.draw.rsplit(".", 1)[0] for fig in figures_of(job)})
    return [find_spec(f"falseclaims.figures.{m}").origin for m in modules]


def library_code(*modules):
    """The library modules that write a job's text (``survey.numbers``), as inputs: editing
    one reruns the jobs it writes for (a rule's own script is tracked by Snakemake; the
    library it calls is not)."""
    return [find_spec(f"falseclaims.{m}").origin for m in modules]


def outputs(*rule_outputs, **wildcards):
    """Every file of these rules' outputs, expanded over ``wildcards`` (targets.smk)."""
    return expand([str(f) for out in rule_outputs for f in out], **wildcards)
