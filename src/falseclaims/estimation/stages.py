"""One call per pipeline stage of the estimation rules (workflow/rules/estimation.smk).

Like every stage, each returns its tables and summaries; the rule's script writes them
(``table_io.write_table`` / ``write_yaml``). The figures of ``estimation_figures`` are drawn
by :mod:`falseclaims.figures.estimation` from the frames these return and written by the
script, as every figure job does (``figures.output.write_figure``): nothing here draws."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from pathlib import Path

import pandas as pd
import yaml

from falseclaims.estimation.congruence_sources import (
    congruence_pairs,
    congruence_summary,
    per_task_quartiles,
)
from falseclaims.estimation.sd_sources import fit_source, fit_summary, mean_sd_pairs
from falseclaims.estimation.specs import SourceSpec
from falseclaims.io.table_io import read_table
from falseclaims.levels import CONGRUENCE_LEVELS
from falseclaims.sd_model import SDModel
from falseclaims.tasks import TASKS

__all__ = ["estimate_congruence", "fit_sd_model", "read_pairs", "congruence_table",
           "sd_models_table"]

log = logging.getLogger("falseclaims.estimation")


def brief(summary: Mapping, prefix: str = "") -> str:
    """The numbers of a source summary on one short line ('segmentation q1 0.52, ...')."""
    parts = []
    for key, value in summary.items():
        if isinstance(value, Mapping):
            inner = brief(value, f"{prefix}{key} ")
            parts += [inner] if inner else []
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            parts.append(f"{prefix}{key} {value:.4g}")
    return ", ".join(parts)


def estimate_congruence(name: str, config_spec: Mapping, seed: int | None,
                        base: str | Path = ".") -> tuple[pd.DataFrame, pd.DataFrame, dict]:
    """(pairwise table, per-task quartiles, config-shaped summary) of one source (its config
    entry, validated)."""
    spec = SourceSpec.from_config(config_spec)
    pairs = congruence_pairs(name, spec, base=base, seed=seed)
    undefined = pairs["congruence"].isna()
    for note, k in pairs.loc[undefined, "note"].value_counts().items():
        log.debug("  undefined: %s (%d pairs)", note, k)
    summary = congruence_summary(name, spec.citation, pairs)
    log.info("%s: congruence %s; %d pairs, %d undefined (details: this rule's log)", name,
             brief(summary), len(pairs), int(undefined.sum()))
    log.debug("%s", summary)
    return pairs, per_task_quartiles(pairs), summary


def fit_sd_model(name: str, config_spec: Mapping,
                 base: str | Path = ".") -> tuple[pd.DataFrame, dict]:
    """((mean, SD) pairs, the fitted SD model with R^2 and leave-one-task-out error) of one
    source (its config entry, validated)."""
    spec = SourceSpec.from_config(config_spec)
    pairs = mean_sd_pairs(name, spec, base=base)
    fit = fit_source(name, pairs, form=spec.form, floor=spec.floor, link=spec.link)
    summary = fit_summary(fit, spec.citation, data=spec.data)
    log.info("%s: SD model %s (details: this rule's log)", name, brief(summary))
    log.debug("%s: %s", name, summary)
    return pairs, summary


def read_pairs(pairs_csvs: Sequence) -> pd.DataFrame:
    """The pairs tables of several sources (``*_pairs.csv``, ``*_mean_sd.csv``) as one."""
    return pd.concat([read_table(p) for p in pairs_csvs], ignore_index=True)


def congruence_table(pairs: pd.DataFrame, paper: Mapping) -> pd.DataFrame:
    """Every source's congruence quartiles next to the paper's (the table beside the
    congruence figures)."""
    table = per_task_quartiles(pairs)
    table = table[table["task"] == "all"].drop(columns="task")
    paper_rows = [{"source": "paper", "kind": k, "n_pairs": pd.NA, "n_undefined": pd.NA,
                   **{lvl: float(paper[k][lvl]) for lvl in CONGRUENCE_LEVELS}}
                  for k in TASKS if k in paper]
    return pd.concat([pd.DataFrame(paper_rows), table], ignore_index=True)


def sd_models_table(model_yamls: Mapping[str, str]) -> tuple[dict[str, SDModel], pd.DataFrame]:
    """The fitted SD models (source name -> model) and a table of every source's
    coefficients, fit quality and provenance (the table beside the SD figure)."""
    summaries, models = [], {}
    for name, path in model_yamls.items():
        with open(path, encoding="utf-8") as fh:
            d = yaml.safe_load(fh)
        models[name] = SDModel.from_dict(d, source=name)
        summaries.append({"source": name, **{k: v for k, v in d.items() if k != "source"}})
    return models, pd.DataFrame(summaries)
