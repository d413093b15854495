"""Every number the text of [Christodoulou2025] states, computed for one venue.

:func:`venue_numbers` turns a venue's tables into ``numbers.csv``: one row per stated number
(papers found / in scope / analysed, reporting shares, test-set sizes, deltas, the headline
shares with their sensitivity range, the test-set multipliers), each with the population
it is a share of and its size; the paper's value beside it for the venues the config
compares (config ``numbers:``), with what the paper leaves unstated about it (``paper_note``:
a level, a population; config ``numbers.paper_notes``). Shares are computed by the same functions as the figures
that draw them (Fig 3, Fig S7, Tables S1/S2), so a number and its figure cannot disagree.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

import numpy as np
import pandas as pd

from falseclaims.config import (Analysis, Headline, LookupGrid, Planner, configured_congruence,
                                sd_model_from_config)
from falseclaims.survey.headline import select_headline
from falseclaims.io.table_io import numeric
from falseclaims.survey.populations import (POPULATION_TEXT, Populations, metric_frequency,
                                            population)
from falseclaims.survey.multipliers import venue_multipliers
from falseclaims.survey.populations import TEST_SET_POPULATION, distinct_test_sizes
from falseclaims.survey.reporting import practices_data, uncertainty_data
from falseclaims.tasks import NOT_RECORDED, TASKS, filled_tasks

NUMBER_COLUMNS = ["venue", "task", "name", "description", "value", "unit", "population",
                  "n_population", "low", "high", "range", "paper_value", "paper_source",
                  "paper_note"]
# the task of a number the paper states for both tasks together ("347 publications")
ALL_TASKS = "all"
# what ``low``/``high`` of a headline share span (config ``numbers.sensitivity_range``)
SENSITIVITY_RANGES = {
    # every level of one factor, the other at its headline level: true whatever the
    # headline levels are ("congruence Q1/Q3" was wrong for a Q3 headline)
    "one_at_a_time": "one factor at a time: congruence Q1, median and Q3 at the headline SD; "
                     "SD Q1, mean and Q3 at the headline congruence (the paper's sensitivity "
                     "analyses)",
    "full_grid": "all combinations of congruence Q1/median/Q3 and SD Q1/headline/Q3 "
                 "(wider than the paper's sensitivity analyses)",
}
# printed wherever the paper's value stands beside a venue in ``numbers.matched_to_paper``
MATCHED_NOTE = ("This example was generated to match these numbers of the paper: agreement "
                "with them is not evidence that the pipeline reproduces the paper.")
# how a share or count is described, in the order of the paper's text
DESCRIPTIONS = {
    "papers_found": "papers found",
    "papers_out_of_scope": "papers out of scope",
    "papers_in_scope": "papers in scope",
    "papers_in_scope_total": "papers in scope, both tasks",
    "share_values_only_in_figures": "values only in figures or supplements",
    "papers_analysed": "papers analysed (probability of a false claim)",
    "share_claims_outperformance": "claims outperformance",
    "share_bold_best": "best value in bold",
    "share_statistical_test": "statistical significance testing",
    "share_primary_metric": "reports the primary metric (Accuracy / DSC; Tables S1/S2)",
    "share_test_split": "data split with a distinct test set",
    "test_size_median": "median test-set size",
    "test_size_q1": "test-set size, first quartile",
    "test_size_q3": "test-set size, third quartile",
    "delta_mean": "mean difference of the top two (Fig S9)",
    "delta_median": "median difference of the top two (Fig S3/S9)",
    "share_no_uncertainty": "reports no performance uncertainty",
    "share_sd": "reports an SD (any basis)",
    "n_sd_test": "reports an SD over the test set",
    "share_ci": "reports a confidence interval",
    # {target}, {delta}: the planner's target and the look-up grid's multiplier delta
    "n_needed": "smallest test set with P(false claim) ≤ {target} at Δ = {delta}",
    "test_size_multiplier": "test set needed / median test-set size",
    "n_needed_inferred_level": "smallest test set with P(false claim) ≤ {target} at "
                               "Δ = {delta}, level inferred from the paper's 8×/10×; "
                               "not stated in the paper",
    "test_size_multiplier_inferred_level": "test set needed / median test-set size, level "
                                           "inferred from the paper's 8×/10×; not stated in "
                                           "the paper",
    "design_only": "design-only: papers, no results recorded",
}


def _row(venue, task, name, value, unit, pop="", n_pop=None, low=np.nan, high=np.nan,
         description=None, span=""):
    return {"venue": venue, "task": task, "name": name,
            "description": description or DESCRIPTIONS[name], "value": value, "unit": unit,
            "population": pop, "n_population": n_pop, "low": low, "high": high,
            "range": span}


def _share(k: int, n: int) -> float:
    return k / n if n else np.nan


def _flow_rows(flow: pd.DataFrame, venue: str, task: str) -> list[dict]:
    f = flow[flow["task"] == task].set_index("step")["n_papers"].astype(int)
    found, scope = int(f.get("found", 0)), int(f.get("in_scope", 0))
    text = int(f.get("values_in_text", 0))
    return [
        _row(venue, task, "papers_found", found, "papers", "papers found", found),
        _row(venue, task, "papers_out_of_scope", found - scope, "papers", "papers found", found),
        _row(venue, task, "papers_in_scope", scope, "papers", "papers found", found),
        _row(venue, task, "share_values_only_in_figures", _share(scope - text, scope), "share",
             "papers in scope", scope),
        _row(venue, task, "papers_analysed", int(f.get("test_size", 0)), "papers",
             "papers found", found),
    ]


def _total_rows(flow: pd.DataFrame, venue: str) -> list[dict]:
    """The cohort of both tasks ([Christodoulou2025], Main: "a representative cohort of 347
    medical imaging AI publications", 126 + 221 in scope)."""
    f = flow[flow["task"].isin(TASKS)]
    found = int(f.loc[f["step"] == "found", "n_papers"].astype(int).sum())
    scope = int(f.loc[f["step"] == "in_scope", "n_papers"].astype(int).sum())
    return [_row(venue, ALL_TASKS, "papers_in_scope_total", scope, "papers",
                 "papers found, both tasks", found)]


def _practice_rows(papers, venue, task, which) -> list[dict]:
    d = practices_data(papers, which)
    d = d[d["task"] == task]
    return [_row(venue, task, f"share_{r.practice}", r.share_yes, "share",
                 f"{POPULATION_TEXT[which]} where recorded", int(r.n_recorded))
            for r in d.itertuples()]


def _split_rows(papers, venue, task, which, splits) -> list[dict]:
    pop = population(papers, which)
    split = pop.loc[pop["task"] == task, "split"].astype("string")
    recorded = int(split.notna().sum())
    test = int(split.isin(list(splits)).fillna(False).astype(bool).sum())
    return [_row(venue, task, "share_test_split", _share(test, recorded), "share",
                 f"{POPULATION_TEXT[which]} where the split is recorded", recorded)]


def _size_rows(papers, venue, task, splits, which) -> list[dict]:
    """Test-set sizes of the papers with a distinct test set ([Christodoulou2025], Results:
    "among the papers that employed a test set in their data-splitting strategy", the
    "median 500 images" the paper multiplies) and their quartiles; ``low``/``high`` = the
    range."""
    sizes = distinct_test_sizes(papers, splits, which)
    n = sizes.loc[sizes["task"] == task, "n_test"]
    q1, med, q3 = n.quantile([0.25, 0.5, 0.75]).tolist() if len(n) else [np.nan] * 3
    lo, hi = (n.min(), n.max()) if len(n) else (np.nan, np.nan)
    return [_row(venue, task, "test_size_median", med, "images", TEST_SET_POPULATION, len(n),
                 low=lo, high=hi, span="smallest and largest size" if len(n) else ""),
            _row(venue, task, "test_size_q1", q1, "images", TEST_SET_POPULATION, len(n)),
            _row(venue, task, "test_size_q3", q3, "images", TEST_SET_POPULATION, len(n))]


def _metric_rows(papers, venue, task, which, labels, primary) -> list[dict]:
    freq = metric_frequency(papers, which, labels)
    freq = freq[freq["task"] == task]
    names = {str(v) for k, v in (labels or {}).items() if str(k).lower() in primary}
    names |= set(primary)
    hit = freq[freq["label"].isin(names)]
    none = freq.loc[freq["label"] == "(none recorded)", "n_papers_reporting"].sum()
    n = int(freq["n_papers"].iloc[0]) - int(none) if len(freq) else 0
    k = int(hit["n_papers_reporting"].max()) if len(hit) else 0
    return [_row(venue, task, "share_primary_metric", _share(k, n), "share",
                 f"{POPULATION_TEXT[which]} listing metrics", n)]


def _uncertainty_rows(papers, venue, task, which) -> list[dict]:
    d = uncertainty_data(papers, which)
    d = d[d["task"] == task].set_index("uncertainty")
    if d.empty:
        return []
    rec, rep = int(d["n_recorded"].iloc[0]), int(d["n_reporting"].iloc[0])
    scope = POPULATION_TEXT[which]
    return [
        _row(venue, task, "share_no_uncertainty", _share(int(d.loc["none", "n"]), rec), "share",
             f"{scope} where recorded", rec),
        _row(venue, task, "share_sd", _share(int(d.loc["sd_any", "n"]), rep), "share",
             "papers reporting uncertainty", rep),
        _row(venue, task, "n_sd_test", int(d.loc["sd_test", "n"]) if rec else np.nan,
             "papers", f"{scope} where recorded", rec),
        _row(venue, task, "share_ci", _share(int(d.loc["ci", "n"]), rep), "share",
             "papers reporting uncertainty", rep),
    ]


def _not_recorded_rows(flow, papers, venue, pops: Populations, splits) -> list[dict]:
    """The numbers a paper without a task has: found, in scope, the practices, the split
    and the uncertainty (no metric, size, delta or probability: they need a task)."""
    task = NOT_RECORDED
    filled = papers.assign(task=filled_tasks(papers["task"]))
    return (_flow_rows(flow, venue, task)[:3]
            + _practice_rows(filled, venue, task, pops.practices)
            + _split_rows(filled, venue, task, pops.split_sizes, splits)
            + _uncertainty_rows(filled, venue, task, pops.uncertainty))


def _delta_rows(top2, venue, task) -> list[dict]:
    d = pd.to_numeric(top2.loc[top2["task"] == task, "delta"], errors="coerce").dropna()
    pop = "papers analysed"
    return [_row(venue, task, "delta_mean", d.mean() if len(d) else np.nan, "metric units",
                 pop, len(d)),
            _row(venue, task, "delta_median", d.median() if len(d) else np.nan,
                 "metric units", pop, len(d))]


def sensitivity_band(summary: pd.DataFrame, headline: Headline, task: str,
                     how: str = "one_at_a_time") -> pd.DataFrame:
    """The rows of ``summary.csv`` (one task) whose shares span a headline share's range:
    ``one_at_a_time`` (the paper's sensitivity analyses: every congruence level at the
    headline SD, and for segmentation every SD level at the headline congruence) or
    ``full_grid`` (every congruence level x SD level of the headline sources)."""
    if how not in SENSITIVITY_RANGES:
        raise ValueError(f"config numbers.sensitivity_range: {how!r}; expected one of "
                         f"{sorted(SENSITIVITY_RANGES)}")
    s = summary[summary["task"] == task]
    seg = task == "segmentation"
    same = (s["congruence_source"] == headline.congruence_source) \
        & ((s["sd_source"] == headline.sd_source) | (not seg))
    if how == "full_grid":
        return s[same]
    head_c = s["congruence_level"] == headline.congruence_level
    head_sd = (s["sd_level"] == headline.sd_level) | (not seg)
    return s[same & (head_c | head_sd)]


def headline_rows(summary: pd.DataFrame, headline: Headline, venue: str, task: str,
                  how: str = "one_at_a_time") -> list[dict]:
    """Share above each cutoff under the headline assumption; ``low``/``high``: the range
    of :func:`sensitivity_band` (``how``), named in the ``range`` column."""
    s = numeric(summary[summary["task"] == task],
                ["cutoff", "n_papers", "n_above", "share_above"])
    head = select_headline(s, headline, "summary")
    band_rows = sensitivity_band(s, headline, task, how)
    rows = []
    for r in head.sort_values("cutoff").itertuples():
        band = band_rows.loc[band_rows["cutoff"] == r.cutoff, "share_above"]
        rows.append(_row(
            venue, task, f"share_above_{r.cutoff:g}", r.share_above, "share",
            "papers analysed", int(r.n_papers), band.min(), band.max(),
            description=f"P(false claim) > {100 * r.cutoff:g}% (headline assumption)",
            span=SENSITIVITY_RANGES[how]))
    return rows


def _multiplier_rows(table: pd.DataFrame, venue: str, task: str, source: str) -> list[dict]:
    """The test set that brings P(false claim) to ``planner.target`` at Δ =
    ``lookup_grid.multiplier_delta`` over the venue's median test-set size, at the median
    congruence: the rows of :func:`falseclaims.survey.multipliers.venue_multipliers` (also
    ``fig6_multipliers.csv``), one pair per level (the venue's, then the inferred one);
    ``source``: the congruence source named (``lookup_grid.congruence_source``)."""
    rows = []
    t = table[(table["task"] == task) & (table["congruence_level"] == "median")]
    for r in t.itertuples():
        suffix = "" if r.Index == t.index[0] else "_inferred_level"
        target, delta = f"{100 * r.target:g}%", f"{r.delta:g}"
        where = (f"Δ = {delta}, winner at {r.level:.3g} ({r.level_source}), median "
                 f"congruence {r.congruence:g} ({source}), target {target}")
        n = float(r.n_required) if r.found else np.nan
        text = DESCRIPTIONS[f"n_needed{suffix}"].format(target=target, delta=delta)
        rows += [_row(venue, task, f"n_needed{suffix}", n, "images", where, description=text),
                 _row(venue, task, f"test_size_multiplier{suffix}", r.multiplier,
                      "x median test-set size", f"{where}; median over the {r.median_population}")]
    return rows


@dataclass(frozen=True)
class NumbersSettings:
    """``numbers``: the paper's stated values, the venues they are shown beside (and those
    generated to match them) and how the headline shares' low/high are taken; plus what the
    counts borrow of ``figures``: the populations they are taken over and the display names
    of the metrics (Tables S1/S2; None: the names as found)."""

    compare_venues: tuple[str, ...]
    paper: Mapping  # {number name: {task: value as stated}}
    citation: str
    matched_to_paper: tuple[str, ...]
    sensitivity_range: str
    populations: Populations
    metric_labels: Mapping[str, str] | None
    # {number name: what the paper leaves unstated about it (a level, a population)}
    paper_notes: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def from_config(cls, cfg: Mapping) -> NumbersSettings:
        block = cfg["numbers"]
        return cls(tuple(block["compare_venues"]), block["paper"], block.get("citation", ""),
                   tuple(block.get("matched_to_paper", [])),
                   block.get("sensitivity_range", "one_at_a_time"),
                   Populations.from_config(cfg), cfg["figures"].get("metric_labels"),
                   MappingProxyType(dict(block.get("paper_notes") or {})))


def _paper_values(rows: pd.DataFrame, block: NumbersSettings, venue: str) -> pd.DataFrame:
    """The paper's value of each number (config ``numbers.paper``) for the compared venues."""
    rows["paper_value"] = ""
    rows["paper_source"] = ""
    rows["paper_note"] = ""
    if venue not in block.compare_venues:
        return rows
    source = block.citation
    if venue in block.matched_to_paper:
        source = f"{source}. {MATCHED_NOTE}" if source else MATCHED_NOTE
    for name, per_task in block.paper.items():
        for task, value in per_task.items():
            if name not in DESCRIPTIONS and not re.fullmatch(r"share_above_[0-9.]+", name):
                raise ValueError(f"config numbers.paper.{name}.{task}: no such number; "
                                 f"expected share_above_<cutoff> or one of "
                                 f"{sorted(DESCRIPTIONS)}")
            hit = (rows["name"] == name) & (rows["task"] == task)  # none: no such papers
            rows.loc[hit, "paper_value"] = str(value)
            rows.loc[hit, "paper_source"] = source
    for name, note in block.paper_notes.items():
        if name not in DESCRIPTIONS:
            raise ValueError(f"config numbers.paper_notes.{name}: no such number; expected "
                             f"one of {sorted(DESCRIPTIONS)}")
        rows.loc[rows["name"] == name, "paper_note"] = note
    return rows


def venue_numbers(tables: Mapping[str, pd.DataFrame], cfg: Mapping, venue: str) -> pd.DataFrame:
    """``tables``: papers (validated), flow, top2, summary (and results: a venue without
    results rows, a study-design sheet, gets the row ``design_only``) of one venue; ``cfg``: the config
    blocks read (``analysis``, ``congruence``, ``sd_model``, ``figures.populations`` and
    ``.metric_labels``, ``lookup_grid``, ``planner``, ``numbers``)."""
    settings = NumbersSettings.from_config(cfg)
    papers, pops = tables["papers"], settings.populations
    criteria = Analysis.from_config(cfg).eligibility
    headline = Headline.from_config(cfg)
    grid = LookupGrid.from_config(cfg)
    multipliers = venue_multipliers(
        papers, tables["top2"], grid, configured_congruence(cfg, grid.congruence_source),
        sd_model_from_config(cfg, headline.sd_source), Planner.from_config(cfg),
        criteria.test_set_splits, pops.split_sizes, venue)
    how = settings.sensitivity_range
    rows: list[dict] = []
    for task in TASKS:
        rows += _flow_rows(tables["flow"], venue, task)
        if (population(papers, pops.practices)["task"] == task).any():
            rows += _practice_rows(papers, venue, task, pops.practices)
        if (population(papers, pops.metrics)["task"] == task).any():
            rows += _metric_rows(papers, venue, task, pops.metrics,
                                 settings.metric_labels,
                                 [m.lower() for m in criteria.metrics[task]])
        rows += _split_rows(papers, venue, task, pops.split_sizes,
                            criteria.test_set_splits)
        rows += _size_rows(papers, venue, task, criteria.test_set_splits,
                           pops.split_sizes)
        rows += _delta_rows(tables["top2"], venue, task)
        rows += headline_rows(tables["summary"], headline, venue, task, how)
        rows += _uncertainty_rows(papers, venue, task, pops.uncertainty)
        rows += _multiplier_rows(multipliers, venue, task, grid.congruence_source)
    rows += _total_rows(tables["flow"], venue)
    if "results" in tables and tables["results"].empty:  # a study-design sheet
        rows.append(_row(venue, "", "design_only", len(papers), "papers", "papers found",
                         len(papers)))
    if papers["task"].isna().any():  # a study-design sheet recording no task: its practices
        rows += _not_recorded_rows(tables["flow"], papers, venue, pops,
                                   criteria.test_set_splits)
    out = pd.DataFrame(rows, columns=[c for c in NUMBER_COLUMNS if c not in
                                      ("paper_value", "paper_source", "paper_note")])
    out["n_population"] = out["n_population"].astype("Int64")
    return _paper_values(out, settings, venue)[NUMBER_COLUMNS]
