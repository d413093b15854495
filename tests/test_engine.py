"""falseclaims.engine: the one dispatch of P(false claim) with SD imputation, checked
against the closed forms, the Monte Carlo estimator and hand-built inputs."""

import re

import numpy as np
import pandas as pd
import pytest

import falseclaims
from falseclaims.config import cli_defaults, configured_congruence, sd_model_from_config
from falseclaims.engine import RESULT_COLUMNS
from falseclaims.stats import (
    prob_false_claim_classification,
    prob_false_claim_classification_mc,
    prob_false_claim_segmentation,
)

CFG = cli_defaults()  # the engine's defaults: the packaged config/config.yaml
PAPER = configured_congruence(CFG, "paper")


def test_classification_defaults_to_the_papers_median_and_matches_monte_carlo():
    r = falseclaims.probability("cls", 300, 0.9, 0.87)
    assert r.congruence == PAPER["classification"]["median"] and r.congruence_level == "median"
    assert r.congruence_clamped is True and r.congruence_used == pytest.approx(0.77)
    mc = prob_false_claim_classification_mc(300, 0.9, 0.87, 0.77, draws=200_000, seed=3)
    assert abs(r.probability - mc) < 4 * np.sqrt(mc * (1 - mc) / 200_000)


def test_segmentation_imputes_missing_sds_from_the_configured_model():
    model = sd_model_from_config(CFG)
    r = falseclaims.probability("segmentation", 60, 0.85, 0.83, sd_b=0.07)
    sd_a = float(model.predict(0.85, CFG["analysis"]["headline_sd"])[0])
    assert (r.sd_a, r.sd_b, r.sd_a_imputed, r.sd_b_imputed) == (pytest.approx(sd_a), 0.07,
                                                                 True, False)
    assert r.sd_source == model.source and r.sd_level == CFG["analysis"]["headline_sd"]
    expected = prob_false_claim_segmentation(60, 0.85, 0.83, sd_a, 0.07,
                                             PAPER["segmentation"]["median"]).probability
    assert r.probability == pytest.approx(expected, rel=1e-12)


class ToyModel:
    """Only the interface the engine uses: predict(mean, level) -> (sd, floored), source."""

    source = "toy"

    def predict(self, mean, level="mean"):
        sd = 0.2 * (1 - np.asarray(mean, float) ** 2) * {"q1": 0.8, "mean": 1, "q3": 1.25}[level]
        return sd, np.zeros(np.shape(sd), bool)


def test_nan_sds_imputed_per_entry_and_levels_by_name():
    model = ToyModel()
    r = falseclaims.probability("seg", [50, 50], [0.8, 0.8], [0.7, 0.7], sd_a=[0.1, np.nan],
                                sd_b=0.1, sd_model=model, sd_level="q3", congruence="q1")
    assert r.sd_a == pytest.approx([0.1, 0.2 * (1 - 0.64) * 1.25])
    assert r.sd_a_imputed.tolist() == [False, True] and r.sd_b_imputed is False
    assert r.congruence == PAPER["segmentation"]["q1"]
    assert r.probability[0] != r.probability[1]


def test_task_aliases_and_errors():
    a = falseclaims.probability("cls", 100, 0.8, 0.7, congruence=0.6).probability
    assert a == falseclaims.probability(" Classification ", 100, 0.8, 0.7,
                                        congruence=0.6).probability
    assert a == prob_false_claim_classification(100, 0.8, 0.7, 0.6).probability
    with pytest.raises(ValueError, match="task must be one of .*cls.*got 'regression'"):
        falseclaims.probability("regression", 100, 0.8, 0.7)
    with pytest.raises(ValueError, match="segmentation only"):
        falseclaims.probability("cls", 100, 0.8, 0.7, sd_a=0.1)
    with pytest.raises(ValueError, match=r"^n \(test-set size\) must be at least 2; got 1$"):
        falseclaims.probability("cls", 1, 0.8, 0.7)
    with pytest.raises(ValueError, match=r"^a must lie in \[0, 1\].*got 87 at index 1$"):
        falseclaims.probability("cls", 100, [0.8, 87.0], 0.7)


def test_dataframe_companion_equals_row_by_row_calls():
    df = pd.DataFrame({"task": ["seg", "cls", "segmentation", "cls"],
                       "n_test": [40, 500, 80, 120], "value_a": [0.9, 0.86, 0.7, 0.93],
                       "value_b": [0.88, 0.85, 0.69, 0.9], "sd_a": [0.05, np.nan, np.nan, np.nan],
                       "keep": list("wxyz")}, index=[10, 11, 12, 13])
    out = falseclaims.probabilities(df)
    assert list(out.index) == list(df.index) and list(out["keep"]) == list("wxyz")
    assert set(RESULT_COLUMNS) <= set(out.columns) and df["sd_a"].isna().sum() == 3
    for i, row in df.iterrows():
        sd = {} if row.task == "cls" else {"sd_a": None if np.isnan(row.sd_a) else row.sd_a}
        one = falseclaims.probability(row.task, row.n_test, row.value_a, row.value_b, **sd)
        assert out.loc[i, "probability"] == pytest.approx(one.probability, rel=1e-12)
        assert bool(out.loc[i, "congruence_clamped"]) == one.congruence_clamped
    assert out["sd_a"].isna().tolist() == [False, True, False, True]


def test_dataframe_missing_column_is_named():
    with pytest.raises(ValueError, match="no column for the winner's value: expected one of "
                                         "a, value_a"):
        falseclaims.probabilities(pd.DataFrame({"task": ["cls"], "n": [10], "b": [0.5]}))


def test_result_is_plain_and_serialisable():
    import json
    r = falseclaims.probability("seg", 40, 0.9, 0.88)
    assert isinstance(r.probability, float) and isinstance(r.sd_a_imputed, bool)
    assert "np." not in repr(r)
    json.dumps(r.to_dict())
    assert r.notes()[0].startswith("SD of A imputed")


def test_the_closed_forms_are_dispatched_in_one_place():
    """Survey, check, plan, calibration, per-case comparison and the example generator go
    through falseclaims.probability (that nothing else calls the closed forms is ruff's
    TID251 rule in pyproject.toml, checked by tests/test_code_conventions.py)."""
    from pathlib import Path

    src = Path(falseclaims.__file__).parent
    for user in ("survey/probabilities.py", "claims/check.py", "claims/plan.py",
                 "calibration/simulation.py", "percase/compare.py",
                 "examples/survey_sheet.py"):
        text = (src / user).read_text()
        assert re.search(r"from falseclaims\.engine import \(?[\w, ]*\bprobability\b", text), user
