"""Every command's --json is one envelope valid against schemas/cli_output.schema.yaml, with
the verdict words of the text output and rounded floats."""

import json
import math
from pathlib import Path

import jsonschema
import pytest

from falseclaims.cli import main
from falseclaims.cli.envelope import SIGNIFICANT_DIGITS, rounded, schema
from falseclaims.examples.percase_files import FILES
from falseclaims.percase.verdict import LABELS

ROOT = Path(__file__).resolve().parents[1]
EX = ROOT / "data" / "example"
CONFIG = ROOT / "config" / "config.yaml"

COMMANDS = {
    "check cls": ["check", "--task", "cls", "--n", "500", "--a", "0.86", "--b", "0.85"],
    "check seg": ["check", "--task", "seg", "--n", "40", "--a", "0.9", "--b", "0.88",
                  "--decimals", "2"],
    "plan": ["plan", "--task", "classification", "--delta", "0.02", "--level", "0.9",
             "--config", str(CONFIG)],
    "plan not found": ["plan", "--task", "cls", "--delta", "0.001", "--level", "0.9",
                       "--n-max", "100", "--config", str(CONFIG)],
    "sota": ["sota", "--m", "1000", "--n", "3000", "--p", "0.9"],
    "percase seg": ["percase", str(EX / FILES["segmentation"]), "--task", "segmentation",
                    "--bootstrap", "200"],
    "percase cls": ["percase", str(EX / FILES["classification"]), "--task", "cls",
                    "--bootstrap", "200", "--all-pairs"],
    "sheet inspect": ["sheet", "inspect", str(EX / "venue_c_synthetic_messy.xlsx")],
    "sheet check": ["sheet", "check", "--venue", "venue_b_synthetic", "--config",
                    str(CONFIG)],
    "table": ["table", str(EX / "tables" / "leaderboard_20.md")],
}


def _run(capsys, argv):
    code = main(argv)
    return code, capsys.readouterr().out


def _floats(node):
    if isinstance(node, float):
        yield node
    elif isinstance(node, dict):
        for v in node.values():
            yield from _floats(v)
    elif isinstance(node, list):
        for v in node:
            yield from _floats(v)


@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_json_validates(capsys, name):
    code, out = _run(capsys, [*COMMANDS[name], "--json"])
    assert code in (0, 1), out
    doc = json.loads(out)
    jsonschema.validate(doc, schema())
    assert doc["command"] == COMMANDS[name][0] + (
        f" {COMMANDS[name][1]}" if COMMANDS[name][0] == "sheet" else "")
    for x in _floats(doc):  # rounded: no more significant digits than documented
        assert x == float(f"{x:.{SIGNIFICANT_DIGITS}g}")


@pytest.mark.parametrize("name", ["check cls", "check seg", "percase seg", "percase cls"])
def test_text_and_json_verdicts_agree(capsys, name):
    _, text = _run(capsys, COMMANDS[name])
    _, out = _run(capsys, [*COMMANDS[name], "--json"])
    verdict = json.loads(out)["result"]["verdict"]
    assert verdict in LABELS.values()
    said = [line for line in text.splitlines() if line.split(":")[0] in LABELS.values()]
    assert said and said[0].startswith(verdict + ":"), (verdict, said)
    assert "fragile" not in out and "level" not in json.loads(out)["result"]


def test_schema_refuses_a_wrong_verdict_and_a_missing_key(capsys):
    _, out = _run(capsys, [*COMMANDS["check cls"], "--json"])
    doc = json.loads(out)
    bad = json.loads(out)
    bad["result"]["verdict"] = "fragile"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema())
    del doc["version"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(doc, schema())


def test_check_json_keys_are_the_python_result_keys(capsys):
    from falseclaims import probability

    _, out = _run(capsys, [*COMMANDS["check seg"][:9], "--json"])
    row = json.loads(out)["result"]["results"][1]
    py = probability("seg", 40, 0.9, 0.88).to_dict()
    shared = {"congruence", "congruence_used", "congruence_clamped", "sd_a", "sd_b",
              "sd_a_imputed", "sd_b_imputed", "probability"}
    assert shared <= set(row) and shared <= set(py)
    for key in shared:
        assert row[key] == rounded(py[key]), key


def test_rounding_rules():
    assert rounded(0.11558356479999998) == 0.11558356
    assert rounded(1.23456789e-20) == 1.2345679e-20
    assert rounded({"x": (math.nan, math.inf, 3, True)}) == {"x": [None, None, 3, True]}
