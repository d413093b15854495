"""The one JSON shape of every command's ``--json`` output.

    {"tool": "falseclaims", "version": "...", "command": "check", "inputs": {...},
     "result": {...}, "notes": [...]}

``inputs`` are the arguments as the command understood them (defaults filled in),
``result`` uses the key names of the Python result objects (e.g.
:class:`falseclaims.engine.ClaimProbability`: ``a``, ``b``, ``congruence_used``,
``congruence_clamped``), ``notes`` are the sentences the text output prints as "note:".
Floats are rounded to :data:`SIGNIFICANT_DIGITS` significant digits (so 1.2e-20 stays
readable and 0.11558356479999998 becomes 0.11558356), except a fraction that rounding would
make 1 (0.999999999 stays, not 1.0); NaN and infinities become null.
The schema is ``falseclaims/schemas/cli_output.schema.yaml``; a test validates every
command's output against it.
"""

from __future__ import annotations

import json
import math
import sys

SIGNIFICANT_DIGITS = 8
TOOL = "falseclaims"


def rounded(value):
    """``value`` with every float rounded to :data:`SIGNIFICANT_DIGITS` significant digits,
    numpy scalars and arrays as plain Python values, tuples as lists."""
    if hasattr(value, "tolist") and not isinstance(value, (str, bytes)):
        value = value.tolist()
    if isinstance(value, bool) or value is None or isinstance(value, (int, str)):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            return None
        short = float(f"{value:.{SIGNIFICANT_DIGITS}g}")
        # a fraction just below 1 (0.999999999) rounded would read as certainty: kept whole
        return value if abs(short) == 1.0 and abs(value) < 1.0 else short
    if isinstance(value, dict):
        return {str(k): rounded(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [rounded(v) for v in value]
    return str(value)


def envelope(command: str, inputs: dict, result: dict, notes=()) -> dict:
    from falseclaims.cli import package_version

    return {"tool": TOOL, "version": package_version(), "command": command,
            "inputs": rounded(inputs), "result": rounded(result),
            "notes": [str(n) for n in notes]}


def emit(command: str, inputs: dict, result: dict, notes=(), stream=None) -> None:
    """Write the envelope as indented JSON (one object) to ``stream`` (stdout)."""
    stream = stream or sys.stdout
    json.dump(envelope(command, inputs, result, notes), stream, indent=2, allow_nan=False)
    stream.write("\n")


def percase_result(result: dict) -> tuple[dict, list]:
    """(result, notes) of ``percase``: the level named as the text names it (``verdict``)."""
    from falseclaims.percase.verdict import LABELS

    out = {k: v for k, v in result.items() if k not in ("notes", "level")}
    out["verdict"] = LABELS[result["level"]]
    return out, list(result.get("notes", []))


def inputs_of(args, skip=("handler", "json", "verb", "sheet_verb")) -> dict:
    """The parsed arguments of a command (what it ran with), without internals."""
    return {k: v for k, v in vars(args).items() if k not in skip and not k.startswith("_")}


def schema() -> dict:
    """The JSON Schema of the envelope (package data)."""
    import yaml

    from falseclaims.config_validation import schema_path

    with open(schema_path("cli_output"), encoding="utf-8") as fh:
        return yaml.safe_load(fh)
