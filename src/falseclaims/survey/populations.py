"""The populations of papers a count is taken over (the boxes of the selection flow
diagram, so a population has one count everywhere) and the reporting frequency of metrics
over one of them (Tables S1/S2 of [Christodoulou2025]); the papers with a distinct test set,
over which the paper states its test-set size median and quartiles."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import pandas as pd

from falseclaims.io.table_io import require_columns
from falseclaims.survey.eligibility import unreadable
from falseclaims.tasks import TASK_LABELS

TABLE_NAMES = {"classification": "S1", "segmentation": "S2"}

# the population of the test-set size statistics ([Christodoulou2025], Results)
TEST_SET_POPULATION = "papers in scope with a distinct test set and its size recorded"
# how a caption names each population (the boxes of the selection flow diagram)
POPULATION_TEXT = {"all": "papers found", "in_scope": "papers in scope",
                   "quantitative": "papers in scope reporting values in text or tables"}


@dataclass(frozen=True)
class Populations:
    """``figures.populations``: the population (``all``, ``in_scope`` or ``quantitative``,
    :func:`population`) each reporting count is taken over: Fig 3 (practices), Fig S7
    (uncertainty), Fig S8 (split sizes) and Tables S1/S2 (metrics)."""

    practices: str
    uncertainty: str
    split_sizes: str
    metrics: str

    @classmethod
    def from_config(cls, cfg: Mapping) -> Populations:
        return cls.from_block(cfg["figures"]["populations"])  # required by the schema

    @classmethod
    def from_block(cls, block: Mapping) -> Populations:
        """From ``figures.populations`` itself (what the figure rules hand their scripts)."""
        return cls(practices=str(block["practices"]), uncertainty=str(block["uncertainty"]),
                   split_sizes=str(block["split_sizes"]), metrics=str(block["metrics"]))


def population(papers: pd.DataFrame, which: str) -> pd.DataFrame:
    """Papers a reporting-practice figure or table counts: the boxes of the selection flow
    diagram (``survey.eligibility``), so a population has one count everywhere.

    ``all``: every paper found; ``in_scope``: readable (no unreadable cell, venues read with
    ``on_bad_cell: exclude``) and main task classification or segmentation;
    ``quantitative``: in scope and not reporting values only in figures/supplements
    ([Christodoulou2025], Methods, "Data analysis subset").
    """
    require_columns(papers, ["task", "in_scope", "values_only_in_figures"], "papers")
    in_scope = papers["in_scope"].astype("boolean").fillna(False).astype(bool) \
        & ~unreadable(papers)
    if which == "in_scope":
        mask = in_scope
    elif which == "quantitative":
        only_fig = papers["values_only_in_figures"].astype("boolean").fillna(False).astype(bool)
        mask = in_scope & ~only_fig
    elif which == "all":
        mask = pd.Series(True, index=papers.index)
    else:
        raise ValueError(f"population must be 'all', 'in_scope' or 'quantitative'; got {which!r}")
    return papers.loc[mask].copy()


def metric_frequency(papers: pd.DataFrame, which: str = "quantitative",
                     labels: dict | None = None) -> pd.DataFrame:
    """Share of papers reporting each metric, per task, most frequent first.

    Spellings are mapped to their display name first (``labels``, lower-case keys;
    "Accuracy" and "acc" are one metric): one row per display name, a paper counting once
    per metric however many spellings it lists; ``metric`` lists the spellings found.
    The denominator ``n_papers`` is every paper of the population ``which``: papers with no
    metric recorded stay in it and are counted in a ``(none recorded)`` row.
    """
    require_columns(papers, ["venue", "paper_id", "task", "metrics_reported"], "papers")
    labels = {str(k).strip().lower(): v for k, v in (labels or {}).items()}
    pop = population(papers, which)
    rows = []
    for task in [t for t in TASK_LABELS if t in set(pop["task"])]:
        sub = pop[pop["task"] == task]
        n = len(sub)
        spellings: dict[str, set] = {}
        counts: dict[str, int] = {}
        none = 0
        for v in sub["metrics_reported"]:
            ms = {m.strip().lower() for m in str(v).split(";") if m.strip()} \
                if pd.notna(v) else set()
            none += not ms
            for m in ms:
                spellings.setdefault(labels.get(m, m), set()).add(m)
            for label in {labels.get(m, m) for m in ms}:
                counts[label] = counts.get(label, 0) + 1
        venue = sub["venue"].iloc[0] if n else ""
        for label, k in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0].lower())):
            rows.append({"venue": venue, "task": task, "metric": ";".join(sorted(spellings[label])),
                         "label": label, "n_papers_reporting": k, "n_papers": n,
                         "percent": round(100 * k / n, 1), "population": which})
        if none:
            rows.append({"venue": venue, "task": task, "metric": "", "label": "(none recorded)",
                         "n_papers_reporting": none, "n_papers": n,
                         "percent": round(100 * none / n, 1), "population": which})
    return pd.DataFrame(rows, columns=["venue", "task", "metric", "label",
                                       "n_papers_reporting", "n_papers", "percent",
                                       "population"])


def distinct_test_sizes(papers: pd.DataFrame, splits, which: str = "in_scope") -> pd.DataFrame:
    """Test-set sizes of the papers of population ``which`` whose split has a distinct test
    set (``splits``: config ``analysis.test_set_splits``) and whose test-set size is
    recorded: the population of the paper's median and quartiles ("among the papers that
    employed a test set in their data-splitting strategy", 65% / 76% of the papers).
    Columns ``paper_id, task, n_test``."""
    pop = population(papers, which)
    n = pd.to_numeric(pop["n_test"], errors="coerce")
    keep = pop["split"].astype("string").isin(list(splits)).fillna(False).astype(bool) \
        & n.notna() & (n > 0)
    return pd.DataFrame({"paper_id": pop.loc[keep, "paper_id"], "task": pop.loc[keep, "task"],
                         "n_test": n[keep].astype(float)}).reset_index(drop=True)
