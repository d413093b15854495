"""Every stage on venues of unusual shapes (one task, nobody eligible), ids that look like
numbers or missing values, unsafe venue keys and the error report of a failing step.

The same chain runs end to end under Snakemake in tests/test_pipeline_robustness.py; here
each stage is called directly, with every table written and read back as the pipeline does.
"""

from __future__ import annotations

import logging
import re
from types import SimpleNamespace

import jsonschema
import pandas as pd
import pytest
import yaml

import venue_fixtures as vf
from falseclaims.config import Analysis, congruence_sources, sd_models
from falseclaims.errors import FalseclaimsInputError
from falseclaims.pipeline import run_step
from falseclaims.io.table_io import read_table, write_table
from falseclaims.sheets import SheetValidationError, read_venue
from falseclaims.survey.congruence_assignment import assign_congruence
from falseclaims.survey.eligibility import EXCLUSION_COLUMNS, select_papers
from falseclaims.survey.exceedance import exceedance_curve, share_above
from falseclaims.survey.probabilities import (
    PROB_COLUMNS,
    compact_probabilities,
    compute_probabilities,
    read_probabilities,
)
from falseclaims.survey.sd_imputation import impute_sd
from falseclaims.survey.top2 import TOP2_COLUMNS

SUMMARY_COLUMNS = ["venue", "task", "congruence_source", "congruence_level", "sd_source",
                   "sd_level", "cutoff", "n_papers", "n_above", "share_above"]


@pytest.fixture
def cfg(config):
    out = {**config, "congruence": {**config["congruence"], "use": ["paper"]},
           "sd_model": {**config["sd_model"], "use": ["msd_reference"]}}
    return out


def _roundtrip(df, path):
    write_table(df, path)
    return read_table(path)


def run_venue(root, name, venue_cfg, cfg):
    """The survey chain of workflow/rules/survey.smk, each table through a CSV file."""
    out = root / "results" / name
    out.mkdir(parents=True, exist_ok=True)
    sheets = read_venue(venue_cfg, base_dir=root, venue=name)
    papers = _roundtrip(sheets.papers, out / "papers.csv")
    results = _roundtrip(sheets.results, out / "results.csv")
    sel = select_papers(papers, results, Analysis.from_config(cfg).eligibility, venue=name)
    tables = {k: _roundtrip(getattr(sel, k), out / f"{k}.csv")
              for k in ("eligible", "exclusions", "flow", "top2")}
    top2 = tables["top2"]
    sds = _roundtrip(impute_sd(top2, sd_models(cfg), cfg["analysis"]["use_reported_sd_over"]),
                     out / "sd_imputed.csv")
    cong = _roundtrip(assign_congruence(top2, congruence_sources(cfg)), out / "congruence.csv")
    # probabilities.csv holds the compact table; readers join the inputs back
    _roundtrip(compact_probabilities(compute_probabilities(top2, cong, sds)),
               out / "probabilities.csv")
    probs = read_probabilities(out / "probabilities.csv", top2, cong, sds)
    tables.update(papers=papers, sds=sds, congruence=cong, probabilities=probs,
                  summary=_roundtrip(share_above(probs, cfg["analysis"]["cutoffs"]),
                                     out / "summary.csv"),
                  exceedance=_roundtrip(
                      exceedance_curve(probs, cfg["analysis"]["exceedance_grid"]),
                      out / "exceedance.csv"))
    return tables


@pytest.mark.parametrize("make", [vf.all_cv_only, vf.empty_results,
                                  vf.wide_without_constants])
def test_no_eligible_paper_gives_empty_tables_with_headers(tmp_path, cfg, make):
    t = run_venue(tmp_path, "v", make(tmp_path), cfg)
    assert len(t["top2"]) == 0 and list(t["top2"].columns) == TOP2_COLUMNS
    assert len(t["probabilities"]) == 0 and list(t["probabilities"].columns) == PROB_COLUMNS
    assert len(t["summary"]) == 0 and list(t["summary"].columns) == SUMMARY_COLUMNS
    assert len(t["exceedance"]) == 0 and list(t["exceedance"].columns) == SUMMARY_COLUMNS
    # nobody is silently lost: every paper is in exclusions.csv with a reason
    assert list(t["exclusions"].columns) == EXCLUSION_COLUMNS
    assert sorted(t["exclusions"]["paper_id"]) == sorted(t["papers"]["paper_id"])
    assert t["exclusions"]["reason"].notna().all()
    # a results sheet with only its header: no results recorded (its own flow step)
    expected = {vf.all_cv_only: "no_distinct_test_set", vf.empty_results:
                "no_results_recorded", vf.wide_without_constants: "out_of_scope"}[make]
    assert set(t["exclusions"]["reason"]) == {expected}


def test_segmentation_only_venue(tmp_path, cfg):
    t = run_venue(tmp_path, "seg_only", vf.segmentation_only(tmp_path), cfg)
    probs = t["probabilities"]
    assert list(probs.columns) == PROB_COLUMNS
    assert set(probs["task"]) == {"segmentation"}
    # ids 003 / 0001 / 1 stay distinct text; 1 is CV-only
    assert sorted(t["top2"]["paper_id"]) == ["0001", "003"]
    assert t["exclusions"]["paper_id"].tolist() == ["1"]
    assert set(probs["paper_id"]) == {"0001", "003"}
    # one row per paper x congruence level x SD level (paper source, msd_reference)
    assert len(probs) == 2 * 3 * 3
    assert probs["probability"].between(0, 0.5).all()
    assert set(t["summary"]["task"]) == {"segmentation"}
    # the method called None keeps its name (it is B of paper 003)
    assert t["top2"].set_index("paper_id").loc["003", "method_b"] == "None"


def test_classification_only_venue(tmp_path, cfg):
    t = run_venue(tmp_path, "NA", vf.classification_only(tmp_path), cfg)
    probs = t["probabilities"]
    assert set(probs["task"]) == {"classification"}
    assert (probs["venue"] == "NA").all()  # a venue called NA is not a missing value
    assert len(t["sds"]) == 0 and "sd_a" in t["sds"].columns
    assert len(probs) == 3 * 3
    assert probs["probability"].between(0, 0.5).all()
    assert t["top2"].set_index("paper_id").loc["c1", "method_b"] == "None"
    assert set(t["summary"]["venue"]) == {"NA"}


def test_compute_probabilities_on_empty_frames():
    top2 = pd.DataFrame(columns=TOP2_COLUMNS)
    cong = assign_congruence(top2, {"paper": {"classification": {"q1": .4, "median": .6,
                                                                 "q3": .8}}})
    sds = impute_sd(top2, {})
    probs = compute_probabilities(top2, cong, sds)
    assert probs.empty and list(probs.columns) == PROB_COLUMNS


# ------------------------------------------------------------------ ids and labels as text

def test_read_table_keeps_ids_and_labels_as_text(tmp_path):
    df = pd.DataFrame({
        "venue": ["NA", "NA", "NA", "None"],
        "paper_id": ["003", "0001", "1", "null"],
        "method": ["NA", "None", "nan", "2019"],
        "value": [0.5, float("nan"), 1.0, 2.0],
        "title": ["", "x", None, "N/A"],
    })
    back = _roundtrip(df, tmp_path / "t.csv")
    assert back["venue"].tolist() == ["NA", "NA", "NA", "None"]
    assert back["paper_id"].tolist() == ["003", "0001", "1", "null"]
    assert back["paper_id"].is_unique
    assert back["method"].tolist() == ["NA", "None", "nan", "2019"]
    assert back["value"].isna().tolist() == [False, True, False, False]
    # an empty field is the one spelling of "missing"
    assert back["title"].isna().tolist() == [True, False, True, False]
    assert back.loc[3, "title"] == "N/A"


def test_header_only_table_reads_as_numbers_and_text(tmp_path):
    write_table(pd.DataFrame(columns=TOP2_COLUMNS), tmp_path / "top2.csv")
    back = read_table(tmp_path / "top2.csv")
    assert back.empty and list(back.columns) == TOP2_COLUMNS
    assert back["delta"].dtype == float and back["n_test"].dtype == float
    assert back["paper_id"].dtype == "str"
    # what the figures and summaries do with an empty top-2 table
    assert back.groupby("task")["delta"].quantile(0.25).empty


def test_plain_read_csv_would_lose_them(tmp_path):
    """The failure read_table prevents (guards the test above against a vacuous pass)."""
    df = pd.DataFrame({"venue": ["NA"], "paper_id": ["003"], "method": ["None"]})
    write_table(df, tmp_path / "t.csv")
    plain = pd.read_csv(tmp_path / "t.csv")
    assert plain["venue"].isna().all() and plain["method"].isna().all()
    assert plain["paper_id"].tolist() == [3]


def test_ids_0001_and_1_do_not_collide_in_eligibility(tmp_path, cfg):
    t = run_venue(tmp_path, "v", vf.segmentation_only(tmp_path), cfg)
    assert sorted(t["papers"]["paper_id"]) == ["0001", "003", "1"]
    assert t["papers"]["paper_id"].is_unique


# ------------------------------------------------------------------ venue keys

@pytest.fixture(scope="module")
def venues_schema(repo_root):
    path = repo_root / "src" / "falseclaims" / "schemas" / "venues.schema.yaml"
    return yaml.safe_load(path.read_text(encoding="utf-8"))


ENTRY = {"papers": "a.csv", "results": "b.csv", "layout": "long", "units": "fraction"}


@pytest.mark.parametrize("key", ["..", ".", "../x", "a/b", "/abs", ".hidden", "a\\b", "",
                                 "a b", "-x", "x" * 101])
def test_unsafe_venue_keys_are_refused(venues_schema, key):
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({key: ENTRY}, venues_schema)


@pytest.mark.parametrize("key", ["NA", "miccai2023", "MICCAI-2023_v1.2", "2023", "a..b"])
def test_ordinary_venue_keys_are_accepted(venues_schema, key):
    jsonschema.validate({key: ENTRY}, venues_schema)


# ------------------------------------------------------------------ errors without tracebacks

def _fake_snakemake(tmp_path, rule="validate_sheets"):
    log = tmp_path / "logs" / "step.log"
    return SimpleNamespace(rule=rule, log=[str(log)], output=["out.csv"],
                           wildcards=SimpleNamespace(items=lambda: [("venue", "v")],
                                                     __len__=lambda: 1)), log


def _restore_logging():
    logging.basicConfig(handlers=[logging.NullHandler()], force=True)


def test_run_step_input_error_is_one_block_without_traceback(tmp_path, capsys):
    smk, log = _fake_snakemake(tmp_path)
    from falseclaims.sheets.read.errors import Problem

    def bad(_):
        raise SheetValidationError([Problem("sheet.csv", row=3, column="value", value="abc",
                                            expected="a number")], venue="v")

    with pytest.raises(SystemExit) as info:
        run_step(smk, bad)
    _restore_logging()
    assert info.value.code == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err.startswith("ERROR in rule validate_sheets (venue=v):")
    assert "sheet.csv, row 3, column 'value': got 'abc'; expected a number" in err
    assert f"(log: {log})" in err
    assert log.read_text().startswith("ERROR in rule validate_sheets")


def test_run_step_config_error_is_an_input_error(tmp_path, capsys, config):
    from falseclaims.config import configured_congruence

    smk, _ = _fake_snakemake(tmp_path, rule="assign_congruence")
    with pytest.raises(SystemExit):
        run_step(smk, lambda _: configured_congruence(config, "nosuchsource"))
    _restore_logging()
    err = capsys.readouterr().err
    assert "Traceback" not in err and "congruence source 'nosuchsource'" in err


def test_run_step_bug_keeps_its_traceback(tmp_path, capsys):
    smk, log = _fake_snakemake(tmp_path)

    def buggy(_):
        return {}["missing"]

    with pytest.raises(SystemExit) as info:
        run_step(smk, buggy)
    _restore_logging()
    assert info.value.code == 1
    assert "Traceback" in capsys.readouterr().err
    text = log.read_text()
    assert "Traceback" in text and "KeyError: 'missing'" in text


def test_input_errors_share_one_base():
    from falseclaims.percase.readers import PerCaseValidationError

    assert issubclass(SheetValidationError, FalseclaimsInputError)
    assert issubclass(PerCaseValidationError, FalseclaimsInputError)
    assert issubclass(FalseclaimsInputError, ValueError)  # existing `except ValueError` holds


# ------------------------------------------------------------------ small samples

@pytest.mark.parametrize("n", range(1, 60))
def test_wilson_interval_contains_the_share_at_k_0_and_n(n):
    """With few comparisons per bin (a small calibration study) a bin with no or only false
    claims must not lie outside its own interval (it broke the error bars)."""
    from falseclaims.calibration.metrics import binomial_interval

    lo, hi = binomial_interval([0, n], [n, n], 0.95, "wilson")
    assert lo[0] == 0.0 and hi[1] == 1.0
    assert lo[1] <= 1.0 and hi[0] >= 0.0


# ------------------------------------------------------------------ config through params

def test_no_pipeline_script_reads_the_config(repo_root):
    """Every value a script uses comes through its rule's params: (so editing the config
    reruns the job); a script reading snakemake.config would give stale results."""
    readers = [p.name for p in sorted((repo_root / "workflow" / "scripts").glob("*.py"))
               if re.search(r"\b(smk|snakemake)\.config\b", p.read_text(encoding="utf-8"))]
    assert readers == []


def test_empty_papers_sheet_gives_a_zero_flow_for_the_venue(tmp_path, cfg):
    t = run_venue(tmp_path, "emptyp", vf.write_long(tmp_path, "emptyp", [], []), cfg)
    assert len(t["papers"]) == 0 and len(t["probabilities"]) == 0
    assert (t["flow"]["venue"] == "emptyp").all() and (t["flow"]["n_papers"] == 0).all()
    assert len(t["flow"]) == 2 * 6  # both tasks x every step, all zero
