"""Loading config/config.yaml and resolving congruence and SD assumptions from it."""

from __future__ import annotations

import os
from pathlib import Path

import yaml

from falseclaims.sd_model import SDModel
from falseclaims.tasks import TASKS

CONGRUENCE_LEVELS = ("q1", "median", "q3")


def find_config(path: str | os.PathLike | None = None) -> Path:
    """The config to use: explicit path, $FALSECLAIMS_CONFIG, ./config/config.yaml, or the
    repository's own config (editable installs)."""
    candidates = []
    if path:
        candidates.append(Path(path))
    elif os.environ.get("FALSECLAIMS_CONFIG"):
        candidates.append(Path(os.environ["FALSECLAIMS_CONFIG"]))
    else:
        candidates.append(Path.cwd() / "config" / "config.yaml")
        candidates.append(Path(__file__).resolve().parents[2] / "config" / "config.yaml")
    for c in candidates:
        if c.is_file():
            return c
    raise FileNotFoundError(
        f"no config found (looked at {', '.join(map(str, candidates))}); pass --config or "
        "give the assumption explicitly"
    )


def load_config(path: str | os.PathLike | None = None) -> dict:
    cfg_path = find_config(path)
    with open(cfg_path, encoding="utf-8") as fh:
        cfg = yaml.safe_load(fh)
    if not isinstance(cfg, dict):
        raise ValueError(f"{cfg_path}: expected a YAML mapping at the top level")
    cfg.setdefault("_path", str(cfg_path))
    return cfg


def configured_congruence(cfg: dict, source: str = "paper") -> dict[str, dict[str, float]]:
    """{task: {q1, median, q3}} of a congruence source defined inline in the config."""
    block = cfg.get("congruence", {})
    if source not in block or not isinstance(block[source], dict):
        raise ValueError(f"congruence source {source!r} is not defined in config 'congruence:'")
    out = {}
    for task in TASKS:
        levels = block[source].get(task)
        if levels is None:
            raise ValueError(f"congruence source {source!r} lacks task {task!r}")
        out[task] = {lvl: float(levels[lvl]) for lvl in CONGRUENCE_LEVELS}
    return out


def venue_label(cfg: dict, venue: str) -> str:
    """How outputs name a venue: its ``label`` in config ``venues:``, else its key."""
    return cfg["venues"][venue].get("label", venue)


def headline_assumption(cfg: dict) -> dict[str, str]:
    """The assumption behind the headline numbers: the first congruence and SD sources in
    ``use`` with the ``analysis`` headline levels (defaults when a block is absent, e.g. a
    minimal config given to the command-line tool)."""
    analysis = cfg.get("analysis") or {}
    return {
        "congruence_source": (cfg.get("congruence") or {}).get("use", ["paper"])[0],
        "congruence_level": analysis.get("headline_congruence", "median"),
        "sd_source": (cfg.get("sd_model") or {}).get("use", ["msd_reference"])[0],
        "sd_level": analysis.get("headline_sd", "mean"),
    }


def sd_model_from_config(cfg: dict, source: str | None = None) -> SDModel:
    block = cfg.get("sd_model", {})
    source = source or headline_assumption(cfg)["sd_source"]
    if source not in block or not isinstance(block[source], dict):
        raise ValueError(f"SD model source {source!r} is not defined in config 'sd_model:'")
    return SDModel.from_dict(block[source], source=source)


def congruence_sources(cfg: dict, estimated: dict[str, str] | None = None) -> dict:
    """{source: {task: {q1, median, q3}}} for every source in ``congruence.use``.

    Sources defined inline in the ``congruence:`` block are read from the config; the
    others from the estimation stage's YAML files given in ``estimated`` (name -> path).
    """
    estimated = estimated or {}
    out = {}
    for source in cfg["congruence"]["use"]:
        if source in cfg["congruence"]:
            out[source] = configured_congruence(cfg, source)
            continue
        if source not in estimated:
            raise ValueError(f"congruence source {source!r} is neither defined inline nor "
                             "produced by the estimation stage")
        with open(estimated[source], encoding="utf-8") as fh:
            data = yaml.safe_load(fh)
        out[source] = {
            task: {lvl: float(data[task][lvl]) for lvl in CONGRUENCE_LEVELS}
            for task in TASKS if task in data
        }
    return out


def sd_models(cfg: dict, estimated: dict[str, str] | None = None) -> dict[str, SDModel]:
    """{source: SDModel} for every source in ``sd_model.use`` (inline or estimated)."""
    estimated = estimated or {}
    out = {}
    for source in cfg["sd_model"]["use"]:
        if source in cfg["sd_model"]:
            out[source] = sd_model_from_config(cfg, source)
            continue
        if source not in estimated:
            raise ValueError(f"SD model source {source!r} is neither defined inline nor "
                             "produced by the estimation stage")
        with open(estimated[source], encoding="utf-8") as fh:
            out[source] = SDModel.from_dict(yaml.safe_load(fh), source=source)
    return out
