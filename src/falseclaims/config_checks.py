"""Checks of a config that JSON Schema cannot express (run by ``config_validation.validate``
after the schema check, so the pipeline and the command line refuse the same configs).

- congruence quartiles in order (q1 <= median <= q3) for every inline source and task;
- every source listed in ``congruence.use`` / ``sd_model.use`` defined inline or by the
  estimation stage (``estimation.congruence_sources`` / ``estimation.sd_sources``);
- every inline SD model positive over the mean DSCs it is applied to: evaluated through
  :meth:`SDModel.curve` on ``[0, SD_POSITIVE_UP_TO]`` (above it a fitted curve may reach 0
  at DSC = 1, where the documented floor applies).
"""

from __future__ import annotations

from falseclaims.levels import CONGRUENCE_LEVELS
from falseclaims.tasks import TASKS

__all__ = ["semantic_problems", "SD_POSITIVE_UP_TO"]

SD_POSITIVE_UP_TO = 0.9  # mean DSC; the anchored form vanishes at 1, the OLS fit near 0.94


def _number(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _congruence(cong: dict, est: dict | None) -> list[str]:
    out = []
    for name, src in cong.items():
        if name == "use" or not isinstance(src, dict):
            continue
        for task in TASKS:
            q = src.get(task)
            if isinstance(q, dict) and all(_number(q.get(k)) for k in CONGRUENCE_LEVELS) \
                    and not q["q1"] <= q["median"] <= q["q3"]:
                out.append(f"congruence.{name}.{task}: expected q1 <= median <= q3, got "
                           f"q1 {q['q1']}, median {q['median']}, q3 {q['q3']}")
    if est is not None:
        known = [k for k in cong if k != "use"] + list(est.get("congruence_sources") or {})
        out += _unknown("congruence", cong.get("use"), known, "estimation.congruence_sources")
    return out


def _unknown(block: str, use, known: list[str], estimated_key: str) -> list[str]:
    return [f"{block}.use: unknown source {s!r} (defined inline in {block}: or in "
            f"{estimated_key}: {', '.join(known) or 'none'})"
            for s in (use if isinstance(use, list) else []) if s not in known]


def _sd_models(sd: dict, est: dict | None) -> list[str]:
    import numpy as np

    from falseclaims.sd_model import SDModel

    out = []
    grid = np.linspace(0.0, SD_POSITIVE_UP_TO, 91)
    for name, src in sd.items():
        if name == "use" or not isinstance(src, dict):
            continue
        try:
            curve = np.asarray(SDModel.from_dict(src, source=name).curve(grid), dtype=float)
        except (TypeError, ValueError, KeyError):
            continue  # the schema reports malformed entries
        bad = grid[~(curve > 0)]
        if bad.size:
            out.append(f"sd_model.{name}: expected an SD curve > 0 for mean DSC in [0, "
                       f"{SD_POSITIVE_UP_TO:g}], got {float(np.min(curve)):.4g} "
                       f"(<= 0 for mean DSC {bad[0]:.2f}-{bad[-1]:.2f}); check the signs of "
                       "b0, b1, b2")
    if est is not None:
        known = [k for k in sd if k != "use"] + list(est.get("sd_sources") or {})
        out += _unknown("sd_model", sd.get("use"), known, "estimation.sd_sources")
    return out


def semantic_problems(config: dict) -> list[str]:
    """One line per problem (none for a config without these blocks)."""
    est = config.get("estimation") if isinstance(config.get("estimation"), dict) else None
    out = []
    if isinstance(config.get("congruence"), dict):
        out += _congruence(config["congruence"], est)
    if isinstance(config.get("sd_model"), dict):
        out += _sd_models(config["sd_model"], est)
    return out
