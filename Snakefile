# falseclaims: probability of false outperformance claims, end to end.
# Rules live in workflow/rules/*.smk; all logic in the falseclaims package (src/).

import atexit
import copy
import sys
from pathlib import Path

from snakemake.utils import min_version

min_version("9.0")


# the config files read as strict YAML first: a key given twice or a tag such as
# !!python/object is refused in one line naming the line
from falseclaims.config import (
    check_config_files,
    command_line_config,
    command_line_places,
    project_folder_problem,
    quiet_scheduler,
    replace_whole,
)
from falseclaims.config_validation import ConfigError

quiet_scheduler()  # a short console (docs/cli.md): no two scheduler lines per job

# config/config.yaml and the data it names are read relative to the working directory (the
# project folder, README.md "Running from another folder"): elsewhere, one line saying so
if _problem := project_folder_problem(Path.cwd(), workflow.basedir):
    sys.exit(f"ERROR: {_problem}")

# the files given with --configfile, read from the command line's words (documented options)
_configfiles, _with_config = command_line_config(sys.argv[1:])
try:
    check_config_files(["config/config.yaml", *_configfiles])
except ConfigError as _exc:
    sys.exit(f"ERROR: {_exc}")

# until `configfile:` runs, `config` holds only what --configfile / --config gave
_given = copy.deepcopy(config)


configfile: "config/config.yaml"


# Snakemake merged the given values over config/config.yaml key by key, as the commands do
# (falseclaims.config.merge_over), except for the mappings the commands replace whole (the
# example methods): those are replaced here (config/README.md, "How defaults are merged")
replace_whole(config, _given)


report: "workflow/report/workflow.rst"


include: "workflow/rules/common.smk"
include: "workflow/rules/estimation.smk"
include: "workflow/rules/survey.smk"
include: "workflow/rules/figures.smk"
include: "workflow/rules/numbers.smk"
include: "workflow/rules/multiplicity.smk"
include: "workflow/rules/calibration.smk"
include: "workflow/rules/table.smk"
include: "workflow/rules/targets.smk"


# the one list of light rules: they run on the submitting machine under a cluster profile
# (docs/cluster.md); every other rule becomes a cluster job
localrules:
    all,
    validate_sheets,
    eligibility,
    impute_sd,
    assign_congruence,
    probabilities,
    exceedance,
    plausibility,
    estimation_figures,
    venue_figures_reporting,
    venue_figures_deltas,
    venue_figures_exceedance,
    venue_figures_lookup,
    numbers,
    front_page,
    venue_comparison,
    multiplicity_figures,
    calibration_figures,
    survey,
    estimation,
    calibration,
    multiplicity,
    table_agreement,
    table_ties,


# every final target (built in workflow/rules/targets.smk)
rule all:
    default_target: True
    input:
        ALL_TARGETS,


onstart:
    for _stale in STALE_COMPARISON:
        Path(_stale).unlink(missing_ok=True)
    if STALE_COMPARISON:
        print(
            f"removed {len(STALE_COMPARISON)} file(s) of an earlier run's venue comparison "
            f"({Path(STALE_COMPARISON[0]).parent}/): this run has one venue",
            file=sys.stderr,
        )


# the run's last lines give the headline and say where to look, the report command with
# the run's own --configfile (at exit: after Snakemake's own closing lines)
onsuccess:
    from falseclaims.pipeline import end_of_run
    from falseclaims.survey.front_page import closing_lines

    end_of_run()
    atexit.register(
        print,
        "\n".join(
            closing_lines(
                config,
                _configfiles,
                _with_config,
                command_line_places(sys.argv[1:]),
            )
        ),
        file=sys.stderr,
    )
