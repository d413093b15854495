"""Tables S1/S2 (metric reporting frequency per task, computed by
:func:`falseclaims.survey.populations.metric_frequency`) as LaTeX (booktabs) ready for a
manuscript, and the venue comparison table as a tidy DataFrame and as LaTeX."""

from __future__ import annotations

import pandas as pd

from falseclaims.io.table_io import numeric, require_columns
from falseclaims.survey.headline import Headline, select_headline
from falseclaims.survey.populations import POPULATION_TEXT, TABLE_NAMES
from falseclaims.tasks import TASK_LABELS

_TEX = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "_": r"\_", "#": r"\#",
        "$": r"\$", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\^{}"}


def _tex_escape(s: str) -> str:
    """Escape LaTeX special characters in one pass (so replacements are not re-escaped)."""
    return "".join(_TEX.get(ch, ch) for ch in s)


def _population_text(freq: pd.DataFrame) -> str:
    which = str(freq["population"].iloc[0])
    return POPULATION_TEXT.get(which, which)


def metric_table_latex(freq: pd.DataFrame, task: str, venue_label: str = "") -> str:
    d = freq[freq["task"] == task]
    if d.empty:
        raise ValueError(f"no metric frequencies for task {task!r}")
    n = int(d["n_papers"].iloc[0])
    name = TABLE_NAMES.get(task, "")
    lines = [
        r"\begin{table}[ht]",
        r"\centering",
        (rf"\caption{{Table {name}: how often each metric is reported by "
        rf"{TASK_LABELS[task].lower()} papers{' of ' + _tex_escape(venue_label) if venue_label else ''}"
        rf": percentage of the n = {n} {_tex_escape(_population_text(d))}; a paper counts once "
        rf"per metric.}}"),
        rf"\label{{tab:metrics-{task}}}",
        r"\begin{tabular}{lrr}",
        r"\toprule",
        r"Metric & Papers & Percentage (\%) \\",
        r"\midrule",
    ]
    for _, r in d.iterrows():
        lines.append(f"{_tex_escape(str(r['label']))} & {int(r['n_papers_reporting'])} & "
                     f"{r['percent']:.1f} \\\\")
    lines += [r"\bottomrule", r"\end{tabular}", r"\end{table}", ""]
    return "\n".join(lines)


def venue_comparison(summaries: dict[str, pd.DataFrame], headline: Headline,
                     labels: dict[str, str] | None = None) -> pd.DataFrame:
    """Headline shares above each configured cutoff, one row per venue x task."""
    labels = labels or {}
    rows = []
    for venue, s in summaries.items():
        require_columns(s, ["venue", "task", "cutoff", "n_papers", "n_above", "share_above"],
                        f"summary ({venue})")
        h = numeric(select_headline(s, headline, f"summary ({venue})"),
                    ["cutoff", "n_papers", "n_above", "share_above"])
        for task, g in h.groupby("task", sort=False):
            rec = {"venue": venue, "label": labels.get(venue, venue), "task": task,
                   "n_papers": int(g["n_papers"].max())}
            for _, r in g.sort_values("cutoff").iterrows():
                rec[f"share_above_{r['cutoff']:g}"] = float(r["share_above"])
                rec[f"n_above_{r['cutoff']:g}"] = int(r["n_above"])
            rows.append(rec)
    return pd.DataFrame(rows, columns=["venue", "label", "task", "n_papers"] if not rows
                        else None)


def venue_comparison_latex(table: pd.DataFrame, headline: Headline) -> str:
    cut_cols = [c for c in table.columns if c.startswith("share_above_")]
    cuts = [c.removeprefix("share_above_") for c in cut_cols]
    head = " & ".join([r"Venue", r"Task", r"Papers"]
                      + [rf"$P > {float(c) * 100:g}\%$" for c in cuts])
    lines = [
        r"\begin{table}[ht]", r"\centering",
        (r"\caption{Share of papers whose probability of a false claim exceeds each cutoff "
        rf"({_tex_escape(headline.describe('classification'))}; segmentation with "
        rf"{_tex_escape(headline.sd_level)} imputed SD, {_tex_escape(headline.sd_source)}).}}"),
        r"\label{tab:venue-comparison}",
        r"\begin{tabular}{ll r" + "r" * len(cuts) + "}", r"\toprule", head + r" \\", r"\midrule",
    ]
    for _, r in table.iterrows():
        cells = [_tex_escape(str(r["label"])), TASK_LABELS.get(r["task"], r["task"]),
                 str(int(r["n_papers"]))]
        cells += [f"{100 * r[c]:.0f}\\%" if pd.notna(r[c]) else "--" for c in cut_cols]
        lines.append(" & ".join(cells) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}", r"\end{table}", ""]
    return "\n".join(lines)
