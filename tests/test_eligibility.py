"""Each eligibility rule, the flow counts, top-2 selection and the survey stages."""

import numpy as np
import pandas as pd
import pytest

from falseclaims.config import Eligibility, congruence_sources, sd_models
from falseclaims.stats import prob_false_claim_classification, prob_false_claim_segmentation
from falseclaims.io.table_io import read_table, write_table
from falseclaims.survey.congruence_assignment import assign_congruence
from falseclaims.survey.eligibility import select_papers
from falseclaims.survey.exceedance import share_above
from falseclaims.survey.probabilities import (
    compact_probabilities,
    compute_probabilities,
    iter_compact_probabilities,
    join_inputs,
    read_probabilities,
)
from falseclaims.survey.sd_imputation import impute_sd


def paper(pid, task="classification", **kw):
    row = dict(venue="v", paper_id=pid, title=pid, task=task, in_scope=True,
               claims_outperformance=True, bold_best=True, statistical_test=False,
               values_only_in_figures=False, split="train_test", cv_folds=pd.NA,
               n_train=100, n_val=pd.NA, n_test=200, uncertainty="none",
               metrics_reported="accuracy")
    row.update(kw)
    return row


def res(pid, method, value, metric="accuracy", **kw):
    row = dict(venue="v", paper_id=pid, method=method, metric=metric, value=value,
               sd=np.nan, sd_over=pd.NA, n_test=pd.NA)
    row.update(kw)
    return row


@pytest.fixture
def tables():
    papers = pd.DataFrame([
        paper("ok_cls"),
        paper("ok_seg", "segmentation", n_test=40),
        paper("scope", in_scope=False),
        paper("figs", values_only_in_figures=True),
        paper("cv", split="cv_only"),
        paper("unclear", split="unclear"),
        paper("one_method"),
        paper("no_n", n_test=pd.NA),
        paper("differ", n_test=pd.NA),
        paper("tie"),
        paper("permethod", n_test=pd.NA),
    ])
    results = pd.DataFrame([
        res("ok_cls", "A", 0.90), res("ok_cls", "B", 0.88), res("ok_cls", "C", 0.80),
        res("ok_cls", "A", 0.95, metric="auc"),
        res("ok_seg", "X", 0.85, "DSC", sd=0.05, sd_over="test"),
        res("ok_seg", "Y", 0.84, "dice", sd=0.2, sd_over="cv"),
        res("scope", "A", 0.9), res("scope", "B", 0.8),
        res("figs", "A", 0.9), res("figs", "B", 0.8),
        res("cv", "A", 0.9), res("cv", "B", 0.8),
        res("unclear", "A", 0.9), res("unclear", "B", 0.8),
        res("one_method", "A", 0.9), res("one_method", "B", 0.8, metric="f1"),
        res("no_n", "A", 0.9), res("no_n", "B", 0.8),
        res("differ", "A", 0.9, n_test=100), res("differ", "B", 0.8, n_test=120),
        res("tie", "A", 0.8), res("tie", "B", 0.8),
        res("permethod", "A", 0.9, n_test=300), res("permethod", "B", 0.85),
    ])
    return papers, results


ANALYSIS = Eligibility.from_block({
    "metrics": {"classification": ["accuracy", "acc"], "segmentation": ["dsc", "dice"]},
    "test_set_splits": ["train_test", "train_val_test", "cv_plus_test"],
})


def test_each_rule_gives_its_reason(tables):
    sel = select_papers(*tables, ANALYSIS)
    reasons = dict(zip(sel.exclusions.paper_id, sel.exclusions.reason))
    assert reasons == {
        "scope": "out_of_scope",
        "figs": "values_only_in_figures",
        "cv": "no_distinct_test_set",
        "unclear": "no_distinct_test_set",
        "one_method": "fewer_than_two_methods",
        "no_n": "missing_test_size",
        "differ": "top2_test_sizes_differ",
    }
    assert sorted(sel.eligible.paper_id) == ["ok_cls", "ok_seg", "permethod", "tie"]
    # nothing silently lost: every paper is either eligible or excluded
    assert len(sel.eligible) + len(sel.exclusions) == len(tables[0])


def test_flow_counts(tables):
    flow = select_papers(*tables, ANALYSIS).flow
    cls = flow[flow.task == "classification"].set_index("step")["n_papers"]
    assert cls.to_dict() == {"found": 10, "in_scope": 9, "values_in_text": 8,
                             "distinct_test_set": 6, "two_methods": 5, "test_size": 3}
    seg = flow[flow.task == "segmentation"].set_index("step")["n_papers"]
    assert seg.iloc[0] == seg.iloc[-1] == 1


def test_a_design_only_sheet_leaves_at_its_own_step(tables):
    """A venue without any results row (a study-design sheet): its in-scope papers leave at
    the step ``results_recorded`` (after values in text, so the in-scope and values boxes
    keep the counts the practice figures use), not at "distinct test set"; out-of-scope
    and figures-only papers keep their own reasons."""
    papers, results = tables
    sel = select_papers(papers, results.iloc[0:0], ANALYSIS)
    reasons = dict(zip(sel.exclusions.paper_id, sel.exclusions.reason))
    assert reasons.pop("scope") == "out_of_scope"
    assert reasons.pop("figs") == "values_only_in_figures"
    assert set(reasons.values()) == {"no_results_recorded"} and len(reasons) == 9
    assert (sel.exclusions.loc[sel.exclusions.reason == "no_results_recorded", "step"]
            == "results_recorded").all()
    assert sel.eligible.empty
    cls = sel.flow[sel.flow.task == "classification"].set_index("step")["n_papers"]
    assert cls.to_dict() == {"found": 10, "in_scope": 9, "values_in_text": 8,
                             "results_recorded": 0, "distinct_test_set": 0,
                             "two_methods": 0, "test_size": 0}
    # a venue with results has no such step
    assert "results_recorded" not in set(select_papers(*tables, ANALYSIS).flow.step)


def test_top2_selection(tables):
    top2 = select_papers(*tables, ANALYSIS).top2.set_index("paper_id")
    assert top2.loc["ok_cls", ["method_a", "method_b"]].tolist() == ["A", "B"]
    assert top2.loc["ok_cls", "delta"] == pytest.approx(0.02)
    assert top2.loc["tie", "tie"] and not top2.loc["ok_cls", "tie"]
    assert top2.loc["permethod", "n_test"] == 300
    assert top2.loc["ok_seg", "sd_a_reported"] == 0.05


def test_survey_stages_end_to_end(tables, config):
    top2 = select_papers(*tables, ANALYSIS).top2
    cfg = {**config, "congruence": {**config["congruence"], "use": ["paper"]},
           "sd_model": {**config["sd_model"], "use": ["msd_reference"]}}
    cong = assign_congruence(top2, congruence_sources(cfg))
    sds = impute_sd(top2, sd_models(cfg))
    probs = compute_probabilities(top2, cong, sds)
    # 3 classification papers x 3 levels + 1 segmentation paper x 3 x 3
    assert len(probs) == 3 * 3 + 9
    row = probs[(probs.paper_id == "ok_cls") & (probs.congruence_level == "median")].iloc[0]
    assert row.probability == pytest.approx(
        prob_false_claim_classification(200, 0.90, 0.88, 0.67).probability)
    tie = probs[probs.paper_id == "tie"]
    assert (tie.probability == 0.5).all()
    seg = probs[(probs.paper_id == "ok_seg") & (probs.congruence_level == "median") &
                (probs.sd_level == "mean")].iloc[0]
    # A's SD is reported over the test set (kept); B's is over CV folds (imputed)
    assert seg.sd_a == 0.05 and not seg.sd_a_imputed and seg.sd_b_imputed
    model = sd_models(cfg)["msd_reference"]
    assert seg.sd_b == pytest.approx(model.predict(0.84)[0])
    assert seg.probability == pytest.approx(prob_false_claim_segmentation(
        40, 0.85, 0.84, 0.05, seg.sd_b, 0.67).probability)
    summ = share_above(probs, [0.05, 0.3])
    direct = (probs.groupby(["task", "congruence_level", "sd_level"]).probability
              .apply(lambda p: (p > 0.05).mean()))
    got = summ[summ.cutoff == 0.05].set_index(["task", "congruence_level", "sd_level"])
    for key, share in direct.items():
        assert got.loc[key, "share_above"] == pytest.approx(share)


def test_compact_probabilities_join_back_to_the_full_table(tables, config, tmp_path):
    """probabilities.csv keeps the keys and the probability; top2/congruence/sd_imputed
    hold the other inputs, and joining them gives the full table again (via the files)."""
    top2 = select_papers(*tables, ANALYSIS).top2
    cfg = {**config, "congruence": {**config["congruence"], "use": ["paper"]},
           "sd_model": {**config["sd_model"], "use": ["msd_reference"]}}
    cong = assign_congruence(top2, congruence_sources(cfg))
    sds = impute_sd(top2, sd_models(cfg))
    full = compute_probabilities(top2, cong, sds)
    paths = {}
    for name, df in {"top2": top2, "cong": cong, "sds": sds, "full": full,
                     "probs": compact_probabilities(full)}.items():
        paths[name] = tmp_path / f"{name}.csv"
        write_table(df, paths[name])
    probs = read_table(paths["probs"])
    assert list(probs.columns) == ["venue", "paper_id", "task", "n_test", "delta",
                                   "congruence_source", "congruence_level", "sd_source",
                                   "sd_level", "probability"]
    joined = join_inputs(probs, read_table(paths["top2"]), read_table(paths["cong"]),
                         read_table(paths["sds"]))
    write_table(joined, tmp_path / "joined.csv")
    assert (tmp_path / "joined.csv").read_bytes() == paths["full"].read_bytes()
    read = read_probabilities(paths["probs"], paths["top2"], paths["cong"], paths["sds"])
    pd.testing.assert_frame_equal(read, joined)
    assert read_probabilities(paths["full"]).equals(read_table(paths["full"]))
    # computed a few papers at a time: the same table
    for per in (1, 2, 100):
        parts = iter_compact_probabilities(top2, cong, sds, per)
        assert pd.concat(list(parts), ignore_index=True).equals(
            compact_probabilities(full).reset_index(drop=True))
    # the summaries only need the compact columns
    assert share_above(probs, [0.05]).equals(share_above(read_table(paths["full"]), [0.05]))


def test_classification_congruence_clamped_per_paper(config):
    top2 = pd.DataFrame({"venue": "v", "paper_id": ["p"], "task": ["classification"],
                         "value_a": [0.97], "value_b": [0.95]})
    cong = assign_congruence(top2, congruence_sources(
        {**config, "congruence": {**config["congruence"], "use": ["paper"]}}))
    # feasible range [0.92, 0.95]: every paper-level assumption is moved up to 0.92
    assert cong.congruence_used.tolist() == pytest.approx([0.92] * 3)
    assert cong.congruence_clamped.all()
