"""Per-method (mean, SD) pairs per source and the SD(mean DSC) model fitted on them.

Source spec (config ``estimation.sd_sources``, read once into a
:class:`~falseclaims.estimation.specs.SourceSpec`), by ``type``:

- ``mean_sd_table``: a CSV of per-method summaries (``path``; columns named by
  ``task_column``, ``method_column``, ``mean_column``, ``sd_column``), e.g. the MSD table;
- ``wide_per_method`` / ``long`` / ``claims_reloaded``: per-case segmentation results; mean
  and sample SD (ddof=1) of each method on each task are computed here, at run time (needed
  for CC BY-NC-ND data such as Touchstone, of which no altered copy may be shipped).

The fit is :func:`falseclaims.sd_model.fit_sd_model`, the model class of the survey's SD
imputation (``form``: ``gamma`` GLM by default, ``anchored`` or ``ols``; ``link`` of the
gamma form), with leave-one-task-out error and its provenance.
"""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np
import pandas as pd

from falseclaims.errors import FalseclaimsInputError
from falseclaims.estimation.congruence_sources import load_percase
from falseclaims.estimation.inputs import read_input_table
from falseclaims.estimation.specs import SourceSpec
from falseclaims.percase.readers import PerCaseValidationError, Problem
from falseclaims.sd_model import SDFit, fit_sd_model

__all__ = ["SD_SOURCE_TYPES", "mean_sd_pairs", "fit_source", "fit_summary"]

SD_SOURCE_TYPES = ("mean_sd_table", "wide_per_method", "long", "claims_reloaded")
log = logging.getLogger("falseclaims.estimation")
PAIR_COLUMNS = ["source", "task", "method", "n_cases", "mean", "sd"]


def _table_pairs(spec: SourceSpec, base: Path) -> pd.DataFrame:
    path = Path(spec.path)
    path = path if path.is_absolute() else base / path
    file = str(path)
    cols = {"task": spec.task_column, "method": spec.method_column, "mean": spec.mean_column,
            "sd": spec.sd_column, "n": spec.n_column}
    df = read_input_table(path)
    problems = [Problem(file, column=c, expected="a column of the (mean, SD) table")
                for c in cols.values() if c not in df.columns]
    if problems:
        raise PerCaseValidationError(problems)
    out = {}
    for key in ("mean", "sd", "n"):
        col = cols[key]
        num = pd.to_numeric(df[col], errors="coerce")
        for i in np.flatnonzero(num.isna().to_numpy()):
            problems.append(Problem(file, row=int(i) + 2, column=col, value=df[col].iloc[i],
                                    expected="a number"))
        out[key] = num
    bad = out["mean"].notna() & ((out["mean"] < 0) | (out["mean"] > 1))
    bad |= out["sd"].notna() & (out["sd"] < 0)
    for i in np.flatnonzero(bad.to_numpy()):
        problems.append(Problem(file, row=int(i) + 2,
                                expected="mean DSC in [0, 1] and SD >= 0 (fractions, not percent)"))
    if problems:
        raise PerCaseValidationError(problems)
    return pd.DataFrame({"task": df[cols["task"]], "method": df[cols["method"]],
                         "n_cases": out["n"].astype(int), "mean": out["mean"].astype(float),
                         "sd": out["sd"].astype(float)})


def mean_sd_pairs(name: str, spec: SourceSpec, base: str | Path = ".") -> pd.DataFrame:
    """One row per method and task: ``source, task, method, n_cases, mean, sd``."""
    base = Path(base)
    kind = spec.type
    if kind == "mean_sd_table":
        pairs = _table_pairs(spec, base)
    elif kind in ("wide_per_method", "long", "claims_reloaded"):
        pc = load_percase(spec, base)
        for note in pc.notes:
            log.debug("%s: %s", name, note)
        if pc.kind != "segmentation":
            raise FalseclaimsInputError(f"SD source {name!r} must hold segmentation results")
        metric = spec.metric or "dsc"
        t = pc.table[pc.table["metric"] == metric]
        if t.empty:
            raise FalseclaimsInputError(f"SD source {name!r} has no rows with metric {metric!r}")
        g = t.groupby(["task", "method"], sort=True)["value"]
        pairs = pd.DataFrame({"n_cases": g.size(), "mean": g.mean(),
                              "sd": g.std(ddof=1)}).reset_index()
        few = pairs["n_cases"] < 2
        if few.any():
            raise FalseclaimsInputError(
                f"SD source {name!r}: fewer than 2 cases for "
                f"{pairs.loc[few, ['task', 'method']].to_dict('records')[:5]}")
    else:
        raise FalseclaimsInputError(
            f"unknown SD source type {kind!r}; choose from {SD_SOURCE_TYPES}")
    pairs.insert(0, "source", name)
    return pairs[PAIR_COLUMNS].reset_index(drop=True)


def fit_source(name: str, pairs: pd.DataFrame, form: str = "gamma",
               floor: float = 0.005, link: str = "identity") -> SDFit:
    """Fit the SD model on a source's (mean, SD) pairs; LOTO groups are the tasks."""
    return fit_sd_model(pairs["mean"].to_numpy(), pairs["sd"].to_numpy(), form=form,
                        groups=pairs["task"].to_numpy(), floor=floor, source=name, link=link)


def _rounded(v, ndigits: int):
    return round(float(v), ndigits) if isinstance(v, float) else v


def fit_summary(fit: SDFit, citation: str, data: str = "", ndigits: int = 6) -> dict:
    """``SDModel.to_dict()`` plus citation, r2, n, residual_sd, loto_mae, loto_rel_mae and the
    provenance: ``data`` (the input file or glob), ``n_pairs``, ``fit_method`` and, for the
    gamma form, ``statsmodels_version`` and the relative SE of the fitted mean."""
    out = {k: _rounded(v, ndigits) for k, v in fit.model.to_dict().items()}
    out["citation"] = citation
    for k in ("r2", "residual_sd", "loto_mae", "loto_rel_mae"):
        v = getattr(fit, k)
        out[k] = None if v is None else round(float(v), ndigits)
    out["n"] = int(fit.n)
    out["data"] = data
    out.update({k: _rounded(v, ndigits) for k, v in fit.provenance.items()})
    return out
