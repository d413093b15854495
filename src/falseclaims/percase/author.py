"""Author mode (``falseclaims percase``): read per-case results with the readers of
:mod:`falseclaims.percase.readers`, compare the top two methods (and optionally all pairs)
and assemble the JSON / report content.

Layouts: ``long`` and ``claims_reloaded`` (one file), ``wide_per_method`` (one file per
method, Touchstone) and ``predictions`` (one prediction file per method plus ``labels``,
ISIC). The last two read the verbatim files of ``data/external/`` at run time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from falseclaims.percase import readers
from falseclaims.percase.layouts import LAYOUTS
from falseclaims.percase.model import lower_is_better_refusal
from falseclaims.percase.compare import (APPROXIMATE, PRIMARY_TESTS, all_pairs, compare_pair,
                                         rank_methods)
from falseclaims.percase.omnibus import friedman_omnibus
from falseclaims.percase.paired_tests import LARGE_N, labels_for
from falseclaims.percase.verdict import interpretation_text, level
from falseclaims.tasks import TASKS

__all__ = ["AuthorInputs", "LAYOUTS", "load_inputs", "run_author"]



@dataclass
class AuthorInputs:
    task: str                       # classification | segmentation
    subtask: str                    # the reader's task column (e.g. organ)
    metric: str
    values: pd.DataFrame            # cases x methods: DSC or correctness (0/1)
    truth: pd.Series | None = None  # ground truth per case (classification)
    scores: pd.DataFrame | None = None  # cases x methods, score of the positive class
    positive: str | None = None
    files: list[str] = field(default_factory=list)
    layout: str = ""
    notes: list[str] = field(default_factory=list)


def _pick(options: list[str], given: str | None, what: str, flag: str) -> str:
    if given is not None:
        if given not in options:
            raise ValueError(f"{what} {given!r} not found; available: {options}")
        return given
    if len(options) != 1:
        raise ValueError(f"the input has several {what}s {options}: choose one with {flag}")
    return options[0]


def _read(files: list[str], task: str, layout: str, labels: str | None,
          case_mismatch: str, classes: list[str] | None = None,
          units: str = "fraction", subtask: str | None = None,
          columns: dict[str, str] | None = None,
          metric: str | None = None, by_order: bool = False) -> tuple[readers.PerCase, str]:
    if layout == "auto":
        layout = _auto_layout(files, labels, columns)
    readers.no_json_among_tables(files, layout)
    named = _layout_columns(layout, columns)
    if layout in ("long", "claims_reloaded") and len(files) != 1:
        raise ValueError(f"layout {layout!r} reads one file; got {len(files)}")
    if layout == "predictions" and labels is None:
        raise ValueError("layout 'predictions' needs --labels FILE with the ground truth")
    if by_order and layout not in ("predictions", "wide_per_method"):
        raise ValueError(f"--paired-by-order pairs the rows of several files without case ids "
                         f"(one file per method, or prediction files with --labels); the "
                         f"files are read as layout {layout!r}, which names its cases")
    if classes is not None and task != "classification":
        raise ValueError("--classes applies to classification")
    if units != "fraction" and task != "segmentation":
        raise ValueError("--units applies to segmentation (DSC values)")
    by_task = ({"classes": classes} if task == "classification" else {"units": units})
    # with --subtask only that task's case sets must agree: the others are not compared
    compared = None if subtask is None else [subtask]
    if layout == "long":
        pc = readers.read_long(files[0], kind=task, case_mismatch=case_mismatch,
                               compared_tasks=compared, compared_metric=metric, **by_task,
                               **named)
    elif layout == "claims_reloaded":
        pc = readers.read_claims_reloaded(files[0], kind=task, case_mismatch=case_mismatch,
                                          **by_task, **named)
    elif layout == "wide_per_method":
        if (subtask is not None
                and (why := lower_is_better_refusal(subtask, "--subtask dice")) is not None):
            raise ValueError(f"--subtask {subtask}: {why}")  # a column per metric, not organ
        if task != "segmentation":
            raise ValueError("several files with --task classification: one file of "
                             "predictions per method needs the ground truth in its own file "
                             "(--labels FILE); the one-file-per-method layout without it "
                             "holds segmentation results (per-case DSC)")
        pc = readers.read_wide_per_method(files, case_mismatch=case_mismatch, units=units,
                                          compared_tasks=compared, by_order=by_order, **named)
    elif layout == "nnunet" and readers.is_mixed(files):  # CSVs of other methods beside
        if task != "segmentation":
            raise ValueError("layout 'nnunet' holds segmentation results")
        pc = readers.read_csv_beside_summaries(files, metric=metric, compared_tasks=compared,
                                               case_mismatch=case_mismatch, units=units,
                                               **_layout_columns("wide_per_method", columns))
    elif layout == "nnunet":
        if task != "segmentation":
            raise ValueError("layout 'nnunet' holds segmentation results")
        if columns:
            raise ValueError("--columns applies to CSV layouts, not to nnU-Net summaries")
        pc = readers.read_nnunet_summaries(files, metric=metric, case_mismatch=case_mismatch,
                                           compared_tasks=compared, units=units)
    elif layout == "predictions":
        if task != "classification":
            raise ValueError("layout 'predictions' holds classification results")
        pc = readers.read_predictions_with_labels(files, labels, case_mismatch=case_mismatch,
                                                  classes=classes, finding=subtask,
                                                  by_order=by_order, **named)
    else:
        raise ValueError(f"layout must be one of {LAYOUTS}; got {layout!r}")
    if pc.kind != task:
        raise ValueError(f"{files[0]} holds {pc.kind} results but --task is {task}")
    return pc, layout


def _auto_layout(files: list[str], labels: str | None, columns: dict[str, str] | None) -> str:
    """The layout of ``--layout auto``: predictions with --labels, nnU-Net summaries (with
    or without per-case CSVs beside them), one file per method, or one file's header."""
    if labels is not None:
        return "predictions"
    if len(files) > 1:
        return ("nnunet" if all(readers.is_nnunet_summary(f) for f in files)
                else "wide_per_method")
    return readers.detect_layout(files[0], columns=columns)


# the column roles of the layouts whose readers name their columns by keyword
_KEYWORDS = {"wide_per_method": {"case_id": "case_column"},
             "predictions": {"case_id": "case_column", "value": "prediction_column",
                             "ground_truth": "label_column"}}


def _layout_columns(layout: str, columns: dict[str, str] | None) -> dict:
    """The reader keywords of a column mapping ({role: column in the file}): ``columns``
    for the one-file layouts, the case/label/prediction column names for the others."""
    if not columns:
        return {}
    # unknown roles refused with a suggestion; the predictions layout's label column is in
    # its own file, so it may share its name with the predicted one (CheXpert's findings)
    readers.column_mapping({r: c for r, c in columns.items()
                            if layout != "predictions" or r != "ground_truth"})
    if layout not in _KEYWORDS:
        return {"columns": dict(columns)}
    keys = _KEYWORDS[layout]
    other = [r for r in columns if r not in keys]
    if other:
        raise ValueError(f"layout {layout!r} maps only the column role(s) "
                         f"{', '.join(keys)}; got {', '.join(other)}")
    return {keys[r]: c for r, c in columns.items()}


def _task_mismatch(path: str, task: str, columns: dict[str, str] | None = None) -> str | None:
    """A one-line message when a Claims Reloaded file holds the other task's results."""
    try:
        head = readers.read_text_table(Path(path), nrows=200, columns=columns)
    except Exception:  # the reader's own error is the better message then
        return None
    algs = [c for c in head.columns if str(c).startswith("alg_")]
    if "case_id" not in head.columns or not algs:
        return None
    if task == "segmentation" and "ground_truth" in head.columns:
        return (f"{path} has ground-truth labels (column 'ground_truth'): it holds "
                "classification results (predicted labels per case); use --task "
                "classification")
    if task == "classification" and "ground_truth" not in head.columns:
        vals = pd.to_numeric(head[algs].stack(), errors="coerce")
        if vals.notna().all() and (vals.round() != vals).any():
            return (f"{path} has no ground-truth column and its alg_* values look like "
                    "per-case scores (non-integer numbers such as DSC), not predicted labels; "
                    "use --task segmentation")
    return None


def _complete_cases(wide: pd.DataFrame, notes: list[str]) -> pd.DataFrame:
    """Cases every method has; dropped cases are counted in ``notes`` (never silent)."""
    full = wide.dropna(axis=0, how="any")
    dropped = len(wide) - len(full)
    if dropped:
        notes.append(f"{dropped} case(s) lack a result for some method and were left out; "
                     f"{len(full)} cases every method has are compared")
    if len(full) < 3:
        raise ValueError(f"only {len(full)} case(s) have results for every method; need >= 3")
    return full


def _score_matrix(scores_file: str | None, pc: readers.PerCase, subtask: str,
                  positive: str | None, index: pd.Index) -> tuple[pd.DataFrame | None, str | None]:
    """Per-case score of the positive class for each method, aligned with ``index``."""
    per_method = readers.score_files_option(scores_file)
    if per_method is not None:  # METHOD=FILE,...: one file per method, a column per finding
        wide = readers.read_finding_scores(per_method, subtask)
    elif scores_file is not None:
        sc = readers.read_percase(scores_file, kind="segmentation",
                                  **({"metric": "score"} if readers.detect_layout(scores_file)
                                     == "claims_reloaded" else {}))
        sub_tasks = sc.tasks
        st = subtask if subtask in sub_tasks else _pick(sub_tasks, None, "score task",
                                                        "--subtask")
        wide = sc.matrix(st)
    elif pc.scores is not None and positive is not None:
        s = pc.scores[(pc.scores["task"] == subtask) & (pc.scores["label"] == positive)]
        if s.empty:
            raise ValueError(f"no score column for the positive class {positive!r}; score "
                             f"columns are {sorted(pc.scores['label'].unique())}")
        wide = s.pivot(index="case_id", columns="method", values="score")
    else:
        return None, positive
    missing = index.difference(wide.index)
    if len(missing):
        raise ValueError(f"the scores lack {len(missing)} case(s) of the predictions, e.g. "
                         f"{list(missing[:5])}")
    return wide.loc[index], positive


def _check_files(files) -> None:
    """Each per-case file exists and is a file: a directory is said as such, also when its
    name ends in .csv."""
    for f in files:
        readers.require_file(str(f))


def load_inputs(files: list[str], task: str | None, *, layout: str = "auto",
                labels: str | None = None, subtask: str | None = None,
                metric: str | None = None, scores: str | None = None,
                positive: str | None = None, case_mismatch: str = "error",
                classes: list[str] | None = None, units: str = "fraction",
                columns: dict[str, str] | None = None,
                paired_by_order: bool = False) -> AuthorInputs:
    """Read and validate the per-case input and return the wide tables the comparison uses.
    ``columns``: {role: column in the file} for files that name their columns differently
    (``{"case_id": "ID", "ground_truth": "label", "alg_a": "pred_A"}``; docs/percase.md).
    ``task`` None: read from the input (:func:`~falseclaims.percase.task_inference.infer_task`,
    its note first among the notes). ``paired_by_order``: files without case ids paired by
    their rows' position, as the user declares (``--paired-by-order``; a note says so)."""
    inferred = None
    if task is None:
        from falseclaims.percase.task_inference import infer_task

        _check_files(files)
        task, inferred = infer_task(
            [str(f) for f in files], layout, labels, columns,
            classification_options=classes is not None or scores is not None
            or positive is not None, percent=units == "percent", metric=metric,
            subtask=subtask)
    if task not in TASKS:
        raise ValueError(f"--task must be classification or segmentation; got {task!r}")
    files = [str(f) for f in files]
    _check_files(files)
    try:
        pc, layout = _read(files, task, layout, labels, case_mismatch, classes, units, subtask,
                           columns, metric, paired_by_order)
    except readers.PerCaseValidationError as exc:
        hint = (_task_mismatch(files[0], task, columns)
                if layout in ("auto", "claims_reloaded") else None)
        if hint:
            raise ValueError(hint) from None
        if not any(p.expected.startswith(readers.CASE_SET_EXPECTED) for p in exc.problems):
            raise
        if any("written otherwise?" in p.expected for p in exc.problems):
            raise  # the intersection of ids written two ways is empty: no use suggesting it
        raise readers.PerCaseValidationError(
            exc.problems, hint="--case-mismatch intersect compares the cases every method "
                               "has (docs/percase.md)") from None
    notes = ([inferred] if inferred else []) + list(pc.notes)
    st = _pick(pc.tasks, subtask, "task", "--subtask")
    truth = None
    if task == "segmentation":
        mets = pc.task_metrics(st)
        dice = sorted(m for m in mets if str(m).lower() in readers.DSC_METRICS)
        if len(dice) > 1:  # the same metric under two names pairs nothing
            raise ValueError(f"the metric names {dice} all mean the Dice coefficient (DSC): "
                             "write one name in the metric column")
        met = _pick(mets, metric.lower() if metric else None, "metric", "--metric")
        if (why := lower_is_better_refusal(met)) is not None:
            raise ValueError(f"{', '.join(files)}: {why}")
        values = _complete_cases(pc.matrix(st, met), notes)
        notes += _uncorrelated_rows(values) if paired_by_order else []
        if scores is not None:
            raise ValueError("--scores applies to classification (DeLong test)")
    else:
        met = "accuracy"
        if metric is not None and metric.lower() not in ("accuracy", "acc"):
            raise ValueError(f"classification is compared by accuracy; got --metric {metric!r}")
        values = _complete_cases(pc.correctness(st), notes)
        truth = pc.truth(st)
        if not truth.index.equals(values.index):
            truth = truth.loc[values.index]
    values.columns = [str(c) for c in values.columns]
    score_wide, positive = (None, positive)
    if task == "classification":
        score_wide, positive = _score_matrix(scores, pc, st, positive, values.index)
        if score_wide is not None:
            score_wide.columns = [str(c) for c in score_wide.columns]
            unknown = sorted(set(score_wide.columns) - set(values.columns))
            if unknown:
                raise ValueError(f"score columns for unknown methods {unknown}; methods are "
                                 f"{list(values.columns)}")
    return AuthorInputs(task, st, met, values, truth, score_wide, positive, files, layout, notes)


def _uncorrelated_rows(values: pd.DataFrame) -> list[str]:
    """A note for each pair of methods whose per-case values, paired by position as the
    user declared, are not positively correlated (one-sided Pearson p > 0.05): the per-case
    results of two methods on the same cases usually are, so the order may differ. Only a
    note: uncorrelated methods exist (values near a ceiling), and nothing else can tell."""
    from itertools import combinations

    from scipy.stats import pearsonr

    out = []
    for a, b in combinations(values.columns, 2):
        x, y = values[a].to_numpy(float), values[b].to_numpy(float)
        if len(x) < 3 or x.std() == 0 or y.std() == 0:
            continue
        r, p = pearsonr(x, y, alternative="greater")
        if p > 0.05:
            out.append(f"--paired-by-order: the per-case values of {a} and {b} are not "
                       f"positively correlated (r = {r:.2f}, one-sided p = {p:.2g}), as two "
                       "methods' results on the same cases usually are: check that the "
                       "files list the cases in the same order")
    return out


def _delong_inputs(inp: AuthorInputs):
    """Binary labels and score dict for DeLong; one-vs-rest needs an explicit --positive."""
    if inp.scores is None:
        return None, None, None
    classes = sorted(inp.truth.astype(str).unique())
    if len(classes) > 2:
        if inp.positive is None:
            raise ValueError(f"DeLong needs binary labels; the ground truth has {len(classes)} "
                             f"classes {classes[:10]}: give --positive for one-vs-rest")
        y = (inp.truth.astype(str) == str(inp.positive)).astype(int).to_numpy()
        inp.notes.append(f"DeLong: one-vs-rest, {inp.positive!r} against the other classes")
        pos = 1
    else:
        y, pos = inp.truth.astype(str).to_numpy(), inp.positive
    scores = {m: inp.scores[m].to_numpy(float) for m in inp.scores.columns}
    return y, scores, pos


_POSITIVE_NAMES = ("1", "true", "yes", "positive", "pos", "malignant", "disease", "abnormal")


def _binary_labels(inp: AuthorInputs) -> tuple[np.ndarray | None, str | None]:
    """Ground truth and positive class for McNemar on sensitivity/specificity, when the
    ground truth has exactly two classes (else None, None). The positive class is
    ``--positive``, else a conventional name (1, true, positive, ...), else the second class
    in sorted order (noted)."""
    if inp.truth is None:
        return None, None
    t = inp.truth.astype(str).to_numpy()
    classes = sorted(set(t))
    if len(classes) != 2:
        return None, None
    if inp.positive is not None:
        if str(inp.positive) not in classes:
            raise ValueError(f"--positive {inp.positive!r} is not a class of the ground truth "
                             f"{classes}")
        return t, str(inp.positive)
    named = [c for c in classes if c.lower() in _POSITIVE_NAMES]
    pos = named[0] if len(named) == 1 else classes[1]
    if len(named) != 1:
        inp.notes.append(f"sensitivity/specificity: class {pos!r} taken as positive (the second "
                         "in sorted order); choose it with --positive")
    return t, pos


def _pick_pair(ranking: pd.DataFrame, a: str | None, b: str | None) -> tuple[str, str, bool]:
    """A and B: the top two, or the two methods chosen with --a/--b (both needed)."""
    if a is None and b is None:
        return ranking["method"].iloc[0], ranking["method"].iloc[1], False
    methods = list(ranking["method"])
    if a is None or b is None:
        raise ValueError("give both --a and --b to compare two chosen methods")
    for flag, m in (("--a", a), ("--b", b)):
        if m not in methods:
            raise ValueError(f"{flag} {m!r} is not a method of the input; methods: {methods}")
    if a == b:
        raise ValueError(f"--a and --b name the same method {a!r}")
    return a, b, True


def _b_leads_notes(cmp_) -> list[str]:
    """--a with the lower mean, worded as check's note on a claim whose runner-up reported
    the higher value (:func:`falseclaims.engine.b_leads_note`), with the measured means."""
    a, b, i = cmp_.a, cmp_.b, cmp_.inputs
    if i["mean_a"] >= i["mean_b"]:
        return []
    return [f"{b} leads: its mean {i['mean_b']:.4g} is higher than {a}'s {i['mean_a']:.4g} "
            f"(--a has the lower mean), so the probability that {a} is not truly better is "
            f"above 0.5; for the claim '{b} beats {a}' swap --a and --b"]


def _no_spread_notes(cmp_) -> list[str]:
    """Every case differing by the same amount (both methods constant, or one a shifted copy
    of the other): P is then 0 or 1 by construction, not evidence."""
    diff = np.asarray(cmp_.x, dtype=float) - np.asarray(cmp_.y, dtype=float)
    if diff.size == 0 or np.ptp(diff) > 1e-12 or abs(diff[0]) <= 1e-12:
        return []
    return [f"every case differs by exactly {diff[0]:+.4g} ({cmp_.a} minus {cmp_.b}): the "
            "differences have no spread, so the probability is 0 or 1 by construction, not "
            "evidence; are these per-case values (not per-method means repeated)?"]


def run_author(inp: AuthorInputs, *, resamples: int, seed: int, level_ci: float = 0.95,
               alpha: float = 0.05, with_all_pairs: bool = False, cfg: dict | None = None,
               max_draws: int | None = None, a: str | None = None, b: str | None = None):
    """Compare A (top, or ``a``) with B (runner-up, or ``b``); returns (json dict, comparison,
    ranking, pairs, omnibus). With K >= 3 methods the Friedman / Iman–Davenport omnibus test
    with post-hoc comparisons is added (:mod:`falseclaims.percase.omnibus`).

    ``max_draws``: above cases x resamples draws the bootstrap percentiles are computed, not
    sampled (:func:`falseclaims.percase.compare.bootstrap_mean_difference`); noted."""
    ranking = rank_methods(inp.values)
    a, b, chosen = _pick_pair(ranking, a, b)
    y, scores, pos = _delong_inputs(inp) if inp.task == "classification" else (None, None, None)
    labels, label_pos = _binary_labels(inp) if inp.task == "classification" else (None, None)
    cmp_ = compare_pair(inp.task, inp.values, a, b, resamples=resamples, seed=seed,
                        level=level_ci, alpha=alpha, truth=y, scores=scores, positive=pos,
                        max_draws=max_draws, labels=labels, label_positive=label_pos,
                        large_n=int(((cfg or {}).get("claim_check") or {}).get("large_n",
                                                                              LARGE_N)))
    if chosen:
        inp.notes += _b_leads_notes(cmp_)
    if inp.task == "segmentation":
        inp.notes += _no_spread_notes(cmp_)
    omnibus = friedman_omnibus(inp.values, alpha) if inp.values.shape[1] >= 3 else None
    if cmp_.interval.get("method") == APPROXIMATE:
        inp.notes.append(
            f"bootstrap interval: {cmp_.inputs['n']} cases x {resamples} resamples exceed "
            f"{max_draws:,} draws, so its percentiles come from the {APPROXIMATE} of the "
            "bootstrap distribution of the mean (error O(1/n)), not from resampling")
    if not chosen and bool(ranking["tied_with_next"].iloc[0]):
        inp.notes.append(f"{a} and {b} have the same mean: the ranking between them is "
                         "arbitrary (column order)")
    pairs = None
    if with_all_pairs:
        pairs = all_pairs(inp.task, inp.values, resamples=resamples, seed=seed,
                          level=level_ci, max_draws=max_draws)
    tests = {t.test: {"label": lbl, "statistic": _num(t.statistic),
                      "pvalue": _num(t.pvalue), "n": t.n, "assumption": t.assumption,
                      "note": t.note}
             | ({} if t.chi2_pvalue is None else {"chi2_statistic": _num(t.chi2_statistic),
                                                  "chi2_pvalue": _num(t.chi2_pvalue)})
             for t, lbl in zip(cmp_.tests, labels_for(cmp_.tests))}
    i = cmp_.inputs
    out = {
        "task": inp.task, "n": int(i["n"]),
        "ranking": [{"method": m, "mean": float(v)} for m, v in
                    zip(ranking["method"], ranking["mean"])],
        "a": a, "b": b, "mean_a": i["mean_a"], "mean_b": i["mean_b"],
        "congruence": _num(i["congruence"]),
        "congruence_note": i.get("congruence_note") or None,
        "chosen_pair": chosen,
        "sd_a": i.get("sd_a"), "sd_b": i.get("sd_b"),
        "probability": cmp_.probability,
        "probability_underflow": cmp_.probability_underflow,
        "interpretation": interpretation_text(cmp_.probability, cfg, a, b,
                                              cmp_.probability_underflow),
        "level": level(cmp_.probability, cfg),
        "difference_interval": cmp_.interval,
        "tests": tests,
        "recommendation": cmp_.recommendation,
        "input": {"files": inp.files, "layout": inp.layout, "subtask": inp.subtask,
                  "metric": inp.metric, "methods": len(inp.values.columns)},
        "notes": inp.notes,
    }
    if label_pos is not None:
        out["positive_class"] = label_pos
    if omnibus is not None:
        out["omnibus"] = omnibus.as_dict()
    if inp.task == "classification":
        out.update(only_a=i["only_a"], only_b=i["only_b"], both_correct=i["both_correct"],
                   both_wrong=i["both_wrong"])
    if pairs is not None:
        out["all_pairs"] = [{k: _num(v) if isinstance(v, float) else v for k, v in r.items()}
                            for r in pairs.to_dict(orient="records")]
        out["all_pairs_adjustment"] = "holm over p-values of " + ", ".join(
            PRIMARY_TESTS[inp.task])
    return out, cmp_, ranking, pairs, omnibus


def _num(v):
    v = float(v)
    return v if np.isfinite(v) else None
