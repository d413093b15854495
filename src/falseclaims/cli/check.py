"""`falseclaims check`: probability that one reported claim "A beats B" is false.

Reviewer mode of [ClaimsReloaded]: only n and the two reported values are known; congruence (and,
for segmentation, the SDs) are assumed from config. See docs/percase.md.
"""

from __future__ import annotations


from falseclaims.cli import (TASK_HELP, check_congruence, check_count, check_report_path,
                             output_options, task)
from falseclaims.cli.conventions import bounded_count, reported_value, whole_number
from falseclaims.config import ClaimCheck, load_config
from falseclaims.levels import LEVEL_LABELS
from falseclaims.percase.verdict import interpretation_text, verdict
from falseclaims.readout import probability_text
from falseclaims.tasks import TASKS


def register(sub) -> None:
    p = sub.add_parser(
        "check", help="probability that a reported 'A beats B' claim is false",
        description="Probability that method A (reported winner) is not truly better than "
                    "method B, from the reported values (fractions, not percent).")
    p.add_argument("--task", required=True, type=task, choices=TASKS, help=TASK_HELP)
    p.add_argument("--n", required=True, type=bounded_count(2),
                   help="test-set size (2 to 10^9)")
    p.add_argument("--a", required=True, type=reported_value("--a", "--sd-a"),
                   help="reported value of the winner A")
    p.add_argument("--b", required=True, type=reported_value("--b", "--sd-b"),
                   help="reported value of the runner-up B")
    p.add_argument("--sd-a", type=reported_value("--sd-a"),
                   help="reported per-case SD of A (segmentation)")
    p.add_argument("--sd-b", type=reported_value("--sd-b"),
                   help="reported per-case SD of B (segmentation)")
    p.add_argument("--congruence", type=float,
                   help="one assumed congruence instead of the paper's Q1/median/Q3")
    p.add_argument("--decimals", type=whole_number,
                   help="decimals the values were reported with: adds the probability range "
                        "over the rounding interval")
    output_options(p)
    p.set_defaults(handler=run)


def run(args) -> int:
    from falseclaims.claims.check import (check_claim, flag_implausible,  # scipy: when run
                                          implausible_inputs)

    check_report_path(args.report)
    check_count("--n", args.n)
    check_congruence(args.task, args.congruence)
    cfg = load_config(args.config)
    settings = ClaimCheck.from_config(cfg)
    result = check_claim(args.task, args.n, args.a, args.b, cfg, sd_a=args.sd_a,
                         sd_b=args.sd_b, congruence=args.congruence, decimals=args.decimals,
                         grid_points=settings.rounding_grid_points)
    main = next((r for r in result["results"] if r["assumption"] == "median"),
                result["results"][0])
    result["verdict"] = verdict(main["probability"], cfg)
    # an SD no DSC with that mean can have: flagged in the verdict, not only noted
    result["implausible"] = implausible_inputs(args.task, args.a, args.b, args.sd_a, args.sd_b,
                                               args.decimals)
    result["interpretation"] = flag_implausible(
        interpretation_text(main["probability"], cfg, underflow=main["probability_underflow"]),
        result["implausible"])
    if args.report:
        _write_report(args, result, cfg, settings)
    if args.json:
        from falseclaims.cli.envelope import emit, inputs_of
        emit("check", inputs_of(args),
             {k: v for k, v in result.items() if k != "notes"}, result["notes"])
    else:
        print(format_text(result))
        if args.report:
            print(f"report written to {args.report}")
    return 0


def _write_report(args, result, cfg, settings: ClaimCheck) -> None:
    from falseclaims.report import check_html, write_html
    from falseclaims.claims.check import congruence_curve, rounding_box

    main = next((r for r in result["results"] if r["assumption"] == "median"),
                result["results"][0])
    curve = congruence_curve(args.task, result["n"], result["a"], result["b"], main["sd_a"],
                             main["sd_b"])
    box = None
    if args.decimals is not None:
        box = rounding_box(args.task, result["n"], result["a"], result["b"], args.decimals,
                           args.sd_a, args.sd_b, main["congruence"], cfg,
                           settings.rounding_grid_points)
    # the HTML report reads each row's clamping as "clamped"
    rows = [{**r, "clamped": r["congruence_clamped"]} for r in result["results"]]
    html = check_html({**result, "results": rows}, cfg, curve, box)
    write_html(html, args.report)


def format_text(result: dict) -> str:
    task, rows = result["task"], result["results"]
    lines = [f"{task}: n = {result['n']}, A = {result['a']:g}, B = {result['b']:g} "
             f"(difference {result['a'] - result['b']:.4g})"]
    ranged = "probability_range" in rows[0]
    head = f"{'assumption':<11}{'congruence':>11}{'used':>8}"
    if task == "segmentation":
        head += f"{'sd_a':>8}{'sd_b':>8}"
    head += f"{'P(false claim)':>16}"
    if ranged:
        head += f"   range over rounding ({result['decimals']} decimals)"
    lines.append(head)
    # rows clamped to one value print the same probability: said, so it is not read as a slip
    clamped = [r["congruence_used"] for r in rows if r.get("congruence_clamped")]
    for r in rows:
        shown = LEVEL_LABELS.get(r["assumption"], r["assumption"])
        line = f"{shown:<11}{r['congruence']:>11.3f}{r['congruence_used']:>8.3f}"
        if task == "segmentation":
            line += f"{r['sd_a']:>8.4f}{r['sd_b']:>8.4f}"
        line += f"{probability_text(r['probability'], 4, r['probability_underflow']):>16}"
        if ranged:
            lo, hi = (probability_text(p, 4, u) for p, u in zip(
                r["probability_range"], r["probability_range_underflow"]))
            line += f"   [{lo}, {hi}]"
        if r.get("congruence_clamped"):
            line += ("  (clamped to the same feasible value)"
                     if clamped.count(r["congruence_used"]) > 1 else "  (clamped)")
        lines.append(line)
    for note in result["notes"]:
        lines.append(f"note: {note}")
    lines.append(result["interpretation"])
    return "\n".join(lines)
