"""Many claims at once (``check_claims``, ``headline_probabilities``, ``pair_probabilities``,
table mode's tiers) give, claim by claim, what one claim at a time gives: the same dicts,
notes and errors, and the same numbers as the engine called once per claim."""

from __future__ import annotations

import numpy as np
import pytest

from falseclaims.claims.check import (
    check_claim,
    check_claims,
    headline_probabilities,
    rounding_box,
)
from falseclaims.config import Headline, configured_congruence, load_config, sd_model_from_config
from falseclaims.engine import probability
from falseclaims.table.analysis import (
    analyse_column,
    headline_pair_probabilities,
    pair_probability,
    pair_probabilities,
    tiers,
)
from falseclaims.table.model import MetricColumn


@pytest.fixture(scope="module")
def cfg():
    return load_config()


def _claims(task: str, k: int, seed: int) -> list[dict]:
    """Random claims with the edge cases mixed in: n = 2, equal values (delta 0), B ahead,
    values at 0 and 1, SDs of 0, given and imputed SDs side by side, several decimals."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(k):
        dec = int(rng.choice([1, 2, 3]))
        a = round(float(rng.uniform(0.5, 1.0)), dec)
        b = round(float(rng.choice([a, a - 0.01, a + 0.02, rng.uniform(0.4, 1.0)])), dec)
        b = min(max(b, 0.0), 1.0)
        if i % 9 == 0:
            a, b = 1.0, 1.0
        if i % 13 == 0:
            a, b = 0.0, 0.0
        sd = {}
        if task == "segmentation":
            sd = {"sd_a": [None, 0.0, 0.08][i % 3], "sd_b": [None, 0.12, 0.0, None][i % 4]}
        out.append({"n": int(rng.choice([2, 3, 30, 500])), "a": a, "b": b,
                    "decimals": dec if i % 4 else None, **sd})
    return out


def _batch(claims, key, default=None):
    return [c.get(key, default) for c in claims]


@pytest.mark.parametrize("task", ["classification", "segmentation"])
def test_a_batch_equals_its_claims_checked_one_by_one(cfg, task):
    claims = _claims(task, 60, seed=3)
    batch = check_claims(task, _batch(claims, "n"), _batch(claims, "a"), _batch(claims, "b"),
                         cfg, _batch(claims, "sd_a"), _batch(claims, "sd_b"),
                         decimals=_batch(claims, "decimals"), grid_points=9)
    one = [check_claim(task, c["n"], c["a"], c["b"], cfg, sd_a=c.get("sd_a"),
                       sd_b=c.get("sd_b"), decimals=c["decimals"], grid_points=9)
           for c in claims]
    assert batch == one
    assert any(c["notes"] for c in one)  # B ahead, imputed SDs, clamping: notes compared


@pytest.mark.parametrize("task", ["classification", "segmentation"])
def test_each_claim_is_the_engine_called_once_per_claim(cfg, task):
    """Independent of the batch code: the engine per claim and assumption, and the
    rounding box of each claim on its own grid."""
    claims = _claims(task, 40, seed=5)
    head = Headline.from_config(cfg)
    model = sd_model_from_config(cfg, head.sd_source) if task == "segmentation" else None
    batch = check_claims(task, _batch(claims, "n"), _batch(claims, "a"), _batch(claims, "b"),
                         cfg, _batch(claims, "sd_a"), _batch(claims, "sd_b"),
                         decimals=_batch(claims, "decimals"), grid_points=7)
    for c, res in zip(claims, batch):
        for row, (label, cong) in zip(res["results"],
                                      configured_congruence(cfg, "paper")[task].items()):
            want = probability(task, c["n"], c["a"], c["b"], congruence=cong,
                               sd_a=c.get("sd_a"), sd_b=c.get("sd_b"), sd_model=model,
                               sd_level=head.sd_level)
            assert row["assumption"] == label
            assert row["probability"] == float(want.probability)
            assert row["congruence_used"] == float(want.congruence_used)
            if c["decimals"] is not None:
                box = rounding_box(task, c["n"], c["a"], c["b"], c["decimals"], c.get("sd_a"),
                                   c.get("sd_b"), cong, cfg, 7)["probability"]
                assert row["probability_range"] == [min(box.min(), row["probability"]),
                                                    max(box.max(), row["probability"])]
            else:
                assert "probability_range" not in row


def test_given_congruence_per_claim(cfg):
    a, b, c = [0.9, 0.85, 0.8], [0.88, 0.85, 0.82], [0.7, 0.88, 0.5]
    batch = check_claims("classification", 200, a, b, cfg, congruence=c)
    for x, y, z, res in zip(a, b, c, batch):
        assert res == check_claim("classification", 200, x, y, cfg, congruence=z)
        assert [r["assumption"] for r in res["results"]] == ["given"]


def test_headline_probabilities_are_the_headline_rows(cfg):
    claims = _claims("segmentation", 50, seed=7)
    level = Headline.from_config(cfg).congruence_level
    p = headline_probabilities("segmentation", _batch(claims, "n"), _batch(claims, "a"),
                               _batch(claims, "b"), cfg, _batch(claims, "sd_a"),
                               _batch(claims, "sd_b"))
    want = [next(r["probability"] for r in check_claim(
        "segmentation", c["n"], c["a"], c["b"], cfg, sd_a=c["sd_a"], sd_b=c["sd_b"])["results"]
        if r["assumption"] == level) for c in claims]
    assert p.tolist() == want


def test_a_bad_claim_in_a_batch_is_refused_as_alone(cfg):
    with pytest.raises(ValueError) as alone:
        check_claim("classification", 10, float("nan"), 0.5, cfg)
    with pytest.raises(ValueError) as batch:
        check_claims("classification", 10, [0.9, float("nan")], [0.5, 0.5], cfg)
    assert str(batch.value) == str(alone.value)
    with pytest.raises(ValueError, match="--n .* integer >= 2"):
        headline_probabilities("classification", [30, 1], [0.9, 0.9], [0.8, 0.8], cfg)
    assert check_claims("segmentation", 10, [], [], cfg) == []


@pytest.mark.parametrize("task", ["classification", "segmentation"])
def test_pair_probabilities_with_band_equal_pair_probability(cfg, task):
    claims = _claims(task, 30, seed=11)
    got = pair_probabilities(task, 40, _batch(claims, "a"), _batch(claims, "b"),
                             _batch(claims, "sd_a"), _batch(claims, "sd_b"), cfg,
                             decimals=_batch(claims, "decimals"), band=True, grid_points=5)
    want = [pair_probability(task, 40, c["a"], c["b"], c.get("sd_a"), c.get("sd_b"), cfg,
                             decimals=c["decimals"], band=True, grid_points=5) for c in claims]
    assert got == want
    assert any(w["flipped"] for w in want) and any(w["band_sd_levels"] for w in want) \
        == (task == "segmentation")
    heads = headline_pair_probabilities(task, 40, _batch(claims, "a"), _batch(claims, "b"),
                                        _batch(claims, "sd_a"), _batch(claims, "sd_b"), cfg)
    assert heads == [w["probability"] for w in want]


@pytest.mark.parametrize("task", ["classification", "segmentation"])
def test_table_column_equals_its_pairs_one_by_one(cfg, task):
    """A long column with ties and NaN-free random values: every probability, band and
    tier as pair_probability and tiers give them pair by pair."""
    rng = np.random.default_rng(17)
    k = 40
    values = [round(float(v), 2) for v in rng.uniform(0.70, 0.90, k)]
    values[5] = values[6] = max(values)  # a tie at the top
    col = MetricColumn("metric", 1, task, "test", "fraction", "test", [f"M{i}" for i in range(k)],
                       values, [None] * k, [2] * k, [f"{v:.2f}" for v in values], [False] * k,
                       [False] * k, [f"row {i + 1}" for i in range(k)])
    cutoff = 0.05
    res = analyse_column(col, 300, cfg, cutoff, grid_points=5)
    win = next(i for i, m in enumerate(res["methods"]) if m["winner"])
    win_i = col.methods.index(res["methods"][win]["method"])

    def p(i, j):
        return pair_probability(task, 300, values[i], values[j], None, None, cfg)["probability"]

    for m in res["methods"]:
        if m["winner"]:
            continue
        j = col.methods.index(m["method"])
        pp = pair_probability(task, 300, values[win_i], values[j], None, None, cfg, decimals=2,
                              band=True, grid_points=5)
        assert (m["p_false_claim"], m["p_band"]) == (pp["probability"], pp["band"])
    order = [col.methods.index(m["method"]) for m in res["methods"]]
    first = [win_i] + [j for j in order if j != win_i and p(win_i, j) >= cutoff]
    want = tiers(order, p, cutoff, sorted(first, key=order.index))
    assert res["tiers"] == [[col.methods[i] for i in t] for t in want]
    assert len(want) > 2
