"""End-to-end wall time and peak memory of the survey pipeline, and where the time goes.

Runs Snakemake in a fresh copy of the repository (nothing in the working tree changes):

* ``example``: the example venue of config/config.yaml;
* ``big``: a generated venue of ``--papers`` papers (default 10^5). The synthetic survey of
  ``falseclaims.examples.survey_sheet`` has a fixed size (385 papers), so the big sheet tiles it
  with fresh paper ids (values repeat; sizes, branches and row counts scale).

For each: ``snakemake -n`` (start-up + DAG), the run itself under ``/usr/bin/time -v``
(wall time; peak RSS of the largest single process), and per-rule durations from the
Snakemake log (serial run, ``--cores 1``, so durations add up). Prints Markdown.

    python benchmarks/bench_pipeline.py [--papers 100000] [--which example big]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

import pandas as pd
import yaml

REPO = Path(__file__).resolve().parents[1]
SKIP = {"results", "figures", "logs", ".snakemake", ".git", ".pytest_cache", "__pycache__",
        ".hypothesis", "benchmarks"}


def cpu_model() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return "unknown"


def big_sheet(dest: Path, papers: int) -> tuple[Path, Path]:
    from falseclaims.examples.survey_sheet import generate_survey

    p, r, _ = generate_survey()
    copies = -(-papers // len(p))
    ps, rs = [], []
    for k in range(copies):
        ids = {pid: f"{pid}_{k:05d}" for pid in p["paper_id"]}
        ps.append(p.assign(paper_id=p["paper_id"].map(ids)))
        rs.append(r.assign(paper_id=r["paper_id"].map(ids)))
    pp = pd.concat(ps, ignore_index=True).iloc[:papers]
    rr = pd.concat(rs, ignore_index=True)
    rr = rr[rr["paper_id"].isin(set(pp["paper_id"]))]
    dest.mkdir(parents=True, exist_ok=True)
    out = dest / "big_papers.csv", dest / "big_results.csv"
    pp.to_csv(out[0], index=False)
    rr.to_csv(out[1], index=False)
    return out


def venue_targets(workdir: Path, venue: str) -> list[str]:
    """Final targets of one venue: the entries of ALL_TARGETS under results|figures/venue."""
    from snakemake.api import SnakemakeApi
    from snakemake.settings.types import OutputSettings, ResourceSettings

    cwd = os.getcwd()
    os.chdir(workdir)
    try:
        with SnakemakeApi(OutputSettings(quiet=True)) as api:
            wf = api.workflow(resource_settings=ResourceSettings(),
                              snakefile=workdir / "Snakefile", workdir=workdir)._workflow
            targets = list(wf.globals["ALL_TARGETS"])
    finally:
        os.chdir(cwd)
    return [t for t in targets if re.match(rf"(results|figures)/{re.escape(venue)}/", t)]


def rule_durations(log: Path) -> pd.DataFrame:
    stamp, starts, rows = None, {}, []
    rule = None
    for line in log.read_text().splitlines():
        m = re.match(r"\[(\w{3} \w{3} +\d+ \d\d:\d\d:\d\d \d{4})\]", line)
        if m:
            stamp = datetime.strptime(m.group(1), "%a %b %d %H:%M:%S %Y")
            continue
        m = re.match(r"(?:local)?rule (\w+):", line)
        if m:
            rule = m.group(1)
            continue
        m = re.match(r"\s+jobid: (\d+)", line)
        if m and rule:
            starts[m.group(1)] = (rule, stamp)
            rule = None
            continue
        m = re.match(r"Finished jobid: (\d+)", line)
        if m and m.group(1) in starts:
            name, t0 = starts.pop(m.group(1))
            rows.append({"rule": name, "seconds": (stamp - t0).total_seconds()})
    df = pd.DataFrame(rows, columns=["rule", "seconds"])
    return df.groupby("rule", as_index=False)["seconds"].sum().sort_values("seconds",
                                                                          ascending=False)


def timed(cmd, cwd) -> dict:
    t = time.perf_counter()
    proc = subprocess.run(["/usr/bin/time", "-v", *cmd], cwd=cwd, capture_output=True,
                          text=True, check=False)
    wall = time.perf_counter() - t
    if proc.returncode != 0:
        sys.stderr.write(proc.stdout[-3000:] + proc.stderr[-5000:])
        raise SystemExit(f"failed: {' '.join(cmd)}")
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr).group(1))
    return {"wall_s": wall, "peak_rss_mb": rss / 1024}


def run(which: str, papers: int, root: Path) -> None:
    work = root / which
    shutil.copytree(REPO, work, ignore=lambda d, names: [n for n in names if n in SKIP])
    cfg_path = work / "config" / "config.yaml"
    cfg = yaml.safe_load(cfg_path.read_text())
    venue = next(iter(cfg["venues"]))
    if which == "big":
        p_csv, r_csv = big_sheet(work / "data" / "big", papers)
        venue = "big"
        cfg["venues"] = {"big": {"label": f"generated, {papers} papers",
                                 "papers": str(p_csv.relative_to(work)),
                                 "results": str(r_csv.relative_to(work)),
                                 "layout": "long", "units": "auto", "columns": {}}}
        cfg_path.write_text(yaml.safe_dump(cfg, sort_keys=False))
    targets = venue_targets(work, venue)
    smk = [sys.executable, "-m", "snakemake", "--cores", "1"]
    dry = timed([*smk, "-n", *targets], work)
    full = timed([*smk, *targets], work)
    noop = timed([*smk, *targets], work)
    log = sorted((work / ".snakemake" / "log").glob("*.snakemake.log"))[-2]
    per_rule = rule_durations(log)
    print(f"\n### {which}: venue `{venue}`, {len(targets)} targets\n")
    print("| step | wall (s) | peak RSS (MB) |\n|---|---|---|")
    print(f"| `snakemake -n` (start-up + DAG) | {dry['wall_s']:.1f} | {dry['peak_rss_mb']:.0f} |")
    print(f"| full run, `--cores 1` | {full['wall_s']:.1f} | {full['peak_rss_mb']:.0f} |")
    print(f"| rerun, nothing to do | {noop['wall_s']:.1f} | {noop['peak_rss_mb']:.0f} |")
    print("\n| rule | seconds (sum over jobs) |\n|---|---|")
    for row in per_rule.itertuples():
        print(f"| {row.rule} | {row.seconds:.0f} |")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--papers", type=int, default=100_000)
    ap.add_argument("--which", nargs="+", default=["example", "big"],
                    choices=["example", "big"])
    ap.add_argument("--keep", action="store_true", help="keep the temporary copies")
    args = ap.parse_args(argv)
    print(f"machine: {cpu_model()}, {os.cpu_count()} cores, "
          f"{os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 2**30:.0f} GiB; "
          f"load average at start {os.getloadavg()[0]:.1f}")
    root = Path(tempfile.mkdtemp(prefix="falseclaims_bench_"))
    try:
        for which in args.which:
            run(which, args.papers, root)
    finally:
        if args.keep:
            print(f"\nkept {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
