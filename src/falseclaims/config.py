"""Loading a config and resolving congruence and SD assumptions from it.

Defaults have one source: ``config/config.yaml``, shipped inside the package as
``falseclaims/default_config.yaml`` (a symbolic link to it in the repository, its content in
a wheel). Pipeline and commands apply one rule, :func:`merge_over`: the user's file merged
over those defaults key by key, so it needs only the keys it changes; the result is
validated strictly (:mod:`falseclaims.config_validation`), with the same schemas and
messages. In the pipeline Snakemake merges ``--configfile`` / ``--config`` over
config/config.yaml (its ``configfile:``), which is that rule except where
:func:`replace_whole` corrects it; the `falseclaims` commands merge ``--config FILE``,
``$FALSECLAIMS_CONFIG`` or ``./config/config.yaml`` over :func:`cli_defaults` (the blocks
they read, with only the inline congruence and SD sources).
"""

from __future__ import annotations

import argparse
import copy
import os
import shlex
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

import yaml

from falseclaims.config_validation import ConfigError, schema_path, validate
from falseclaims.errors import FalseclaimsInputError
from falseclaims.io.textio import require_regular_file
from falseclaims.levels import CONGRUENCE_LEVELS, LEVEL_LABELS
from falseclaims.sd_model import SDModel
from falseclaims.tasks import TASKS

# mappings whose keys are names the user chooses and whose entries only make sense together:
# a file giving one of them replaces the default mapping instead of adding to it
REPLACED_MAPPINGS = ("claim_check.examples.*.methods",)
DEFAULT_CONFIG = Path(str(resources.files("falseclaims") / "default_config.yaml"))


def find_config(path: str | os.PathLike | None = None) -> Path | None:
    """The config file to use: explicit path, $FALSECLAIMS_CONFIG or ./config/config.yaml;
    None when there is none (the packaged defaults apply)."""
    given = path or os.environ.get("FALSECLAIMS_CONFIG")
    if given:
        p = Path(given)
        via = "" if path else " (from $FALSECLAIMS_CONFIG)"
        try:  # a folder, '-', a pipe or a device (/dev/null) is named as what it is
            require_regular_file(p, "YAML file")
        except ValueError as exc:
            raise ConfigError([str(exc).split(": ", 1)[-1] + via], str(p)) from None
        if not p.is_file():
            raise ConfigError([f"no such file{via}"], str(p))
        return p
    local = Path.cwd() / "config" / "config.yaml"
    return local if local.is_file() else None


class StrictLoader(yaml.SafeLoader):
    """``yaml.SafeLoader`` that refuses a key given twice in one mapping (plain YAML keeps
    the last silently: two venues of the same name would become one)."""

    def construct_mapping(self, node, deep=False):
        seen = {}
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                continue
            key = self.construct_object(key_node, deep=True)
            try:
                first = seen.setdefault(key, key_node.start_mark.line + 1)
            except TypeError:  # an unhashable key: the base class says so
                break
            if first != key_node.start_mark.line + 1:
                raise yaml.constructor.ConstructorError(
                    None, None, f"duplicate key {key!r} (first given at line {first})",
                    key_node.start_mark)
        return super().construct_mapping(node, deep=deep)


def read_yaml(path: str | os.PathLike) -> dict:
    """A YAML mapping; syntax errors, duplicate keys, tags such as ``!!python/object`` and
    non-mappings as one-line :class:`ConfigError` naming the line."""
    try:
        with open(path, encoding="utf-8") as fh:
            data = yaml.load(fh, Loader=StrictLoader)  # noqa: S506 (a SafeLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        what = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        if isinstance(exc, yaml.constructor.ConstructorError):  # a tag or a duplicate key
            if "constructor for the tag" in what:
                what += " (only plain YAML is read: no !!python/... or other tags)"
            raise ConfigError([f"YAML error{where}: {what}"], str(path)) from None
        if "'\\t'" in what:  # an editor's tab key: YAML indents with spaces only
            what += " (a tab: YAML indents with spaces; replace the tabs by spaces)"
        raise ConfigError([f"YAML syntax error{where}: {what}"], str(path)) from None
    except UnicodeDecodeError:
        raise ConfigError(["not a UTF-8 text file"], str(path)) from None
    if not isinstance(data, dict):
        raise ConfigError([f"expected a mapping of blocks at the top level, got "
                           f"{type(data).__name__}"], str(path))
    return data


def check_config_files(paths) -> None:
    """:func:`read_yaml` of every existing file (the pipeline's config files, before and
    besides Snakemake's own loader, which keeps the last of two equal keys); a folder, a
    pipe or a device (``--configfile /dev/null``) refused saying what it is."""
    for path in paths:
        try:
            require_regular_file(path, "YAML file")
        except ValueError as exc:
            raise ConfigError([str(exc).split(": ", 1)[-1]], str(path)) from None
        if Path(path).is_file():
            read_yaml(path)


def venue_files(venue_cfg: dict) -> dict[str, str]:
    """{config key: path} of every file a venue's sheets are read from (papers, results, the
    sizes table): the inputs of its first pipeline job."""
    sizes = venue_cfg.get("sizes") if isinstance(venue_cfg.get("sizes"), dict) else {}
    named = {"papers": venue_cfg.get("papers"), "results": venue_cfg.get("results"),
             "sizes.file": sizes.get("file")}
    return {key: str(path) for key, path in named.items() if path}


def missing_files(named: Mapping[str, str], workdir: str | os.PathLike = ".",
                  config_file: str | os.PathLike | None = None) -> list[str]:
    """One line per ``{config key: path}`` that names no regular file under ``workdir``.
    The pipeline checks before it starts: a job whose input file is missing is dropped by
    Snakemake, and when its outputs exist from an earlier run they are used as they are (a
    mistyped sheet path after a run would keep the old sheet's results, unsaid).
    ``config_file``: the file naming the paths; a path missing under ``workdir`` but found
    relative to that file's folder (or its project folder, above ``config/``) gets the
    path to write instead, relative to ``workdir`` (the one rule: Snakemake's)."""
    out = []
    for key, path in named.items():
        full = Path(workdir, path)
        try:
            require_regular_file(full, "file")
        except ValueError as exc:
            out.append(f"{key}: {path}: {str(exc).split(': ', 1)[-1]}")
            continue
        if not full.is_file():
            out.append(f"{key}: no such file {path} (paths are relative to the working "
                       f"directory {Path(workdir).resolve()})"
                       + _found_beside(key, path, workdir, config_file))
    return out


def _found_beside(key: str, path: str, workdir, config_file) -> str:
    """The hint of :func:`missing_files` when ``path`` exists relative to the config file's
    folder or its project folder: the path to write, relative to ``workdir``."""
    if config_file is None or Path(path).is_absolute():
        return ""
    folder = Path(config_file).resolve().parent
    for base in dict.fromkeys([folder, *([folder.parent] if folder.name == "config" else [])]):
        if (base / path).is_file():
            there = os.path.relpath((base / path).resolve(), Path(workdir).resolve())
            return (f"; it exists relative to {base} (the config file's "
                    f"{'folder' if base == folder else 'project folder'}): "
                    f"write {key}: {Path(there).as_posix()}")
    return ""


def project_folder_problem(workdir: str | os.PathLike, basedir: str | os.PathLike) -> str | None:
    """Why the pipeline cannot run in ``workdir``, or None. Like every Snakemake workflow
    it reads ``config/config.yaml`` and the data the config names relative to the working
    directory (the project folder; ``workflow.basedir``, the Snakefile's folder, only for
    the files shipped with the workflow): started elsewhere (``cd /tmp && snakemake -s
    REPO/Snakefile``) it would fail on the first relative path, with a traceback."""
    if (Path(workdir) / "config" / "config.yaml").exists():  # a folder or pipe: said next
        return None
    base = shlex.quote(str(basedir))
    return (f"no config/config.yaml in the working directory {workdir}: run the pipeline "
            f"from the project folder: cd {base}, or snakemake --directory {base}")


def command_line_config(argv) -> tuple[list[str], bool]:
    """The ``--configfile`` files and whether ``--config`` values were given, read from the
    pipeline's own command line (``sys.argv``): Snakemake documents these options, not the
    attributes of its workflow object that hold them, so the Snakefile reads the words."""
    # as Snakemake declares them (nargs, default store): a repeated option REPLACES the
    # earlier one (`--configfile a.yaml --configfile b.yaml` runs b.yaml alone)
    parser = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    parser.add_argument("--configfile", "--configfiles", nargs="+", default=[])
    parser.add_argument("--config", "-C", nargs="*", default=[])
    known, _ = parser.parse_known_args(list(argv))
    return list(known.configfile), bool(known.config)


def command_line_places(argv) -> list[str]:
    """The words of the pipeline's command line (``sys.argv``) the report command printed
    after it (:func:`where_to_look`) needs as well, as typed: ``-s``/``--snakefile`` (a
    project folder of one's own runs the checkout's Snakefile), ``-d``/``--directory`` (a
    run from elsewhere) and the ``--config`` values (without them the report would describe
    another run). Read as Snakemake reads them (``--config`` takes every word up to the
    next option)."""
    parser = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    parser.add_argument("-s", "--snakefile", default=None)
    parser.add_argument("-d", "--directory", default=None)
    parser.add_argument("--config", "-C", nargs="*", default=[])  # the last one counts
    known, _ = parser.parse_known_args(list(argv))
    return ([*(["-s", known.snakefile] if known.snakefile else []),
             *(["--directory", known.directory] if known.directory else []),
             *(["--config", *known.config] if known.config else [])])


def merge_over(defaults: dict, given: dict, where: str = "") -> dict:
    """``given`` merged over ``defaults``: mappings key by key (recursively), lists and scalars
    replaced, except the :data:`REPLACED_MAPPINGS`, replaced whole. Neither input changes."""
    out = copy.deepcopy(defaults)
    for key, value in given.items():
        path = f"{where}.{key}" if where else str(key)
        if (isinstance(value, dict) and isinstance(out.get(key), dict)
                and not _replaced(path)):
            out[key] = merge_over(out[key], value, path)
        else:
            out[key] = copy.deepcopy(value)
    return out


def _replaced(path: str) -> bool:
    parts = path.split(".")
    return any(len(p := pattern.split(".")) == len(parts)
               and all(a in ("*", b) for a, b in zip(p, parts))
               for pattern in REPLACED_MAPPINGS)


@lru_cache(maxsize=1)
def _packaged() -> dict:
    """The packaged config/config.yaml, read once with libyaml's parser when present (5x
    faster at start-up; the strict reading, duplicate keys refused, is the pipeline's at
    every run and ``tests/test_config_validation.py``'s)."""
    with open(DEFAULT_CONFIG, encoding="utf-8") as fh:
        return yaml.load(fh, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))  # noqa: S506


def packaged_block(name: str) -> dict:
    """A copy of one block of the packaged config/config.yaml (e.g. ``style`` for figures
    drawn outside the pipeline)."""
    return copy.deepcopy(_packaged()[name])


def cli_defaults() -> dict:
    """The defaults of the `falseclaims` commands: the blocks ``cli_config.schema.yaml``
    requires, taken from the packaged config/config.yaml, with ``congruence.use`` and
    ``sd_model.use`` reduced to the sources defined inline (estimated sources exist only
    inside the pipeline). A fresh copy each call."""
    return copy.deepcopy(_cli_defaults())


@lru_cache(maxsize=1)
def _cli_defaults() -> dict:
    from falseclaims.config_validation import schema_required

    out = {block: packaged_block(block) for block in schema_required("cli_config")}
    for block in ("congruence", "sd_model"):
        out[block]["use"] = [s for s in out[block]["use"] if s in out[block]]
    return out


def load_config(path: str | os.PathLike | Mapping | None = None) -> dict:
    """The config of the `falseclaims` commands: the file of :func:`find_config` merged over
    :func:`cli_defaults` (:func:`merge_over`), validated strictly. A mapping (the Python
    API's ``config={...}``) is merged and validated as the file would be."""
    cfg = cli_defaults()
    if isinstance(path, Mapping):
        return validate(merge_over(cfg, dict(path)), schema_path("cli_config"),
                        source="config (a dict)")
    found = find_config(path)
    if found is not None:
        cfg = merge_over(cfg, read_yaml(found))
    return validate(cfg, schema_path("cli_config"), source=str(found or DEFAULT_CONFIG))


def replace_whole(cfg: dict, given: dict) -> None:
    """Where the commands' rule (:func:`merge_over`) and Snakemake's merge of ``--configfile``
    over ``configfile:`` (``snakemake.utils.update_config``, mappings key by key) differ: each
    mapping of :data:`REPLACED_MAPPINGS` that ``given`` holds replaces the one in ``cfg``
    whole, in place (Snakemake's merge would mix the default and the given example methods).
    Not validated here (``workflow/rules/common.smk`` does)."""
    for path, value in _replaced_in(given):
        target = cfg
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = copy.deepcopy(value)


def _replaced_in(given: dict, where: tuple = ()):
    for key, value in given.items():
        path = (*where, key)
        if _replaced(".".join(map(str, path))):
            yield path, value
        elif isinstance(value, dict):
            yield from _replaced_in(value, path)


def configured_congruence(cfg: dict, source: str = "paper") -> dict[str, dict[str, float]]:
    """{task: {q1, median, q3}} of a congruence source defined inline in the config."""
    block = cfg.get("congruence", {})
    if source not in block or not isinstance(block[source], dict):
        raise FalseclaimsInputError(_undefined_source(
            cfg, "congruence", source, f"its quartiles are in "
            f"results/estimation/congruence/{source}_quartiles.csv: pass one with --congruence"))
    out = {}
    for task in TASKS:
        levels = block[source].get(task)
        if levels is None:
            raise FalseclaimsInputError(f"congruence source {source!r} lacks task {task!r}")
        out[task] = {lvl: float(levels[lvl]) for lvl in CONGRUENCE_LEVELS}
    return out


def venue_label(cfg: dict, venue: str) -> str:
    """How outputs name a venue: its ``label`` in config ``venues:``, else its key."""
    return cfg["venues"][venue].get("label", venue)


class ConfigParam(dict):
    """A config block given to a rule's ``params:``. A plain dict for the script and for
    Snakemake's rerun check (which compares ``repr``, unchanged), but printed as its key
    names: the report's "Job parameters" panel says what a job reads (``config figures
    {threshold, populations, ...}``) instead of dumping every value."""

    def __init__(self, data: dict, name: str = ""):
        super().__init__(data)
        self.name = name

    def __str__(self) -> str:
        return f"config {self.name}".rstrip() + " {" + ", ".join(map(str, self)) + "}"

    def __format__(self, spec: str) -> str:
        return str(self)


def report_category(label: str) -> str:
    """A venue label as a Snakemake report category: the report writes category names
    unescaped into a ``<script>`` block, so ``<`` and ``>`` become look-alike angle quotes
    (a label ``</script>...`` cannot end the script)."""
    return str(label).replace("<", "\u2039").replace(">", "\u203a")


class ReportText(str):
    """A label given to a rule's ``params:``: the script gets the text as is, the report's
    "Job parameters" panel (written unescaped into a ``<script>`` block) gets it through
    :func:`report_category`."""

    def __format__(self, spec: str) -> str:
        return report_category(str(self))


class _SchedulerChatter:
    """A logging filter: Snakemake's scheduler says "Select jobs to execute..." and "Execute
    N jobs..." before every job (two lines per job, a third of a run's console); each job's
    own one-line summary and the errors stay."""

    def filter(self, record) -> bool:
        msg = record.getMessage()
        return not (msg == "Select jobs to execute..."
                    or (msg.startswith("Execute ") and msg.endswith(" jobs...")))


def quiet_scheduler() -> None:
    """Drop the scheduler's per-job lines from the console (the Snakefile calls it)."""
    import logging

    logger = logging.getLogger("snakemake.logging")
    if not any(isinstance(f, _SchedulerChatter) for f in logger.filters):
        logger.addFilter(_SchedulerChatter())


def where_to_look(cfg: dict, configfiles=(), with_config: bool = False,
                 root: str | os.PathLike = ".", places=()) -> str:
    """The last line of a successful pipeline run: where the headline and the report are,
    after the venues whose result is implausible (a ``results/<venue>/plausibility.csv``
    under ``root`` with a warning, written by the ``plausibility`` rule). The report command
    carries the run's ``--configfile`` files (``configfiles``; without them the report would
    describe the default venues), its ``-s``, ``--directory`` and ``--config`` values
    (``places``, from :func:`command_line_places`); ``with_config`` and no ``--config`` in
    ``places``: a reminder of the run's ``--config`` values."""
    venues = run_venues(cfg)  # only the venues this run made
    where = ", ".join(f"results/{v}/summary.csv" for v in venues)
    if len(venues) > 1:
        where += " (side by side: figures/comparison/venue_comparison.csv)"
    flagged = [v for v in venues if _has_rows(Path(root, "results", v, "plausibility.csv"))]
    warn = "".join(f"IMPLAUSIBLE result of venue {v}: see results/{v}/plausibility.csv. "
                   for v in flagged)
    # one --configfile with every file: Snakemake keeps only the last of repeated options
    report = shlex.join(["snakemake", *places]) + " --report report.html" + (
        " --configfile " + " ".join(shlex.quote(shown_path(f)) for f in configfiles)
        if configfiles else "")
    # the values themselves when known (places); else a reminder of them
    again = " with this run's --config values" if with_config and "--config" not in places \
        else ""
    return (f"{warn}Done. Every assumption (column headline marks the rows above): {where}; "
            f"figures in figures/; the report: run `{report}`{again} and open it.")


def shown_path(path) -> str:
    """``path`` relative to the working directory when under it (as the user typed it)."""
    p = Path(path)
    try:
        return str(p.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(p)


def _has_rows(table: Path) -> bool:
    """A table file with at least one line below its header."""
    if not table.is_file():
        return False
    with table.open(encoding="utf-8") as fh:
        return sum(1 for line in fh if line.strip()) > 1


def run_venues(cfg: dict) -> list[str]:
    """The venues the pipeline runs: ``run_venues`` when given (each a key of ``venues``),
    else every venue. ``snakemake --configfile my.yaml`` merges ``my.yaml`` over
    config/config.yaml, so the example venues stay in ``venues``; ``run_venues: [mine]``
    in ``my.yaml`` runs only the user's."""
    chosen = list(cfg.get("run_venues") or [])
    unknown = [v for v in chosen if v not in (cfg.get("venues") or {})]
    if unknown:
        raise FalseclaimsInputError(
            f"config run_venues names {', '.join(map(repr, unknown))}, which is not a key of "
            f"venues ({', '.join(cfg.get('venues') or {}) or 'none'})")
    return [str(v) for v in chosen] or [str(v) for v in cfg.get("venues") or {}]


@dataclass(frozen=True)
class Headline:
    """The assumption behind the headline numbers: the first congruence and SD sources in
    ``use`` with the ``analysis`` headline levels (for segmentation, SD source + level)."""

    congruence_source: str
    congruence_level: str
    sd_source: str
    sd_level: str

    @classmethod
    def from_config(cls, cfg: dict) -> Headline:
        """Read once from a validated config (pipeline or :func:`load_config`), so every key
        is present; the values live in config/config.yaml."""
        return cls(congruence_source=cfg["congruence"]["use"][0],
                   congruence_level=cfg["analysis"]["headline_congruence"],
                   sd_source=cfg["sd_model"]["use"][0],
                   sd_level=cfg["analysis"]["headline_sd"])

    def describe(self, task: str) -> str:
        """The assumption in words (headline sentence, front page, figure notes): source
        names read as words ("MSD reference"); the config keys stay in the config."""
        text = f"{LEVEL_LABELS.get(self.congruence_level, self.congruence_level)} congruence " \
               f"({source_label(self.congruence_source)})"
        if task == "segmentation":
            text += f", {LEVEL_LABELS.get(self.sd_level, self.sd_level)} imputed SD " \
                    f"({source_label(self.sd_source)})"
        return text


def source_label(key: str) -> str:
    """A congruence or SD source's config key as words: ``msd_reference`` -> "MSD
    reference" (the Medical Segmentation Decathlon's acronym upper case)."""
    return " ".join("MSD" if w == "msd" else w for w in str(key).split("_"))


@dataclass(frozen=True)
class SourceCitations:
    """Where the headline's assumptions come from, as the web page cites them: the
    ``citation`` of the headline congruence source and of its SD model source, else the
    source's name. ``sd`` is None when the SD source is not defined in the config (an
    estimated source: only segmentation uses one, and a check needing it fails before)."""

    congruence: str
    sd: str | None

    @classmethod
    def from_config(cls, cfg: Mapping) -> SourceCitations:
        head = Headline.from_config(cfg)
        sd = (cfg.get("sd_model") or {}).get(head.sd_source)
        return cls(
            congruence=cfg["congruence"][head.congruence_source].get(
                "citation", head.congruence_source),
            sd=sd.get("citation", head.sd_source) if isinstance(sd, dict) else None)


@dataclass(frozen=True)
class Planner:
    """``planner``: the P(false claim) a test set must reach (``target``, also table mode's
    tie cutoff), the largest size searched and the SD level of segmentation plans."""

    target: float
    n_max: int
    sd_level: str

    @classmethod
    def from_config(cls, cfg: Mapping) -> Planner:
        return cls.from_block(cfg["planner"])  # required by the schema

    @classmethod
    def from_block(cls, block: Mapping) -> Planner:
        """From the ``planner`` block itself (what the figure rule hands its script)."""
        return cls(target=float(block["target"]), n_max=int(block["n_max"]),
                   sd_level=str(block["sd_level"]))


@dataclass(frozen=True)
class ClaimCheck:
    """``claim_check`` as the commands read it: the rounding grid of ``check --decimals``
    and the bootstrap and test level of ``percase`` (the interpretation thresholds and
    ``large_n`` are read by :mod:`falseclaims.percase`, which also runs without a config)."""

    rounding_grid_points: int
    alpha: float
    seed: int
    resamples: int
    level: float
    max_draws: int

    @classmethod
    def from_config(cls, cfg: dict) -> ClaimCheck:
        block = cfg["claim_check"]  # required by the schema
        boot = block["bootstrap"]
        return cls(rounding_grid_points=int(block["rounding_grid_points"]),
                   alpha=float(block["alpha"]), seed=int(block["seed"]),
                   resamples=int(boot["resamples"]), level=float(boot["level"]),
                   max_draws=int(boot["max_draws"]))


@dataclass(frozen=True)
class PlausibilityLimits:
    """``plausibility``: when a sheet's values or ids read as a wrong column (the sheet
    checks) and when a planned delta is beyond what the metric makes plausible."""

    max_delta: dict[str, float]  # task -> largest |proposed - prior| on the fraction scale
    max_delta_share: float  # warn only when more papers than this share exceed max_delta
    prior_wins_share: float
    min_papers: int
    numeric_id_share: float

    @classmethod
    def from_config(cls, cfg: dict) -> PlausibilityLimits:
        block = cfg["plausibility"]  # required by the schema
        return cls(max_delta={str(t): float(v) for t, v in block["max_delta"].items()},
                   max_delta_share=float(block["max_delta_share"]),
                   prior_wins_share=float(block["prior_wins_share"]),
                   min_papers=int(block["min_papers"]),
                   numeric_id_share=float(block["numeric_id_share"]))


@dataclass(frozen=True)
class Eligibility:
    """The survey's criteria that read a paper's rows ([Christodoulou2025], Methods, "Data
    analysis subset"): the spellings that count as each task's primary metric
    (case-insensitive) and the splits that give a distinct test set."""

    metrics: dict[str, tuple[str, ...]]  # task -> spellings
    test_set_splits: tuple[str, ...]

    @classmethod
    def from_block(cls, block: Mapping) -> Eligibility:
        """From the ``analysis`` block, or the part of it the eligibility rule hands its
        script as ``params.analysis`` (``metrics`` and ``test_set_splits``)."""
        return cls(metrics={str(t): tuple(map(str, s)) for t, s in block["metrics"].items()},
                   test_set_splits=tuple(map(str, block["test_set_splits"])))


@dataclass(frozen=True)
class ExceedanceGrid:
    """The cutoffs at which the exceedance curves are evaluated: ``num`` points from
    ``start`` to ``stop``, both included."""

    start: float
    stop: float
    num: int

    @classmethod
    def from_block(cls, block: Mapping) -> ExceedanceGrid:
        """From ``analysis.exceedance_grid`` (what the exceedance rule hands its script)."""
        return cls(start=float(block["start"]), stop=float(block["stop"]),
                   num=int(block["num"]))


@dataclass(frozen=True)
class Analysis:
    """``analysis``: which papers and rows the survey reads (:class:`Eligibility`), whose
    reported SDs it keeps, and the cutoffs and curve grid of its shares (its headline levels
    are :class:`Headline`'s, read there only)."""

    eligibility: Eligibility
    use_reported_sd_over: tuple[str, ...]
    cutoffs: tuple[float, ...]
    exceedance_grid: ExceedanceGrid

    @classmethod
    def from_config(cls, cfg: Mapping) -> Analysis:
        block = cfg["analysis"]  # required by the schema, as are all its keys
        return cls(eligibility=Eligibility.from_block(block),
                   use_reported_sd_over=tuple(map(str, block["use_reported_sd_over"])),
                   cutoffs=tuple(map(float, block["cutoffs"])),
                   exceedance_grid=ExceedanceGrid.from_block(block["exceedance_grid"]))


@dataclass(frozen=True)
class TaskGrid:
    """``lookup_grid.<task>``: the winner's value A (a number, or ``median_winner``: the
    venue's median winner value, ``fallback_level`` when it has none) and the sizes and
    deltas of the Fig 6 grid."""

    level: float | str
    fallback_level: float | None
    n: tuple[int, ...]
    delta: tuple[float, ...]


@dataclass(frozen=True)
class LookupGrid:
    """``lookup_grid``: the Fig 6 grid of [Christodoulou2025] and the test-set size
    multipliers (at ``multiplier_delta``); ``inferred_levels`` ({task: A}) and
    ``inferred_venues``: a second row of multipliers at levels inferred from the paper's
    8x / 10x, for those venues (both empty when the block has no ``inferred_levels``)."""

    congruence_source: str
    sd_level: str
    bands: tuple[float, float]
    multiplier_delta: float
    tasks: dict[str, TaskGrid]
    inferred_levels: dict[str, float]
    inferred_venues: tuple[str, ...]
    band_rule: str = "paper"

    @classmethod
    def from_config(cls, cfg: Mapping) -> LookupGrid:
        return cls.from_block(cfg["lookup_grid"])  # required by the schema

    @classmethod
    def from_block(cls, block: Mapping) -> LookupGrid:
        """From the ``lookup_grid`` block itself (what the figure rule hands its script)."""
        inferred = block.get("inferred_levels") or {}
        tasks = {}
        for task in TASKS:
            grid, level = block[task], block[task]["level"]
            fallback = grid.get("fallback_level")
            tasks[task] = TaskGrid(level=level if isinstance(level, str) else float(level),
                                   fallback_level=None if fallback is None else float(fallback),
                                   n=tuple(map(int, grid["n"])),
                                   delta=tuple(map(float, grid["delta"])))
        return cls(congruence_source=str(block["congruence_source"]),
                   sd_level=str(block["sd_level"]),
                   bands=tuple(map(float, block["bands"])),
                   multiplier_delta=float(block["multiplier_delta"]), tasks=tasks,
                   inferred_levels={t: float(inferred[t]) for t in TASKS if t in inferred},
                   inferred_venues=tuple(map(str, inferred.get("venues", ()))),
                   band_rule=str(block.get("band_rule", "paper")))


def from_params(block, kind: type):
    """``block`` as the typed object ``kind``. The Snakemake rules hand their scripts config
    blocks as ``params`` (mappings, which Snakemake records and compares to rerun a job
    when they change); a library function called with one reads it here, once, through
    ``kind.from_block``. An object of ``kind`` is returned as it is."""
    return block if isinstance(block, kind) else kind.from_block(block)


def sd_model_from_config(cfg: dict, source: str | None = None) -> SDModel:
    block = cfg.get("sd_model", {})
    source = source or Headline.from_config(cfg).sd_source
    if source not in block or not isinstance(block[source], dict):
        raise FalseclaimsInputError(_undefined_source(
            cfg, "sd_model", source, f"its fit is in results/estimation/sd_model/{source}.yaml: "
            "copy its citation, form, b0, b1, b2, pi_ratio_q1, pi_ratio_q3 and floor into "
            "config 'sd_model:' under a new name and select that"))
    return SDModel.from_dict(block[source], source=source)


def _undefined_source(cfg: dict, block: str, source: str, after_run: str) -> str:
    """Why ``source`` is unavailable: estimated sources exist only inside the pipeline."""
    what = "congruence source" if block == "congruence" else "SD model source"
    inline = [k for k, v in (cfg.get(block) or {}).items() if isinstance(v, dict)]
    estimated = (cfg.get("estimation") or {}).get(
        "congruence_sources" if block == "congruence" else "sd_sources") or {}
    defined = f"config '{block}:' defines {', '.join(inline) or 'none'}"
    if source in estimated or source in (cfg.get(block) or {}).get("use", []):
        return (f"{what} {source!r} is estimated by the pipeline and exists only inside it "
                f"({defined}); after a pipeline run {after_run}")
    return f"{what} {source!r} is not defined ({defined})"


def _resolve_sources(cfg: dict, block: str, what: str, estimated: dict[str, str] | None,
                     inline, from_yaml) -> dict:
    """{source: model} for every name in ``<block>.use``: ``inline(source)`` for a source
    defined in the block, else ``from_yaml(data, source)`` of its estimation-stage YAML."""
    estimated = estimated or {}
    out = {}
    for source in cfg[block]["use"]:
        if source in cfg[block]:
            out[source] = inline(source)
            continue
        if source not in estimated:
            raise FalseclaimsInputError(f"{what} {source!r} is neither defined inline "
                                        "nor produced by the estimation stage")
        with open(estimated[source], encoding="utf-8") as fh:
            out[source] = from_yaml(yaml.safe_load(fh), source)
    return out


def congruence_sources(cfg: dict, estimated: dict[str, str] | None = None) -> dict:
    """{source: {task: {q1, median, q3}}} for every source in ``congruence.use``.

    Sources defined inline in the ``congruence:`` block are read from the config; the
    others from the estimation stage's YAML files given in ``estimated`` (name -> path).
    """
    def from_yaml(data: dict, source: str) -> dict:
        return {task: {lvl: float(data[task][lvl]) for lvl in CONGRUENCE_LEVELS}
                for task in TASKS if task in data}

    return _resolve_sources(cfg, "congruence", "congruence source", estimated,
                            lambda source: configured_congruence(cfg, source), from_yaml)


def sd_models(cfg: dict, estimated: dict[str, str] | None = None) -> dict[str, SDModel]:
    """{source: SDModel} for every source in ``sd_model.use`` (inline or estimated)."""
    return _resolve_sources(cfg, "sd_model", "SD model source", estimated,
                            lambda source: sd_model_from_config(cfg, source),
                            lambda data, source: SDModel.from_dict(data, source=source))
