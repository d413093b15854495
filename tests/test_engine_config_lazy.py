"""The engine reads the packaged config only for an assumption left to it: a call giving
every assumption (as pipeline jobs do) gives the same numbers without reading it."""

from __future__ import annotations

import pytest

from falseclaims import engine
from falseclaims.config import load_config, sd_model_from_config


def test_every_assumption_given_reads_no_config(monkeypatch):
    model = sd_model_from_config(load_config())
    want = (engine.probability("seg", 50, [0.9, 0.8], [0.88, 0.8], congruence=0.6,
                               sd_model=model, sd_level="q3").probability,
            engine.probability("cls", 50, 0.9, 0.85, congruence=0.7).probability)

    def unread():
        raise AssertionError("the packaged config was read")

    monkeypatch.setattr(engine, "_packaged_config", unread)
    got = (engine.probability("seg", 50, [0.9, 0.8], [0.88, 0.8], congruence=0.6,
                              sd_model=model, sd_level="q3").probability,
           engine.probability("cls", 50, 0.9, 0.85, congruence=0.7).probability)
    assert got[0].tolist() == want[0].tolist() and got[1] == want[1]
    for left in ({"congruence": None}, {"sd_model": None}, {"sd_level": None}):
        kw = {"congruence": 0.6, "sd_model": model, "sd_level": "q3", **left}
        with pytest.raises(AssertionError, match="packaged config"):
            engine.probability("seg", 50, 0.9, 0.88, **kw)


def test_a_given_config_is_still_checked_when_nothing_is_left_to_it():
    with pytest.raises(Exception, match="headline_congruence|analysis"):
        engine.probability("cls", 50, 0.9, 0.85, congruence=0.7,
                           config={"analysis": {"headline_congruence": "q9"}})
