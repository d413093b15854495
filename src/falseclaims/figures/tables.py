"""Tables S1/S2 (metric reporting frequency per task, computed by
:func:`falseclaims.survey.populations.metric_frequency`) as LaTeX (booktabs) ready for a
manuscript, and the venue comparison table as a tidy DataFrame and as LaTeX."""

from __future__ import annotations

import pandas as pd

from falseclaims.io.table_io import numeric, require_columns
from falseclaims.style import NO_DATA
from falseclaims.survey.headline import Headline, select_headline
from falseclaims.survey.populations import POPULATION_TEXT, TABLE_NAMES
from falseclaims.tasks import TASK_LABELS

NOT_IN_VENUE = "no paper of this venue lists it"
NOT_IN_PAPER = "not in the paper's table"


def metric_table(freq: pd.DataFrame, paper: dict | None = None) -> pd.DataFrame:
    """Tables S1/S2 as [Christodoulou2025] prints them: per task, every metric row of the
    paper in the paper's order with its percentage (``paper``: {task: [{metric, percent}]},
    config ``figures.paper_metric_tables``) beside the venue's; a paper row the venue lacks
    has 0 papers and a note. Then the venue's metrics the paper does not list, most frequent
    first, and ``(none recorded)`` last. A task without papers in ``freq`` has no rows."""
    cols = [*freq.columns, "paper_percent", "note"]
    rows = []
    for task in [t for t in TASK_LABELS if t in set(freq["task"])]:
        d = freq[freq["task"] == task]
        listed = [(str(p["metric"]), float(p["percent"])) for p in (paper or {}).get(task, [])]
        first = d.iloc[0]
        by = {r["label"]: r for r in d.to_dict("records")}
        for label, pct in listed:
            r = by.get(label) or {**first.to_dict(), "metric": "", "label": label,
                                  "n_papers_reporting": 0, "percent": 0.0}
            rows.append({**r, "paper_percent": pct,
                         "note": "" if label in by else NOT_IN_VENUE})
        names = {label for label, _ in listed}
        rest = [r for r in d.to_dict("records") if r["label"] not in names]
        rest.sort(key=lambda r: r["label"] == "(none recorded)")  # stable: keeps the order
        for r in rest:
            note = "" if r["label"] == "(none recorded)" or not listed else NOT_IN_PAPER
            rows.append({**r, "paper_percent": None, "note": note})
    out = pd.DataFrame(rows, columns=cols)
    return out.astype({"paper_percent": float})


_TEX = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "_": r"\_", "#": r"\#",
        "$": r"\$", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\^{}"}


def _tex_escape(s: str) -> str:
    """Escape LaTeX special characters in one pass (so replacements are not re-escaped)."""
    return "".join(_TEX.get(ch, ch) for ch in s)


def _population_text(freq: pd.DataFrame) -> str:
    which = str(freq["population"].iloc[0])
    return POPULATION_TEXT.get(which, which)


def metric_table_latex(table: pd.DataFrame, task: str, venue_label: str = "",
                       note: str = "") -> str:
    """One of Tables S1/S2 (``table``: :func:`metric_table`) as LaTeX; ``note``: a sentence
    added to the caption (the synthetic example's caveat)."""
    d = table[table["task"] == task]
    if d.empty:
        raise ValueError(f"no metric frequencies for task {task!r}")
    n = int(d["n_papers"].iloc[0])
    name = TABLE_NAMES.get(task, "")
    paper = "paper_percent" in d and d["paper_percent"].notna().any()
    lines = [
        r"\begin{table}[ht]",
        r"\centering",
        (rf"\caption{{Table {name}: how often each metric is reported by "
        rf"{TASK_LABELS[task].lower()} papers{' of ' + _tex_escape(venue_label) if venue_label else ''}"
        rf": percentage of the n = {n} {_tex_escape(_population_text(d))}; a paper counts once "
        rf"per metric."
        + (" Paper: the percentage of [Christodoulou2025], Table " + name + ", in its order."
           if paper else "")
        + (" " + _tex_escape(note) if note else "") + "}"),
        rf"\label{{tab:metrics-{task}}}",
        r"\begin{tabular}{lrr" + ("rl" if paper else "") + "}",
        r"\toprule",
        r"Metric & Papers & Percentage (\%)" + (r" & Paper (\%) & Note" if paper else "")
        + r" \\",
        r"\midrule",
    ]
    for _, r in d.iterrows():
        cells = [_tex_escape(str(r["label"])), str(int(r["n_papers_reporting"])),
                 f"{r['percent']:.1f}"]
        if paper:
            cells += ["" if pd.isna(r["paper_percent"]) else f"{r['paper_percent']:.1f}",
                      _tex_escape(str(r["note"]))]
        lines.append(" & ".join(cells) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}", r"\end{table}", ""]
    return "\n".join(lines)


def venue_comparison(summaries: dict[str, pd.DataFrame], headline: Headline,
                     labels: dict[str, str] | None = None) -> pd.DataFrame:
    """Headline shares above each configured cutoff, one row per venue x task; a venue
    without analysed papers (an empty summary) keeps one row, task empty and n_papers 0,
    so that the comparison names every venue it compares."""
    labels = labels or {}
    rows = []
    for venue, s in summaries.items():
        require_columns(s, ["venue", "task", "cutoff", "n_papers", "n_above", "share_above"],
                        f"summary ({venue})")
        h = numeric(select_headline(s, headline, f"summary ({venue})"),
                    ["cutoff", "n_papers", "n_above", "share_above"])
        if h.empty:
            rows.append({"venue": venue, "label": labels.get(venue, venue), "task": "",
                         "n_papers": 0})
        for task, g in h.groupby("task", sort=False):
            rec = {"venue": venue, "label": labels.get(venue, venue), "task": task,
                   "n_papers": int(g["n_papers"].max())}
            for _, r in g.sort_values("cutoff").iterrows():
                rec[f"share_above_{r['cutoff']:g}"] = float(r["share_above"])
                rec[f"n_above_{r['cutoff']:g}"] = int(r["n_above"])
            rows.append(rec)
    return pd.DataFrame(rows, columns=["venue", "label", "task", "n_papers"]
                        if not rows or all(len(r) == 4 for r in rows) else None)


def venue_comparison_latex(table: pd.DataFrame, headline: Headline) -> str:
    cut_cols = [c for c in table.columns if c.startswith("share_above_")]
    cuts = [c.removeprefix("share_above_") for c in cut_cols]
    head = " & ".join([r"Venue", r"Task", r"Papers"]
                      + [rf"$P > {float(c) * 100:g}\%$" for c in cuts])
    lines = [
        r"\begin{table}[ht]", r"\centering",
        (r"\caption{Share of analysed papers whose probability of a false claim exceeds each "
         rf"cutoff ({_tex_escape(headline.describe('segmentation'))}; the imputed SD for "
         r"segmentation only).}"),
        r"\label{tab:venue-comparison}",
        r"\begin{tabular}{ll r" + "r" * len(cuts) + "}", r"\toprule", head + r" \\", r"\midrule",
    ]
    for _, r in table.iterrows():
        task = TASK_LABELS.get(r["task"], r["task"]) if r["task"] else NO_DATA
        cells = [_tex_escape(str(r["label"])), task, str(int(r["n_papers"]))]
        cells += [f"{100 * r[c]:.0f}\\%" if pd.notna(r[c]) else "--" for c in cut_cols]
        lines.append(" & ".join(cells) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}", r"\end{table}", ""]
    return "\n".join(lines)
