"""Congruence and SD estimation: hand-computed examples, real-data reproductions, stages."""

from pathlib import Path

import jsonschema
import numpy as np
import pandas as pd
import pytest
import yaml

from falseclaims.config import congruence_sources, load_config
from falseclaims.estimation.congruence_sources import congruence_pairs, congruence_summary
from falseclaims.estimation.sd_sources import fit_source, fit_summary, mean_sd_pairs
from falseclaims.estimation.sklearn_models import train_and_predict
from falseclaims.estimation.specs import SourceSpec
from falseclaims.estimation.stages import estimate_congruence, fit_sd_model
from falseclaims.io.table_io import write_table, write_yaml
from falseclaims.percase.congruence import (
    congruence_quartiles,
    pairwise_congruence,
    quartiles_block,
)
from falseclaims.percase.readers import read_claims_reloaded, read_long

ROOT = Path(__file__).resolve().parents[1]
CFG = load_config(ROOT / "config" / "config.yaml")
EST = CFG["estimation"]


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text.lstrip("\n"), encoding="utf-8")
    return p


# ------------------------------------------------------------------ hand-computed examples


def test_pearson_r_by_hand(tmp_path):
    # A - mean = (-.3, -.1, .1, .3), B - mean = (-.2, -.2, .2, .2):
    # r = 0.16 / sqrt(0.20 * 0.16) = 2 / sqrt(5)
    p = write(tmp_path, "seg.csv",
              "case_id,alg_A,alg_B\n1,0.2,0.3\n2,0.4,0.3\n3,0.6,0.7\n4,0.8,0.7\n")
    pairs = pairwise_congruence(read_claims_reloaded(p))
    assert len(pairs) == 1
    row = pairs.iloc[0]
    assert (row.method_a, row.method_b, row.n) == ("A", "B", 4)
    assert row.congruence == pytest.approx(2 / np.sqrt(5), abs=1e-12)
    assert row.mean_a == pytest.approx(0.5) and row.sd_b == pytest.approx(np.sqrt(0.16 / 3))


def test_p11_by_hand(tmp_path):
    # truth 1 1 0 0 1; A correct 1 1 1 0 0; B correct 1 0 1 0 1 -> both on cases 1, 3
    p = write(tmp_path, "cls.csv", "case_id,ground_truth,alg_A,alg_B\n"
              "1,1,1,1\n2,1,1,0\n3,0,0,0\n4,0,1,1\n5,1,0,1\n")
    row = pairwise_congruence(read_claims_reloaded(p)).iloc[0]
    assert row.congruence == pytest.approx(0.4)
    assert row.mean_a == pytest.approx(0.6) and row.mean_b == pytest.approx(0.6)
    assert row.lower == pytest.approx(0.2) and row.upper == pytest.approx(0.6)
    assert row.n == 5


def test_pairs_use_shared_cases_and_flag_undefined(tmp_path):
    text = """
case_id,task,method,metric,value
1,t,A,dsc,0.2
2,t,A,dsc,0.4
3,t,A,dsc,0.6
4,t,A,dsc,0.8
1,t,B,dsc,0.3
2,t,B,dsc,0.3
3,t,B,dsc,0.7
4,t,B,dsc,0.7
5,t,B,dsc,0.1
1,t,C,dsc,0.5
2,t,C,dsc,0.5
3,t,C,dsc,0.5
4,t,C,dsc,0.5
"""
    pc = read_long(write(tmp_path, "l.csv", text), case_mismatch="intersect")
    pairs = pairwise_congruence(pc).set_index(["method_a", "method_b"])
    assert pairs.loc[("A", "B"), "n"] == 4   # case 5 only for B
    assert pairs.loc[("A", "B"), "congruence"] == pytest.approx(2 / np.sqrt(5))
    assert np.isnan(pairs.loc[("A", "C"), "congruence"])
    assert "constant" in pairs.loc[("A", "C"), "note"]
    q = congruence_quartiles(pairs.reset_index(), by=["kind"])
    assert q.loc[0, "n_pairs"] == 1 and q.loc[0, "n_undefined"] == 2
    # a single pair can be asked for
    one = pairwise_congruence(pc, methods=["B", "A"])
    assert len(one) == 1 and one.iloc[0].n == 4
    with pytest.raises(ValueError, match="unknown method"):
        pairwise_congruence(pc, methods=["A", "Z"])


def test_quartiles_by_hand():
    pairs = pd.DataFrame({"kind": "classification", "task": ["x"] * 3 + ["y"] * 2,
                          "congruence": [0.1, 0.2, 0.3, 0.4, 0.5]})
    assert quartiles_block(pairs) == {"classification": {"q1": 0.2, "median": 0.3, "q3": 0.4}}
    per_task = congruence_quartiles(pairs).set_index("task")
    assert per_task.loc["x", "median"] == pytest.approx(0.2)
    assert per_task.loc["y", "q1"] == pytest.approx(0.425)


# ------------------------------------------------------------------ real data


def test_msd_sd_fit_reproduces_config_coefficients():
    """The estimation stage's `msd` source is the config's headline model (gamma GLM); its
    anchored refit is the config's `msd_anchored` alternative."""
    spec = EST["sd_sources"]["msd"]
    pairs = mean_sd_pairs("msd", SourceSpec.from_config(spec), base=ROOT)
    fit = fit_source("msd", pairs, form=spec["form"], floor=spec["floor"], link=spec["link"])
    ref = CFG["sd_model"]["msd_reference"]
    assert fit.n == 323 and fit.model.form == ref["form"] == "gamma"
    for k in ("b0", "b1", "b2", "pi_ratio_q1", "pi_ratio_q3", "dispersion"):
        assert getattr(fit.model, k) == pytest.approx(ref[k], abs=1e-6), k
    assert 0 < fit.loto_mae < 0.2 and fit.loto_rel_mae > 0
    summary = fit_summary(fit, "c", data=spec["path"])
    assert summary["data"] == spec["path"] and summary["n_pairs"] == 323
    assert summary["statsmodels_version"] and summary["link"] == "identity"
    anchored = fit_source("msd", pairs, form="anchored", floor=spec["floor"])
    for k in ("b0", "b1", "b2", "pi_ratio_q1", "pi_ratio_q3"):
        assert getattr(anchored.model, k) == pytest.approx(CFG["sd_model"]["msd_anchored"][k],
                                                           abs=1e-6), k
    # anchored: positive below DSC = 1 and zero at 1
    m = np.linspace(0.3, 0.999, 50)
    assert (anchored.model.curve(m) > 0).all()
    assert anchored.model.curve(1.0) == pytest.approx(0, abs=1e-12)


def test_msd_congruence_matches_source_notes():
    # orientation numbers in data/external/msd-derived/SOURCE.md, computed by the data's
    # provider: all pairs 0.446 / 0.636 / 0.791, phase 1 only 0.477 / 0.667 / 0.818
    spec = dict(EST["congruence_sources"]["msd"])
    q = quartiles_block(congruence_pairs("msd", SourceSpec.from_config(spec),
                                         base=ROOT))["segmentation"]
    assert [q["q1"], q["median"], q["q3"]] == pytest.approx([0.446, 0.636, 0.791], abs=6e-4)
    spec["phases"] = [1]
    q = quartiles_block(congruence_pairs("msd", SourceSpec.from_config(spec),
                                         base=ROOT))["segmentation"]
    assert [q["q1"], q["median"], q["q3"]] == pytest.approx([0.477, 0.667, 0.818], abs=6e-4)


def test_touchstone_sd_pairs_match_direct_computation():
    spec = EST["sd_sources"]["touchstone"]
    pairs = mean_sd_pairs("touchstone", SourceSpec.from_config(spec),
                          base=ROOT).set_index(["task", "method"])
    assert len(pairs) == 19 * 9
    raw = pd.read_csv(ROOT / "data/external/touchstone-totalsegmentator-dsc/nnU-Net_STU-Net_H.csv")
    col = raw["pancreas"].dropna()
    row = pairs.loc[("pancreas", "nnU-Net_STU-Net_H")]
    assert row["n_cases"] == len(col)
    assert row["mean"] == pytest.approx(col.mean()) and row["sd"] == pytest.approx(col.std())


# ------------------------------------------------------------------ sklearn source


def test_sklearn_congruence_deterministic_and_feasible():
    kwargs = dict(dataset_names=["breast_cancer", "wine"],
                  model_names=["logistic_regression", "naive_bayes", "decision_tree",
                               "knn", "svm_rbf"], test_size=0.5, seed=7)
    a = train_and_predict(**kwargs)
    b = train_and_predict(**kwargs)
    pd.testing.assert_frame_equal(a.table, b.table)
    pairs = pairwise_congruence(a)
    assert len(pairs) == 2 * 10
    assert pairs["n"].tolist() == [285] * 10 + [89] * 10   # held-out halves
    assert ((pairs.congruence >= pairs.lower - 1e-12)
            & (pairs.congruence <= pairs.upper + 1e-12)).all()
    # a different seed gives a different split
    c = train_and_predict(**{**kwargs, "seed": 8})
    assert not a.table["case_id"].equals(c.table["case_id"])


def test_sklearn_config_mirrors_design():
    spec = EST["congruence_sources"]["sklearn"]
    assert len(spec["models"]) >= 5 and len(spec["datasets"]) >= 3
    assert "breast_cancer" in spec["datasets"]


# ------------------------------------------------------------------ stages and contracts


def test_config_block_validates_and_rejects_typos():
    schema = yaml.safe_load((ROOT / "src/falseclaims/schemas/estimation.schema.yaml").read_text())
    jsonschema.validate(EST, schema)
    bad = {**EST, "sd_sources": {"x": {**EST["sd_sources"]["msd"], "fomr": "ols"}}}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema)


def test_estimate_congruence_on_user_file_feeds_survey_config(tmp_path):
    user = write(tmp_path, "mine.csv", "case_id,ground_truth,alg_A,alg_B,alg_C\n"
                 "1,1,1,1,1\n2,1,1,0,1\n3,0,0,0,1\n4,0,1,1,0\n5,1,0,1,1\n")
    spec = {"type": "claims_reloaded", "path": str(user), "citation": "my data"}
    out = {k: tmp_path / f"mine{s}" for k, s in
           (("pairs", "_pairs.csv"), ("summary", ".yaml"), ("quartiles", "_q.csv"))}
    pairs_df, quartiles, summary = estimate_congruence("mine", spec, 1)
    write_table(pairs_df, out["pairs"])
    write_yaml(summary, out["summary"])
    data = yaml.safe_load(out["summary"].read_text())
    assert data == summary and list(data) == ["source", "citation", "classification"]
    pairs = pd.read_csv(out["pairs"])
    assert len(pairs) == 3
    assert data["classification"]["median"] == pytest.approx(np.median(pairs["congruence"]))
    cfg = {"congruence": {"use": ["paper", "mine"], "paper": CFG["congruence"]["paper"]}}
    got = congruence_sources(cfg, {"mine": str(out["summary"])})
    assert got["mine"] == {"classification": data["classification"]}


def test_fit_sd_model_on_wide_files(tmp_path):
    rng = np.random.default_rng(0)
    for j in range(3):
        mu = 0.55 + 0.15 * j
        cells = np.clip(rng.normal(mu, 0.1 + 0.2 * (1 - mu), size=(30, 3)), 0, 1)
        df = pd.DataFrame(cells, columns=["t1", "t2", "t3"])
        df.insert(0, "name", [f"c{i}" for i in range(30)])
        df.to_csv(tmp_path / f"M{j}.csv", index=False)
    spec = {"type": "wide_per_method", "glob": str(tmp_path / "M*.csv"), "form": "anchored",
            "floor": 0.005, "citation": "synthetic"}
    pairs_df, d = fit_sd_model("syn", spec)
    write_table(pairs_df, tmp_path / "p.csv")
    write_yaml(d, tmp_path / "m.yaml")
    pairs = pd.read_csv(tmp_path / "p.csv")
    assert len(pairs) == 9 and d["n"] == 9 and d["loto_mae"] is not None
    direct = pd.read_csv(tmp_path / "M0.csv")["t2"]
    row = pairs[(pairs.method == "M0") & (pairs.task == "t2")].iloc[0]
    assert row["sd"] == pytest.approx(direct.std(ddof=1))
    assert yaml.safe_load((tmp_path / "m.yaml").read_text())["source"] == "syn"


def test_summary_requires_defined_pairs():
    pairs = pd.DataFrame({"kind": ["segmentation"], "task": ["t"], "congruence": [np.nan]})
    with pytest.raises(ValueError, match="no pair with a defined congruence"):
        congruence_summary("x", "c", pairs)
