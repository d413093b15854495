"""One self-contained HTML report for ``falseclaims percase`` and ``falseclaims check``.

Pages are jinja2 templates (``falseclaims/templates/*.html.j2``, package data); this module
turns results into labelled, formatted cells. Figures are embedded as base64 PNG, the data
behind them as a base64 CSV download link and the styles inline: the file opens offline and
references nothing on the network. Numbers: counts as integers, every other number with four
significant digits (:func:`number`), probabilities of a false claim as in the text output.
"""

from __future__ import annotations

import base64
import io
import math
from functools import lru_cache
from importlib import resources
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

import falseclaims
from falseclaims.claims.check import flag_implausible
from falseclaims.figures import percase as rf
from falseclaims.levels import LEVEL_LABELS
from falseclaims.percase.paired_tests import label_of, labels_for
from falseclaims.percase.verdict import interpretation_text, level
from falseclaims.readout import probability_text

__all__ = ["check_html", "figure_png", "number", "percase_html", "write_html"]

LEVEL_COLOURS = {"robust": "#009E73", "fragile": "#E69F00", "weak": "#D55E00",
                 "tie": "#999999", "reversed": "#CC79A7"}
# a verdict on inputs that cannot all be right is no evidence: the grey of a tie, never the
# green of a robust claim
IMPLAUSIBLE_COLOUR = LEVEL_COLOURS["tie"]

# what each analysis cites in the footer (docs/references.md); only what ran is listed
CITES = {
    "probability": "Probability of a false claim: Christodoulou et al., False Promises in "
                   "Medical Imaging AI? (2025) [Christodoulou2025].",
    "tests": "Choice of the classical paired tests: Rainio et al., Evaluation metrics and "
             "statistical tests for machine learning, Sci Rep 14:6086 (2024) [Rainio2024].",
    "midp": "Mid-p McNemar: Fagerland, Lydersen & Laake, BMC Med Res Methodol 13:91 (2013) "
            "[Fagerland2013].",
    "pitman": "Pitman–Morgan test: Pitman, Biometrika 31 (1939) [Pitman1939]; Morgan, "
              "Biometrika 31 (1939) [Morgan1939].",
    "delong": "DeLong test: DeLong et al., Biometrics 44 (1988) [DeLong1988], fast algorithm "
              "of Sun & Xu (2014) [SunXu2014].",
    "holm": "Holm's step-down adjustment: Holm, Scand J Stat 6 (1979) [Holm1979].",
    "omnibus": "Friedman / Iman–Davenport tests, Nemenyi post-hoc and the critical-difference "
               "diagram: Demšar, J Mach Learn Res 7 (2006) [Demsar2006]; Iman & Davenport, "
               "Commun Stat 9 (1980) [ImanDavenport1980]; computed with scipy and "
               "scikit-posthocs [Terpilowski2019].",
}


def number(v, count: bool = False) -> str:
    """The one number format of the reports: counts as integers, other numbers with four
    significant digits (fixed notation from 0.001, scientific below), '–' when missing."""
    if v is None or isinstance(v, str):
        return "–" if v is None else v
    if isinstance(v, (bool, np.bool_)):
        return "yes" if v else "no"
    count = count or isinstance(v, (int, np.integer))
    v = float(v)
    if not math.isfinite(v):
        return "–" if math.isnan(v) else ("∞" if v > 0 else "−∞")
    if count:
        return f"{int(round(v)):,}"
    if v == 0:
        return "0"
    if abs(v) < 1e-3:
        return f"{v:.2e}"
    decimals = max(0, 3 - int(math.floor(math.log10(abs(v)))))
    return f"{v:,.{decimals}f}"


def _pvalue(p) -> str:
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return "–"
    return "< 1e-16" if p == 0 else number(p)


def figure_png(fig, dpi: int = 170) -> str:
    """The figure as a data URI (PNG, base64); closes the figure."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, metadata={"Software": None})
    plt.close(fig)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def _csv_uri(df: pd.DataFrame) -> str:
    data = df.to_csv(index=False).encode("utf-8")
    return "data:text/csv;base64," + base64.b64encode(data).decode("ascii")


@lru_cache(maxsize=1)
def _env():
    import jinja2

    return jinja2.Environment(loader=jinja2.PackageLoader("falseclaims", "templates"),
                              autoescape=True, trim_blocks=True, lstrip_blocks=True,
                              undefined=jinja2.StrictUndefined)


def _render(template: str, title: str, citations: list[str], **context) -> str:
    css = resources.files("falseclaims").joinpath("templates/report.css").read_text("utf-8")
    return _env().get_template(template).render(
        title=title, css=css, version=falseclaims.__version__,
        citations=[CITES[c] for c in citations], **context)


def _table(columns: list[tuple[str, bool]], rows: list[list[str]]) -> dict:
    """A template table: (label, numeric) per column, rows of formatted strings."""
    return {"columns": [c for c, _ in columns], "numeric": [n for _, n in columns],
            "rows": rows}


def _figure(uri: str, caption: str, alt: str, wide: bool = False) -> dict:
    return {"uri": uri, "caption": caption, "alt": alt, "wide": wide}


def _verdict(prob: float, cfg: dict | None, a: str, b: str, extra: str = "",
             underflow: bool = False, implausible: list[str] | None = None) -> dict:
    return {"colour": IMPLAUSIBLE_COLOUR if implausible else LEVEL_COLOURS[level(prob, cfg)],
            "a": a, "b": b,
            "probability": probability_text(prob, underflow=underflow),
            "sentence": flag_implausible(interpretation_text(prob, cfg, a, b, underflow),
                                         implausible or []), "extra": extra}


def _range_text(row: dict) -> str:
    """A check row's probability range over rounding, each end as the command line prints
    it (one that underflowed as its bound)."""
    lo, hi = (probability_text(p, underflow=u) for p, u in zip(
        row["probability_range"], row["probability_range_underflow"]))
    return f"[{lo}, {hi}]"


def write_html(text: str, path: str | Path) -> Path:
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text, encoding="utf-8")
    return p


# ---------------------------------------------------------------- author mode
TEST_COLUMNS = [("test", False), ("statistic", True), ("p-value", True),
                ("informative cases", True), ("assumption", False), ("note", False)]


def _tests_table(tests) -> dict:
    rows = []
    for t, label in zip(tests, labels_for(tests)):
        computed = not (isinstance(t.pvalue, float) and math.isnan(t.pvalue))
        stat = float(t.statistic)
        # counts and rank sums are whole numbers: shown as integers
        stat_text = number(stat, count=math.isfinite(stat) and stat.is_integer())
        ptext = _pvalue(t.pvalue) if computed else "not computed"
        if computed and t.chi2_pvalue is not None:  # per-class McNemar: exact, chi-square beside
            ptext += f" (exact); χ² with continuity correction {_pvalue(t.chi2_pvalue)}"
        rows.append([label, stat_text if computed else "–", ptext,
                     "–" if t.n is None else number(t.n, count=True), t.assumption, t.note])
    return _table(TEST_COLUMNS, rows)


def _bayes_rows(task: str, inp: dict, prob: float,
                underflow: bool = False) -> list[tuple[str, str]]:
    shown = probability_text(prob, underflow=underflow)
    if task == "segmentation":
        cong = inp["congruence"]
        r = (number(cong) if cong == cong
             else f"undefined: {inp.get('congruence_note', '')}")
        return [("cases", number(inp["n"], count=True)), ("mean DSC of A", number(inp["mean_a"])),
                ("mean DSC of B", number(inp["mean_b"])),
                ("SD of A (per case)", number(inp["sd_a"])),
                ("SD of B (per case)", number(inp["sd_b"])),
                ("congruence r (Pearson of per-case DSC)", r),
                ("P(false claim)", shown)]
    return [("cases", number(inp["n"], count=True)), ("accuracy of A", number(inp["mean_a"])),
            ("accuracy of B", number(inp["mean_b"])),
            ("congruence p11 (both correct)", number(inp["congruence"])),
            ("only A correct (x1)", number(inp["only_a"], count=True)),
            ("only B correct (x2)", number(inp["only_b"], count=True)),
            ("both wrong", number(inp["both_wrong"], count=True)),
            ("P(false claim)", shown)]


FORMULAS = {
    "segmentation": "P = t<sub>n−1</sub>(√n (μ̂<sub>B</sub> − μ̂<sub>A</sub>) / "
                    "√(s<sub>A</sub>² + s<sub>B</sub>² − 2 s<sub>A</sub>s<sub>B</sub>r))",
    "classification": "P = P(p<sub>1</sub> ≤ p<sub>2</sub>) under Dirichlet(x<sub>1</sub>+1, "
                      "x<sub>2</sub>+1, n−x<sub>1</sub>−x<sub>2</sub>+2) = "
                      "I<sub>1/2</sub>(x<sub>1</sub>+1, x<sub>2</sub>+1)",
}


def _pair_figures(cmp) -> list[dict]:
    task, a, b, inp, x, y = cmp.task, cmp.a, cmp.b, cmp.inputs, cmp.x, cmp.y
    if task == "segmentation":
        figs = [_figure(figure_png(rf.scatter_a_vs_b(x, y, a, b)),
                        "Per-case DSC of A against B; points below the dashed identity line are "
                        "cases where A is better.", "scatter of A against B"),
                _figure(figure_png(rf.differences_histogram(x - y, a, b)),
                        "Histogram of the paired differences A − B.",
                        "histogram of paired differences")]
        post = rf.posterior_segmentation([{"label": "empirical", "n": inp["n"],
                                           "delta": inp["mean_a"] - inp["mean_b"],
                                           "sd_diff": float(np.std(x - y, ddof=1)),
                                           "probability": cmp.probability}])
    else:
        tab = np.array([[inp["both_correct"], inp["only_a"]],
                        [inp["only_b"], inp["both_wrong"]]])
        figs = [_figure(figure_png(rf.plot_agreement_table(tab, a, b)),
                        "2×2 agreement table of per-case correctness; only the discordant cells "
                        "inform McNemar's test and the probability.", "agreement table"),
                _figure(figure_png(rf.discordance_bars(
                    inp["only_a"], inp["both_correct"] + inp["both_wrong"], inp["only_b"], a,
                    b)), "Paired differences of per-case correctness (A − B).",
                    "paired differences")]
        post = rf.posterior_classification([{"label": "empirical", "n": inp["n"],
                                             "x1": inp["only_a"], "x2": inp["only_b"],
                                             "probability": cmp.probability}])
    figs.append(_figure(figure_png(post), "Posterior of the true difference; the shaded area "
                        "(difference ≤ 0, favouring B) is the probability of a false claim.",
                        "posterior of the difference"))
    return figs


def _omnibus_context(om) -> dict:
    k = len(om.methods)
    summary = [("methods, cases", f"{k}, {number(om.n_cases, count=True)}"),
               (f"Friedman χ² (df {k - 1})", f"{number(om.friedman_chi2)}, p = "
                                             f"{_pvalue(om.friedman_p)}"),
               (f"Iman–Davenport F (df {k - 1}, {(k - 1) * (om.n_cases - 1)})",
                f"{number(om.iman_davenport_f)}, p = {_pvalue(om.iman_davenport_p)}"),
               (f"critical difference of average ranks (alpha = {om.alpha:g})",
                number(om.critical_difference))]
    rows = [[r.a, number(r.rank_a), r.b, number(r.rank_b), number(r.rank_difference),
             _pvalue(r.p_nemenyi), _pvalue(r.p_holm), "yes" if r.differ else "no"]
            for r in om.pairs.itertuples()]
    cols = [("method", False), ("average rank", True), ("vs method", False),
            ("average rank", True), ("rank difference", True), ("Nemenyi p", True),
            ("Holm p", True), ("beyond the CD", False)]
    fig = _figure(figure_png(rf.critical_difference(om)),
                  "Critical-difference diagram: average ranks (1 = best); methods joined by a "
                  "bar are not separated by the Nemenyi test.", "critical-difference diagram",
                  wide=True)
    return {"k": k, "summary": summary, "notes": om.notes, "pairs": _table(cols, rows),
            "figure": fig}


def _pairs_table(pairs: pd.DataFrame, task: str) -> dict:
    """All pairs: one cell per test with the raw and the Holm-adjusted p-value."""
    cols = [("A", False), ("B", False), ("A − B", True), ("congruence", True),
            ("P(false claim)", True), ("95% interval of A − B", True)]
    tests = [c for c in pairs.columns if c.startswith("p_") and not c.endswith("_holm")]
    short = {"mcnemar_exact": "McNemar exact, overall accuracy", "wilcoxon": "Wilcoxon",
             "mcnemar_midp": "McNemar mid-p, overall accuracy", "paired_t": "paired t"}
    cols += [(f"{short.get(c[2:], label_of(c[2:]))}: p (Holm)", True) for c in tests]
    rows = [[r["a"], r["b"], number(r["delta"]), number(r["congruence"]),
             probability_text(r["probability"], underflow=r["probability_underflow"]),
             f"[{number(r['ci_lower'])}, {number(r['ci_upper'])}]"]
            + [f"{_pvalue(r[c])} ({_pvalue(r[c + '_holm'])})" for c in tests]
            for r in pairs.to_dict(orient="records")]
    return _table(cols, rows)


def percase_html(cmp, ranking: pd.DataFrame, meta: dict, cfg: dict | None = None,
                 pairs: pd.DataFrame | None = None, omnibus=None, positive: str | None = None,
                 chosen: bool = False) -> str:
    """Report of ``falseclaims percase``: ``cmp`` is a :class:`compare.PairComparison`,
    ``meta`` holds file, task, metric and the settings used, ``omnibus`` the K >= 3 test
    (:class:`falseclaims.percase.omnibus.OmnibusResult`)."""
    from markupsafe import Markup

    task, a, b, ci = cmp.task, cmp.a, cmp.b, cmp.interval
    extra = (f"{ci['level']:.0%} bootstrap interval of the mean difference A − B: "
             f"[{number(ci['lower'])}, {number(ci['upper'])}] (estimate {number(ci['estimate'])}"
             f", {number(ci['resamples'], count=True)} resamples, seed {ci['seed']}).")
    what = "mean DSC" if task == "segmentation" else "accuracy"
    ranking_t = _table([("rank", True), ("method", False), (what, True)],
                       [[number(r["rank"], count=True), r["method"], number(r["mean"])]
                        for r in ranking.to_dict(orient="records")])
    data = pd.DataFrame({"case_id": cmp.case_ids, "a": cmp.x, "b": cmp.y,
                         "difference": cmp.x - cmp.y})
    ran = {t.test for t in cmp.tests}
    cites = ["probability", "tests"]
    cites += ["midp"] if "mcnemar_midp" in ran else []
    cites += ["pitman"] if "pitman_morgan" in ran else []
    cites += ["delong"] if "delong" in ran else []
    cites += ["holm"] if pairs is not None or omnibus is not None else []
    cites += ["omnibus"] if omnibus is not None else []
    return _render(
        "percase.html.j2", f"Is {a} really better than {b}?", cites, a=a, b=b, chosen=chosen,
        verdict_=_verdict(cmp.probability, cfg, a, b, extra, cmp.probability_underflow),
        inputs=[(k, number(v) if not isinstance(v, str) else v) for k, v in meta.items()],
        ranking=ranking_t, bayes=_bayes_rows(task, cmp.inputs, cmp.probability,
                                                         cmp.probability_underflow),
        formula=Markup(FORMULAS[task]), positive=positive, tests=_tests_table(cmp.tests),
        advice=cmp.recommendation,
        omnibus=_omnibus_context(omnibus) if omnibus is not None else None,
        figures=_pair_figures(cmp), csv_uri=_csv_uri(data),
        pairs=_pairs_table(pairs, task) if pairs is not None and len(pairs) else None)


# ---------------------------------------------------------------- reviewer mode
def _check_rows(result: dict) -> dict:
    task, rows = result["task"], result["results"]
    ranged = "probability_range" in rows[0]
    cols = [("assumed congruence", False), ("congruence", True), ("congruence used", True),
            ("clamped to the feasible range", False)]
    if task == "segmentation":
        cols += [("SD of A", True), ("SD of B", True), ("SDs imputed", False)]
    cols += [("P(false claim)", True)]
    if ranged:
        cols += [("P over the rounding interval", True)]
    out = []
    for r in rows:
        row = [LEVEL_LABELS.get(r["assumption"], str(r["assumption"])),
               number(r["congruence"]), number(r.get("congruence_used")),
               number(bool(r.get("clamped", r.get("congruence_clamped", False))))]
        if task == "segmentation":
            row += [number(r["sd_a"]), number(r["sd_b"]), number(bool(r.get("sd_imputed")))]
        row.append(probability_text(r["probability"], underflow=r["probability_underflow"]))
        if ranged:
            row.append(_range_text(r))
        out.append(row)
    return _table(cols, out)


def check_html(result: dict, cfg: dict | None = None, curve: dict | None = None,
               box: dict | None = None) -> str:
    """Report of ``falseclaims check``: ``result`` is the JSON of the command, ``curve`` the
    probability over a congruence grid and ``box`` the rounding-box grid (``--decimals``)."""
    task = result["task"]
    rows = result["results"]
    main = next((r for r in rows if r["assumption"] == "median"), rows[0])
    extra = ""
    if "probability_range" in main:
        extra = (f"Values reported to {result['decimals']} decimals: over the rounding interval "
                 f"of both values the probability lies in {_range_text(main)}.")
    inputs = [("task", task), ("n (test-set size)", number(result["n"], count=True)),
              ("reported value of A", number(result["a"])),
              ("reported value of B", number(result["b"])),
              ("difference A − B", number(result["a"] - result["b"]))]
    if result.get("decimals"):
        inputs.append(("decimals", number(result["decimals"], count=True)))
    if task == "segmentation":
        post = rf.posterior_segmentation([
            {"label": r["assumption"], "n": result["n"], "delta": result["a"] - result["b"],
             "sd_diff": r["sd_diff"], "probability": r["probability"]} for r in rows])
    else:
        post = rf.posterior_classification([
            {"label": r["assumption"], "n": result["n"], "x1": r["x1"], "x2": r["x2"],
             "probability": r["probability"]} for r in rows])
    figs = [_figure(figure_png(post), "Posterior of the true difference under each assumed "
                    "congruence; the shaded area (favouring B) is the probability of a false "
                    "claim.", "posterior of the difference")]
    if curve is not None:
        figs.append(_figure(figure_png(rf.probability_vs_congruence(
            curve["grid"], curve["probability"], rows, task)),
            "Probability across the feasible congruence range; dots mark the assumptions.",
            "probability against congruence"))
    if box is not None:
        figs.append(_figure(figure_png(rf.plot_rounding_box(
            box["a_grid"], box["b_grid"], box["probability"], result["a"], result["b"],
            result["decimals"])),
            "Probability (median assumption) over all true values that round to the reported "
            "ones; × marks the reported pair.", "rounding box"))
    assumed = ("the congruence and the SDs are assumed" if task == "segmentation"
               else "the congruence is assumed")
    return _render("check.html.j2", "How likely is this outperformance claim to be false?",
                   ["probability"], assumed=assumed,
                   verdict_=_verdict(main["probability"], cfg, "A", "B", extra,
                                     main["probability_underflow"],
                                     result.get("implausible")),
                   inputs=inputs, results=_check_rows(result),
                   notes=result.get("notes", []), figures=figs)
