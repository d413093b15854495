"""One entry point for "the probability that a claim is false, for task X, imputing SDs
when missing": :func:`probability` (numbers or arrays) and :func:`probabilities` (a
DataFrame of claims). Every part of the package (survey, ``check``, ``plan``, calibration,
per-case comparison, example generator) calls these; docs/api.md shows them in use.

Defaults come from the config shipped with the package (``default_config.yaml``): the
congruence of [Christodoulou2025] at the headline level (median) and the headline SD model
and level. Pass ``config=`` (a dict or a YAML path merged over the defaults) to change them.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from functools import lru_cache

import numpy as np

from falseclaims import stats
from falseclaims.levels import CONGRUENCE_LEVELS, LEVEL_LABELS
from falseclaims.readout import MAX_DECIMALS, pasted_with_spread, written_decimals
from falseclaims.tasks import resolve_task

__all__ = ["ClaimProbability", "b_leads_note", "probability", "probabilities", "sd_bound_note"]



@dataclass(frozen=True)
class ClaimProbability:
    """What :func:`probability` returns: the probability and every assumption behind it.

    Arrays where the inputs were arrays, plain Python numbers for scalar inputs.
    ``congruence`` is the assumed value, ``congruence_used`` the one applied (moved into the
    feasible range for classification, ``congruence_clamped`` where). Segmentation only:
    ``sd_a``/``sd_b`` are the SDs used, ``sd_a_imputed``/``sd_b_imputed`` where they came
    from the SD model ``sd_source`` at ``sd_level``, ``sd_floored`` where the model's floor
    applied. Classification only: the discordant counts ``x1``, ``x2``.
    """

    task: str
    probability: object
    n: object
    a: object
    b: object
    congruence: object
    congruence_used: object
    congruence_clamped: object
    congruence_source: str
    congruence_level: str | None
    sd_a: object = None
    sd_b: object = None
    sd_a_imputed: object = False
    sd_b_imputed: object = False
    sd_floored: object = False
    sd_source: str | None = None
    sd_level: str | None = None
    x1: object = None
    x2: object = None
    sd_diff: object = None
    feasible: tuple = field(default=(None, None), repr=False)
    sd_floor: float | None = field(default=None, repr=False)

    def __post_init__(self):
        for name in ("n", "a", "b", "congruence"):  # a list or a Series as the array it is
            value = getattr(self, name)  # (was kept: .notes() and .item(i) failed on it)
            if isinstance(value, (list, tuple)) or hasattr(value, "to_numpy"):
                object.__setattr__(self, name, np.asarray(value))
        for f in fields(self):  # 0-d arrays and numpy scalars as plain Python numbers
            value = getattr(self, f.name)
            if isinstance(value, (np.ndarray, np.generic)) and np.ndim(value) == 0:
                object.__setattr__(self, f.name, np.asarray(value).item())

    def item(self, index) -> "ClaimProbability":
        """The result of one claim of an array result (``index`` into the broadcast
        shape), as a scalar call would return it: :meth:`notes` per claim of a batch."""
        def one(value):
            if isinstance(value, tuple):
                return tuple(one(v) for v in value)
            if isinstance(value, (np.ndarray, np.generic)) and np.ndim(value) > 0:
                return value[index].item()
            return value

        out = object.__new__(ClaimProbability)
        for f in fields(self):
            object.__setattr__(out, f.name, one(getattr(self, f.name)))
        return out

    def to_dict(self) -> dict:
        """Plain Python values (lists for arrays), e.g. for JSON."""
        return {f.name: _plain(getattr(self, f.name)) for f in fields(self)
                if f.name not in ("feasible", "sd_floor")}

    def notes(self) -> list[str]:
        """One sentence per imputation, floor or clamping (scalar results), and one when B's
        reported value is the higher (:func:`b_leads_note`)."""
        out = []
        if np.ndim(self.a) == 0 and np.ndim(self.b) == 0 and float(self.b) > float(self.a):
            out.append(b_leads_note(self.a, self.b))
        if self.task == "segmentation":
            for name, imp, sd, mean in (("A", self.sd_a_imputed, self.sd_a, self.a),
                                        ("B", self.sd_b_imputed, self.sd_b, self.b)):
                if np.ndim(sd) or np.ndim(mean):
                    continue
                if np.any(imp):
                    from falseclaims.config import source_label  # lazy: engine reads no config

                    # the SD model named as the headline and plan name it ("MSD reference")
                    out.append(f"SD of {name} imputed: {float(sd):.4f} at mean DSC "
                               f"{float(mean):g} (SD model {source_label(self.sd_source)}, "
                               f"{self.sd_level} level)")
                elif note := sd_bound_note(name, float(mean), float(sd)):
                    out.append(note)  # the CLI's words: one voice for an impossible SD
            if np.any(self.sd_floored):
                out.append("an imputed SD was raised to the model floor"
                           + (f" {self.sd_floor:g}" if self.sd_floor is not None else ""))
        elif (np.any(self.congruence_clamped) and np.ndim(self.congruence) == 0
              and np.ndim(self.a) == 0 and np.ndim(self.b) == 0):
            lo, hi = self.feasible
            # a level of the config's estimate named as check names it ("median congruence")
            named = LEVEL_LABELS.get(self.congruence_level or "given", self.congruence_level)
            out.append(f"{named} congruence {float(self.congruence):g} is infeasible for accuracies "
                       f"{float(self.a):g} and {float(self.b):g} (feasible [{float(lo):g}, "
                       f"{float(hi):g}]); clamped to {float(self.congruence_used):g}")
        return out

    def __repr__(self) -> str:
        shown = ("task", "probability", "congruence_used", "congruence_clamped")
        if self.task == "segmentation":
            shown += ("sd_a", "sd_b", "sd_a_imputed", "sd_b_imputed")
        parts = ", ".join(f"{k}={_short(getattr(self, k))}" for k in shown)
        return f"ClaimProbability({parts})"


def b_leads_note(a, b, names: tuple[str, str] = ("A", "B")) -> str:
    """The note of a claim whose runner-up reported the higher value. The probability is
    still P(A is not truly better than B), A the method the claim names the winner: above
    0.5 here, and 1 minus the probability of the claim "B beats A" (docs/method.md)."""
    first, second = names
    return (f"{second} leads: its reported value {float(b):g} is higher than {first}'s "
            f"{float(a):g}, so the probability that {first} is not truly better is above 0.5; "
            f"for the claim '{second} beats {first}' swap the values")


def sd_bound_note(name: str, mean: float, sd: float | None,
                  decimals: int | None = None) -> str | None:
    """A note when a per-case SD is larger than a DSC in [0, 1] with that mean can have: by
    the Bhatia-Davis inequality the variance is at most mean (1 - mean) [BhatiaDavis2000]
    (the printed values' rounding counted in the SD's favour, as table mode does; the mean
    printed with ``decimals`` when given, else as written: "1" may be any mean from 0.5)."""
    if sd is None or not np.isfinite(sd):
        return None
    places = written_decimals(mean) if decimals is None else max(int(decimals), 0)
    half_m = 0.5 * 10.0 ** (-min(places, MAX_DECIMALS))
    half_sd = 0.5 * 10.0 ** (-min(written_decimals(sd), MAX_DECIMALS))
    lo, hi = max(mean - half_m, 0.0), min(mean + half_m, 1.0)
    worst = 0.25 if lo <= 0.5 <= hi else max(lo * (1 - lo), hi * (1 - hi))
    if sd <= worst ** 0.5 + half_sd + 1e-12:
        return None
    return (f"SD of {name} = {sd:g} is impossible for a mean DSC of {mean:g} (a score in "
            f"[0, 1] with that mean has an SD of at most {worst ** 0.5:.3g}, Bhatia-Davis "
            "inequality): an SD in percent, a variance, or an SD of something else?")


def _plain(x):
    if isinstance(x, np.ndarray):
        return x.tolist()
    if isinstance(x, np.generic):
        return x.item()
    if isinstance(x, tuple):
        return [_plain(v) for v in x]
    return x


def _short(x) -> str:
    x = _plain(x)
    if isinstance(x, float):
        return f"{x:.6g}"
    if isinstance(x, list) and len(x) > 6:
        return f"[{len(x)} values]"
    return repr(x)


@lru_cache(maxsize=1)
def _packaged_config() -> dict:
    from falseclaims.config import DEFAULT_CONFIG, cli_defaults
    from falseclaims.config_validation import schema_path, validate

    return validate(cli_defaults(), schema_path("cli_config"), source=str(DEFAULT_CONFIG))


def _config(config) -> dict:
    """The config to use: the packaged one, or a YAML path or a dict merged over it and
    validated alike."""
    if config is None:
        return _packaged_config()
    if not isinstance(config, (Mapping, str, os.PathLike)):
        raise TypeError(f"config must be a YAML file's path or a dict of config blocks; got "
                        f"{type(config).__name__}")
    from falseclaims.config import load_config

    if not isinstance(config, Mapping):
        return load_config(config)
    try:
        key = json.dumps(config, sort_keys=True, default=repr)  # the same dict, validated once
    except (TypeError, ValueError):  # keys of mixed types: the schema names them
        return load_config(config)
    if key not in _VALIDATED:
        _VALIDATED.clear()  # one dict at a time is what a loop of calls passes
        _VALIDATED[key] = load_config(config)
    return _VALIDATED[key]


_VALIDATED: dict[str, dict] = {}


def packaged_sd_model():
    """The SD model :func:`probability` imputes with when given no config (the packaged
    config's headline model): the planner's default too, so both impute alike."""
    from falseclaims.config import sd_model_from_config

    return sd_model_from_config(_packaged_config())


def _congruence(task: str, congruence, level, config):
    """(assumed value(s), source, level) from a number/array, a level name or None;
    ``config()`` gives the config, called only when the value is left to it."""
    if isinstance(congruence, str):
        congruence, level = None, congruence
    if congruence is not None:
        return congruence, "given", None
    from falseclaims.config import Headline, configured_congruence

    cfg = config()
    level = level or Headline.from_config(cfg).congruence_level
    if level not in CONGRUENCE_LEVELS:
        raise ValueError(f"congruence level must be one of {CONGRUENCE_LEVELS}; got {level!r}")
    return configured_congruence(cfg, "paper")[task][level], "paper", level


def _numbers(name: str, x):
    """``x`` as a float array (None stays None); text such as 'abc' is named."""
    if x is None:
        return None
    if type(x).__name__ == "NAType":  # pandas' missing value: imputed like None and NaN
        return np.asarray(np.nan)
    stats.refuse_non_numbers(name, x)
    try:
        return np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be numeric; got {x!r}{_hint(x, True)}") from None


def _impute(given, mean, model, level):
    """SD used, imputed mask and floored mask; NaN in ``given`` means missing."""
    if given is not None:
        g = np.asarray(given, dtype=float)
        missing = np.isnan(g)
        if not missing.any():
            return given, False, False
    sd, floored = model.predict(mean, level)
    if given is None:
        return sd, True, floored
    g, sd, missing, floored = np.broadcast_arrays(g, sd, missing, floored)
    return np.where(missing, sd, g), missing, floored & missing


def probability(task: str, n, a, b, *, congruence=None, sd_a=None, sd_b=None,
                sd_model=None, sd_level: str | None = None,
                congruence_level: str | None = None, config=None) -> ClaimProbability:
    """P(A is not truly better than B | reported n, a, b): the probability of a false claim.

    ``task``: ``classification`` (``a``, ``b`` are accuracies) or ``segmentation`` (mean
    DSC), or ``cls``/``seg``. ``n``, ``a``, ``b`` (fractions) and the keywords broadcast
    against each other. ``congruence``: a number (classification: share of cases both
    methods get right; segmentation: Pearson r of per-case DSC), a level ``q1``/``median``/
    ``q3`` of the paper's estimate, or None for the config's headline level (``median``).
    Segmentation: ``sd_a``/``sd_b`` are the per-case SDs; None (or NaN entries) are imputed
    from ``sd_model`` (default: the config's headline SD model) at ``sd_level``.
    """
    n, a, b, sd_a, sd_b = _unmasked(n=n, a=a, b=b, sd_a=sd_a, sd_b=sd_b)
    if not isinstance(congruence, str):
        congruence = _unmasked(congruence=congruence)[0]
    # numpy reads a date, a time span, a complex number or bytes as numbers they are not;
    # refused here, before the SD model or a closed form sees them, for every caller
    for name, x in (("n", n), ("a", a), ("b", b), ("sd_a", sd_a), ("sd_b", sd_b),
                    ("congruence", congruence)):
        if x is not None and not isinstance(x, str):
            stats.refuse_non_numbers(name, x)
    # level names as the config writes them: 'Q3', ' median' are q3, median
    congruence, congruence_level, sd_level = (
        x.strip().lower() if isinstance(x, str) else x
        for x in (congruence, congruence_level, sd_level))
    _same_index(n=n, a=a, b=b, sd_a=sd_a, sd_b=sd_b, congruence=congruence)
    try:
        return _probability(resolve_task(task), n, a, b, congruence, sd_a, sd_b, sd_model,
                            sd_level, congruence_level, config)
    except ValueError as exc:  # the closed forms name a, b as acc_a / mean_a ...
        raise ValueError(re.sub(r"\b(?:acc|mean)_([ab])\b", r"\1", str(exc))) from None


def _unmasked(**named) -> list:
    """numpy masked arrays with their masked entries as NaN (missing: refused for n, a, b,
    imputed for SDs); the mask was ignored, the hidden value used."""
    return [np.ma.asarray(x).astype(float).filled(np.nan) if np.ma.isMaskedArray(x) else x
            for x in named.values()]


def _same_index(**named) -> None:
    """pandas Series are paired by position here, so their index labels must agree: two
    Series indexed differently would pair one claim's n with another claim's values."""
    series = {k: v for k, v in named.items() if hasattr(v, "index") and hasattr(v, "iloc")}
    first = next(iter(series), None)
    for name, value in series.items():
        if not value.index.equals(series[first].index):
            raise ValueError(f"{first} and {name} are pandas objects with different index "
                             "labels; values are paired by position: align them first "
                             "(e.g. pass columns of one DataFrame, or .to_numpy())")


def _probability(task, n, a, b, congruence, sd_a, sd_b, sd_model, sd_level,
                 congruence_level, config) -> ClaimProbability:
    given = None if config is None else _config(config)  # validated before any use

    def cfg() -> dict:
        # the packaged config only when an assumption is left to it: reading and validating
        # it costs a pipeline job, which passes every assumption, about 0.2 s
        return given if given is not None else _packaged_config()

    if sd_model is not None and not callable(getattr(sd_model, "predict", None)):
        raise TypeError(f"sd_model must be a falseclaims.SDModel (or None for the config's); "
                        f"got {type(sd_model).__name__}")
    for name, x in (("a", a), ("b", b)):  # text named (with what was meant) before the SD
        _numbers(name, x)  # model reads it as a mean ("could not convert string to float")
    c, c_source, c_level = _congruence(task, congruence, congruence_level, cfg)
    common = {"task": task, "n": n, "a": a, "b": b, "congruence": c,
              "congruence_source": c_source, "congruence_level": c_level}
    if task == "classification":
        if sd_a is not None or sd_b is not None:
            raise ValueError("sd_a/sd_b apply to segmentation only")
        r = stats.prob_false_claim_classification(n, a, b, c)
        return ClaimProbability(**common, probability=r.probability,
                                congruence_used=r.congruence_used,
                                congruence_clamped=r.clamped, x1=r.x1, x2=r.x2,
                                feasible=(r.lower, r.upper))
    model = None
    sd_a, sd_b = _numbers("sd_a", sd_a), _numbers("sd_b", sd_b)
    if sd_a is None or sd_b is None or np.isnan(sd_a).any() or np.isnan(sd_b).any():
        if sd_model is None:
            from falseclaims.config import sd_model_from_config

            sd_model = sd_model_from_config(cfg())
        model = sd_model
        if sd_level is None:
            from falseclaims.config import Headline

            sd_level = Headline.from_config(cfg()).sd_level
    sa, imp_a, fl_a = _impute(sd_a, a, model, sd_level)
    sb, imp_b, fl_b = _impute(sd_b, b, model, sd_level)
    r = stats.prob_false_claim_segmentation(n, a, b, sa, sb, c)
    imputed = model is not None
    return ClaimProbability(
        **common, probability=r.probability, congruence_used=c, congruence_clamped=False,
        sd_a=sa, sd_b=sb, sd_a_imputed=imp_a, sd_b_imputed=imp_b,
        sd_floored=np.logical_or(fl_a, fl_b) if imputed else False,
        sd_source=(model.source or None) if imputed else None,
        sd_level=sd_level if imputed else None, sd_diff=r.sd_diff,
        sd_floor=getattr(model, "floor", None) if imputed else None)


def _task_column(values, column: str):
    """The task column resolved (cls, seg, ...); a cell that names no task is named by
    column and row label."""
    out = []
    for i, v in enumerate(values.to_numpy(object)):
        try:
            out.append(resolve_task(v))
        except ValueError as exc:
            raise ValueError(f"column {column!r}, {stats.row_text(values.index, i)}: "
                             f"{exc}") from None
    return values.__class__(out, index=values.index, dtype=object)


# how spreadsheets and people write a missing value as text ('NA', 'n/a', '' only reach
# the engine from a DataFrame read with keep_default_na=False or dtype=str)
MISSING_SPELLINGS = frozenset({"", "-", "--", "\u2013", "\u2014", "?", "n/a", "na", "nan", "none",
                               "null", "#n/a", "missing"})


def _hint(cell, required: bool) -> str:
    """What the user meant by a text cell that is no number, when it can be told."""
    if not isinstance(cell, str):
        return ""
    if re.search(r"\d\s*(?:±|\+/?-)\s*[\d.]", cell):  # a value pasted with its spread
        return (" without its spread (of '0.853 ± 0.05' give 0.853 here and 0.05, if a "
                "per-case SD, as sd_a or sd_b)")
    pasted = pasted_with_spread(cell)
    if pasted is not None and pasted[0] != "spread":  # "0.853 (0.05)", "0.853 [0.80, 0.90]"
        return (f" without its {pasted[0]} (give {pasted[1]:.10g} here"
                + (f", and {pasted[2]:.10g}, if a per-case SD, as sd_a or sd_b)"
                   if pasted[2] is not None else "; an interval is no per-case SD)"))
    if cell.strip().endswith("%"):
        return " without '%' (a fraction: 0.86 for 86%)"
    if re.fullmatch(r"\d{1,3}(,\d{3})+", cell.strip()):
        return " (1,234: a thousands separator or a decimal comma? write 1234 or 1.234)"
    if re.fullmatch(r"[+-]?\d*,\d+", cell.strip()):
        return " with a decimal point (a decimal comma? read the file with decimal=',')"
    if re.fullmatch(r"\d{1,3}([ \u00a0\u2009\u202f]\d{3})+([.,]\d+)?", cell.strip()):
        return (" without spaces between its digits and with a decimal point (1234.5, not "
                "1 234,5)")
    if cell.strip().lower() in MISSING_SPELLINGS:
        return (" (a missing value? every claim needs this one)" if required else
                " (a missing SD? leave the cell empty (NaN) and it is imputed)")
    return ""


def _numeric_column(values, column: str, required: bool) -> np.ndarray:
    """A DataFrame column as floats; a cell that is no number (a boolean, '86%', text) or,
    when ``required``, a missing one is named by column and row label."""
    import numbers

    import pandas as pd

    stats.refuse_misread_numbers(f"column {column!r}", values, rows=values.index)
    cells = values.astype(object)
    booleans = cells.map(lambda v: isinstance(v, (bool, np.bool_)))  # True is no 1.0
    num = pd.to_numeric(cells.where(~booleans), errors="coerce").astype(float)
    # pandas does not convert Fraction (or other numbers.Real) cells; probability() does
    unread = np.flatnonzero((num.isna() & ~booleans).to_numpy())
    if len(unread):
        cell = cells.iloc[unread]
        real = cell.map(lambda v: isinstance(v, numbers.Real)).to_numpy(bool)
        num.iloc[unread[real]] = cell[real].map(float).to_numpy(float)
    bad = booleans | (num.isna() & (values.notna() | required))
    if bad.any():
        i = int(np.flatnonzero(bad.to_numpy())[0])
        cell = cells.iloc[i]
        hint = _hint(cell, required)
        shown = "a missing value" if not booleans.iloc[i] and pd.isna(cell) else repr(cell)
        raise ValueError(f"column {column!r}, {stats.row_text(values.index, i)}: got {shown}; "
                         f"expected a number{hint}")
    return num.to_numpy(float)


def _refuse_blank_rows(df, columns: list) -> None:
    """A row blank in every column a claim needs (the empty lines a spreadsheet's CSV export
    leaves below the table) is named as such, not as its first cell "task ... got nan"."""
    rows = np.flatnonzero(df[columns].isna().all(axis=1).to_numpy())
    if len(rows):
        raise ValueError(f"{stats.row_text(df.index, int(rows[0]))} is blank in every column "
                         f"of a claim ({', '.join(map(str, columns))}; {len(rows)} such "
                         "row(s): the empty lines below a spreadsheet's table?); drop them, "
                         "e.g. df.dropna(how='all')")


RESULT_COLUMNS = ["congruence_used", "congruence_clamped", "sd_a", "sd_b", "sd_a_imputed",
                  "sd_b_imputed", "sd_floored", "probability"]


def _names_column(df, key) -> bool:
    """Whether ``key`` is a column name of ``df`` (text or not: a CSV read with
    header=None has columns 0, 1, ...)."""
    try:
        return not isinstance(key, bool) and key in df.columns
    except TypeError:  # unhashable: a list of task names is no column
        return False


def _column(df, given, candidates: tuple[str, ...], what: str):
    names = (given,) if given is not None else candidates
    found = [name for name in names if name in df.columns]
    if len(found) > 1:  # 'a' and 'value_a': which is meant is the user's to say
        raise ValueError(f"two columns for {what}: {', '.join(map(repr, found))}; name the one "
                         f"to use (e.g. {found[0].split('_')[-1]}={found[0]!r})")
    for name in found:
        if (df.columns == name).sum() > 1:
            raise ValueError(f"column {name!r} ({what}) appears more than once")
        return name
    raise ValueError(f"no column for {what}: expected one of {', '.join(names)}; the "
                     f"DataFrame has {', '.join(map(str, df.columns))}{_near(df, names)}")


def _near(df, names) -> str:
    """A hint for a column meant but spelled otherwise: ' n ' or 'N' for 'n' (the header of
    a spreadsheet), or one column holding a whole ';'-separated header."""
    for col in df.columns:
        if isinstance(col, str) and col.strip().lower() in names and col not in names:
            return f" ({col!r} differs in spaces or case: rename it, or pass {col!r} by name)"
    if len(df.columns) == 1 and isinstance(df.columns[0], str) and ";" in df.columns[0]:
        return (" (one column holding a ';'-separated header: read the file with sep=';', "
                "and decimal=',' for decimal commas)")
    return ""


def _records_hint(given) -> str:
    """Claims given as a list of dicts, or a dict of columns: the one line that makes them
    the DataFrame :func:`probabilities` reads."""
    if isinstance(given, Mapping) or (isinstance(given, (list, tuple)) and given and all(
            isinstance(x, Mapping) for x in given)):
        what = "a dict of columns" if isinstance(given, Mapping) else "one dict per claim"
        return f" ({what}: pass pandas.DataFrame(claims))"
    return ""


def probabilities(df, *, task="task", n=None, a=None, b=None, sd_a=None, sd_b=None,
                  congruence=None, sd_model=None, sd_level: str | None = None,
                  congruence_level: str | None = None, config=None):
    """``df`` (one claim per row) with the columns of :data:`RESULT_COLUMNS` added.

    Columns are found by name: ``task`` (or pass a task name for every row), ``n`` or
    ``n_test``, ``a`` or ``value_a``, ``b`` or ``value_b`` and, optionally, ``sd_a`` and
    ``sd_b`` (empty cells are imputed). ``congruence`` as in :func:`probability`, or the
    name of a column. The input is not changed; the row order is kept.
    """
    import pandas as pd

    if not isinstance(df, pd.DataFrame):
        raise TypeError("probabilities expects a pandas DataFrame with one claim per row "
                        f"(for single claims use probability); got {type(df).__name__}"
                        + _records_hint(df))
    out = df.copy()
    cols = {"n": _column(df, n, ("n", "n_test"), "the test-set size"),
            "a": _column(df, a, ("a", "value_a"), "the winner's value"),
            "b": _column(df, b, ("b", "value_b"), "the runner-up's value")}
    _refuse_blank_rows(df, [*cols.values(), *([task] if _names_column(df, task) else [])])
    sds = {k: (v if v is not None else k) for k, v in (("sd_a", sd_a), ("sd_b", sd_b))}
    tasks = (_task_column(df[task], task) if _names_column(df, task)
             else pd.Series(resolve_task(task), index=df.index))
    if isinstance(congruence, str) and congruence in df.columns:
        congruence = df[congruence]
    for col in RESULT_COLUMNS:
        out[col] = np.nan if col in ("congruence_used", "sd_a", "sd_b", "probability") \
            else False
    num = {k: _numeric_column(df[v], v, required=True) for k, v in cols.items()}
    num.update({k: _numeric_column(df[v], v, required=False) for k, v in sds.items()
                if v in df.columns})
    if isinstance(congruence, pd.Series):
        congruence = _numeric_column(congruence, str(congruence.name), required=True)
    for name in sorted(tasks.unique()):
        rows = (tasks == name).to_numpy()
        extra = {}
        if name == "segmentation":
            extra = {k: num[k][rows] if k in num else None for k in sds}
        c = congruence[rows] if isinstance(congruence, np.ndarray) else congruence
        r = probability(name, num["n"][rows], num["a"][rows], num["b"][rows], congruence=c,
                        sd_model=sd_model, sd_level=sd_level,
                        congruence_level=congruence_level, config=config, **extra)
        for col in RESULT_COLUMNS:
            value = getattr(r, col)
            if value is not None:
                out.loc[rows, col] = np.broadcast_to(value, rows.sum())
    return out
