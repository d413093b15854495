"""HTML tables of the Snakemake report: a venue's ``numbers.csv`` beside the paper's values,
and the front page (the headline shares of every venue, then the paper's numbers).

The report shows an HTML result in a frame and the front page's text inline (its
``workflow/report/workflow.rst`` includes the fragment between :data:`FRAGMENT` markers of
``results/front_page.html``). Every text reaching HTML is escaped by jinja2's autoescape, so a
venue label such as ``</script><img src=x>`` stays text.
"""

from __future__ import annotations

import math
import re
import shlex
from collections.abc import Mapping, Sequence
from pathlib import Path

import jinja2
import pandas as pd
import yaml
from markupsafe import escape

from falseclaims.config import Headline, run_venues, shown_path, venue_label, where_to_look
from falseclaims.io.table_io import read_table
from falseclaims.tasks import TASK_LABELS

FRAGMENT = "<!-- falseclaims front page -->"
_STYLE = """
table.fc { border-collapse: collapse; font-size: 0.8rem; margin: 0.4rem 0 1rem 0; }
table.fc th, table.fc td { border-bottom: 1px solid #ccc; padding: 0.15rem 0.4rem; white-space: nowrap;
  text-align: right; vertical-align: top; }
table.fc th:first-child, table.fc td:first-child { text-align: left; }
table.fc td.text, table.fc td:first-child { text-align: left; white-space: normal; }
table.fc .range { color: #555; font-size: 0.7rem; white-space: nowrap; }
table.fc .paper { color: #0072B2; }
table.fc .note { display: block; color: #555; font-size: 0.7rem; white-space: normal;
  max-width: 28rem; }
p.caveat { font-size: 0.8rem; color: #8a4b00; }
div.implausible { border: 2px solid #D55E00; background: #fff3eb; padding: 0.3rem 0.6rem;
  margin: 0.4rem 0 0.8rem 0; font-size: 0.85rem; }
table.fc .flag { color: #D55E00; font-weight: bold; white-space: nowrap; }
"""
# the report centres its content vertically (the top of a long front page would be out of
# reach) and keeps the description 32 rem wide: top-aligned and wider while it is shown
_FRONT_STYLE = """
div.h-screen.overflow-auto.items-center { align-items: flex-start; }
div.prose.max-w-lg { max-width: 52rem; }
"""
_ENV = jinja2.Environment(autoescape=True, trim_blocks=True, lstrip_blocks=True)

_WARNINGS = _ENV.from_string("""
{% for v in venues %}
<div class="implausible"><b>Implausible result: {{ v.label }}</b> &mdash; check its mapping
before believing its headline (<code>{{ v.command }}</code>):
<ul>{% for w in v.warnings %}<li>{{ w }}</li>{% endfor %}</ul></div>
{% endfor %}
""")

_HEADLINE = _ENV.from_string("""
<p><b>Share of analysed papers whose probability of a false claim exceeds each cutoff</b>
({{ assumption }}); the number of papers in brackets; below, the range over {{ span }} and,
in blue, the paper's value where it states one.</p>
<table class="fc">
<tr><th>Venue</th><th>Task</th><th>Papers</th>
{% for c in cutoffs %}<th>P &gt; {{ c }}</th>{% endfor %}</tr>
{% for r in rows %}
{% if r.design_only %}
<tr><td>{{ r.label }}{% if r.implausible %} <span class="flag">(implausible: see above)</span>{% endif %}</td><td class="text" colspan="{{ cutoffs|length + 2 }}">design-only: {{ r.n }} papers, no results recorded</td></tr>
{% elif r.no_analysed %}
<tr><td>{{ r.label }}{% if r.implausible %} <span class="flag">(implausible: see above)</span>{% endif %}</td><td class="text" colspan="{{ cutoffs|length + 2 }}">no analysed papers</td></tr>
{% else %}
<tr><td>{{ r.label }}{% if r.implausible %} <span class="flag">(implausible: see above)</span>{% endif %}</td><td class="text">{{ r.task }}</td><td>{{ r.n }}</td>
{% for cell in r.cells %}<td>{{ cell.value }}<br><span class="range">{{ cell.range }}</span>{% if cell.paper %}<br><span class="paper">paper {{ cell.paper }}</span>{% endif %}</td>{% endfor %}
</tr>
{% endif %}
{% endfor %}
</table>
{% for note in notes %}<p class="caveat">{{ note }}</p>
{% endfor %}
""")

_NUMBERS = _ENV.from_string("""
<table class="fc">
<tr><th>Number</th>{% for t in tasks %}<th>{{ t }}</th>{% if paper %}<th class="paper">paper</th>{% endif %}{% endfor %}<th>Population (n)</th></tr>
{% for r in rows %}
<tr><td>{{ r.description }}{% for note in r.notes %}<span class="note">{{ note }}</span>{% endfor %}</td>
{% for c in r.cells %}<td>{{ c.value }}{% if c.range %}<br><span class="range">{{ c.range }}</span>{% endif %}</td>{% if paper %}<td class="paper">{{ c.paper }}</td>{% endif %}{% endfor %}
<td class="text">{{ r.population }}</td></tr>
{% endfor %}
</table>
""")

_PAGE = _ENV.from_string("""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{{ title }}</title>
<style>body { font-family: sans-serif; margin: 1rem; } {{ style }}</style></head>
<body>
{{ fragment_marker | safe }}
<style>{{ style }}</style>
{{ body | safe }}
{{ fragment_marker | safe }}
</body></html>
""")


def _fmt(value, unit: str) -> str:
    """One number format per unit: shares as whole percent (below 1%: one decimal), counts
    and sizes as integers (a median of an even count keeps its .5), deltas with three decimals, multipliers with one."""
    if isinstance(value, str):
        m = re.fullmatch(r"\s*([<>]=?)?\s*([-+0-9.eE]+)\s*", value)
        if not m:
            return value
        prefix = f"{m.group(1)} " if m.group(1) else ""
        return prefix + _fmt(float(m.group(2)), unit)
    if value is None or (isinstance(value, float) and math.isnan(value)) or pd.isna(value):
        return "–"
    value = float(value)
    if unit == "share":
        pct = 100 * value
        return f"{pct:.1f}%" if 0 < pct < 1 else f"{pct:.0f}%"
    if unit == "metric units":
        return f"{value:.3f}"
    if unit.startswith("x "):
        return f"{value:.1f}×"
    if unit == "images" and value != int(value):  # a median of an even count: 491.5
        return f"{value:,.1f}"
    return f"{value:,.0f}" if value == int(value) or abs(value) >= 10 else f"{value:.1f}"


def _range(row) -> str:
    if pd.isna(row.get("low")) or pd.isna(row.get("high")):
        return ""
    return f"{_fmt(row['low'], row['unit'])}–{_fmt(row['high'], row['unit'])}"


def _population(g: pd.DataFrame) -> str:
    """"papers analysed (n = 43 / 131)" when the tasks share the population's words."""
    ns = [str(int(n)) for n in g["n_population"] if pd.notna(n) and n != ""]
    texts = list(dict.fromkeys(g["population"].fillna("")))
    if len(texts) == 1:
        return texts[0] + (f" (n = {' / '.join(ns)})" if ns else "")
    return "; ".join(f"{TASK_LABELS.get(r.task, r.task)}: {r.population}"
                     + (f" (n = {int(r.n_population)})" if pd.notna(r.n_population) else "")
                     for r in g.itertuples())


def _grey_note(g: pd.DataFrame, said: set[str]) -> str:
    """What the grey value under a number spans (numbers.csv ``range``: "smallest and
    largest size", the sensitivity analyses), said in full once per table; ``said``: the
    spans said so far (updated)."""
    spans = [str(x) for x in g.get("range", pd.Series(dtype=object)).dropna() if str(x)]
    if not spans or all(pd.isna(g[c]).all() for c in ("low", "high") if c in g):
        return ""
    if spans[0] in said:
        return "grey: range as above"
    said.add(spans[0])
    return f"grey: {spans[0]}"


def numbers_fragment(numbers: pd.DataFrame, with_paper: bool) -> str:
    """The numbers of one venue as one HTML table: a row per number, a column per task (and
    the paper's value beside it when ``with_paper``)."""
    from falseclaims.survey.numbers import ALL_TASKS

    numbers = numbers[numbers["name"] != "design_only"]  # said on the front page
    tasks = [t for t in TASK_LABELS if t in set(numbers["task"])]
    groups = dict(list(numbers.groupby("name", sort=False)))
    order = list(groups)
    # a number of both tasks ("347 papers in scope") below the per-task count it sums
    totals = [n for n in order if n.endswith("_total") and n.removesuffix("_total") in order]
    for total in totals:
        order.remove(total)
        order.insert(order.index(total.removesuffix("_total")) + 1, total)
    rows, said = [], set()
    for name in order:
        g = groups[name]
        by_task = g.set_index("task")
        whole = list(by_task.index) == [ALL_TASKS]  # both tasks together: first column
        cells = []
        for t in tasks:
            key = ALL_TASKS if whole else t
            r = by_task.loc[key] if key in by_task.index and (not whole or t == tasks[0]) \
                else None
            cells.append({"value": ("" if whole else "–") if r is None else
                          _fmt(r["value"], r["unit"]) + (" (both tasks)" if whole else ""),
                          "range": "" if r is None else _range(r),
                          "paper": "" if r is None or pd.isna(r["paper_value"])
                          or r["paper_value"] == "" else _fmt(str(r["paper_value"]), r["unit"])})
        notes = g.get("paper_note", pd.Series(dtype=object)).fillna("").astype(str)
        note = next((x for x in notes if x), "") if with_paper else ""
        rows.append({"description": g.iloc[0]["description"], "cells": cells,
                     "population": _population(g),
                     "notes": [x for x in (note, _grey_note(g, said)) if x]})
    return _NUMBERS.render(tasks=[TASK_LABELS[t] for t in tasks], rows=rows, paper=with_paper)


def matched_note(numbers: pd.DataFrame) -> str:
    """The caveat of a venue generated to match the paper (``numbers.matched_to_paper``),
    read from its ``numbers.csv`` (the ``paper_source`` column carries it), else ""."""
    from falseclaims.survey.numbers import MATCHED_NOTE

    src = numbers.get("paper_source", pd.Series(dtype=object)).fillna("").astype(str)
    return MATCHED_NOTE if src.str.contains(MATCHED_NOTE, regex=False).any() else ""


def _caveat(numbers: pd.DataFrame, label: str) -> str:
    note = matched_note(numbers)
    return f'<p class="caveat">{escape(label)}: {escape(note)}</p>' if note else ""


def range_label(numbers: pd.DataFrame) -> str:
    """What the headline shares' low/high span (the ``range`` column of numbers.csv)."""
    if "range" not in numbers:  # a table written before numbers.csv named its range
        return ""
    spans = numbers.loc[numbers["name"].str.startswith("share_above_"), "range"]
    spans = [str(x) for x in dict.fromkeys(spans.dropna()) if str(x)]
    return "; ".join(spans)


def numbers_html(numbers: pd.DataFrame, label: str, with_paper: bool) -> str:
    """A venue's numbers.csv as a page of the report."""
    body = (f"<h3>{escape(label)}: numbers stated in the text of "
            "[Christodoulou2025]</h3>" + _caveat(numbers, label)
            + numbers_fragment(numbers, with_paper))
    return _PAGE.render(title=label, style=_STYLE, body=body, fragment_marker=FRAGMENT)


def headline_table(numbers: Mapping[str, pd.DataFrame], labels: Mapping[str, str],
                   flagged: frozenset[str] = frozenset()) -> tuple[list[str], list[dict]]:
    """Per venue and task: analysed papers and the share (count) above each cutoff at the
    headline assumption, with the sensitivity range (``numbers.csv`` rows ``share_above_*``);
    tasks without analysed papers left out (:func:`_analysed_rows`).
    The cutoffs as text ("5%") and one row per venue and task, its cells in that order; the
    front page draws it (:func:`headline_fragment`), the pipeline's console prints it
    (:func:`headline_text`)."""
    cut_names: list[str] = []
    rows = []
    for venue, d in numbers.items():
        design = d[d["name"] == "design_only"]
        if len(design):  # no results recorded: no share to show, the papers counted
            rows.append({"label": labels.get(venue, venue), "design_only": True,
                         "implausible": venue in flagged,
                         "n": int(design["value"].iloc[0]), "cells": {}})
            continue
        tasks = []
        for task in [t for t in TASK_LABELS if t in set(d["task"])]:
            h = d[(d["task"] == task) & d["name"].str.startswith("share_above_")]
            cut_names += [n for n in h["name"] if n not in cut_names]
            cells = {}
            for _, r in h.iterrows():
                count = "" if pd.isna(r["value"]) or pd.isna(r["n_population"]) else \
                    f" ({round(float(r['value']) * int(r['n_population']))})"
                paper = r.get("paper_value", "")
                cells[r["name"]] = {"value": _fmt(r["value"], "share") + count,
                                    "share": _fmt(r["value"], "share"),
                                    "range": _range(r),
                                    "paper": "" if pd.isna(paper) or paper == ""
                                    else _fmt(str(paper), "share")}
            n = h["n_population"].dropna()
            tasks.append({"label": labels.get(venue, venue), "task": TASK_LABELS[task],
                          "implausible": venue in flagged,
                          "n": int(n.iloc[0]) if len(n) else 0, "cells": cells})
        rows += _analysed_rows(tasks)
    for r in rows:
        r["cells"] = [r["cells"].get(c, {"value": "–", "share": "–", "range": "",
                                         "paper": ""})
                      for c in cut_names]
    cutoffs = [f"{100 * float(c.removeprefix('share_above_')):g}%" for c in cut_names]
    return cutoffs, rows


def _analysed_rows(tasks: list[dict]) -> list[dict]:
    """A venue's task rows of the headline table: a task without analysed papers has no
    share to show and no row (a classification-only review has no "segmentation (0
    papers)" line); a venue with no analysed paper at all, one row saying so."""
    analysed = [r for r in tasks if r["n"] > 0]
    if analysed or not tasks:
        return analysed
    return [{**tasks[0], "task": "", "no_analysed": True, "cells": {}}]


def headline_fragment(numbers: Mapping[str, pd.DataFrame], labels: Mapping[str, str],
                      assumption: str, flagged: frozenset[str] = frozenset()) -> str:
    """The front page's headline table (:func:`headline_table`) as HTML, with what its ranges
    span and the caveat of a venue generated to match the paper; the venues ``flagged``
    implausible are marked."""
    cutoffs, rows = headline_table(numbers, labels, flagged)
    spans = list(dict.fromkeys(range_label(d) for d in numbers.values()))
    span = "; ".join(x for x in spans if x) or "the sensitivity analyses"
    notes = [f"{labels.get(v, v)}: {matched_note(d)}" for v, d in numbers.items()
             if matched_note(d)]
    return _HEADLINE.render(assumption=assumption, cutoffs=cutoffs, rows=rows, span=span,
                            notes=notes)


def headline_text(numbers: Mapping[str, pd.DataFrame], labels: Mapping[str, str]) -> list[str]:
    """The front page's headline table (:func:`headline_table`) as console lines, one per
    venue and task with analysed papers: their number, the share above each cutoff and its
    sensitivity range."""
    cutoffs, rows = headline_table(numbers, labels)
    out = []
    for r in rows:
        if r.get("design_only"):  # the front page's words: no task, no share
            out.append(f"  {r['label']}: design-only: {r['n']} papers, no results recorded")
            continue
        if r.get("no_analysed"):
            out.append(f"  {r['label']}: no analysed papers")
            continue
        shares = ", ".join(f"> {c}: {cell['share']}"
                           + (f" [{cell['range']}]" if cell["range"] else "")
                           for c, cell in zip(cutoffs, r["cells"]))
        out.append(f"  {r['label']}, {r['task'].lower()} ({r['n']} papers): {shares}")
    return out


def front_page_html(numbers: Mapping[str, pd.DataFrame], labels: Mapping[str, str],
                    compare: list[str], assumption: str,
                    warnings: Mapping[str, list[str]] | None = None,
                    configfiles: Sequence[str] = ()) -> str:
    """The report's front page: the plausibility warnings of each venue (``warnings``:
    venue -> messages, :mod:`falseclaims.plausibility`) above the headline table of every
    venue, then, for each venue compared with the paper, its numbers beside the paper's.
    ``configfiles``: the run's ``--configfile`` files; the check command a warning prints
    names the one defining the venue."""
    warned = [{"venue": v, "label": labels.get(v, v), "warnings": list(w),
               "command": sheet_check_command(v, configfiles)}
              for v, w in (warnings or {}).items() if w]
    body = _WARNINGS.render(venues=warned) + headline_fragment(
        numbers, labels, assumption, frozenset(w["venue"] for w in warned))
    # the caveat of a venue generated to match the paper stands once, under the headline
    # table (headline_fragment), not again above its numbers a line below
    for venue in compare:
        if venue in numbers:
            body += (f"<p><b>Numbers stated in the paper's text</b>, "
                     f"{escape(labels.get(venue, venue))} "
                     "(blue: the paper's value):</p>"
                     + numbers_fragment(numbers[venue], True))
    return _PAGE.render(title="falseclaims: the answer", style=_STYLE + _FRONT_STYLE, body=body,
                        fragment_marker=FRAGMENT)


def sheet_check_command(venue: str, configfiles: Sequence[str] = ()) -> str:
    """``falseclaims sheet check --venue VENUE``, with ``--config FILE`` when the venue is
    defined in one of the run's ``--configfile`` files (the last such, as Snakemake merges
    them): without it the check reads config/config.yaml, which may not define the venue."""
    words = ["falseclaims", "sheet", "check", "--venue", venue]
    for path in reversed(list(configfiles)):
        try:
            with open(path, encoding="utf-8") as fh:
                venues = (yaml.safe_load(fh) or {}).get("venues") or {}
        except (OSError, yaml.YAMLError, AttributeError):
            continue  # the pipeline read it already; a file gone since names nothing here
        if isinstance(venues, dict) and venue in venues:
            words += ["--config", shown_path(path)]
            break
    return shlex.join(words)


_METRICS = _ENV.from_string("""
{% for t in tables %}
<h3>Table {{ t.name }}: metrics reported by {{ t.task }} papers of {{ label }}</h3>
<p>Percentage of the n = {{ t.n }} {{ t.population }}; a paper counts once per metric. {% if t.paper %}
In blue, the paper's percentage ([Christodoulou2025], Table {{ t.name }}), its rows in its order.{% endif %}</p>
{% if note %}<p class="caveat">{{ note }}</p>{% endif %}
<table class="fc"><tr><th>Metric</th><th>Papers</th><th>Percentage (%)</th>{% if t.paper %}<th class="paper">Paper (%)</th><th>Note</th>{% endif %}</tr>
{% for r in t.rows %}<tr><td>{{ r.label }}</td><td>{{ r.n_papers_reporting }}</td><td>{{ "%.1f" % r.percent }}</td>{% if t.paper %}<td class="paper">{{ r.paper }}</td><td class="text">{{ r.note }}</td>{% endif %}</tr>
{% endfor %}</table>
{% endfor %}
""")


def metric_tables_html(table: pd.DataFrame, label: str, note: str = "") -> str:
    """Tables S1/S2 (``figures.tables.metric_table``) as a page of the report; ``note``: the
    caveat of a venue generated to match the paper."""
    from falseclaims.survey.populations import POPULATION_TEXT, TABLE_NAMES

    tables = []
    for task in [t for t in TASK_LABELS if t in set(table["task"])]:
        d = table[table["task"] == task]
        which = str(d["population"].iloc[0])
        paper = "paper_percent" in d and bool(d["paper_percent"].notna().any())
        rows = [{**r, "note": r.get("note", "") if isinstance(r.get("note"), str) else "",
                 "paper": "" if pd.isna(r.get("paper_percent")) else f"{r['paper_percent']:.1f}"}
                for r in d.to_dict("records")]
        tables.append({"name": TABLE_NAMES[task], "task": TASK_LABELS[task].lower(),
                       "n": int(d["n_papers"].iloc[0]),
                       "population": POPULATION_TEXT.get(which, which), "rows": rows,
                       "paper": paper})
    body = _METRICS.render(tables=tables, label=label, note=note) if tables else \
        f"<p>No papers in {escape(label)}.</p>"
    return _PAGE.render(title=f"Tables S1/S2, {label}", style=_STYLE, body=body,
                        fragment_marker=FRAGMENT)


def closing_lines(cfg: dict, configfiles=(), with_config: bool = False,
                  places=()) -> list[str]:
    """What a successful pipeline run prints last: the headline of every venue it made (the
    front page's table, read from ``results/<venue>/numbers.csv`` when that is not older
    than the venue's summary.csv), then :func:`~falseclaims.config.where_to_look` (``places``:
    the run's ``-s`` / ``--directory``, :func:`~falseclaims.config.command_line_places`)."""
    numbers = {}
    for venue in run_venues(cfg):
        path, summary = Path(f"results/{venue}/numbers.csv"), Path(f"results/{venue}/summary.csv")
        if path.is_file() and (not summary.is_file()
                               or path.stat().st_mtime >= summary.stat().st_mtime):
            numbers[venue] = read_table(path)
    lines = []
    if numbers:
        # the assumption in the front page's words
        assumption = Headline.from_config(cfg).describe("segmentation")
        spans = "; ".join(dict.fromkeys(x for x in map(range_label, numbers.values()) if x))
        lines.append("Headline: share of analysed papers whose probability of a false claim "
                     f"exceeds each cutoff ({assumption}; in brackets the range over "
                     f"{spans or 'the sensitivity analyses'}, as the report's front page)")
        lines += headline_text(numbers, {v: venue_label(cfg, v) for v in numbers})
    return [*lines, where_to_look(cfg, configfiles, with_config, places=places)]
