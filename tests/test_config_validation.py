"""Strict config validation: one function and one set of schemas for the pipeline and the
CLI; one source of defaults (config/config.yaml, packaged) merged under the user's file by
one rule in both."""

from __future__ import annotations

import copy
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from falseclaims.cli import main
from falseclaims.config import DEFAULT_CONFIG, cli_defaults, load_config, merge_over
from falseclaims.config_validation import (
    SCHEMA_DIR, ConfigError, config_problems, schema_path, schema_required, validate,
)
from falseclaims.sheets.read.columns import PAPERS, RESULTS, WIDE

ROOT = Path(__file__).resolve().parents[1]
REPO_CONFIG = ROOT / "config" / "config.yaml"


@pytest.fixture(scope="module")
def repo_cfg() -> dict:
    return yaml.safe_load(REPO_CONFIG.read_text(encoding="utf-8"))


def _problems(cfg, change) -> list[str]:
    cfg = copy.deepcopy(cfg)
    change(cfg)
    return config_problems(cfg, schema_path("config"))


def test_repo_config_is_valid(repo_cfg):
    assert config_problems(copy.deepcopy(repo_cfg), schema_path("config")) == []


@pytest.mark.parametrize("change, expected", [
    (lambda c: c.__setitem__("anaylsis", c.pop("analysis")),
     "unknown key 'anaylsis' (did you mean 'analysis'?)"),
    (lambda c: c.__setitem__("planer", c.pop("planner")),
     "unknown key 'planer' (did you mean 'planner'?)"),
    (lambda c: c["venues"]["venue_b_synthetic"]["constants"].__setitem__("foo", 1),
     "venues.venue_b_synthetic.constants: unknown key 'foo' (valid keys: paper_id, title"),
    (lambda c: c["venues"]["venue_b_synthetic"]["constants"].__setitem__("tsk", "x"),
     "venues.venue_b_synthetic.constants: unknown key 'tsk' (did you mean 'task'?)"),
    (lambda c: c["venues"]["venue_b_synthetic"].__setitem__("header_rw", 2),
     "venues.venue_b_synthetic: unknown key 'header_rw' (did you mean 'header_row'?)"),
    (lambda c: c["congruence"]["paper"]["classification"].__setitem__("meadian", 0.6),
     "congruence.paper.classification: unknown key 'meadian' (did you mean 'median'?)"),
    # a map of named sources: a misspelt fixed key is not taken for a new source
    (lambda c: c["congruence"].__setitem__("uses", ["paper"]),
     "congruence: unknown key 'uses' (did you mean 'use'?)"),
    (lambda c: c["sd_model"]["msd_reference"].__setitem__("b3", 0.1),
     "sd_model.msd_reference: unknown key 'b3' (valid keys: citation, form, b0, b1, b2"),
    (lambda c: c["calibration"].__setitem__("chunk", 2),
     "calibration: unknown key 'chunk' (did you mean 'chunks'?)"),
    (lambda c: c["claim_check"]["examples"]["binary"].__setitem__("prevalance", 0.3),
     "claim_check.examples.binary: unknown key 'prevalance' (did you mean 'prevalence'?)"),
    (lambda c: c["estimation"]["congruence_sources"]["msd"].__setitem__("phase", [1]),
     "estimation.congruence_sources.msd: unknown key 'phase' (did you mean 'phases'?)"),
    (lambda c: c["congruence"]["paper"]["classification"].pop("median"),
     "congruence.paper.classification: missing key 'median'"),
    (lambda c: c["sd_model"]["msd_reference"].__setitem__("b0", None),
     "sd_model.msd_reference.b0: expected a number, got null"),
    (lambda c: c["congruence"].__setitem__("use", []),
     "congruence.use: expected a list of 1 or more items, got []"),
    (lambda c: c["venues"]["venue_b_synthetic"].__setitem__("layout", "wide"),
     "venues.venue_b_synthetic.layout: expected one of long, wide_top2, got wide"),
    (lambda c: c.pop("claim_check"), "missing key 'claim_check'"),
])
def test_bad_config_named_with_nearest_key(repo_cfg, change, expected):
    problems = _problems(repo_cfg, change)
    assert any(p.startswith(expected) for p in problems), problems
    # a misspelt block is one problem, not also "missing key 'analysis'"
    assert len(problems) == 1, problems


def _schema_defaults(node, where="#"):
    """Paths of `default:` keywords (a config key named `default` under `properties` is not
    one)."""
    if isinstance(node, dict):
        if "default" in node:
            yield where
        for k, v in node.items():
            if k in ("properties", "patternProperties"):
                for name, sub in v.items():
                    yield from _schema_defaults(sub, f"{where}/{k}/{name}")
            else:
                yield from _schema_defaults(v, f"{where}/{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _schema_defaults(v, f"{where}/{i}")


@pytest.mark.parametrize("path", sorted(SCHEMA_DIR.glob("*.schema.yaml")), ids=lambda p: p.name)
def test_schemas_hold_no_default_values(path):
    """Defaults live in config/config.yaml only: a schema `default:` would be a second copy
    (and the validator no longer fills them in)."""
    schema = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert list(_schema_defaults(schema)) == [], path.name


def test_validation_fills_nothing(repo_cfg):
    """A key once filled from a schema default is now refused when missing."""
    cfg = copy.deepcopy(repo_cfg)
    del cfg["planner"]["sd_level"]
    before = copy.deepcopy(cfg)
    assert config_problems(cfg, schema_path("config")) == ["planner: missing key 'sd_level'"]
    assert cfg == before


def test_every_block_is_required(repo_cfg):
    """Removing any block of config/config.yaml is an error naming it (the pipeline's config
    is config/config.yaml with the user's file merged over it, so it has every block)."""
    assert set(schema_required("config")) == set(repo_cfg)
    for block in repo_cfg:
        cfg = copy.deepcopy(repo_cfg)
        del cfg[block]
        problems = config_problems(cfg, schema_path("config"))
        assert problems == [f"missing key {block!r}"], block


def _object_schemas(node, where="#"):
    if isinstance(node, dict):
        if "properties" in node:
            yield where, node
        for k, v in node.items():
            if k not in ("if", "not"):  # conditions, not descriptions of a mapping
                yield from _object_schemas(v, f"{where}/{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _object_schemas(v, f"{where}/{i}")


def _strict_per_branch(s) -> bool:
    """Keys fixed per variant: every `allOf` branch's `then` lists them (estimation)."""
    branches = s.get("allOf", [])
    return bool(branches) and all("additionalProperties" in b.get("then", {})
                                  for b in branches)


@pytest.mark.parametrize("path", sorted(SCHEMA_DIR.glob("*.schema.yaml")), ids=lambda p: p.name)
def test_schemas_are_strict(path):
    """Every mapping with fixed keys says what other keys may be (additionalProperties), so
    a new config key needs a schema entry and a typo is refused."""
    schema = yaml.safe_load(path.read_text(encoding="utf-8"))
    loose = [w for w, s in _object_schemas(schema)
             if "additionalProperties" not in s and not _strict_per_branch(s)]
    assert loose == [], f"{path.name}: {loose}"


def test_venue_constants_are_the_sheet_columns():
    schema = yaml.safe_load(schema_path("venues").read_text(encoding="utf-8"))
    keys = schema["additionalProperties"]["properties"]["constants"]["properties"]
    assert set(keys) == set(PAPERS) | set(RESULTS) | set(WIDE)


def test_packaged_defaults_are_the_repo_config():
    """One file: the package's default_config.yaml is a link to config/config.yaml in the
    checkout (its content in a wheel: tests/test_wheel.py)."""
    assert DEFAULT_CONFIG.is_symlink(), "default_config.yaml must link to config/config.yaml"
    assert DEFAULT_CONFIG.resolve() == REPO_CONFIG.resolve()


def test_fast_packaged_read_equals_the_strict_read(repo_cfg):
    """The packaged file is read with libyaml's parser for speed: same content as the strict
    reader's (read_yaml), which refuses duplicate keys."""
    from falseclaims.config import _packaged, read_yaml
    assert _packaged() == read_yaml(DEFAULT_CONFIG) == repo_cfg


def test_figure_style_defaults_are_the_config_block(repo_cfg):
    """Figures drawn outside the pipeline (check/percase/table --figure) use the `style:`
    block of config/config.yaml, not a copy in code."""
    import subprocess as sp
    code = ("import json; from falseclaims import style; "
            "print(json.dumps(style.settings()))")
    res = sp.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                 env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    assert res.returncode == 0, res.stderr
    import json
    assert json.loads(res.stdout) == repo_cfg["style"]


def test_cli_defaults_are_the_repo_blocks_with_inline_sources(repo_cfg):
    """The commands' defaults: the blocks cli_config requires, from config/config.yaml, with
    `use` reduced to the inline sources (estimated ones exist only in the pipeline)."""
    defaults = cli_defaults()
    assert list(defaults) == schema_required("cli_config")
    assert {"seed", "planner", "claim_check"} <= set(defaults) and "venues" not in defaults
    assert defaults["congruence"]["use"] == ["paper"]
    assert defaults["sd_model"]["use"] == ["msd_reference", "msd_anchored", "msd_ols",
                                           "msd_gamma_log"]
    for block in defaults:
        expected = copy.deepcopy(repo_cfg[block])
        if block in ("congruence", "sd_model"):
            expected["use"] = [s for s in expected["use"] if s in expected]
        assert defaults[block] == expected, block
    validate(defaults, schema_path("cli_config"))
    defaults["planner"]["target"] = 0.2
    assert cli_defaults()["planner"]["target"] == 0.05  # a fresh copy each call


def test_pipeline_merges_partial_config_by_the_cli_rule(tmp_path):
    """`snakemake --configfile partial.yaml`: nested blocks merged key by key (no missing
    'n_max'), the user's value validated, and the example methods replaced whole (the rule
    of merge_over; Snakemake's own merge would keep the default methods: no error)."""
    part = tmp_path / "partial.yaml"
    part.write_text("planner: {target: 0.9}\n"
                    "claim_check: {examples: {binary: {methods: {only: 1.0}}}}\n")
    res = _dry_run(part)
    assert res.returncode != 0
    out = res.stdout + res.stderr
    assert ("ERROR: 2 problem(s) in config:\n"
            "  - config: claim_check.examples.binary.methods: expected a mapping of 2 or more "
            "entries, got {only: 1.0}\n"
            "  - config: planner.target: expected a number < 0.5, got 0.9"
            ) in out, out


def test_pipeline_runs_partial_config_with_other_defaults(tmp_path):
    part = tmp_path / "partial.yaml"
    part.write_text("planner: {target: 0.01}\nrun_venues: [venue_b_synthetic]\n")
    res = _dry_run(part, "--quiet", "host")
    assert res.returncode == 0, res.stdout + res.stderr
    venues = set(re.findall(r"venue=(\w+)", res.stdout + res.stderr))
    assert venues == {"venue_b_synthetic"}, venues


def _dry_run(configfile, *args):
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run([sys.executable, "-m", "snakemake", "-n", "--cores", "1",
                           "--configfile", str(configfile), *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)


def test_snakemake_merge_then_replace_whole_is_merge_over(repo_cfg):
    """The Snakefile's config: Snakemake's merge of the given values over `configfile:` (what
    the directive does: the given values, the file merged into them, the given values again),
    then replace_whole, equals the commands' rule, merge_over; without replace_whole the
    example methods of both would be mixed."""
    from snakemake.utils import update_config

    from falseclaims.config import replace_whole
    mine = {"papers": "x.csv", "layout": "wide_top2", "units": "auto"}
    given = {"planner": {"target": 0.01}, "venues": {"mine": mine},
             "claim_check": {"examples": {"binary": {"methods": {"only": 1.0}}}}}
    cfg = copy.deepcopy(given)
    update_config(cfg, copy.deepcopy(repo_cfg))
    update_config(cfg, copy.deepcopy(given))
    mixed = cfg["claim_check"]["examples"]["binary"]["methods"]
    assert set(mixed) == {*repo_cfg["claim_check"]["examples"]["binary"]["methods"], "only"}
    replace_whole(cfg, given)
    assert cfg == merge_over(repo_cfg, given)
    assert cfg["claim_check"]["examples"]["binary"]["methods"] == {"only": 1.0}
    assert set(cfg["venues"]) == {*repo_cfg["venues"], "mine"}
    before = copy.deepcopy(cfg)
    replace_whole(cfg, {"planner": {"target": 0.02}})  # nothing replaced whole in it
    assert cfg == before


def test_pipeline_refuses_unknown_key_with_same_message(tmp_path):
    bad = tmp_path / "typo.yaml"
    bad.write_text("anaylsis: {cutoffs: [0.05]}\n", encoding="utf-8")
    res = _dry_run(bad)
    assert res.returncode != 0
    out = res.stdout + res.stderr
    assert "ERROR: config: unknown key 'anaylsis' (did you mean 'analysis'?)" in out
    assert "Traceback" not in out and 'File "' not in out, out


def _write(tmp_path, cfg, name="c.yaml") -> str:
    p = tmp_path / name
    p.write_text(yaml.safe_dump(cfg), encoding="utf-8")
    return str(p)


CHECK = ["check", "--task", "segmentation", "--n", "50", "--a", "0.85", "--b", "0.84"]


@pytest.mark.parametrize("change, expected", [
    (lambda c: c["congruence"]["paper"]["segmentation"].__setitem__("median", "high"),
     "congruence.paper.segmentation.median: expected a number, got high"),
    (lambda c: c["sd_model"]["msd_reference"].__setitem__("b0", None),
     "sd_model.msd_reference.b0: expected a number, got null"),
    (lambda c: c["congruence"].__setitem__("use", []), "congruence.use: expected a list of 1 or more items, got []"),
    (lambda c: c.__setitem__("anaylsis", {}), "unknown key 'anaylsis' (did you mean"),
])
def test_cli_validates_config(tmp_path, capsys, repo_cfg, change, expected):
    cfg = copy.deepcopy(repo_cfg)
    change(cfg)
    path = _write(tmp_path, cfg)
    assert main([*CHECK, "--config", path]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    assert err.startswith(f"falseclaims check: error: {path}: ") and expected in err, err


@pytest.mark.parametrize("text, expected", [
    ("analysis: [1\n", "YAML syntax error at line 2, column 1"),
    ("- 1\n- 2\n", "expected a mapping of blocks at the top level"),
    ("", "expected a mapping of blocks at the top level"),
])
def test_cli_config_file_errors(tmp_path, capsys, text, expected):
    p = tmp_path / "c.yaml"
    p.write_text(text, encoding="utf-8")
    assert main([*CHECK, "--config", str(p)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and f"{p}: {expected}" in err, err


@pytest.mark.parametrize("make, expected", [
    (lambda d: d, "is a directory"),
    (lambda d: d / "missing.yaml", "no such file"),
])
def test_cli_config_path_errors(tmp_path, capsys, make, expected):
    assert main([*CHECK, "--config", str(make(tmp_path))]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and expected in err, err


def test_cli_without_any_config(tmp_path, monkeypatch, capsys):
    """Outside a checkout the packaged defaults apply; explicit values need no config."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("FALSECLAIMS_CONFIG", raising=False)
    assert main(["check", "--task", "classification", "--n", "100", "--a", "0.9", "--b",
                 "0.88", "--congruence", "0.8"]) == 0
    assert "given" in capsys.readouterr().out
    cfg = load_config()
    assert cfg["congruence"]["use"] == ["paper"] and "venues" not in cfg


def test_partial_config_fills_missing_blocks(tmp_path, monkeypatch, capsys, repo_cfg):
    monkeypatch.chdir(tmp_path)
    path = _write(tmp_path, {"planner": {"target": 0.2, "n_max": 1000}})
    cfg = load_config(path)
    assert cfg["planner"] == {"target": 0.2, "n_max": 1000, "sd_level": "mean"}
    assert cfg["claim_check"] == repo_cfg["claim_check"]
    assert main(["plan", "--task", "classification", "--delta", "0.05", "--level", "0.9",
                 "--congruence", "0.85", "--config", path, "--json"]) == 0
    assert '"target": 0.2' in capsys.readouterr().out


def test_partial_block_overrides_only_its_keys(tmp_path, monkeypatch, capsys, repo_cfg):
    """A file naming one key of a block changes that key; the block's other keys keep the
    packaged defaults (README: "a file with only the blocks to change is enough")."""
    monkeypatch.chdir(tmp_path)
    path = _write(tmp_path, {"planner": {"target": 0.01},
                             "claim_check": {"interpretation": {"robust_below": 0.01}},
                             "congruence": {"paper": {"segmentation": {"median": 0.5}}}})
    cfg = load_config(path)
    assert cfg["planner"] == {**repo_cfg["planner"], "target": 0.01}
    assert cfg["claim_check"]["interpretation"] == {"robust_below": 0.01, "weak_above": 0.30}
    assert cfg["claim_check"]["examples"] == repo_cfg["claim_check"]["examples"]
    assert cfg["congruence"]["paper"]["segmentation"] == {"q1": 0.44, "median": 0.5,
                                                          "q3": 0.82}
    assert cfg["congruence"]["paper"]["classification"] == {"q1": 0.47, "median": 0.67,
                                                            "q3": 0.83}
    assert main(["plan", "--task", "classification", "--delta", "0.01", "--level", "0.85",
                 "--config", path, "--json"]) == 0
    assert '"target": 0.01' in capsys.readouterr().out
    assert cli_defaults()["planner"]["target"] == 0.05  # defaults untouched


def test_merge_replaces_lists_and_named_example_methods(repo_cfg):
    """Lists replace the default list (a source list names exactly the sources used);
    named sources are added next to the defaults; an example's methods replace the
    default methods (a mix of both sets would be a different example)."""
    defaults = cli_defaults()
    mine = {"citation": "x", "classification": {"q1": 0.1, "median": 0.2, "q3": 0.3}}
    cfg = merge_over(defaults, {
        "congruence": {"use": ["mine"], "mine": mine},
        "claim_check": {"examples": {"binary": {"methods": {"x": 1.0, "y": 0.5}}}}})
    assert cfg["congruence"]["use"] == ["mine"]
    assert set(cfg["congruence"]) == {"use", "paper", "mine"}
    assert cfg["claim_check"]["examples"]["binary"]["methods"] == {"x": 1.0, "y": 0.5}
    assert cfg["claim_check"]["examples"]["binary"]["n_cases"] == 200
    assert defaults == cli_defaults()


def test_config_error_is_value_error():
    with pytest.raises(ValueError, match="unknown key 'x'"):
        validate({"x": 1}, schema_path("cli_config"))
    assert issubclass(ConfigError, ValueError)


def test_config_from_environment_named(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("FALSECLAIMS_CONFIG", str(tmp_path / "nope.yaml"))
    assert main(CHECK) == 2
    err = capsys.readouterr().err.strip()
    assert err.endswith("nope.yaml: no such file (from $FALSECLAIMS_CONFIG)"), err


def test_schemas_resolve_from_a_path_with_spaces(tmp_path, repo_cfg):
    """$ref between schema files works wherever the package is installed."""
    import shutil
    where = tmp_path / "My Documents" / "schémas"
    shutil.copytree(SCHEMA_DIR, where)
    assert config_problems(copy.deepcopy(repo_cfg), where / "config.schema.yaml") == []
    bad = copy.deepcopy(repo_cfg)
    bad["analysis"]["cutof"] = [0.1]
    assert config_problems(bad, where / "config.schema.yaml") == [
        "analysis: unknown key 'cutof' (did you mean 'cutoffs'?)"]


def test_config_written_before_max_draws_still_validates(tmp_path, repo_cfg):
    """`claim_check.bootstrap.max_draws` came later: an older config file given to a
    command gets it from config/config.yaml (merged under the file), not from a schema."""
    cfg = copy.deepcopy(repo_cfg)
    del cfg["claim_check"]["bootstrap"]["max_draws"]
    assert load_config(_write(tmp_path, cfg))["claim_check"]["bootstrap"]["max_draws"] == 10**8
    assert config_problems(cfg, schema_path("config")) == [
        "claim_check.bootstrap: missing key 'max_draws'"]


def test_pipeline_refuses_a_configfile_key_given_twice(tmp_path):
    """A user's --configfile is read strictly like config/config.yaml: Snakemake's own loader
    would keep the second of two equal keys without a word."""
    twice = tmp_path / "twice.yaml"
    twice.write_text("run_venues: [venue_b_synthetic]\nrun_venues: [venue_c_synthetic]\n",
                     encoding="utf-8")
    res = _dry_run(twice)
    out = res.stdout + res.stderr
    assert res.returncode != 0
    assert "duplicate key 'run_venues'" in out, out
    assert "Traceback" not in out


@pytest.mark.parametrize("argv, expected", [
    (["--cores", "2"], ([], False)),
    (["--cores", "2", "--configfile", "a.yaml"], (["a.yaml"], False)),
    (["--configfiles", "a.yaml", "b.yaml", "--cores", "2"], (["a.yaml", "b.yaml"], False)),
    (["--configfile", "a.yaml", "--config", "seed=3"], (["a.yaml"], True)),
    (["-C", "seed=3", "--report", "r.html"], ([], True)),
])
def test_command_line_config_reads_the_documented_options(argv, expected):
    from falseclaims.config import command_line_config
    assert command_line_config(argv) == expected
