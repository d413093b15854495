"""The typed config objects: the headline assumption and the estimation source specs are
read once from the validated config, and the code reads their attributes."""

from dataclasses import asdict
from pathlib import Path

import pytest
import yaml

from falseclaims.config import Headline, load_config
from falseclaims.estimation.inputs import source_input_files
from falseclaims.estimation.specs import SourceSpec

ROOT = Path(__file__).resolve().parents[1]
CFG = load_config(ROOT / "config" / "config.yaml")
RAW = yaml.safe_load((ROOT / "config" / "config.yaml").read_text(encoding="utf-8"))


def test_headline_is_read_from_the_config_file():
    h = Headline.from_config(CFG)
    # the file itself, read without the package: first source in use, the analysis levels
    assert h == Headline(RAW["congruence"]["use"][0], RAW["analysis"]["headline_congruence"],
                         RAW["sd_model"]["use"][0], RAW["analysis"]["headline_sd"])
    other = {**CFG, "analysis": {**CFG["analysis"], "headline_sd": "q3"}}
    assert Headline.from_config(other).sd_level == "q3" != h.sd_level


def test_headline_params_of_the_rules_keep_their_keys_and_order():
    """The rules hand ``asdict(Headline.from_config(config))`` (common.smk ``HEADLINE``) to
    their scripts, which rebuild ``Headline(**params)``; Snakemake compares params between
    runs, so the mapping keeps the keys and order it had as a plain dict."""
    params = asdict(Headline.from_config(CFG))
    assert list(params) == ["congruence_source", "congruence_level", "sd_source", "sd_level"]
    assert Headline(**params) == Headline.from_config(CFG)


def test_headline_describes_itself():
    h = Headline("paper", "median", "msd_reference", "q3")
    assert h.describe("classification") == "median congruence (paper)"
    assert h.describe("segmentation") == "median congruence (paper), Q3 imputed SD (msd_reference)"


@pytest.mark.parametrize("block", ["congruence_sources", "sd_sources"])
def test_every_configured_source_parses_and_keeps_its_values(block):
    for name, entry in CFG["estimation"][block].items():
        spec = SourceSpec.from_config(entry)
        for key, value in entry.items():
            got = getattr(spec, key)
            if isinstance(value, list):
                got = list(got)
            elif isinstance(value, dict):
                got = {k: list(v) if isinstance(v, tuple) else v for k, v in got.items()}
            assert got == value, (name, key)


def test_source_spec_defaults_follow_the_type():
    wide = SourceSpec.from_config({"type": "wide_per_method", "glob": "*.csv", "citation": "x"})
    pwl = SourceSpec.from_config({"type": "predictions_with_labels", "labels": "l.csv",
                                  "groups": {"g": ["a.csv", "b.csv"]}, "citation": "x"})
    table = SourceSpec.from_config({"type": "mean_sd_table", "path": "t.csv", "citation": "x",
                                    "form": "gamma", "floor": 0.01, "sd_column": "sd"})
    assert (wide.case_column, pwl.case_column) == ("name", "image")
    assert (wide.metric, wide.case_mismatch, wide.min_cases) == (None, "error", 3)
    assert (table.sd_column, table.mean_column, table.floor, table.link) == (
        "sd", "mean_dsc", 0.01, "identity")
    assert table.data == "t.csv" and wide.data == "*.csv"
    assert source_input_files({"type": "predictions_with_labels", "labels": "l.csv",
                               "groups": {"g": ["a.csv", "b.csv"]}, "citation": "x"}) == [
        "l.csv", "a.csv", "b.csv"]


def test_source_spec_refuses_a_key_it_does_not_know():
    with pytest.raises(ValueError, match="long source: unknown key.*colums"):
        SourceSpec.from_config({"type": "long", "path": "p.csv", "citation": "x",
                                "colums": {"a": "b"}})
