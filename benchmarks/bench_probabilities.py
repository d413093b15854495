"""Probabilities for 10^6 comparisons from a DataFrame: exact closed form vs the paper's
Monte Carlo estimator (k = 10^5 Dirichlet draws per comparison, [Christodoulou2025], Suppl. C).

The Monte Carlo estimator is timed on a random subset and extrapolated linearly (its cost
is proportional to comparisons x draws). Prints a Markdown table; numbers go to
docs/benchmarks.md.

    python benchmarks/bench_probabilities.py [--comparisons 1000000] [--subset 200]
"""

from __future__ import annotations

import argparse
import os
import platform
import time

import numpy as np
import pandas as pd

from falseclaims.stats import (
    prob_false_claim_classification,
    prob_false_claim_classification_mc,
    prob_false_claim_segmentation,
)


def cpu_model() -> str:
    with open("/proc/cpuinfo", encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.machine()


def comparisons(size: int, seed: int = 1) -> pd.DataFrame:
    """Survey-like comparisons: test sizes log-uniform in [20, 10^4], small deltas."""
    rng = np.random.default_rng(seed)
    n = np.round(np.exp(rng.uniform(np.log(20), np.log(10_000), size)))
    b = rng.uniform(0.6, 0.95, size)
    a = np.minimum(b + np.abs(rng.normal(0, 0.02, size)), 1.0)
    return pd.DataFrame({"n_test": n, "value_a": a, "value_b": b, "congruence": 0.67,
                         "sd_a": 0.1, "sd_b": 0.1})


def best_of(func, repeat: int = 3) -> tuple[float, object]:
    times, out = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        out = func()
        times.append(time.perf_counter() - t)
    return min(times), out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--comparisons", type=int, default=1_000_000)
    ap.add_argument("--subset", type=int, default=200)
    ap.add_argument("--draws", type=int, default=100_000)
    args = ap.parse_args(argv)

    df = comparisons(args.comparisons)
    t_exact, exact = best_of(lambda: prob_false_claim_classification(
        df["n_test"], df["value_a"], df["value_b"], df["congruence"]).probability)
    t_seg, _ = best_of(lambda: prob_false_claim_segmentation(
        df["n_test"], df["value_a"], df["value_b"], df["sd_a"], df["sd_b"], 0.67).probability)

    sub = df.sample(args.subset, random_state=2)
    t0 = time.perf_counter()
    mc = prob_false_claim_classification_mc(sub["n_test"], sub["value_a"], sub["value_b"],
                                            sub["congruence"], draws=args.draws, seed=3)
    t_mc_sub = time.perf_counter() - t0
    t_mc_all = t_mc_sub * len(df) / len(sub)
    ex_sub = np.asarray(exact)[df.index.get_indexer(sub.index)]
    diff = np.abs(np.asarray(mc) - ex_sub)
    se = np.sqrt(ex_sub * (1 - ex_sub) / args.draws)

    load = os.getloadavg()
    print(f"machine: {cpu_model()}, {os.cpu_count()} cores, "
          f"load average {load[0]:.1f}")
    print("| quantity | value |\n|---|---|")
    print(f"| comparisons | {len(df):,} |")
    print(f"| exact classification (incomplete beta), all | {t_exact:.3f} s |")
    print(f"| exact segmentation (Student t), all | {t_seg:.3f} s |")
    print(f"| Monte Carlo, {args.draws:,} draws x {len(sub)} comparisons | {t_mc_sub:.1f} s |")
    print(f"| Monte Carlo extrapolated to all | {t_mc_all:,.0f} s ({t_mc_all / 3600:.1f} h) |")
    print(f"| speed ratio MC / exact | {t_mc_all / t_exact:,.0f} |")
    print(f"| max abs difference MC vs exact (subset) | {diff.max():.5f} |")
    z = np.max(diff / np.maximum(se, 1e-12))
    print(f"| max of |difference| / MC standard error | {z:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
