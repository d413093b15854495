"""Table mode per method row: ``falseclaims table FILE --n N --json`` on a generated CSV
with ``rows`` methods and two metric columns (Dice and accuracy, in percent, two decimals),
each run in a fresh process; prints CPU (user + sys), wall time and peak RSS as Markdown.

Every row is compared with the winner (three congruence levels, three SD levels for Dice,
each with its rounding box) and the tiers compare each tier's best with the rest, so the
cost grows with the rows. ``--src`` times another checkout's ``src`` (e.g. main, side by
side); ``--out DIR`` keeps the tables in DIR and the JSON outputs in DIR/LABEL (``--label``):
two checkouts' outputs of the same tables compare byte for byte with ``cmp``.

    python benchmarks/bench_table_rows.py --rows 1000 10000 [--runs 3] [--src ../main/src]
        [--out DIR --label main]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]


def write_table(path: Path, rows: int, seed: int = 0) -> Path:
    """``rows`` methods: Dice uniform in [70, 90] %, accuracy in [80, 95] %, 2 decimals."""
    rng = np.random.default_rng(seed)
    dice, acc = rng.uniform(70, 90, rows), rng.uniform(80, 95, rows)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("Method,Dice (%),Accuracy (%)\n")
        for i in range(rows):
            fh.write(f"M{i},{dice[i]:.2f},{acc[i]:.2f}\n")
    return path


def run_once(table: Path, n: int, src: Path, out: Path | None) -> dict:
    """One fresh process; CPU and peak RSS of the child from ``os.wait4``."""
    code = ("import sys; from falseclaims.cli import main; "
            f"sys.exit(main(['table', {str(table)!r}, '--n', '{n}', '--json']))")
    env = {**os.environ, "PYTHONPATH": str(src)}
    sink = open(out, "wb") if out else subprocess.DEVNULL
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", code], env=env, stdout=sink,
                            stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    if out:
        sink.close()
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"falseclaims table failed on {table}")
    return {"cpu": usage.ru_utime + usage.ru_stime, "wall": wall,
            "rss_mib": usage.ru_maxrss / 1024}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, nargs="+", default=[1000, 10000])
    ap.add_argument("--n", type=int, default=100, help="test-set size given with --n")
    ap.add_argument("--runs", type=int, default=3, help="runs per size (least CPU shown)")
    ap.add_argument("--src", type=Path, default=REPO / "src", help="the checkout's src")
    ap.add_argument("--out", type=Path, help="folder for the tables and outputs")
    ap.add_argument("--label", default="out", help="subfolder of --out for the JSON outputs")
    args = ap.parse_args(argv)
    print(f"load before: {os.getloadavg()[0]:.2f}; src: {args.src}\n")
    print("| rows | CPU, user + sys (least of runs) | wall | peak RSS |")
    print("|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.out or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        for rows in args.rows:
            table = write_table(folder / f"rows{rows}.csv", rows)
            out = folder / args.label / f"rows{rows}.json" if args.out else None
            if out:
                out.parent.mkdir(parents=True, exist_ok=True)
            runs = [run_once(table, args.n, args.src, out) for _ in range(args.runs)]
            best = min(runs, key=lambda r: r["cpu"])
            print(f"| {rows:,} | {best['cpu']:.1f} s | {best['wall']:.1f} s | "
                  f"{best['rss_mib']:.0f} MiB |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
