"""Does a venue's result defend itself? Warnings that a sheet was read into nonsense.

A sheet mapped wrongly still runs: a results column taken as the paper id, a Hausdorff
distance read as the proposed method's Dice, a constant that excludes every paper. The
checks here look at what the reader made of the sheet (the validated papers and results
tables, the venue's config block and the eligibility step's exclusions) and return
:class:`Finding` s, each naming what looks wrong and the config key to change. They are
shown by ``falseclaims sheet check`` (exit 1), written at the top of a drafted venue block
(``sheet inspect --write``: STILL TO FIX), written by the pipeline's ``plausibility`` rule
to ``results/<venue>/plausibility.csv`` and its log, and shown above the venue's headline on
the front page. Thresholds: the ``plausibility:`` block of config/config.yaml
(config/README.md, ## plausibility).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pandas as pd

from falseclaims.config import Analysis, Eligibility, PlausibilityLimits
from falseclaims.sheets.draft.roles import header_metric
from falseclaims.sheets.read.venue import Venue
from falseclaims.survey.eligibility import primary_metric_rows, step_label

__all__ = ["Finding", "CHECKS", "FINDING_COLUMNS", "check_venue", "comparisons", "check_ids",
           "check_value_headers", "check_values", "check_exclusions", "findings_frame",
           "read_findings", "value_headers", "judge_draft"]

CHECKS = ("rows_skipped", "no_papers", "numeric_ids", "value_header", "delta", "prior_wins", "all_excluded")
FINDING_COLUMNS = ["venue", "check", "key", "message"]

# a number with decimals or a percentage: a measured value, never an id ("12" may be an id)
_NUMBER_ID = re.compile(r"^[+-]?(?:\d+[.,]\d+|[.,]\d+|\d+(?:[.,]\d+)?\s*%)$")
# quantities that are not a task's primary metric (accuracy, DSC)
_OTHER_QUANTITY = re.compile(
    r"hausdorff|\bhd ?9?5?\b|\bassd\b|\basd\b|\bmsd\b|\bnsd\b|surface dist|\bdistance\b|"
    r"\bloss\b|\berrors?\b|\bmae\b|\bmse\b|\brmse\b")
# a spread is another quantity only where the header names no mean or metric beside it
# ("DSC (mean ± SD)" holds the mean)
_SPREAD = re.compile(r"\bsd\b|\bstd\b|standard deviation|\bvariance\b|\bci\b|"
                     r"confidence interval")
_MEAN = re.compile(r"\bmean\b|\baverage\b|\bavg\b")
_VALUE_ROLES = ("value_proposed", "value_best_prior", "values_compared", "value")
_STEP_KEYS = {
    "out_of_scope": "in_scope",
    "values_only_in_figures": "values_only_in_figures",
    "no_distinct_test_set": "split",
    "missing_test_size": "n_test",
    "top2_test_sizes_differ": "n_test",
}


@dataclass(frozen=True)
class Finding:
    """One reason to doubt a venue's result: the check (one of :data:`CHECKS`), what was
    seen, and the config key (or column) to change."""

    check: str
    message: str
    key: str = ""

    def __str__(self) -> str:
        return f"{self.message} (change: {self.key})" if self.key else self.message


def value_headers(venue: Venue) -> dict[str, str]:
    """{their header: our value role} of the value columns a venue block maps by name
    (columns mapped by letter, ``@C``, have no header to read)."""
    out = {}
    for table in venue.columns.values():
        for theirs, ours in (table or {}).items():
            if ours in _VALUE_ROLES and not str(theirs).startswith("@"):
                out[str(theirs)] = ours
    return out


def check_ids(papers: pd.DataFrame, limits: PlausibilityLimits, where: str) -> list[Finding]:
    ids = papers["paper_id"].dropna().astype(str).str.strip()
    if len(ids) < limits.min_papers:
        return []
    numeric = ids[ids.str.match(_NUMBER_ID)]
    if len(numeric) <= limits.numeric_id_share * len(ids):
        return []
    return [Finding("numeric_ids", f"{len(numeric)} of {len(ids)} paper ids read as numbers "
                    f"(e.g. {', '.join(map(repr, numeric.iloc[:3]))}): a results column "
                    "taken as the paper id?", f"{where}.id or the paper_id column")]


def check_value_headers(venue: Venue, papers: pd.DataFrame, results: pd.DataFrame,
                        where: str) -> list[Finding]:
    """Value columns whose header names another quantity than a primary metric (a
    distance, an SD, a loss, an error) or a metric other than, or of another task than,
    the one the venue's rows carry."""
    out = []
    tasks = set(papers["task"].dropna().astype(str)) if "task" in papers else set()
    metrics = set(results["metric"].dropna().astype(str).str.lower()) if len(results) else set()
    for header, role in value_headers(venue).items():
        text = re.sub(r"[_\W]+", " ", header.lower())
        key = f"{where}.columns ({header!r}: {role})"
        other = _OTHER_QUANTITY.search(text) or (
            None if _MEAN.search(text) or header_metric(header) else _SPREAD.search(text))
        if other:
            out.append(Finding("value_header", f"column {header!r} is read as {role} but its "
                               f"header names {other[0].strip()!r}, not a primary metric "
                               "(accuracy, DSC)", key))
            continue
        named = header_metric(header)
        if named is None:
            continue
        metric, task = named
        if task and tasks and task not in tasks:
            out.append(Finding("value_header", f"column {header!r} names {metric} (a {task} "
                               f"metric) but the papers are read as {', '.join(sorted(tasks))}",
                               f"{where}.constants.task or the task column"))
        elif metrics and not _same_metric(metric, metrics):
            out.append(Finding("value_header", f"column {header!r} names {metric} but its "
                               f"values are read as {', '.join(sorted(metrics))}",
                               f"{where}.constants.metric or the metric column"))
    return out


def _same_metric(metric: str, read: set[str]) -> bool:
    return any(m == metric or header_metric(m) == header_metric(metric) for m in read)


def comparisons(papers: pd.DataFrame, results: pd.DataFrame, criteria: Eligibility,
                layout: str) -> pd.DataFrame:
    """Per paper with two values of its primary metric: ``proposed``, ``prior`` and
    ``delta`` = proposed − prior. In the wide layout the proposed method is a paper's first
    results row (``sheets.wide.wide_to_long`` writes it before the prior and compared ones)
    and the prior is the best of the others; in the long layout no row is marked as the
    proposed one: the best and the runner-up."""
    cols = ["paper_id", "task", "proposed", "prior", "delta"]
    if not len(results) or "task" not in papers:
        return pd.DataFrame(columns=cols)
    rows = primary_metric_rows(papers, results, criteria.metrics).sort_index(kind="mergesort")
    pairs = []
    for pid, g in rows.groupby("paper_id", sort=True):
        if len(g) < 2:
            continue
        if layout == "wide_top2":
            a, b = g["value"].iloc[0], g["value"].iloc[1:].max()
        else:
            a, b = g["value"].nlargest(2)
        pairs.append((pid, g["task"].iloc[0], a, b, a - b))
    return pd.DataFrame(pairs, columns=cols)


def check_values(papers: pd.DataFrame, results: pd.DataFrame, criteria: Eligibility,
                 limits: PlausibilityLimits, layout: str, where: str) -> list[Finding]:
    """Deltas beyond ``max_delta`` in more than ``max_delta_share`` of the papers (one
    genuine outlier of a real review is no wrong column) and the prior method winning most
    papers, on each paper's primary metric (:func:`comparisons`; the long layout marks no
    proposed method, so only the gap between the two best is checked there)."""
    p = comparisons(papers, results, criteria, layout)
    if not len(p):
        return []
    out = []
    limit = p["task"].map(limits.max_delta)
    big = p[p["delta"].abs() > limit]
    if len(big) > limits.max_delta_share * len(p):
        worst = big.loc[big["delta"].abs().idxmax()]
        what = "proposed − prior" if layout == "wide_top2" else "best − runner-up"
        out.append(Finding("delta", f"{len(big)} of {len(p)} papers have |{what}| above "
                           f"{limits.max_delta[worst['task']]:g} on the primary metric (e.g. "
                           f"{worst['paper_id']}: {worst['proposed']:.3g} vs "
                           f"{worst['prior']:.3g}): a value column that holds another "
                           "quantity, or units (percent vs fraction) mixed up?",
                           f"{where}.columns (the value columns) or {where}.units"))
    if layout == "wide_top2" and len(p) >= limits.min_papers:
        wins = int((p["delta"] < 0).sum())
        if wins > limits.prior_wins_share * len(p):
            out.append(Finding("prior_wins", f"the prior method beats the proposed one in "
                               f"{wins} of {len(p)} papers (median proposed − prior "
                               f"{p['delta'].median():+.3g}): value columns swapped or "
                               "holding another quantity?",
                               f"{where}.columns (value_proposed, value_best_prior)"))
    return out


def check_exclusions(papers: pd.DataFrame, results: pd.DataFrame, exclusions: pd.DataFrame,
                     venue: Venue, where: str) -> list[Finding]:
    """One eligibility step that excludes every paper reaching it (no paper left), named
    with the constant or column behind it. A sheet without results (study design only)
    computes no probability: nothing to warn about."""
    n = papers["paper_id"].nunique()
    if not n or not len(results) or exclusions["paper_id"].nunique() < n:
        return []
    counts = exclusions["reason"].value_counts(sort=False)
    reason = _last_step(exclusions)  # no paper passes it: every one reaching it fails
    k = int(counts[reason])
    detail = exclusions.loc[exclusions["reason"] == reason, "detail"].astype(str)
    field = _STEP_KEYS.get(reason)
    constants = venue.constants
    # a column may fill two fields (``Task: [task, metric]``)
    mapped = {ours for t in venue.columns.values() for o in (t or {}).values()
              for ours in ([o] if isinstance(o, str) else o)}
    if field and field in constants:
        key = f"{where}.constants.{field} (now {constants[field]!r})"
    elif field == "split" and "split" not in mapped and detail.str.contains("missing").all():
        key = (f"{where}: map a split column (columns: {{their name: split}}), derive: "
               "{split: from_sizes} or constants: {split: ...}; or analysis.test_set_splits")
    elif field == "split":
        key = f"the split column or {where}.values.split; or analysis.test_set_splits"
    elif field:
        key = (f"{where}: map a column to {field} or set constants: {{{field}: ...}}"
               if field not in mapped else f"the {field} column ({where}.values.{field})")
    elif reason == "fewer_than_two_methods":
        key = (f"{where}: a value_best_prior (or values_compared) column, constants.metric, "
               "or analysis.metrics")
    else:
        key = f"{where}.cells / on_bad_cell"
    return [Finding("all_excluded", f"every paper reaching the '{step_label(reason)}' step "
                    "is excluded "
                    f"there ({k} of {n} papers reach it; e.g. {detail.iloc[0]!r}): no paper is "
                    "analysed", key)]


def _last_step(exclusions: pd.DataFrame) -> str:
    from falseclaims.survey.eligibility import REASON_STEP, STEPS

    order = {s: i for i, (s, _) in enumerate(STEPS)}
    return max(exclusions["reason"].unique(),
               key=lambda r: order.get(REASON_STEP.get(r, ""), -1))


def check_venue(venue: str, venue_cfg: dict, papers: pd.DataFrame, results: pd.DataFrame,
                config: dict, exclusions: pd.DataFrame | None = None,
                notes: pd.DataFrame | None = None) -> list[Finding]:
    """Every check for one venue. ``config`` holds the ``analysis`` and ``plausibility``
    blocks; ``exclusions`` is the eligibility step's table (computed here when None);
    ``notes`` the reader's notes (rows skipped by ``skip_rows_where`` are counted there)."""
    where = f"venues.{venue}" if venue else "the venue's block"
    limits = PlausibilityLimits.from_config(config)
    criteria = Analysis.from_config(config).eligibility
    v = Venue.from_config(venue_cfg)
    if exclusions is None:
        from falseclaims.survey.eligibility import select_papers

        exclusions = select_papers(papers, results, criteria, venue=venue).exclusions
    skipped = check_skips(papers, notes, where)
    if not papers["paper_id"].notna().any():
        return [Finding("no_papers", "no paper is read from the sheet: every row was skipped "
                        "or has no paper id", f"{where}.id, the paper_id column or "
                        f"{where}.skip_rows_where")] + skipped
    return (skipped + check_ids(papers, limits, where)
            + check_value_headers(v, papers, results, where)
            + check_values(papers, results, criteria, limits, v.layout, where)
            + check_exclusions(papers, results, exclusions, v, where))


def judge_draft(venue: str, block: dict, papers: pd.DataFrame, results: pd.DataFrame,
                notes: pd.DataFrame | None = None):
    """The judge of ``sheets.draft.draft.draft_config``: (findings, Read) of a drafted
    block's reading, with the analysis and plausibility blocks the draft will run with
    (the project's config when there is one: the draft is merged over it)."""
    from falseclaims.config import cli_defaults, load_config
    from falseclaims.errors import FalseclaimsInputError
    from falseclaims.sheets.draft.draft import Read
    from falseclaims.survey.eligibility import select_papers

    try:
        cfg = load_config()
    except FalseclaimsInputError:  # a broken project config: the packaged defaults
        cfg = cli_defaults()
    criteria = Analysis.from_config(cfg).eligibility
    excl = select_papers(papers, results, criteria, venue=venue).exclusions
    findings = check_venue(venue, block, papers, results, cfg, excl, notes)
    return findings, Read(papers, results, excl, comparisons(
        papers, results, criteria, Venue.from_config(block).layout))


def check_skips(papers: pd.DataFrame, notes: pd.DataFrame | None, where: str) -> list[Finding]:
    """``skip_rows_where`` rules that drop more rows than the papers kept: a rule meant
    for a few free-text or totals rows that matches data rows."""
    if notes is None or not len(notes):
        return []
    by_rule = notes.loc[notes["note"].astype(str).str.startswith("skipped by skip_rows_where"),
                        "note"]
    n, kept = len(by_rule), papers["paper_id"].nunique()
    if n <= kept:
        return []
    rule = re.match(r"skipped by (skip_rows_where \{.*?\}): column", by_rule.iloc[0])
    rule = rule[1] if rule else "skip_rows_where"
    return [Finding("rows_skipped", f"{n} rows are skipped by skip_rows_where and only "
                    f"{kept} papers kept (e.g. {rule}): a rule matching data rows?",
                    f"{where}.skip_rows_where")]


def findings_frame(venue: str, findings: list[Finding]) -> pd.DataFrame:
    return pd.DataFrame([(venue, f.check, f.key, f.message) for f in findings],
                        columns=FINDING_COLUMNS)


def read_findings(frame: pd.DataFrame) -> list[Finding]:
    return [Finding(c, m, "" if pd.isna(k) else k) for c, k, m in
            frame[["check", "key", "message"]].itertuples(index=False)]
