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
