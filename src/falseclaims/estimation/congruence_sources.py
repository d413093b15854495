"""Pairwise congruence per configured source (config ``estimation.congruence_sources``).

A source spec (:class:`~falseclaims.estimation.specs.SourceSpec`, read once from the config
entry) has a ``type``:

- ``msd_pairwise``: the published-derived MSD table of Pearson r per method pair
  (``path``; optional ``phases``), no per-case data needed;
- ``wide_per_method``: one segmentation file per method (``glob``), e.g. Touchstone;
  every per-case file of any type may be gzip-compressed (``.csv.gz``);
- ``predictions_with_labels``: groups of prediction files plus one ``labels`` file, e.g.
  ISIC 2018; pairs are formed within each group (the group name is the task);
- ``long`` / ``claims_reloaded``: a user's per-case file (``path``, may be ``.csv.gz``;
  ``columns: {their: ours}`` renames columns; ``long`` needs ``metric:`` when the file
  holds several metrics);
- ``sklearn``: models trained here (``datasets``, ``models``, ``test_size``, ``seed``).

:func:`congruence_pairs` returns the pairwise table (:data:`PAIR_COLUMNS` plus ``source``),
:func:`congruence_summary` the ``{source, citation, <kind>: {q1, median, q3}}`` mapping that
the survey stage reads like an inline config source.
"""

from __future__ import annotations

import gzip
import logging
import shutil
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from falseclaims.percase.congruence import (
    PAIR_COLUMNS,
    congruence_quartiles,
    pairwise_congruence,
    quartiles_block,
)
from falseclaims.estimation.inputs import SOURCE_TYPES, read_input_table, source_input_files
from falseclaims.estimation.inputs import glob_files as _glob
from falseclaims.estimation.inputs import resolve as _resolve
from falseclaims.estimation.specs import SourceSpec
from falseclaims.percase.readers import (
    PerCase,
    PerCaseValidationError,
    Problem,
    read_claims_reloaded,
    read_long,
    read_predictions_with_labels,
    read_wide_per_method,
)

__all__ = ["SOURCE_TYPES", "source_input_files", "load_percase", "prepared_table",
           "congruence_pairs", "congruence_summary", "msd_pairs", "per_task_quartiles"]

log = logging.getLogger("falseclaims.estimation")

MSD_COLUMNS = ("task", "subtask", "phase", "method_a", "method_b", "n_cases", "pearson_r")


def msd_pairs(path: str | Path, phases=None) -> pd.DataFrame:
    """MSD pairwise Pearson r (data/external/msd-derived) as a pairwise table.

    Task = ``<task>/<subtask>``. Empty ``pearson_r`` (a method with constant DSC) stays NaN
    with a note, so it is counted but not used.
    """
    file = str(path)
    df = read_input_table(path)
    missing = [c for c in MSD_COLUMNS if c not in df.columns]
    if missing:
        raise PerCaseValidationError([Problem(file, column=c, expected="an MSD column")
                                      for c in missing])
    problems = []
    r = pd.to_numeric(df["pearson_r"].where(df["pearson_r"] != ""), errors="coerce")
    n = pd.to_numeric(df["n_cases"], errors="coerce")
    phase = pd.to_numeric(df["phase"], errors="coerce")
    for col, num, allow_empty in (("pearson_r", r, True), ("n_cases", n, False),
                                  ("phase", phase, False)):
        bad = num.isna() & ((df[col] != "") | (not allow_empty))
        for i in np.flatnonzero(bad.to_numpy()):
            problems.append(Problem(file, row=int(i) + 2, column=col, value=df[col].iloc[i],
                                    expected="a number"))
    bad = r.notna() & ((r < -1) | (r > 1))
    for i in np.flatnonzero(bad.to_numpy()):
        problems.append(Problem(file, row=int(i) + 2, column="pearson_r", value=r.iloc[i],
                                expected="r in [-1, 1]"))
    if problems:
        raise PerCaseValidationError(problems)
    keep = np.ones(len(df), bool) if phases is None else phase.isin(list(phases)).to_numpy()
    out = pd.DataFrame({
        "kind": "segmentation",
        "task": (df["task"] + "/" + df["subtask"]).to_numpy(),
        "metric": "dsc",
        "method_a": df["method_a"].to_numpy(), "method_b": df["method_b"].to_numpy(),
        "n": n.astype(int).to_numpy(), "congruence": r.astype(float).to_numpy(),
        "note": np.where(r.isna(), "r undefined (constant DSC) in source table", ""),
    })[keep].reset_index(drop=True)
    for c in PAIR_COLUMNS:
        if c not in out.columns:
            out[c] = np.nan
    return out[PAIR_COLUMNS]


def prepared_table(spec: SourceSpec, base: Path, tmp: Path, one_metric: bool = True) -> Path:
    """The per-case file of a ``long`` / ``claims_reloaded`` source as the reader wants
    it: gzip-compressed files (``.csv.gz``) decompressed, ``columns: {their: ours}``
    renamed and, for ``long``, one metric kept (``metric:``). A ``long`` file holding
    several metrics without ``metric:`` is refused naming them: pooling the congruence of,
    say, DSC and Hausdorff distance pairs mixes two quantities."""
    path = _resolve(base, spec.path)
    mapping = dict(spec.columns)
    gz = path.suffix.lower() == ".gz"
    if not (gz or mapping or (spec.type == "long" and (one_metric or spec.metric))):
        return path
    if not path.is_file():
        raise FileNotFoundError(f"per-case file not found: {path}")
    name = path.name[:-3] if gz else path.name
    df = read_input_table(path, mapping)
    if spec.type == "long" and "metric" in df.columns and (one_metric or spec.metric):
        df = _one_metric(df, spec, path)
    elif not (gz or mapping):
        return path
    out = tmp / name
    df.to_csv(out, index=False)
    return out


def _one_metric(df: pd.DataFrame, spec: SourceSpec, path: Path) -> pd.DataFrame:
    metrics = sorted(set(df["metric"].str.strip().str.lower()) - {""})
    want = spec.metric
    if want is None:
        if len(metrics) > 1:
            raise ValueError(f"{path}: holds the metrics {', '.join(metrics)}; set metric: "
                             "<one of them> in the congruence source (pooling several "
                             "metrics mixes their congruence)")
        return df
    keep = df["metric"].str.strip().str.lower() == str(want).lower()
    if not keep.any():
        raise ValueError(f"{path}: no row with metric {want!r} (found: {', '.join(metrics)})")
    if len(metrics) > 1:
        log.info("%s: metric %s kept, %d rows of %s left out", path, want, int((~keep).sum()),
                 ", ".join(m for m in metrics if m != str(want).lower()))
    return df[keep]


def _gunzipped(path: str | Path, tmp: Path) -> Path:
    """``path``, or a decompressed copy in ``tmp`` when it ends in ``.gz`` (named without
    the suffix: a method named after its file keeps its name)."""
    path = Path(path)
    if path.suffix.lower() != ".gz":
        return path
    out = tmp / str(len(list(tmp.iterdir()))) / path.name[:-3]
    out.parent.mkdir()
    try:
        with gzip.open(path, "rb") as src, open(out, "wb") as dst:
            shutil.copyfileobj(src, dst)
    except (OSError, EOFError) as exc:
        raise ValueError(f"{path}: not a readable gzip file ({exc})") from None
    return out


def _load_files(spec: SourceSpec, base: Path, tmp: Path, mismatch: str) -> PerCase:
    if spec.type == "wide_per_method":
        return read_wide_per_method([_gunzipped(f, tmp) for f in _glob(base, spec.glob)],
                                    case_column=spec.case_column,
                                    metric=spec.metric or "dsc", case_mismatch=mismatch)
    parts = []
    labels = _gunzipped(_resolve(base, spec.labels), tmp)
    for group, files in spec.groups.items():
        named = {}
        for f in files:
            plain = _gunzipped(_resolve(base, f), tmp)
            named[plain.stem] = plain
        parts.append(read_predictions_with_labels(
            named, labels, task=group,
            case_column=spec.case_column, prediction_column=spec.prediction_column,
            label_column=spec.label_column, case_mismatch=mismatch))
    return PerCase.concat(parts)


def load_percase(spec: SourceSpec, base: str | Path = ".", seed: int | None = None,
                 one_metric: bool = False) -> PerCase:
    """Per-case results of a source (every type but ``msd_pairwise``). ``one_metric``: a
    ``long`` file holding several metrics needs ``metric:`` (congruence is computed per
    pair over every row; an SD source picks its metric itself)."""
    base = Path(base)
    kind = spec.type
    mismatch = spec.case_mismatch
    if kind in ("wide_per_method", "predictions_with_labels"):
        with tempfile.TemporaryDirectory() as tmp:
            return _load_files(spec, base, Path(tmp), mismatch)
    if kind in ("long", "claims_reloaded"):
        with tempfile.TemporaryDirectory() as tmp:
            path = prepared_table(spec, base, Path(tmp), one_metric)
            if kind == "long":
                return read_long(path, case_mismatch=mismatch)
            return read_claims_reloaded(path, task=spec.task,
                                        case_mismatch=mismatch)
    if kind == "sklearn":
        from falseclaims.estimation.sklearn_models import train_and_predict

        s = seed if spec.seed is None else spec.seed
        if s is None:
            raise ValueError("sklearn congruence source needs a seed (spec 'seed' or config seed)")
        return train_and_predict(list(spec.datasets), list(spec.models), spec.test_size, int(s))
    raise ValueError(f"unknown congruence source type {kind!r}; choose from {SOURCE_TYPES}")


def congruence_pairs(name: str, spec: SourceSpec, base: str | Path = ".",
                     seed: int | None = None) -> pd.DataFrame:
    """The pairwise congruence table of source ``name``."""
    if spec.type == "msd_pairwise":
        pairs = msd_pairs(_resolve(Path(base), spec.path), spec.phases)
    else:
        pc = load_percase(spec, base, seed, one_metric=True)
        for note in pc.notes:
            log.debug("%s: %s", name, note)
        pairs = pairwise_congruence(pc, min_cases=int(spec.min_cases))
    pairs.insert(0, "source", name)
    return pairs


def congruence_summary(name: str, citation: str, pairs: pd.DataFrame) -> dict:
    """``{source, citation, <kind>: {q1, median, q3}}`` pooled over all pairs of each kind."""
    return {"source": name, "citation": citation, **quartiles_block(pairs)}


def per_task_quartiles(pairs: pd.DataFrame) -> pd.DataFrame:
    """Quartiles per task plus the pooled row per kind (task = ``all``)."""
    per_task = congruence_quartiles(pairs, by=["source", "kind", "task"])
    pooled = congruence_quartiles(pairs, by=["source", "kind"])
    pooled.insert(2, "task", "all")
    return pd.concat([pooled, per_task], ignore_index=True)
