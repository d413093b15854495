"""Survey probabilities: one probability per paper x congruence x SD assumption, vectorised
over papers (the shares above the cutoffs are in :mod:`falseclaims.survey.exceedance`)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from falseclaims.io.table_io import read_table
from falseclaims.engine import probability

KEYS = ["congruence_source", "congruence_level", "sd_source", "sd_level"]
PROB_COLUMNS = [
    "venue", "paper_id", "task", "n_test", "value_a", "value_b", "delta",
    "congruence_source", "congruence_level", "congruence_assumed", "congruence_used",
    "congruence_clamped", "sd_source", "sd_level", "sd_a", "sd_b", "sd_a_imputed",
    "sd_b_imputed", "sd_floored", "probability",
]


# Written to probabilities.csv: the scenario keys, the probability, and what the summaries and
# Fig 4 read. The other inputs of each row are in top2.csv (value_a, value_b),
# congruence.csv (congruence_*) and sd_imputed.csv (sd_*); :func:`join_inputs` joins them
# back. Repeating them in every scenario row made the table ~2.5 times larger and slower.
PROB_TABLE_COLUMNS = ["venue", "paper_id", "task", "n_test", "delta", *KEYS, "probability"]


def compact_probabilities(full: pd.DataFrame) -> pd.DataFrame:
    """The columns of probabilities.csv (:data:`PROB_TABLE_COLUMNS`) of a full table."""
    return full[PROB_TABLE_COLUMNS]


def join_inputs(probs: pd.DataFrame, top2: pd.DataFrame, congruence: pd.DataFrame,
                sds: pd.DataFrame) -> pd.DataFrame:
    """probabilities.csv with every input per row (:data:`PROB_COLUMNS`), as
    :func:`compute_probabilities` returns it: joined with top2.csv, congruence.csv and
    sd_imputed.csv. Classification rows have no SD (``sd_source`` "none")."""
    on_paper = ["venue", "paper_id"]
    out = probs.merge(top2[[*on_paper, "value_a", "value_b"]], on=on_paper, how="left",
                      validate="m:1")
    out = out.merge(congruence, on=[*on_paper, "congruence_source", "congruence_level"],
                    how="left", validate="m:1")
    out = out.merge(sds, on=[*on_paper, "sd_source", "sd_level"], how="left", validate="m:1")
    for col in ("sd_a_imputed", "sd_b_imputed", "sd_floored"):
        out[col] = out[col].astype("boolean").fillna(False).astype(bool)
    out["congruence_clamped"] = out["congruence_clamped"].astype(bool)
    return out[PROB_COLUMNS]


def read_probabilities(path, top2=None, congruence=None, sds=None) -> pd.DataFrame:
    """Read probabilities.csv; given top2.csv, congruence.csv and sd_imputed.csv (paths or
    frames), return the full table with every input per row (:func:`join_inputs`). Readers
    of the table (summaries, figures) use this, so they work with either layout."""
    def frame(x):
        return x if isinstance(x, pd.DataFrame) else read_table(x)

    probs = frame(path)
    given = [x is not None for x in (top2, congruence, sds)]
    if not any(given) or set(PROB_COLUMNS) <= set(probs.columns):
        return probs
    if not all(given):
        raise ValueError("read_probabilities needs all of top2, congruence and sds, or none")
    return join_inputs(probs, frame(top2), frame(congruence), frame(sds))


def compute_probabilities(top2: pd.DataFrame, congruence: pd.DataFrame,
                          sds: pd.DataFrame) -> pd.DataFrame:
    """One row per paper x congruence (source, level) x SD (source, level), with every
    input (:data:`PROB_COLUMNS`); probabilities.csv holds :func:`compact_probabilities`."""
    base = top2[["venue", "paper_id", "task", "n_test", "value_a", "value_b", "delta"]]
    rows = base.merge(congruence, on=["venue", "paper_id"], how="inner", validate="1:m")
    cls = rows[rows["task"] == "classification"].copy()
    cls["sd_source"], cls["sd_level"] = "none", "none"
    for col in ("sd_a", "sd_b"):
        cls[col] = np.nan
    for col in ("sd_a_imputed", "sd_b_imputed", "sd_floored"):
        cls[col] = False
    cls["probability"] = np.nan  # a venue without classification papers keeps the column
    if len(cls):
        # congruence_used is already feasible; the library would clamp identically
        cls["probability"] = probability(
            "classification", cls["n_test"].to_numpy(float), cls["value_a"].to_numpy(float),
            cls["value_b"].to_numpy(float), congruence=cls["congruence_used"].to_numpy(float),
        ).probability
    else:
        cls["probability"] = pd.Series(dtype=float)
    seg = rows[rows["task"] == "segmentation"].merge(
        sds, on=["venue", "paper_id"], how="inner", validate="m:m"
    )
    if len(seg):
        # SDs already imputed per SD assumption (sd_imputed.csv)
        seg["probability"] = probability(
            "segmentation", seg["n_test"].to_numpy(float), seg["value_a"].to_numpy(float),
            seg["value_b"].to_numpy(float), sd_a=seg["sd_a"].to_numpy(float),
            sd_b=seg["sd_b"].to_numpy(float), congruence=seg["congruence_used"].to_numpy(float),
        ).probability
    else:
        seg = seg.assign(probability=pd.Series(dtype=float))
    out = pd.concat([cls[PROB_COLUMNS], seg[PROB_COLUMNS]], ignore_index=True)
    return out.sort_values(["paper_id", *KEYS], kind="mergesort").reset_index(drop=True)


def iter_compact_probabilities(top2: pd.DataFrame, congruence: pd.DataFrame,
                               sds: pd.DataFrame, papers_per_chunk: int = 2_000):
    """``compact_probabilities(compute_probabilities(...))`` in pieces of
    ``papers_per_chunk`` papers, in paper_id order, so that the pieces in turn are the
    whole table (at least one piece, possibly empty): memory stays at one piece."""
    ids = np.sort(top2["paper_id"].unique())
    for start in range(0, max(len(ids), 1), papers_per_chunk):
        chunk = ids[start:start + papers_per_chunk]
        yield compact_probabilities(compute_probabilities(
            top2[top2["paper_id"].isin(chunk)], congruence[congruence["paper_id"].isin(chunk)],
            sds[sds["paper_id"].isin(chunk)]))
