"""Timing of falseclaims.multiplicity.sota_distribution (results in docs/multiplicity.md).

Run: python benchmarks/bench_multiplicity.py
Prints one Markdown table row per case: median of `repeat` wall-clock runs.
"""
from __future__ import annotations

import os
import platform
import time

import numpy as np

from falseclaims.multiplicity.best_of_m import simulate_dependent, sota_distribution


def timed(fn, repeat=5):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return float(np.median(times)), out


def main() -> None:
    print(f"python {platform.python_version()}, {os.cpu_count()} cores, "
          f"{platform.processor() or platform.machine()}")
    print("| case | m | n | p | support points | 1 - sum(pmf) | E best | SD best | time (s) |")
    print("|---|---|---|---|---|---|---|---|---|")
    cases = [(1000, 3000, 0.9), (10**4, 10**5, 0.9), (10**5, 10**5, 0.9), (10**5, 10**6, 0.5),
             (10**5, 10**6, 0.9), (10**5, 10**6, 0.999), (1, 10**6, 0.5)]
    for m, n, p in cases:
        t, d = timed(lambda m=m, n=n, p=p: sota_distribution(m, n, p))
        print(f"| identical | {m} | {n} | {p} | {d.failures.size} | {1 - d.pmf.sum():.1e} | "
              f"{d.mean:.6f} | {d.sd:.3e} | {t:.4f} |")
    rng = np.random.default_rng(0)
    for m, n in [(1000, 3000), (10**4, 10**4), (10**5, 10**4), (10**5, 10**6)]:
        ps = rng.uniform(0.89, 0.90, m)
        t, d = timed(lambda m=m, n=n, ps=ps: sota_distribution(m, n, ps), repeat=1)
        print(f"| {m} distinct p_j in [0.89, 0.90] | {m} | {n} | - | {d.failures.size} | "
              f"{1 - d.pmf.sum():.1e} | {d.mean:.6f} | {d.sd:.3e} | {t:.2f} |")
    # sanity check of the m = 1e5, n = 1e6 case by brute-force simulation (200 replicates)
    m, n, p, reps = 10**5, 10**6, 0.9, 200
    t = time.perf_counter()
    sim = simulate_dependent(m, n, p, 0.0, reps, seed=1, reference="fixed")
    t = time.perf_counter() - t
    d = sota_distribution(m, n, p)
    print(f"\nsimulation m={m}, n={n}, p={p}, {reps} reps ({t:.1f} s): mean {sim.mean:.6f} "
          f"(exact {d.mean:.6f}, MC SE {d.sd / np.sqrt(reps):.1e}), sd {sim.sd:.3e} "
          f"(exact {d.sd:.3e})")


if __name__ == "__main__":
    main()
