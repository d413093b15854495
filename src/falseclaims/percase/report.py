"""One self-contained HTML report for ``falseclaims percase`` and ``falseclaims check``.

Figures are embedded as base64 PNG, the data behind them as base64 CSV download links and
the styles inline: the file opens offline and references nothing on the network.
"""

from __future__ import annotations

import base64
import html
import io
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

import falseclaims
from falseclaims.figures import percase as rf
from falseclaims.percase.verdict import interpret, level, probability_text

__all__ = ["check_html", "figure_png", "percase_html", "write_html"]

LEVEL_COLOURS = {"robust": "#009E73", "fragile": "#E69F00", "weak": "#D55E00",
                 "tie": "#999999"}

CSS = """
body{font-family:"DejaVu Sans",Helvetica,Arial,sans-serif;max-width:980px;margin:2em auto;
padding:0 1em;color:#222;line-height:1.45}
h1{font-size:1.5em;margin-bottom:.2em} h2{font-size:1.15em;border-bottom:1px solid #ddd;
padding-bottom:.2em;margin-top:1.6em}
table{border-collapse:collapse;margin:.6em 0;font-size:.9em}
th,td{border:1px solid #ccc;padding:.25em .6em;text-align:left}
th{background:#f3f3f3} td.num{text-align:right;font-variant-numeric:tabular-nums}
.verdict{border-left:8px solid var(--c);background:#fafafa;padding:.8em 1em;margin:1em 0;
font-size:1.05em}
.verdict .prob{font-size:1.6em;font-weight:bold;color:var(--c)}
figure{display:inline-block;margin:.5em 1em .5em 0;vertical-align:top}
figure img{width:420px;max-width:100%;border:1px solid #eee}
figcaption{font-size:.85em;color:#555;max-width:420px}
.small{font-size:.85em;color:#555} ul{margin-top:.3em}
.wide{overflow-x:auto} .wide table{font-size:.75em}
"""


def figure_png(fig, dpi: int = 170) -> str:
    """The figure as a data URI (PNG, base64); closes the figure."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, metadata={"Software": None})
    plt.close(fig)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def _csv_uri(df: pd.DataFrame) -> str:
    data = df.to_csv(index=False).encode("utf-8")
    return "data:text/csv;base64," + base64.b64encode(data).decode("ascii")


def _esc(x) -> str:
    return html.escape(str(x))


def _fmt(v, digits: int = 4) -> str:
    if v is None:
        return "–"
    if isinstance(v, (bool, np.bool_)):
        return "yes" if v else "no"
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    if isinstance(v, (float, np.floating)):
        if not np.isfinite(v):
            return "–"
        if v != 0 and abs(v) < 10 ** (-digits):
            return f"{v:.2e}"
        return f"{v:.{digits}f}"
    return str(v)


def _table(df: pd.DataFrame, digits: int = 4) -> str:
    head = "".join(f"<th>{_esc(c)}</th>" for c in df.columns)
    rows = []
    for _, r in df.iterrows():
        cells = []
        for v in r:
            num = isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool)
            cls = ' class="num"' if num else ""
            cells.append(f"<td{cls}>{_esc(_fmt(v, digits))}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def _kv(pairs: list[tuple[str, object]], digits: int = 4) -> str:
    rows = "".join(f"<tr><th>{_esc(k)}</th><td>{_esc(_fmt(v, digits))}</td></tr>"
                   for k, v in pairs)
    return f"<table>{rows}</table>"


def _figure(uri: str, caption: str, alt: str) -> str:
    return (f'<figure><img src="{uri}" alt="{_esc(alt)}">'
            f"<figcaption>{_esc(caption)}</figcaption></figure>")


def _verdict(prob: float, cfg: dict | None, a: str, b: str, extra: str = "") -> str:
    lvl = level(prob, cfg)
    return (f'<div class="verdict" id="verdict" style="--c:{LEVEL_COLOURS[lvl]}">'
            f'<div>Probability of a false claim (B truly at least as good as A): '
            f'<span class="prob">{probability_text(prob)}</span></div>'
            f"<div>{_esc(interpret(prob, cfg, a, b))}</div>{extra}</div>")


def _page(title: str, body: str) -> str:
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
            f"<title>{_esc(title)}</title><style>{CSS}</style></head><body>"
            f"<h1>{_esc(title)}</h1>{body}"
            f'<p class="small">Written by falseclaims {falseclaims.__version__}. Method: '
            "Christodoulou et al., <i>False Promises in Medical Imaging AI?</i>; classical "
            "tests as in Rainio et al., <i>Evaluation metrics and statistical tests for "
            "machine learning</i> (Sci Rep 2024).</p></body></html>")


def write_html(text: str, path: str | Path) -> Path:
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text, encoding="utf-8")
    return p


# ---------------------------------------------------------------- author mode
def percase_html(cmp, ranking: pd.DataFrame, meta: dict, cfg: dict | None = None,
                 pairs: pd.DataFrame | None = None) -> str:
    """Report of ``falseclaims percase``: ``cmp`` is a :class:`compare.PairComparison`,
    ``meta`` holds file, task, metric and the settings used."""
    task, a, b, inp = cmp.task, cmp.a, cmp.b, cmp.inputs
    ci = cmp.interval
    extra = (f"<div class='small'>{ci['level']:.0%} bootstrap interval of the mean difference "
             f"A − B: [{ci['lower']:+.4f}, {ci['upper']:+.4f}] (estimate {ci['estimate']:+.4f}, "
             f"{ci['resamples']} resamples, seed {ci['seed']}).</div>")
    parts = [f"<p><b>A</b> = {_esc(a)} (top-ranked), <b>B</b> = {_esc(b)} (runner-up).</p>",
             _verdict(cmp.probability, cfg, a, b, extra)]

    parts.append("<h2>Inputs</h2>")
    parts.append(_kv([(k, v) for k, v in meta.items()]))
    parts.append("<h2>Ranking</h2>")
    parts.append(_table(ranking[["rank", "method", "mean"]].rename(
        columns={"mean": "mean DSC" if task == "segmentation" else "accuracy"})))

    parts.append("<h2>Bayesian probability with empirical inputs</h2>")
    if task == "segmentation":
        kv = [("n (cases)", inp["n"]), ("mean DSC of A", inp["mean_a"]),
              ("mean DSC of B", inp["mean_b"]), ("SD of A (per case)", inp["sd_a"]),
              ("SD of B (per case)", inp["sd_b"]),
              ("congruence r (Pearson of per-case DSC)", inp["congruence"]),
              ("P(false claim)", cmp.probability)]
        formula = ("P = t<sub>n−1</sub>(√n (μ̂<sub>B</sub> − μ̂<sub>A</sub>) / "
                   "√(s<sub>A</sub>² + s<sub>B</sub>² − 2 s<sub>A</sub>s<sub>B</sub>r))")
    else:
        kv = [("n (cases)", inp["n"]), ("accuracy of A", inp["mean_a"]),
              ("accuracy of B", inp["mean_b"]), ("congruence p11 (both correct)",
                                                 inp["congruence"]),
              ("only A correct (x1)", inp["only_a"]), ("only B correct (x2)", inp["only_b"]),
              ("both wrong", inp["both_wrong"]), ("P(false claim)", cmp.probability)]
        formula = ("P = P(p<sub>1</sub> ≤ p<sub>2</sub>) under Dirichlet(x<sub>1</sub>+1, "
                   "x<sub>2</sub>+1, n−x<sub>1</sub>−x<sub>2</sub>+2) = "
                   "I<sub>1/2</sub>(x<sub>1</sub>+1, x<sub>2</sub>+1)")
    parts.append(_kv(kv))
    parts.append(f"<p class='small'>{formula}</p>")

    parts.append("<h2>Classical paired tests</h2>")
    tests = cmp.tests_table()
    tests["n"] = [("–" if v is None or v != v else str(int(v))) for v in tests["n"]]
    parts.append(_table(tests))
    if cmp.recommendation:
        parts.append("<p><b>Which test fits?</b></p><ul>"
                     + "".join(f"<li>{_esc(r)}</li>" for r in cmp.recommendation) + "</ul>")

    parts.append("<h2>Figures</h2>")
    x, y = cmp.x, cmp.y
    data = pd.DataFrame({"case_id": cmp.case_ids, "a": x, "b": y, "difference": x - y})
    if task == "segmentation":
        parts.append(_figure(figure_png(rf.scatter_a_vs_b(x, y, a, b)),
                             "Per-case DSC of A against B; points below the dashed identity "
                             "line are cases where A is better.", "scatter of A against B"))
        parts.append(_figure(figure_png(rf.differences_histogram(x - y, a, b)),
                             "Histogram of the paired differences A − B.",
                             "histogram of paired differences"))
        sd_diff = float(np.std(x - y, ddof=1))
        post = rf.posterior_segmentation([{"label": "empirical", "n": inp["n"],
                                           "delta": inp["mean_a"] - inp["mean_b"],
                                           "sd_diff": sd_diff,
                                           "probability": cmp.probability}])
    else:
        tab = np.array([[inp["both_correct"], inp["only_a"]],
                        [inp["only_b"], inp["both_wrong"]]])
        parts.append(_figure(figure_png(rf.agreement_table(tab, a, b)),
                             "2×2 agreement table of per-case correctness; only the discordant "
                             "cells inform McNemar's test and the probability.",
                             "agreement table"))
        parts.append(_figure(figure_png(rf.discordance_bars(
            inp["only_a"], inp["both_correct"] + inp["both_wrong"], inp["only_b"], a, b)),
            "Paired differences of per-case correctness (A − B).", "paired differences"))
        post = rf.posterior_classification([{"label": "empirical", "n": inp["n"],
                                             "x1": inp["only_a"], "x2": inp["only_b"],
                                             "probability": cmp.probability}])
    parts.append(_figure(figure_png(post), "Posterior of the true difference; the shaded "
                         "area (difference ≤ 0, favouring B) is the probability of a false "
                         "claim.", "posterior of the difference"))
    parts.append(f'<p class="small"><a download="percase_pair.csv" href="{_csv_uri(data)}">'
                 "Download the per-case values behind the figures (CSV)</a></p>")

    if pairs is not None and len(pairs):
        parts.append("<h2>All pairs (Holm-adjusted p-values)</h2>")
        parts.append(f'<div class="wide">{_table(pairs, 3)}</div>')
        parts.append("<p class='small'>Holm's step-down adjustment over all pairs controls the "
                     "family-wise error of the classical tests; the Bayesian probabilities are "
                     "per pair and unadjusted.</p>")
    return _page(f"Is {a} really better than {b}?", "".join(parts))


# ---------------------------------------------------------------- reviewer mode
def check_html(result: dict, cfg: dict | None = None, curve: dict | None = None,
               box: dict | None = None) -> str:
    """Report of ``falseclaims check``: ``result`` is the JSON of the command, ``curve`` the
    probability over a congruence grid and ``box`` the rounding-box grid (``--decimals``)."""
    task = result["task"]
    rows = result["results"]
    main = next((r for r in rows if r["assumption"] == "median"), rows[0])
    extra = ""
    if "probability_range" in main:
        lo, hi = main["probability_range"]
        extra = (f"<div class='small'>Values reported to {result['decimals']} decimals: over the "
                 f"rounding interval of both values the probability lies in "
                 f"[{probability_text(lo)}, {probability_text(hi)}]."
                 "</div>")
    parts = [f"<p>Reviewer mode: reported values only; the congruence"
             f"{' and the SDs are' if task == 'segmentation' else ' is'} assumed.</p>",
             _verdict(main["probability"], cfg, "A", "B", extra)]
    parts.append("<h2>Inputs</h2>")
    parts.append(_kv([("task", task), ("n (test-set size)", result["n"]),
                      ("reported value of A", result["a"]),
                      ("reported value of B", result["b"]),
                      ("difference", result["a"] - result["b"])]
                     + ([("decimals", result["decimals"])] if result.get("decimals") else [])))
    parts.append("<h2>Probability under each assumption</h2>")
    cols = ["assumption", "congruence", "congruence_used", "clamped", "sd_a", "sd_b",
            "sd_imputed", "probability"]
    table = pd.DataFrame(rows)
    if "probability_range" in table:
        table["range_min"] = [r[0] for r in table["probability_range"]]
        table["range_max"] = [r[1] for r in table["probability_range"]]
        cols += ["range_min", "range_max"]
    parts.append(_table(table[[c for c in cols if c in table]]))
    for note in result.get("notes", []):
        parts.append(f"<p class='small'>{_esc(note)}</p>")

    parts.append("<h2>Figures</h2>")
    if task == "segmentation":
        post = rf.posterior_segmentation([
            {"label": r["assumption"], "n": result["n"], "delta": result["a"] - result["b"],
             "sd_diff": r["sd_diff"], "probability": r["probability"]} for r in rows])
    else:
        post = rf.posterior_classification([
            {"label": r["assumption"], "n": result["n"], "x1": r["x1"], "x2": r["x2"],
             "probability": r["probability"]} for r in rows])
    parts.append(_figure(figure_png(post), "Posterior of the true difference under each "
                         "assumed congruence; the shaded area (favouring B) is the probability "
                         "of a false claim.", "posterior of the difference"))
    if curve is not None:
        parts.append(_figure(figure_png(rf.probability_vs_congruence(
            curve["grid"], curve["probability"], rows, task)),
            "Probability across the feasible congruence range; dots mark the assumptions.",
            "probability against congruence"))
    if box is not None:
        parts.append(_figure(figure_png(rf.rounding_box(
            box["a_grid"], box["b_grid"], box["probability"], result["a"], result["b"],
            result["decimals"])),
            "Probability (median assumption) over all true values that round to the reported "
            "ones; × marks the reported pair.", "rounding box"))
    return _page("How likely is this outperformance claim to be false?", "".join(parts))
