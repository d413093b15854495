"""Time of the figure jobs and size of the HTML report, on the shipped example.

Builds everything once in a fresh copy of the repository (nothing in the working tree
changes), then reruns only the figure rules (``--forcerun``) and measures: number of jobs,
wall time and CPU time (user + system of Snakemake and its jobs), per-rule seconds from the
``resources:`` line each job writes into its log, and ``snakemake --report``: total size and
what it holds (PNG, CSV, the report's own scripts). Prints Markdown.

    python benchmarks/bench_figures.py [--cores 2]
"""

from __future__ import annotations

import argparse
import base64
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path


from bench_pipeline import RESOURCES, benchmark_table
from falseclaims.figures.registry import VENUE_JOBS

REPO = Path(__file__).resolve().parents[1]
SKIP = {"results", "figures", "logs", ".snakemake", ".git", ".pytest_cache", "__pycache__",
        ".hypothesis"}
FIGURE_RULES = [*VENUE_JOBS.values(), "venue_comparison", "estimation_figures",
                "multiplicity_figures", "calibration_figures"]


def snakemake(cwd: Path, *args: str) -> tuple[float, float, str]:
    """Wall and CPU seconds of one Snakemake call: its own process tree (the jobs run in
    processes forked by a server that is not waited for: their CPU is in their logs)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "snakemake", *args], cwd=cwd,
                          capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode:
        raise SystemExit(f"snakemake {' '.join(args)} failed:\n{proc.stderr[-3000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, proc.stderr


def report_parts(html: Path) -> dict[str, int]:
    """Bytes of the report by what they hold (embedded files are base64 data URIs)."""
    text = html.read_text(encoding="utf-8")
    parts = {"total": len(text.encode())}
    for mime, payload in re.findall(r"data:([\w/+.-]+);charset=utf8;filename=[^;]*;base64,"
                                    r"([A-Za-z0-9+/=]*)", text):
        parts[mime] = parts.get(mime, 0) + len(payload)
        parts.setdefault(f"{mime} (decoded)", 0)
        parts[f"{mime} (decoded)"] += len(base64.b64decode(payload))
    return parts


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cores", default="2")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp) / "repo"
        shutil.copytree(REPO, repo, ignore=lambda d, names: [n for n in names if n in SKIP])
        snakemake(repo, "--cores", args.cores)
        wall, cpu, log = snakemake(repo, "--cores", args.cores, "--forcerun", *FIGURE_RULES,
                                   "--allowed-rules", *FIGURE_RULES)
        jobs = len(re.findall(r"^\s*(?:local)?rule \w+:", log, flags=re.M)) - 1  # minus `all`
        rows = []
        jobs_cpu = benchmark_table(repo)
        jobs_cpu = jobs_cpu[jobs_cpu["rule"].isin(FIGURE_RULES)]["cpu"].sum()
        for job_log in sorted((repo / "logs").rglob("*.log")):
            found = RESOURCES.search(job_log.read_text(encoding="utf-8", errors="replace"))
            if found and found.group(1) in FIGURE_RULES:
                rows.append(f"| {found.group(1)} | {job_log.parent.name} | "
                            f"{float(found.group(2)):.1f} |")
        html = repo / "report.html"
        snakemake(repo, "--report", str(html))
        parts = report_parts(html)
    mb = 1e6
    print(f"## Figure jobs ({args.cores} cores)\n")
    print(f"- jobs: {jobs}; wall {wall:.1f} s; CPU {cpu:.1f} s of Snakemake and "
          f"{jobs_cpu:.1f} s of the jobs (their logs)\n")
    print("| rule | job | seconds |\n|---|---|---|")
    print("\n".join(rows))
    print("\n## snakemake --report\n")
    print("| part | MB |\n|---|---|")
    for key, size in parts.items():
        print(f"| {key} | {size / mb:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
