"""docs/api.md runs as written: every `>>>` example gives the output shown."""

import doctest
from pathlib import Path

import falseclaims

DOC = Path(__file__).resolve().parents[1] / "docs" / "api.md"


def test_api_examples_run_as_documented():
    res = doctest.testfile(str(DOC), module_relative=False, report=True,
                           optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert res.attempted >= 10 and res.failed == 0, res


def test_package_docstring_example():
    assert doctest.testmod(falseclaims, optionflags=doctest.ELLIPSIS).failed == 0


def test_public_names_listed_and_importable():
    names = [n for n in dir(falseclaims) if not n.startswith("_")]
    for name in ("probability", "probabilities", "ClaimProbability", "smallest_n",
                 "prob_false_claim_classification", "prob_false_claim_segmentation"):
        assert name in names and name in falseclaims.__all__
        assert getattr(falseclaims, name) is not None
