"""Hostile inputs of the round-33 battery that found something open: each test generates
its hostile input (in a temporary directory where it needs a file) and fails on the code
before the fix."""

import json

import jsonschema
import pytest

import falseclaims
from falseclaims.cli import main
from falseclaims.cli.envelope import schema


def _exit_code(argv):
    with pytest.raises(SystemExit) as exc:
        raise SystemExit(main(argv))
    return exc.value.code


def _one_line_error(capsys, argv):
    code = _exit_code(argv)
    out = capsys.readouterr()
    assert code == 2, out.err
    assert "Traceback" not in out.err + out.out
    assert len(out.err.strip().splitlines()) == 1, out.err
    return out


@pytest.mark.parametrize("argv, command", [
    (["check", "--task", "cls", "--n", "0", "--a", "0.9", "--b", "0.8"], "check"),
    (["check", "--task", "cls", "--n", "100", "--a", "90", "--b", "0.8"], "check"),
    (["check", "--task", "cls", "--n", "100", "--a", "0.9"], "check"),
    (["check", "--task", "cls", "--n", "100", "--a", "0.9", "--b", "0.8", "--bogus"], "check"),
    (["plan", "--task", "cls", "--delta", "0.01", "--level", "0.9", "--target", "0"], "plan"),
    (["sota", "--m", "0", "--n", "100", "--p", "0.9"], "sota"),
    (["percase", "{tmp}/no_such_file.csv"], "percase"),
    (["percase", "{tmp}/bad.csv", "--task", "seg"], "percase"),
    (["check", "--task", "cls", "--n", "100", "--a", "0.9", "--b", "0.8",
      "--config", "{tmp}/no_such_config.yaml"], "check"),
])
def test_json_error_envelope_for_every_command(tmp_path, capsys, argv, command):
    (tmp_path / "bad.csv").write_text("case_id,alg_a,alg_b\nc1,0.8,abc\nc2,0.7,0.6\n"
                                      "c3,0.9,0.8\n", encoding="utf-8")
    argv = [a.format(tmp=tmp_path) for a in argv] + ["--json"]
    out = _one_line_error(capsys, argv)
    env = json.loads(out.out)
    jsonschema.validate(env, schema())
    assert env["command"] == command
    assert env["result"]["error"] and env["result"]["error"] in out.err


def test_schema_still_requires_the_result_keys_without_an_error():
    env = {"tool": "falseclaims", "version": "1", "command": "check", "inputs": {},
           "result": {"task": "classification"}, "notes": []}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(env, schema())
    env["result"] = {"error": ""}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(env, schema())


@pytest.mark.parametrize("config, message", [
    ({"congruence": "x"}, r"config \(a dict\): congruence: expected a mapping, got x"),
    ({"congruence": {"paper": {"classification": {"q1": 2}}}},
     r"config \(a dict\): congruence\.paper\.classification\.q1: 2 is greater than the "
     r"maximum of 1"),
    ({"nosuch": 1}, r"config \(a dict\): unknown key 'nosuch'"),
])
def test_api_config_dict_is_validated_like_a_file(tmp_path, config, message):
    import yaml
    with pytest.raises(ValueError, match=message):
        falseclaims.probability("cls", n=500, a=0.86, b=0.85, config=config)
    path = tmp_path / "c.yaml"  # the same words as for the file holding the same keys
    path.write_text(yaml.safe_dump(config), encoding="utf-8")
    with pytest.raises(ValueError, match=message.replace(r"config \(a dict\)", "c.yaml")):
        falseclaims.probability("cls", n=500, a=0.86, b=0.85, config=str(path))


def test_api_config_dict_is_merged_over_the_defaults_and_used():
    # the headline level q3 of the packaged congruence (cls: 0.82, docs/api.md) is used
    # as if given by name
    by_dict = falseclaims.probability("cls", n=500, a=0.86, b=0.85,
                                      config={"analysis": {"headline_congruence": "q3"}})
    by_name = falseclaims.probability("cls", n=500, a=0.86, b=0.85, congruence="q3")
    assert by_dict.probability == by_name.probability
    assert by_dict.congruence_level == "q3"
    full = falseclaims.probability("cls", n=500, a=0.86, b=0.85,
                                   config=falseclaims.load_config())
    assert full.probability == falseclaims.probability("cls", n=500, a=0.86,
                                                       b=0.85).probability


def test_api_config_of_another_type_is_a_type_error():
    with pytest.raises(TypeError, match="config must be a YAML file's path or a dict of "
                                        "config blocks; got list"):
        falseclaims.probability("cls", n=500, a=0.86, b=0.85, config=["congruence"])
