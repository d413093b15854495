"""Tables S1/S2 (metric reporting frequency per task) and the venue comparison table, as
tidy DataFrames and as LaTeX (booktabs) ready for a manuscript."""

from __future__ import annotations

import pandas as pd

from falseclaims.figures.common import (
    TASK_LABELS,
    Headline,
    numeric,
    population,
    require_columns,
    select_headline,
)

TABLE_NAMES = {"classification": "S1", "segmentation": "S2"}


# how a caption names each population (the boxes of the selection flow diagram)
POPULATION_TEXT = {"all": "papers found", "in_scope": "papers in scope",
                   "quantitative": "papers in scope reporting values in text or tables"}


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
