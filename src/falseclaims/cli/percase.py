"""`falseclaims percase`: author mode of [ClaimsReloaded] on per-case results.

Ranks the methods, computes the probability of a false claim with empirical congruence and
SDs for the top two (or --a/--b), the classical paired tests of [Rainio2024] (McNemar on
sensitivity and specificity for binary labels), the Friedman / Iman–Davenport test with
post-hoc comparisons for K >= 3 methods ([Demsar2006]) and optionally every pair with
Holm-adjusted p-values. See docs/percase.md.
"""

from __future__ import annotations


from falseclaims.cli import UsageError, check_report_path, count, output_options, task
from falseclaims.config import ClaimCheck, load_config
from falseclaims.percase.layouts import LAYOUT_WORDS, LAYOUTS, SINGLE_STRUCTURE
from falseclaims.percase.verdict import probability_text
from falseclaims.tasks import TASKS


MAX_RESAMPLES = 10**6  # far beyond a stable 95% interval; keeps runs under minutes


def register(sub) -> None:
    p = sub.add_parser(
        "percase", help="compare methods on per-case results (author mode)",
        description="Probability that the top-ranked method is not truly better than the "
                    "runner-up, with empirical congruence, plus classical paired tests.")
    p.add_argument("files", nargs="+", metavar="FILE",
                   help="per-case CSV: Claims Reloaded (case_id[, ground_truth], alg_*) or "
                        "long (case_id, task, method, metric, value[, ground_truth]); several "
                        "files for the wide per-method or predictions layouts, or one nnU-Net "
                        "summary.json per method (fold_N folders of one method are pooled; "
                        "with --layout nnunet, per-case CSVs of other methods beside them)")
    p.add_argument("--task", choices=TASKS, type=task,
                   help="classification (per-case predicted labels) or segmentation "
                        "(per-case DSC); cls, seg accepted; default: read from the input (a ground_truth column "
                        "with predicted labels, or per-case scores in [0, 1] with a note), "
                        "asked for when the input does not tell")
    p.add_argument("--layout", default="auto", choices=LAYOUTS,
                   help="file layout (default auto: recognised from the header; "
                        "docs/percase.md lists the layouts)")
    p.add_argument("--columns", metavar="ROLE=COLUMN,...",
                   help="the file's own column names for the roles it holds (an alg_ "
                        "role for each of at least two methods), e.g. "
                        "case_id=ID,alg_a=pred_A,alg_b=pred_B "
                        "(predictions: add ground_truth=label; roles: case_id, "
                        "ground_truth, task, method, metric, value, alg_<method>)")
    p.add_argument("--labels", help="ground-truth file for the predictions layout")
    p.add_argument("--subtask", help="which task/structure of the file (long and wide "
                                     "layouts with several)")
    p.add_argument("--metric", help="metric to compare when the file has several")
    p.add_argument("--scores", metavar="FILE",
                   help="per-case scores of the positive class (case_id, alg_* or long) for "
                        "the DeLong test; or METHOD=FILE,METHOD=FILE: one file per method "
                        "with a case column and a score column per finding (--subtask)")
    p.add_argument("--positive", help="positive class: of McNemar on sensitivity/specificity "
                                      "(binary ground truth) and of DeLong (one-vs-rest when "
                                      "the ground truth has more classes)")
    p.add_argument("--classes", metavar="A,B,...",
                   help="classification: the class set, comma-separated (default: every label "
                        "in the ground truth or the predictions); other labels are errors")
    p.add_argument("--units", default="fraction", choices=["fraction", "percent"],
                   help="segmentation: DSC values as fractions in [0, 1] (default) or percent")
    p.add_argument("--case-mismatch", default="error", choices=["error", "intersect"],
                   help="methods with different case sets: refuse (default) or compare the "
                        "cases all methods have")
    p.add_argument("--paired-by-order", action="store_true",
                   help="files without a case id column: pair row i of every file as the "
                   "same case (declare it only when every file lists the same cases in the "
                   "same order; the output says so)")
    p.add_argument("--a", metavar="METHOD",
                   help="compare this method (as A) with --b instead of the top two")
    p.add_argument("--b", metavar="METHOD", help="the method compared with --a (as B)")
    p.add_argument("--all-pairs", action="store_true",
                   help="compare every pair, with Holm-adjusted p-values")
    p.add_argument("--seed", type=count, help="bootstrap seed (default from config)")
    p.add_argument("--bootstrap", type=count, metavar="B",
                   help="bootstrap resamples (default from config)")
    output_options(p)
    p.set_defaults(handler=run)


def run(args) -> int:
    from falseclaims.percase.author import load_inputs, run_author  # pandas, scipy
    from falseclaims.percase.omnibus import MAX_POSTHOC_METHODS

    check_report_path(args.report)
    cfg = load_config(args.config)
    settings = ClaimCheck.from_config(cfg)
    resamples = args.bootstrap if args.bootstrap is not None else settings.resamples
    seed = args.seed if args.seed is not None else settings.seed
    if not 100 <= resamples <= MAX_RESAMPLES:
        given = ("--bootstrap" if args.bootstrap is not None
                 else "config claim_check.bootstrap.resamples")
        raise UsageError(f"{given} must be in [100, {MAX_RESAMPLES:,}]; got {resamples}")
    if seed < 0:
        raise UsageError(f"--seed must be >= 0; got {seed}")
    inp = load_inputs(args.files, args.task, layout=args.layout, labels=args.labels,
                      subtask=args.subtask, metric=args.metric, scores=args.scores,
                      positive=args.positive, case_mismatch=args.case_mismatch,
                      classes=_classes(args.classes), units=args.units,
                      columns=_columns(args.columns),
                      paired_by_order=args.paired_by_order)
    k = inp.values.shape[1]
    if args.all_pairs and k > MAX_POSTHOC_METHODS:
        raise UsageError(f"--all-pairs: {k:,} methods are {k * (k - 1) // 2:,} pairs, each "
                         f"bootstrapped; at most {MAX_POSTHOC_METHODS} methods are compared "
                         "each with each (choose two with --a and --b)")
    result, cmp_, ranking, pairs, omnibus = run_author(
        inp, resamples=resamples, seed=seed, level_ci=settings.level,
        alpha=settings.alpha, with_all_pairs=args.all_pairs, cfg=cfg,
        max_draws=settings.max_draws, a=args.a, b=args.b)
    if args.report:
        from falseclaims.report import percase_html, write_html
        meta = {"file(s)": ", ".join(inp.files),
                "read as": LAYOUT_WORDS.get(inp.layout, inp.layout), "task": inp.task,
                **({} if inp.subtask == SINGLE_STRUCTURE
                   else {"structure (task in the file)": inp.subtask}),
                "metric": inp.metric,
                "cases compared": result["n"], "methods": len(ranking),
                "bootstrap": f"{resamples} resamples, seed {seed}"}
        if inp.scores is not None:
            meta["scores (DeLong)"] = args.scores or f"score columns, positive {inp.positive}"
        # too many methods for the post-hoc pairs: no section (and no diagram) but its note
        shown = omnibus if omnibus is None or not omnibus.pairs.empty else None
        for i, note in enumerate([*inp.notes, *([] if shown else
                                                getattr(omnibus, "notes", []))], 1):
            meta[f"note {i}"] = note
        html = percase_html(cmp_, ranking, meta, cfg, pairs, shown,
                            positive=result.get("positive_class"),
                            chosen=result["chosen_pair"])
        write_html(html, args.report)
    if args.json:
        from falseclaims.cli.envelope import emit, inputs_of, percase_result
        emit("percase", inputs_of(args), *percase_result(result))
    else:
        print(format_text(result, cmp_, pairs, omnibus))
        if args.report:
            print(f"report written to {args.report}")
    return 0


def _columns(text: str | None) -> dict[str, str] | None:
    """--columns ROLE=COLUMN,... as {role: column}; a malformed item or an unknown role
    (with a suggestion) is a usage error."""
    if text is None:
        return None
    from falseclaims.percase.text_table import parse_columns_option

    try:
        return parse_columns_option(text)
    except ValueError as exc:
        raise UsageError(f"--columns: {exc}") from None


def _classes(text: str | None) -> list[str] | None:
    if text is None:
        return None
    classes = [c.strip() for c in text.split(",") if c.strip()]
    if len(classes) < 2 or len(set(classes)) != len(classes):
        raise UsageError(f"--classes needs at least 2 distinct comma-separated labels; got "
                         f"{text!r}")
    return classes


def format_text(result: dict, cmp_, pairs, omnibus=None) -> str:
    from falseclaims.percase.paired_tests import labels_for

    lines = [f"{result['task']}: {result['n']} cases, {len(result['ranking'])} methods "
             f"({result['input']['metric']})"]
    for i, r in enumerate(result["ranking"], 1):
        tag = " (A)" if r["method"] == result["a"] else " (B)" if r["method"] == result["b"] else ""
        lines.append(f"  {i:>2}. {r['method']:<30} {r['mean']:.4f}{tag}")
    ci = result["difference_interval"]
    what = "r" if result["task"] == "segmentation" else "p11"
    cong = (f"{result['congruence']:.3f}" if result["congruence"] is not None
            else f"undefined ({result['congruence_note']})")
    lines.append(f"A - B = {ci['estimate']:+.4f}, {ci['level']:.0%} bootstrap interval "
                 f"[{ci['lower']:+.4f}, {ci['upper']:+.4f}]; congruence {what} = {cong}")
    if result["task"] == "segmentation":
        lines.append(f"SDs: A {result['sd_a']:.4f}, B {result['sd_b']:.4f}")
    else:
        lines.append(f"discordant cases: only A correct {result['only_a']}, only B correct "
                     f"{result['only_b']}")
    under = result["probability_underflow"]
    lines.append(f"P(false claim) {'' if under else '= '}"
                 f"{probability_text(result['probability'], 4, under)}")
    lines.append(result["interpretation"])
    if "positive_class" in result:
        lines.append(f"tests (positive class {result['positive_class']!r}):")
    else:
        lines.append("tests:")
    for t, name in zip(cmp_.tests, labels_for(cmp_.tests)):
        if t.pvalue != t.pvalue:  # NaN: not computed, say why
            lines.append(f"  {name:<44} {t.note}")
            continue
        chi2 = ("" if t.chi2_pvalue is None
                else f" exact; continuity-corrected chi-square p {_p(t.chi2_pvalue)}")
        lines.append(f"  {name:<44} statistic {t.statistic:>10.4g}  p {_p(t.pvalue):>10}"
                     + chi2 + (f"  ({t.note})" if t.test.startswith("mcnemar_s") else ""))
    if omnibus is not None:
        lines.extend(_omnibus_lines(omnibus))
    for rec in result["recommendation"]:
        lines.append(f"advice: {rec}")
    for note in result["notes"]:
        lines.append(f"note: {note}")
    if pairs is not None:
        lines.append("all pairs (Holm-adjusted):")
        lines.append(_pairs_text(pairs))
    return "\n".join(lines)


def _omnibus_lines(om) -> list[str]:
    k = len(om.methods)
    out = [f"{k} methods on {om.n_cases} cases (ranks within each case, 1 = best):"]
    if om.friedman_chi2 == om.friedman_chi2:
        out.append(f"  Friedman chi2 = {om.friedman_chi2:.4g} (df {k - 1}), "
                   f"p {_p(om.friedman_p)}")
    if om.iman_davenport_f == om.iman_davenport_f:
        out.append(f"  Iman-Davenport F = {om.iman_davenport_f:.4g} "
                   f"(df {k - 1}, {(k - 1) * (om.n_cases - 1)}), p {_p(om.iman_davenport_p)}")
    for note in om.notes:
        out.append(f"  {note}")
    if om.pairs.empty:  # too many methods: the note says so
        return out
    out.append(f"  post-hoc (critical difference {om.critical_difference:.3f} at alpha "
               f"{om.alpha:g}):")
    for r in om.pairs.itertuples():
        out.append(f"    {r.a} ({r.rank_a:.2f}) vs {r.b} ({r.rank_b:.2f}): Nemenyi p "
                   f"{_p(r.p_nemenyi)}, Holm p {_p(r.p_holm)}"
                   + ("  differ" if r.differ else ""))
    return out


def _pairs_text(pairs) -> str:
    """The all-pairs table, each probability and p-value written as in the lines above."""
    shown = pairs.drop(columns="probability_underflow")
    shown["probability"] = [probability_text(p, 4, u) for p, u in
                            zip(pairs["probability"], pairs["probability_underflow"])]
    for c in (c for c in shown.columns if c.startswith("p_")):
        shown[c] = [_p(v) for v in shown[c]]
    return shown.to_string(index=False, float_format=lambda v: f"{v:.4g}")


def _p(p: float) -> str:
    """A p-value: 4 significant digits; one that underflowed to 0 as an upper bound."""
    return "< 1e-16" if p == 0 else f"{p:.4g}"
