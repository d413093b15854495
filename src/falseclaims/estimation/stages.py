"""One call per pipeline stage of the estimation rules (workflow/rules/estimation.smk)."""

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
from falseclaims.table_io import read_table, write_table, write_yaml
from falseclaims.sd_model import SDModel
from falseclaims.tasks import TASKS

__all__ = ["run_congruence", "run_sd_fit", "run_congruence_figures", "run_sd_figure"]

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


def run_congruence(name: str, spec: Mapping, seed: int | None, pairs_csv, summary_yaml,
                   quartiles_csv, base: str | Path = ".") -> dict:
    """Pairwise table, per-task quartiles and the config-shaped summary of one source."""
    pairs = congruence_pairs(name, spec, base=base, seed=seed)
    undefined = pairs["congruence"].isna()
    for note, k in pairs.loc[undefined, "note"].value_counts().items():
        log.debug("  undefined: %s (%d pairs)", note, k)
    write_table(pairs, pairs_csv)
    write_table(per_task_quartiles(pairs), quartiles_csv)
    summary = congruence_summary(name, spec["citation"], pairs)
    write_yaml(summary, summary_yaml)
    log.info("%s: congruence %s; %d pairs, %d undefined (details: this rule's log)", name,
             brief(summary), len(pairs), int(undefined.sum()))
    log.debug("%s", summary)
    return summary


def run_sd_fit(name: str, spec: Mapping, pairs_csv, model_yaml, base: str | Path = ".") -> dict:
    """(mean, SD) pairs and the fitted SD model with R^2 and leave-one-task-out error."""
    pairs = mean_sd_pairs(name, spec, base=base)
    fit = fit_source(name, pairs, form=spec.get("form", "gamma"),
                     floor=float(spec.get("floor", 0.005)), link=spec.get("link", "identity"))
    write_table(pairs, pairs_csv)
    summary = fit_summary(fit, spec["citation"], data=spec.get("path") or spec.get("glob", ""))
    write_yaml(summary, model_yaml)
    log.info("%s: SD model %s (details: this rule's log)", name, brief(summary))
    log.debug("%s: %s", name, summary)
    return summary


def run_congruence_figures(pairs_csvs: Sequence, paper: Mapping, ecdf_path, by_task_path,
                           summary_csv) -> pd.DataFrame:
    """Both congruence figures plus a table of every source's quartiles next to the paper's."""
    from falseclaims.figures.estimation import plot_congruence_by_task, plot_congruence_ecdf
    from falseclaims.figures.output import write_figure

    pairs = pd.concat([read_table(p) for p in pairs_csvs], ignore_index=True)
    write_figure(*plot_congruence_ecdf(pairs, paper), ecdf_path)
    write_figure(*plot_congruence_by_task(pairs, paper), by_task_path)
    table = per_task_quartiles(pairs)
    table = table[table["task"] == "all"].drop(columns="task")
    paper_rows = [{"source": "paper", "kind": k, "n_pairs": pd.NA, "n_undefined": pd.NA,
                   **{lvl: float(paper[k][lvl]) for lvl in ("q1", "median", "q3")}}
                  for k in TASKS if k in paper]
    table = pd.concat([pd.DataFrame(paper_rows), table], ignore_index=True)
    write_table(table, summary_csv)
    return table


def run_sd_figure(pairs_csvs: Sequence, model_yamls: Mapping[str, str], figure_path,
                  summary_csv, reference: SDModel | None = None,
                  compare: Mapping[str, SDModel] | None = None) -> pd.DataFrame:
    """SD figure plus a table of every source's coefficients, fit quality and provenance;
    ``reference`` and ``compare``: config models drawn over every panel."""
    from falseclaims.figures.estimation import plot_sd_models
    from falseclaims.figures.output import write_figure

    pairs = pd.concat([read_table(p) for p in pairs_csvs], ignore_index=True)
    summaries, models = [], {}
    for name, path in model_yamls.items():
        with open(path, encoding="utf-8") as fh:
            d = yaml.safe_load(fh)
        models[name] = SDModel.from_dict(d, source=name)
        summaries.append({"source": name, **{k: v for k, v in d.items() if k != "source"}})
    write_figure(*plot_sd_models(pairs, models, reference=reference, compare=compare),
                 figure_path)
    table = pd.DataFrame(summaries)
    write_table(table, summary_csv)
    return table
