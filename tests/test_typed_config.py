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


def test_a_headline_passed_to_check_equals_the_config_it_would_replace():
    """Table mode's band varies the SD level by passing a Headline, no longer by writing
    ``analysis.headline_sd`` into a config copy: both give the same numbers, and the q1 and
    q3 levels differ from the headline's (the argument is used)."""
    from dataclasses import replace

    from falseclaims.claims.check import check_claim

    head = Headline.from_config(CFG)
    base = check_claim("segmentation", 40, 0.901, 0.884, CFG, decimals=3)
    for lvl in ("q1", "q3"):
        copy = {**CFG, "analysis": {**CFG["analysis"], "headline_sd": lvl}}
        via_config = check_claim("segmentation", 40, 0.901, 0.884, copy, decimals=3)
        passed = check_claim("segmentation", 40, 0.901, 0.884, CFG, decimals=3,
                             headline=replace(head, sd_level=lvl))
        assert passed == via_config != base


def test_headline_describes_itself():
    h = Headline("paper", "median", "msd_reference", "q3")
    assert h.describe("classification") == "median congruence (paper)"
    assert h.describe("segmentation") == "median congruence (paper), Q3 imputed SD (MSD reference)"


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


def test_settings_objects_hold_the_config_files_values():
    """Planner, plausibility limits, claim_check, numbers and the per-case example settings:
    each value equals config/config.yaml read with plain yaml (no package code)."""
    from falseclaims.config import ClaimCheck, Planner, PlausibilityLimits
    from falseclaims.examples.percase_files import ExampleSettings
    from falseclaims.survey.numbers import NumbersSettings
    from falseclaims.survey.populations import Populations

    plan, pl, cc = RAW["planner"], RAW["plausibility"], RAW["claim_check"]
    assert Planner.from_config(CFG) == Planner(plan["target"], plan["n_max"], plan["sd_level"])
    assert PlausibilityLimits.from_config(CFG) == PlausibilityLimits(
        pl["max_delta"], pl["max_delta_share"], pl["prior_wins_share"], pl["min_papers"], pl["numeric_id_share"])
    boot = cc["bootstrap"]
    assert ClaimCheck.from_config(CFG) == ClaimCheck(
        cc["rounding_grid_points"], cc["alpha"], cc["seed"], boot["resamples"], boot["level"],
        boot["max_draws"])
    numbers = NumbersSettings.from_config(CFG)
    assert numbers.paper == RAW["numbers"]["paper"]
    assert list(numbers.compare_venues) == RAW["numbers"]["compare_venues"]
    assert numbers.sensitivity_range == RAW["numbers"]["sensitivity_range"]
    # what the counts borrow of ``figures``, and the block the figure rules hand on
    pops = RAW["figures"]["populations"]
    assert vars(numbers.populations) == pops
    assert Populations.from_block(CFG["figures"]["populations"]) == numbers.populations
    assert numbers.metric_labels == RAW["figures"]["metric_labels"]
    ex, raw = ExampleSettings.from_config(CFG), cc["examples"]
    assert ex.seed == raw["seed"]
    for task in ("segmentation", "classification", "binary"):
        assert vars(getattr(ex, task)) == raw[task], task


def test_example_settings_refuse_a_key_they_do_not_know():
    from falseclaims.examples.percase_files import ExampleSettings

    examples = {**CFG["claim_check"]["examples"]}
    examples["binary"] = {**examples["binary"], "separation": 1.0}
    cfg = {**CFG, "claim_check": {**CFG["claim_check"], "examples": examples}}
    with pytest.raises(ValueError, match=r"claim_check.examples.binary: unknown key\(s\) "
                                         r"separation"):
        ExampleSettings.from_config(cfg)


def test_analysis_holds_the_config_files_values():
    """``Analysis`` against config/config.yaml read with plain yaml (no package code)."""
    from falseclaims.config import Analysis

    raw = RAW["analysis"]
    a = Analysis.from_config(CFG)
    assert {t: list(s) for t, s in a.eligibility.metrics.items()} == raw["metrics"]
    assert list(a.eligibility.test_set_splits) == raw["test_set_splits"]
    assert list(a.use_reported_sd_over) == raw["use_reported_sd_over"]
    assert list(a.cutoffs) == raw["cutoffs"]
    grid = a.exceedance_grid
    assert {"start": grid.start, "stop": grid.stop, "num": grid.num} == raw["exceedance_grid"]
    # the headline levels of the block are Headline's only (read in one place)
    assert not hasattr(a, "headline_sd") and not hasattr(a, "headline_congruence")


def test_eligibility_from_the_rules_params_selects_as_the_typed_object():
    """The eligibility rule hands its script the config subset ``{metrics,
    test_set_splits}`` as a mapping; ``select_papers`` reads it as the typed criteria.
    Both select the same papers, and changing a split changes the selection (the criteria
    are read, not ignored)."""
    import dataclasses

    import pandas as pd

    from falseclaims.config import Analysis
    from falseclaims.survey.eligibility import select_papers

    papers = pd.DataFrame({"paper_id": ["p1", "p2"], "task": ["classification"] * 2,
                           "in_scope": [True, True], "values_only_in_figures": [False, False],
                           "split": ["train_test", "cv_only"], "n_test": [100, 100]})
    results = pd.DataFrame({"paper_id": ["p1", "p1", "p2", "p2"],
                            "method": ["a", "b", "a", "b"], "metric": ["Accuracy"] * 4,
                            "value": [0.9, 0.8, 0.9, 0.8], "n_test": [100] * 4})
    typed = Analysis.from_config(CFG).eligibility
    params = {k: RAW["analysis"][k] for k in ("metrics", "test_set_splits")}
    by_type = select_papers(papers, results, typed, "v")
    by_params = select_papers(papers, results, params, "v")
    assert list(by_type.eligible["paper_id"]) == list(by_params.eligible["paper_id"]) == ["p1"]
    assert by_type.exclusions.equals(by_params.exclusions)
    wider = dataclasses.replace(typed, test_set_splits=(*typed.test_set_splits, "cv_only"))
    assert list(select_papers(papers, results, wider, "v").eligible["paper_id"]) == ["p1", "p2"]


def test_lookup_grid_holds_the_config_files_values():
    from falseclaims.config import LookupGrid, Planner

    raw = RAW["lookup_grid"]
    g = LookupGrid.from_config(CFG)
    assert (g.congruence_source, g.sd_level, list(g.bands), g.multiplier_delta) == (
        raw["congruence_source"], raw["sd_level"], raw["bands"], raw["multiplier_delta"])
    for task in ("classification", "segmentation"):
        t = g.tasks[task]
        assert (t.level, t.fallback_level, list(t.n), list(t.delta)) == (
            raw[task]["level"], raw[task].get("fallback_level"), raw[task]["n"],
            raw[task]["delta"]), task
        assert g.inferred_levels[task] == raw["inferred_levels"][task]
    assert list(g.inferred_venues) == raw["inferred_levels"]["venues"]
    assert LookupGrid.from_block(CFG["lookup_grid"]) == g
    assert Planner.from_block(CFG["planner"]) == Planner.from_config(CFG)


def test_exceedance_curve_reads_the_typed_grid_as_the_rules_block():
    """The grid object and the block the exceedance rule hands its script give one curve;
    its cutoffs are the grid's, 0.05 apart for 11 points over [0, 0.5]."""
    import pandas as pd

    from falseclaims.config import Analysis, ExceedanceGrid
    from falseclaims.survey.exceedance import exceedance_curve

    probs = pd.DataFrame({"venue": "v", "task": "classification", "congruence_source": "paper",
                          "congruence_level": "median", "sd_source": "", "sd_level": "",
                          "paper_id": ["a", "b", "c", "d"], "probability": [0.01, 0.1, 0.2, 0.4]})
    block = {"start": 0.0, "stop": 0.5, "num": 11}
    typed = exceedance_curve(probs, ExceedanceGrid.from_block(block))
    pd.testing.assert_frame_equal(typed, exceedance_curve(probs, block))
    assert list(typed["cutoff"]) == [round(0.05 * i, 10) for i in range(11)]
    assert typed.loc[typed["cutoff"] == 0.15, "share_above"].item() == 0.5
    assert Analysis.from_config(CFG).exceedance_grid == ExceedanceGrid.from_block(
        RAW["analysis"]["exceedance_grid"])


def test_calibration_interval_is_part_of_the_settings_and_read_alone():
    """``calibration.interval``/``confidence``: one object, held by ``CalibrationSettings``
    and built alone from the two keys the tables rule hands its script."""
    from falseclaims.calibration.simulation import CalibrationSettings, CurveInterval

    raw = RAW["calibration"]
    alone = CurveInterval.from_config(CFG)
    assert alone == CurveInterval(raw["interval"], raw["confidence"])
    assert CalibrationSettings.from_config(CFG).interval == alone
    rule = {"calibration": {k: CFG["calibration"][k] for k in ("confidence", "interval")}}
    assert CurveInterval.from_config(rule) == alone


def test_source_citations_are_the_headline_sources_citations():
    """The web page's citations against config/config.yaml read with plain yaml; an SD
    source the config does not define (an estimated one) has no citation, a source without
    ``citation`` is cited by its name."""
    from falseclaims.config import SourceCitations

    cong, sd = RAW["congruence"]["use"][0], RAW["sd_model"]["use"][0]
    cites = SourceCitations.from_config(CFG)
    assert cites == SourceCitations(RAW["congruence"][cong]["citation"],
                                    RAW["sd_model"][sd]["citation"])
    bare = {k: v for k, v in CFG["sd_model"][sd].items() if k != "citation"}
    estimated = {**CFG, "sd_model": {**CFG["sd_model"], "use": ["fitted_elsewhere"]}}
    assert SourceCitations.from_config(estimated).sd is None
    unnamed = {**CFG, "sd_model": {**CFG["sd_model"], sd: bare}}
    assert SourceCitations.from_config(unnamed).sd == sd


def test_metric_names_are_the_spellings_the_caller_hands_in(tmp_path):
    """``falseclaims.metrics`` sits below ``config``: it reads the ``analysis.metrics``
    spellings its caller passes (``Eligibility.metrics``). A spelling added there gives a
    header its task, through ``classify`` and through table mode, which reads them from the
    config it is given (the spellings are read, not the file's)."""
    from falseclaims.config import Analysis
    from falseclaims.metrics import classify, metric_task
    from falseclaims.table.model import interpret_table
    from falseclaims.table.readers import TableReadError, read_tables

    spellings = Analysis.from_config(CFG).eligibility.metrics
    assert {t: list(s) for t, s in spellings.items()} == RAW["analysis"]["metrics"]
    assert not classify("Pixel agreement", spellings).known
    more = {**spellings, "classification": (*spellings["classification"], "pixel agreement")}
    assert metric_task("Pixel agreement", more) == "classification"
    kind = classify("Pixel agreement (%)", more)
    assert (kind.task, kind.direction, kind.bounded) == ("classification", "higher", True)
    f = tmp_path / "t.csv"
    f.write_text("Method,Pixel agreement\nA,0.91\nB,0.89\nC,0.85\n", encoding="utf-8")
    raw = read_tables(f)[0]
    with pytest.raises(TableReadError, match="unknown metric in column"):
        interpret_table(raw, CFG, n=100)
    analysis = {**CFG["analysis"], "metrics": {t: list(s) for t, s in more.items()}}
    [col] = interpret_table(raw, {**CFG, "analysis": analysis}, n=100).metrics
    assert (col.task, col.task_source) == ("classification", "metric name")


def test_sota_grid_holds_the_config_files_values_and_gives_the_rules_table():
    from falseclaims.multiplicity.tables import SotaGrid, sota_table

    raw = RAW["multiplicity"]["grid"]
    grid = SotaGrid.from_block(CFG["multiplicity"]["grid"])
    assert (list(grid.m), list(grid.n), list(grid.p)) == (raw["m"], raw["n"], raw["p"])
    small = {"m": [10, 100], "n": [1000], "p": [0.9]}
    typed = sota_table(SotaGrid.from_block(small), 0.05)
    assert typed.equals(sota_table(small, 0.05))
    assert list(typed["m"]) == [10, 100] and len(typed) == 2
    with pytest.raises(ValueError, match="'n' must be a non-empty list"):
        SotaGrid.from_block({"m": [10], "n": [], "p": [0.9]})
