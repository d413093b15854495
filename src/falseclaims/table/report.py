"""Output of table mode: text, the batch rows, and the HTML report (a jinja2 template with
autoescaping: every string from a table is escaped)."""

from __future__ import annotations

from falseclaims.percase.verdict import probability_text

__all__ = ["BATCH_COLUMNS", "batch_rows", "format_text", "html_report"]

BATCH_COLUMNS = ["file", "table", "metric", "group", "direction", "task", "n", "m", "winner",
                 "winner_source", "winner_value", "runner_up", "runner_up_value",
                 "p_false_claim", "p_low", "p_high", "verdict", "tier_size", "n_tiers",
                 "status", "reason"]


def _p(v, underflow: bool = False) -> str:
    """``underflow``: the probability underflowed to 0 (so did a 0 at either end of its
    band), written "below 1e-300" as every other output writes it."""
    return probability_text(v, 4, underflow=underflow and v == 0)


def _head(m: dict) -> str:
    group = f" [{m['group']}]" if m.get("group") and m["group"] not in m["column"] else ""
    better = f"{m['direction']} is better ({m['direction_source']}), " \
        if m.get("direction") else ""
    return (f"{m['column']}{group}: {better}{m['task'] or 'ranked only'} ({m['task_source']}), "
            f"{m['units']} ({m['units_source']}), {m['m']} methods, "
            + (f"n = {m['n']}{_caption_source(m)}" if m["n"] is not None else "no n"))


def _caption_source(m: dict) -> str:
    """Where an n read from the caption came from: a size the reader should check."""
    source = str(m.get("n_source") or "")
    return f" ({source})" if "caption" in source else ""


def _winner_text(m: dict) -> str:
    if m.get("tied_at_top"):  # several methods at the best value: nobody won
        return f"no single winner: {m['winner']} ({m['winner_source']})"
    return f"winner: {m['winner']} ({m['winner_source']})"


def _win_mark(m: dict) -> str:
    return "  tie (reference)" if m.get("tied_at_top") else "  winner"


def format_ranked(m: dict) -> list[str]:
    """A column without a probability: the ranking and why there is no probability."""
    lines = [_head(m), f"  {_winner_text(m)}; runner-up {m['runner_up']}; "
                       f"{m['no_probability']}"]
    width = max(8, max(len(x["method"]) for x in m["methods"]) + 2)
    lines.append(f"  {'rank':>4}  {'method':<{width}}{'printed':<16}{'value':>10}")
    for x in m["methods"]:
        mark = "*" if x["bold"] else ""
        lines.append(f"  {x['rank']:>4}  {x['method'] + mark:<{width}}{x['printed'][:15]:<16}"
                     f"{x['value']:>10.6g}" + (_win_mark(m) if x["winner"] else ""))
    lines += [f"  note: {note}" for note in m["notes"]]
    return lines


def format_metric(m: dict) -> list[str]:
    if not m.get("probability", True):
        return format_ranked(m)
    uf = bool(m.get("p_runner_up_underflow"))
    lines = [_head(m),
             f"  {_winner_text(m)}; runner-up {m['runner_up']}: "
             f"P(false claim) = {_p(m['p_runner_up'], uf)} "
             f"[{_p(m['p_runner_up_band'][0], uf)}, {_p(m['p_runner_up_band'][1], uf)}]",
             f"  winner vs runner-up, as check words it: {m['interpretation']}",
             f"  tied with the winner (tier 1, P >= {m['cutoff']:g}): "
             f"{len(m['tier1'])} of {m['m']}: " + ", ".join(m["tier1"])]
    width = max(8, max(len(x["method"]) for x in m["methods"]) + 2)
    lines.append(f"  {'rank':>4} {'tier':>4}  {'method':<{width}}{'printed':<16}{'value':>8}"
                 f"{'P(false claim)':>16}  band (congruence, SD, rounding)")
    for x in m["methods"]:
        mark = "*" if x["bold"] else ""
        head = f"  {x['rank']:>4} {x['tier']:>4}  {x['method'] + mark:<{width}}" \
               f"{x['printed'][:15]:<16}{x['value']:>8.4g}"
        if x["winner"]:
            lines.append(head + f"{_win_mark(m).strip():>16}")
            continue
        lo, hi = x["p_band"]
        tie = "  tied" if x["tied"] else ("  tied in band" if x["tied_in_band"] else "")
        uf_x = bool(x.get("p_underflow"))
        lines.append(head + f"{_p(x['p_false_claim'], uf_x):>16}  [{_p(lo, uf_x)}, "
                     f"{_p(hi, uf_x)}]{tie}")
    lines.append("  tiers: " + "; ".join(f"T{k} {', '.join(t)}"
                                         for k, t in enumerate(m["tiers"], 1)))
    mu = m["multiplicity"]
    if mu["available"]:
        lines.append(f"  best of m = {mu['m']} methods all at the runner-up's accuracy "
                     f"{mu['p']:g}: expected best {mu['mean_best']:.4f} (SD {mu['sd_best']:.4f}),"
                     f" multiplicity-adjusted upper limit {mu['upper_multiplicity']:.4f}; "
                     f"P(best >= winner's {m['methods'][0]['value']:g}) = "
                     f"{_p(mu['prob_best_at_least_winner'])}")
    else:
        lines.append(f"  multiplicity: not available ({mu['reason']})")
    lines += [f"  note: {note}" for note in m["notes"]]
    return lines


def format_text(result: dict) -> str:
    """All analysed tables of one file (``result`` of the CLI: tables + unreadable)."""
    from falseclaims.table.cells import printable

    out = []
    for t in result["tables"]:
        sizes = f"n = {t['n']} ({t['n_source']})" if t["n"] is not None else \
            "n per column"
        out.append(f"{printable(t['file'])}, {t['table']} ({t['format']}): {sizes}")
        out += [f"  note: {note}" for note in t["notes"]]
        for m in t["metrics"]:
            out += format_metric(m)
        out.append("")
    for u in result.get("unreadable", []):
        out.append(printable(f"not read: {u['file']}" + (f", {u['table']}" if u.get("table")
                                                          else "") + f": {u['reason']}"))
    return "\n".join(out).rstrip()


def batch_rows(result: dict) -> list[dict]:
    """One row per claim (file, table, metric column), then one per unreadable table."""
    rows = []
    for t in result["tables"]:
        for m in t["metrics"]:
            win = next(x for x in m["methods"] if x["winner"])
            run = next(x for x in m["methods"] if x["method"] == m["runner_up"])
            band = m["p_runner_up_band"] or [None, None]
            ranked = not m.get("probability", True)
            rows.append({"file": t["file"], "table": t["table"], "metric": m["column"],
                         "group": m.get("group", ""), "direction": m.get("direction"),
                         "task": m["task"], "n": m["n"], "m": m["m"], "winner": m["winner"],
                         "winner_source": m["winner_source"], "winner_value": win["value"],
                         "runner_up": m["runner_up"], "runner_up_value": run["value"],
                         "p_false_claim": m["p_runner_up"], "p_low": band[0],
                         "p_high": band[1], "verdict": m.get("verdict"),
                         "tier_size": None if ranked else len(m["tier1"]),
                         "n_tiers": None if ranked else len(m["tiers"]),
                         "status": "ranked" if ranked else "ok",
                         "reason": m.get("no_probability", ""),
                         # printed under the claim's line, not a CSV column
                         "n_notes": [x for x in (*t["notes"], *m["notes"])
                                     if x.startswith("--n") or "--n " in x.split(":")[0]]})
    for u in result.get("unreadable", []):
        rows.append({**{c: None for c in BATCH_COLUMNS}, "file": u["file"],
                     "table": u.get("table") or "", "status": "unreadable",
                     "reason": u["reason"]})
    return rows


_TEMPLATE = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<title>falseclaims table: {{ title }}</title><style>
body{font-family:system-ui,sans-serif;max-width:1000px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:.5em 0;font-size:.9em}
td,th{border:1px solid #ccc;padding:2px 6px;text-align:left}
td.num{text-align:right;font-variant-numeric:tabular-nums}
tr.t1{background:#e8f1fa} .small{font-size:.85em;color:#555} img{max-width:100%}
</style></head><body>
<h1>Every claim in {{ title }}</h1>
<p class="small">P(false claim) = probability that the reported winner is not truly better than
the method of the row, from the printed values and n, with the assumptions of
<code>falseclaims check</code> (congruence {{ assumption.congruence_source }}
{{ assumption.congruence_level }}, SD model {{ assumption.sd_source }} at the
{{ assumption.sd_level }} level) [Christodoulou2025]. Tier 1: the methods tied with the
winner (P &ge; cutoff); each further tier is the best remaining method and the methods tied
with it. The band spans congruence Q1&ndash;Q3, the SD levels and every pair of values that
round to the printed ones.</p>
{% for t in tables %}
<h2>{{ t.file }}, {{ t.table }}</h2>
<p>Format {{ t.format }}; {% if t.n is not none %}n = {{ t.n }} ({{ t.n_source }}){% else %}n per column{% endif %}.</p>
{% if t.notes %}<ul>{% for note in t.notes %}<li>{{ note }}</li>{% endfor %}</ul>{% endif %}
{% for m in t.metrics %}
<h3>{{ m.column }}{% if m.group and m.group not in m.column %} [{{ m.group }}]{% endif %}{% if m.n is not none %} (n = {{ m.n }}){% endif %}</h3>
{% if not m.probability %}
<p>{{ m.direction }} is better ({{ m.direction_source }}); {% if m.tied_at_top %}no single
winner: <b>{{ m.winner }}</b>{% else %}winner <b>{{ m.winner }}</b>{% endif %}
({{ m.winner_source }}); {{ m.no_probability }}.</p>
<table><thead><tr><th>rank</th><th>method</th><th>printed</th><th>value</th></tr></thead><tbody>
{% for x in m.methods %}<tr><td class="num">{{ x.rank }}</td>
<td>{% if x.bold %}<b>{{ x.method }}</b>{% else %}{{ x.method }}{% endif %}</td>
<td>{{ x.printed }}</td><td class="num">{{ "%.6g"|format(x.value) }}</td></tr>{% endfor %}
</tbody></table>
{% else %}
<p>{{ m.task }} ({{ m.task_source }}), {{ m.units }} ({{ m.units_source }}); {% if
m.tied_at_top %}no single winner:{% else %}winner{% endif %}
<b>{{ m.winner }}</b> ({{ m.winner_source }}); {{ m.tier1|length }} of {{ m.m }} methods in
tier 1 at cutoff {{ m.cutoff }}.</p>
<p>Winner vs runner-up ({{ m.runner_up }}), as <code>falseclaims check</code> words it:
{{ m.interpretation }}</p>
{% if m.figure %}<figure><img src="{{ m.figure }}" alt="ranked intervals of {{ m.column }}">
<figcaption class="small">Marginal 95% intervals; colours and T = tiers from the paired
probabilities.</figcaption></figure>{% endif %}
<table><thead><tr><th>rank</th><th>tier</th><th>method</th><th>printed</th><th>value</th>
<th>P(false claim)</th><th>band</th><th>tied</th></tr></thead><tbody>
{% for x in m.methods %}<tr{% if x.tier == 1 %} class="t1"{% endif %}>
<td class="num">{{ x.rank }}</td><td class="num">{{ x.tier }}</td>
<td>{% if x.bold %}<b>{{ x.method }}</b>{% else %}{{ x.method }}{% endif %}</td>
<td>{{ x.printed }}</td><td class="num">{{ "%.4g"|format(x.value) }}</td>
{% if x.winner %}<td colspan="3">winner</td>{% else %}
<td class="num">{{ p(x.p_false_claim, x.p_underflow) }}</td>
<td class="num">[{{ p(x.p_band[0], x.p_underflow) }}, {{ p(x.p_band[1], x.p_underflow) }}]</td>
<td>{{ "yes" if x.tied else ("in band" if x.tied_in_band else "no") }}</td>{% endif %}
</tr>{% endfor %}</tbody></table>
<p class="small">Multiplicity [Mollersen2023]: {% if m.multiplicity.available %}if all
{{ m.multiplicity.m }} methods had the runner-up's accuracy {{ m.multiplicity.p }}, the best
would be expected at {{ "%.4f"|format(m.multiplicity.mean_best) }} (upper limit
{{ "%.4f"|format(m.multiplicity.upper_multiplicity) }}); P(best &ge; the winner's value) =
{{ p(m.multiplicity.prob_best_at_least_winner) }}.{% else %}{{ m.multiplicity.reason }}.{% endif %}</p>
{% endif %}
{% if m.notes %}<ul class="small">{% for note in m.notes %}<li>{{ note }}</li>{% endfor %}</ul>{% endif %}
{% endfor %}{% endfor %}
{% if unreadable %}<h2>Not read</h2><ul>{% for u in unreadable %}
<li>{{ u.file }}{% if u.table %}, {{ u.table }}{% endif %}: {{ u.reason }}</li>{% endfor %}</ul>{% endif %}
{% if skipped %}<h2>Skipped</h2><ul>{% for s in skipped %}<li>{{ s }}</li>{% endfor %}</ul>{% endif %}
<p class="small">Written by falseclaims {{ version }}.</p></body></html>
"""


def html_report(result: dict, figures: dict | None = None) -> str:
    """The HTML page; ``figures[(table index, metric index)]`` = PNG data URI."""
    import jinja2

    import falseclaims
    from falseclaims.config import source_label

    env = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined)
    tables = []
    for ti, t in enumerate(result["tables"]):
        ms = [{**m, "figure": (figures or {}).get((ti, mi))} for mi, m in enumerate(t["metrics"])]
        tables.append({**t, "metrics": ms})
    first = next((m["assumption"] for t in result["tables"] for m in t["metrics"]
                  if m.get("assumption")), {"congruence_source": "", "congruence_level": "",
                                            "sd_source": "", "sd_level": ""})
    # the sources as the pipeline's headline names them ("MSD reference", not its key)
    first = {**first, **{k: source_label(first[k]) for k in ("congruence_source", "sd_source")
                         if first.get(k)}}
    return env.from_string(_TEMPLATE).render(
        title=result.get("title", "results table"), tables=tables,
        unreadable=result.get("unreadable", []), skipped=result.get("skipped", []),
        assumption=first, p=_p,
        version=falseclaims.__version__)
