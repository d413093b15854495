"""`falseclaims plan`: smallest test-set size for a claim to reach a target probability.

Without ``--congruence`` the Q1 / median / Q3 congruence of the config's first
``congruence.use`` source are planned for; target, n_max and the SD level default to the
config's ``planner:`` block. Exit code 0 when every assumption found a size, 1 when some did
not (the message says which), 2 for bad arguments.
"""

from __future__ import annotations


from falseclaims.cli import (TASK_HELP, UsageError, check_congruence, check_count,
                             output_options, task)
from falseclaims.cli.conventions import bounded_count, reported_value
from falseclaims.config import (Headline, Planner, configured_congruence, load_config,
                                sd_model_from_config, source_label)
from falseclaims.levels import LEVEL_LABELS, SD_LEVELS
from falseclaims.tasks import TASKS


def register(sub) -> None:
    p = sub.add_parser(
        "plan",
        help="smallest test-set size so that P(false claim) <= target",
        description=(
            "Smallest test-set size n for which a claim 'A beats B by delta' has a probability "
            "of being false at most --target. A's value is --level, B's is level - delta; for "
            "segmentation the per-case SDs are imputed from the config's SD model at both values."
        ),
    )
    p.add_argument("--task", required=True, type=task, choices=TASKS, help=TASK_HELP)
    p.add_argument("--delta", required=True, type=reported_value("--delta"), help="A minus B, a fraction (0.01)")
    p.add_argument("--level", required=True, type=reported_value("--level"),
                   help="winner's accuracy / mean DSC, a fraction; runner-up = level - delta")
    p.add_argument("--congruence", type=float, default=None,
                   help="one congruence value; default: Q1, median, Q3 from config")
    p.add_argument("--congruence-source", default=None,
                   help="config congruence source (default: first of congruence.use)")
    p.add_argument("--target", type=float, default=None,
                   help="largest acceptable probability of a false claim (default: config "
                        "planner.target, 0.05)")
    p.add_argument("--n-max", type=bounded_count(2), default=None,
                   help="largest test-set size searched, up to 10^9 (default: config "
                        "planner.n_max, 10,000,000)")
    p.add_argument("--sd-level", choices=SD_LEVELS, default=None,
                   help="segmentation: SD model level (default planner.sd_level)")
    p.add_argument("--sd-source", default=None,
                   help="segmentation: config SD model source (default first of sd_model.use)")
    output_options(p, report=False)
    p.set_defaults(handler=run)


def _setting(args, cfg, key):
    value = getattr(args, key)
    return value if value is not None else getattr(Planner.from_config(cfg), key)


def run(args) -> int:
    from falseclaims.claims.check import validate_fraction
    from falseclaims.claims.plan import smallest_n  # scipy: only when run

    validate_fraction("--level", args.level)
    if args.level <= 0:
        raise UsageError(f"--level must lie in (0, 1]; got {args.level:g}")
    validate_fraction("--delta", args.delta)
    check_count("--n-max", args.n_max)
    check_congruence(args.task, args.congruence)
    if args.target is not None:
        validate_fraction("--target", args.target)
    cfg = load_config(args.config)
    target = float(_setting(args, cfg, "target"))
    n_max = int(_setting(args, cfg, "n_max"))
    sd_level = _setting(args, cfg, "sd_level")
    if args.congruence is not None:
        assumptions = {"given": args.congruence}
        source = "command line"
    else:
        source = args.congruence_source or Headline.from_config(cfg).congruence_source
        assumptions = configured_congruence(cfg, source)[args.task]
    sd_model = sd_model_from_config(cfg, args.sd_source) if args.task == "segmentation" else None
    if args.delta <= 0:
        raise UsageError(f"--delta must be positive (A beats B); got {args.delta}")
    from falseclaims.claims.plan import delta_warning

    notes = [w for w in [delta_warning(args.task, args.delta, cfg)] if w]
    if sd_model is not None and args.level - args.delta >= 0:
        # said as `check` says it: level 0.99 planned with SDs 0.005, the floor, unsaid
        floored = sd_model.predict([args.level, args.level - args.delta], sd_level)[1]
        if floored.any():
            notes.append(f"an imputed SD was raised to the model floor {sd_model.floor:g}")
    results = []
    for label, c in assumptions.items():
        r = smallest_n(args.task, args.delta, args.level, c, target=target, sd_model=sd_model,
                       n_max=n_max, sd_level=sd_level)
        results.append({"congruence_level": label, "congruence_source": source, **r.to_dict()})
    if args.json:
        from falseclaims.cli.envelope import emit, inputs_of
        emit("plan", inputs_of(args),
             {"task": args.task, "target": target, "n_max": n_max,
              "found": all(r["found"] for r in results), "results": results},
             notes + [r["message"] for r in results if not r["found"]])
    else:
        r0 = results[0]
        # 10 digits: A 0.5 and delta 1e-07 left B printed "0.5", as if A = B
        head = (f"{args.task}: A = {r0['a']:.10g}, B = {r0['b']:.10g} (delta {args.delta:g}),"
                f" target P <= {target:.10g}")
        if args.task == "segmentation":
            # the source in words, as the pipeline's headline names it ("MSD reference")
            head += (f"; SDs imputed ({source_label(r0['sd_source'])}, "
                     f"{LEVEL_LABELS.get(sd_level, sd_level)}): "
                     f"{r0['sd_a']:.4f} / {r0['sd_b']:.4f}")
        print(head)
        for r in results:
            level = LEVEL_LABELS.get(r["congruence_level"], r["congruence_level"])
            tag = f"  congruence {level} = {r['congruence']:g}"
            if r["congruence_clamped"]:  # check's word: infeasible, clamped to the bound
                tag += f" (infeasible; clamped to {r['congruence_used']:g})"
            print(f"{tag}: {r['message']}")
        for note in notes:
            print(f"note: {note}")
    return 0 if all(r["found"] for r in results) else 1
