"""`falseclaims sota`: how optimistic is the best of m classifiers? ([Mollersen2023])."""

from __future__ import annotations

from falseclaims.cli import UsageError, output_options
from falseclaims.cli.conventions import MAX_N, limit_text, reported_value, whole_number


# beyond these the exact computation takes minutes and gigabytes (n = 1e12: > 60 s on one
# core) while real benchmarks are far smaller
MAX_M = 10**15


def register(sub) -> None:
    parser = sub.add_parser(
        "sota",
        help="distribution of the best of m equally good classifiers ([Mollersen2023])",
        description="Expected best observed accuracy among m independent classifiers of true "
                    "accuracy p on n test cases, its SD, the single-classifier Clopper-Pearson "
                    "interval at k = round(p n) and the multiplicity-adjusted upper limit.",
    )
    parser.add_argument("--m", required=True, type=whole_number,
                        help=f"number of classifiers (1 to {limit_text(MAX_M)})")
    parser.add_argument("--n", required=True, type=whole_number,
                        help=f"test-set size (1 to {limit_text(MAX_N)})")
    parser.add_argument("--p", required=True, type=reported_value("--p"), help="true accuracy in [0, 1]")
    parser.add_argument("--alpha", type=float, default=0.05,
                        help="two-sided level of the intervals (default 0.05)")
    output_options(parser, config=False, report=False)
    parser.set_defaults(handler=run)


def best_of_m_summary(m: int, n: int, p: float, alpha: float = 0.05) -> dict:
    """The numbers `falseclaims sota` prints: mean and SD of the best of m, the
    single-classifier interval and the multiplicity-adjusted upper limit."""
    if not 1 <= m <= MAX_M:
        raise UsageError(f"--m must be between 1 and {limit_text(MAX_M)}; got {m:.4g}")
    if not 1 <= n <= MAX_N:
        raise UsageError(f"--n must be between 1 and {limit_text(MAX_N)} (larger test sets take "
                         f"minutes and gigabytes); got {n:.4g}")
    from falseclaims.claims.check import validate_fraction
    validate_fraction("--p", p)  # 80 -> "looks like a percentage; ... e.g. 0.8"
    if not 0.0 < alpha < 1.0:
        raise UsageError(f"--alpha must be in (0, 1); got {alpha}")
    from falseclaims.multiplicity.best_of_m import clopper_pearson, sota_distribution

    dist = sota_distribution(m, n, p)
    up = dist.upper(alpha)
    lo, hi = clopper_pearson(round(p * n), n, alpha)
    return {"m": m, "n": n, "p": p, "mean": dist.mean, "sd": dist.sd,
            "ci_single": [lo, hi], "upper_multiplicity": up.accuracy,
            "failures_at_upper": up.failures}


def run(args) -> int:
    out = best_of_m_summary(args.m, args.n, args.p, args.alpha)
    if args.json:
        from falseclaims.cli.envelope import emit, inputs_of
        emit("sota", inputs_of(args), out)
        return 0
    lvl = round(100 * (1 - args.alpha), 6)
    lo, hi = out["ci_single"]
    print(f"best of m={out['m']} classifiers with accuracy p={out['p']:g} on n={out['n']} cases")
    print(f"  expected best observed accuracy: {out['mean']:.4f} (SD {out['sd']:.6f}), "
          f"bias {out['mean'] - out['p']:+.4f}")
    print(f"  single-classifier {lvl:g}% Clopper-Pearson interval: [{lo:.4f}, {hi:.4f}]")
    print(f"  multiplicity-adjusted upper limit: {out['upper_multiplicity']:.4f} "
          f"({out['failures_at_upper']} failures); at least one of the m reaches it with "
          f"probability >= {args.alpha / 2:g}")
    return 0
